// The event kernel under the classic hold model: pop the earliest event, schedule one new
// event a random increment later, with a constant number pending. Three stores side by
// side at every size, in one run:
//   plain     std::priority_queue of (key, payload): the reference loop
//   heap      EventQueue over HeapStore (4-ary heap)
//   calendar  EventQueue over CalendarStore (the ladder queue the producer model uses)
// Two increment mixes:
//   exp    exponential, mean 1 ms
//   model  like the producer model: 95% exponential with mean 50 us (sends, responses,
//          broker service), 5% uniform in [1 s, 60 s] (request timeouts, metadata refresh).
//          By Little's law the pending set is then almost all timers (0.05 x 30.5 s against
//          0.95 x 50 us), with a thin dense front of near events: the case that breaks a
//          calendar sized from its earliest events.
// The queue is pre-filled from the equilibrium (residual-life) distribution of the
// increments, so the measured loop starts in its steady state; a warm-up of min(n, 10^6)
// holds runs before the clock starts. CPU time, not wall time (the machine is shared).
//
// Run: build/release/bench/partsim_bench --benchmark_filter=Hold (about 2 minutes)
// Ratios (events/s over the plain loop's, same mix and size, same run):
//   build/release/bench/partsim_bench --benchmark_filter=Hold --benchmark_format=json |
//     jq -r '.benchmarks | map({n: (.name | sub("/iterations:[0-9]+$"; "")), r: .["events/s"]})
//            | group_by(.n | sub("/[a-z]+$"; ""))[] | (map(select(.n | endswith("/plain")))[0].r) as $p
//            | .[] | "\(.n) \(.r / 1e6 | . * 100 | round / 100) M/s \(.r / $p | . * 100 | round / 100)x"'
//
// Measured in one run (--benchmark_repetitions=3, medians; a 2-core shared VM, Xeon with
// 2 MiB L2 a core, load ~10 from other jobs), M events/s and the ratio to plain:
//                       exp              |            model
//   pending plain heap        calendar   | plain  heap        calendar
//   10^2    18.0  21.8 1.21x  34.0 1.89x |  37.4  28.8 0.77x  75.3 2.01x
//   10^3    11.9  16.2 1.36x  33.4 2.80x |  28.3  23.3 0.82x  72.6 2.56x
//   10^4     8.6  10.8 1.26x  16.7 1.95x |  19.0  15.9 0.84x  54.1 2.85x
//   10^5     5.9   6.2 1.05x  13.9 2.35x |  12.8  10.0 0.79x  31.9 2.50x
//   10^6     2.6   1.7 0.63x  10.0 3.79x |   9.8   6.8 0.69x  22.4 2.28x
//   10^7     1.4   0.8 0.55x   9.6 6.66x |   4.8   3.5 0.74x  13.4 2.80x
// Brown's calendar queue, the store before, ran 1.37x plain at 10^6 exp and 1.30x at 10^6
// model in one pass of this benchmark; pre-filled from t = 0 instead of the steady state,
// with the model mix, it fell to 0.10x plain at 10^3 (sim/calendar_store.hpp says why).

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include "sim/event_queue.hpp"
#include "sim/random_streams.hpp"

namespace {

using partsim::sim::CalendarStore;
using partsim::sim::EventQueue;
using partsim::sim::HeapStore;
using partsim::sim::SimTime;
namespace detail = partsim::sim::detail;

struct SmallEvent {  // the size of a typical model event: a tag and two ids
  std::uint32_t kind;
  std::uint32_t a;
  std::uint64_t b;
};

enum class Mix { kExponential, kModel };

constexpr double kExpMeanNs = 1e6;    // exp mix: mean increment 1 ms
constexpr double kNearMeanNs = 50e3;  // model mix: near events, mean 50 us
constexpr double kTimerShare = 0.05;  // model mix: share of timers among increments
constexpr double kTimerLoNs = 1e9;    // model mix: timers uniform in [1 s, 60 s]
constexpr double kTimerHiNs = 60e9;

// 2^20 pre-drawn increments, cycled: the draw stays out of the measured loop.
const std::vector<std::int64_t>& increments(Mix mix) {
  static const auto table = [](Mix m) {
    auto rng = partsim::sim::RandomStreams(1).stream(m == Mix::kExponential ? "bench/hold/exp" : "bench/hold/model");
    std::vector<std::int64_t> v(std::size_t{1} << 20);
    boost::random::exponential_distribution<double> exp(1.0 / (m == Mix::kExponential ? kExpMeanNs : kNearMeanNs));
    boost::random::bernoulli_distribution<double> timer(m == Mix::kModel ? kTimerShare : 0.0);
    boost::random::uniform_real_distribution<double> timer_ns(kTimerLoNs, kTimerHiNs);
    for (auto& x : v) x = 1 + static_cast<std::int64_t>(timer(rng) ? timer_ns(rng) : exp(rng));
    return v;
  };
  static const std::vector<std::int64_t> exp_table = table(Mix::kExponential);
  static const std::vector<std::int64_t> model_table = table(Mix::kModel);
  return mix == Mix::kExponential ? exp_table : model_table;
}

// Offsets from now of n pending events in the hold model's steady state: the residual life
// of the increment distribution, density (1 - F(x)) / mean. For a mixture, component i is
// picked with weight p_i * mean_i; the exponential's residual is itself (memoryless); a
// uniform [a, b] residual is U * Y with Y length-biased on [a, b], Y = sqrt(a^2 + u (b^2 - a^2)).
std::vector<std::int64_t> steady_state_offsets(Mix mix, std::size_t n) {
  auto rng = partsim::sim::RandomStreams(1).stream("bench/hold/prefill");
  const double near_mean = mix == Mix::kExponential ? kExpMeanNs : kNearMeanNs;
  const double timer_weight = mix == Mix::kExponential
                                  ? 0.0
                                  : kTimerShare * (kTimerLoNs + kTimerHiNs) / 2 /
                                        (kTimerShare * (kTimerLoNs + kTimerHiNs) / 2 + (1 - kTimerShare) * near_mean);
  boost::random::exponential_distribution<double> exp(1.0 / near_mean);
  boost::random::bernoulli_distribution<double> timer(timer_weight);
  boost::random::uniform_01<double> u01;
  std::vector<std::int64_t> v(n);
  for (auto& x : v) {
    double d = 0;
    if (timer(rng)) {
      const double y =
          std::sqrt(kTimerLoNs * kTimerLoNs + u01(rng) * (kTimerHiNs * kTimerHiNs - kTimerLoNs * kTimerLoNs));
      d = u01(rng) * y;
    } else {
      d = exp(rng);
    }
    x = static_cast<std::int64_t>(d);
  }
  return v;
}

// The reference: the plain loop the issue measures, a binary heap of (key, payload) with
// the same (time, sequence) key as EventQueue, so it pops the same order.
class PlainLoop {
public:
  struct Entry {
    SimTime time;
    SmallEvent payload;
  };
  void reserve(std::size_t n) {
    std::vector<Node> c;
    c.reserve(n);
    pq_ = Pq(Later{}, std::move(c));
  }
  void schedule(SimTime t, SmallEvent e) { pq_.push(Node{detail::make_key(t, seq_++), e}); }
  Entry pop() {
    const Node n = pq_.top();
    pq_.pop();
    return Entry{detail::key_time(n.key), n.payload};
  }

private:
  using Node = detail::KeyedEvent<SmallEvent>;
  struct Later {
    bool operator()(const Node& a, const Node& b) const { return b.key < a.key; }
  };
  using Pq = std::priority_queue<Node, std::vector<Node>, Later>;
  Pq pq_;
  std::uint64_t seq_ = 1;
};

template <class Queue>
void hold(benchmark::State& state, Mix mix, std::size_t pending) {
  const auto& inc = increments(mix);
  const std::size_t mask = inc.size() - 1;
  Queue q;
  q.reserve(pending + 1);
  for (const std::int64_t off : steady_state_offsets(mix, pending)) q.schedule(SimTime::ns(off), SmallEvent{1, 2, 3});
  std::size_t k = 0;
  const auto step = [&] {
    auto e = q.pop();
    q.schedule(e.time + SimTime::ns(inc[k++ & mask]), e.payload);
  };
  for (std::size_t i = std::min<std::size_t>(pending, 1'000'000); i > 0; --i) step();
  for (auto _ : state) step();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Registered size-major so the three stores of one (mix, size) run next to each other.
const bool kRegistered = [] {
  for (const Mix mix : {Mix::kExponential, Mix::kModel}) {
    for (std::size_t pending = 100; pending <= 10'000'000; pending *= 10) {
      const std::string prefix =
          std::string("Hold/") + (mix == Mix::kExponential ? "exp" : "model") + "/" + std::to_string(pending) + "/";
      // Enough holds for a stable rate, few enough that 10^7 pending runs in seconds.
      const auto iterations = static_cast<benchmark::IterationCount>(std::max<std::size_t>(3'000'000, pending));
      benchmark::RegisterBenchmark((prefix + "plain").c_str(), [=](benchmark::State& s) {
        hold<PlainLoop>(s, mix, pending);
      })->Iterations(iterations);
      benchmark::RegisterBenchmark((prefix + "heap").c_str(), [=](benchmark::State& s) {
        hold<EventQueue<SmallEvent, HeapStore<SmallEvent>>>(s, mix, pending);
      })->Iterations(iterations);
      benchmark::RegisterBenchmark((prefix + "calendar").c_str(), [=](benchmark::State& s) {
        hold<EventQueue<SmallEvent, CalendarStore<SmallEvent>>>(s, mix, pending);
      })->Iterations(iterations);
    }
  }
  return true;
}();

}  // namespace
