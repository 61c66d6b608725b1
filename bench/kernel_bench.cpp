// The event kernel under the classic hold model: pop the earliest event, schedule one new
// event a random increment later, with a constant number pending.

#include <benchmark/benchmark.h>

#include <boost/random/exponential_distribution.hpp>

#include "sim/event_queue.hpp"
#include "sim/random_streams.hpp"

namespace {

using partsim::sim::EventQueue;
using partsim::sim::SimTime;

struct SmallEvent {  // the size of a typical model event: a tag and two ids
  std::uint32_t kind;
  std::uint32_t a;
  std::uint64_t b;
};

template <class Store>
void BM_EventQueueHold(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  auto rng = partsim::sim::RandomStreams(1).stream("bench/hold");
  // Pre-drawn increments keep the random draw out of the measured loop.
  std::vector<std::int64_t> increments(1 << 16);
  boost::random::exponential_distribution<double> exp(1.0 / 1e6);
  for (auto& v : increments) v = 1 + static_cast<std::int64_t>(exp(rng));
  EventQueue<SmallEvent, Store> q;
  q.reserve(pending + 1);
  for (std::size_t i = 0; i < pending; ++i) q.schedule(SimTime::ns(increments[i % increments.size()]), SmallEvent{1, 2, 3});
  std::size_t k = 0;
  for (auto _ : state) {
    auto e = q.pop();
    q.schedule(e.time + SimTime::ns(increments[k++ & (increments.size() - 1)]), e.payload);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK_TEMPLATE(BM_EventQueueHold, partsim::sim::HeapStore<SmallEvent>)->Arg(1'000)->Arg(1'000'000);
BENCHMARK_TEMPLATE(BM_EventQueueHold, partsim::sim::CalendarStore<SmallEvent>)->Arg(1'000)->Arg(1'000'000);

}  // namespace
