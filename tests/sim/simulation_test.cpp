#include "sim/simulation.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/random_streams.hpp"

using partsim::sim::RandomStreams;
using partsim::sim::SimTime;
using partsim::sim::Simulation;
using partsim::sim::StopReason;
using partsim::sim::StopRule;

namespace {
// A toy model: each event reschedules itself after a random delay, a fixed number of times.
struct Tick {
  int id;
  int remaining;
};

std::vector<std::pair<std::int64_t, int>> run_toy(std::uint64_t seed) {
  Simulation<Tick> sim;
  auto rng = RandomStreams(seed).stream("toy");
  for (int i = 0; i < 10; ++i) sim.schedule_at(SimTime::ms(i % 3), Tick{i, 50});
  std::vector<std::pair<std::int64_t, int>> log;
  sim.run(StopRule{}, [&](const Tick& t) {
    log.emplace_back(sim.now().count_ns(), t.id);
    if (t.remaining > 0)
      sim.schedule_in(SimTime::us(static_cast<std::int64_t>(rng() % 1000)), Tick{t.id, t.remaining - 1});
  });
  return log;
}
}  // namespace

TEST_CASE("time never goes backwards while events run") {
  auto log = run_toy(1);
  REQUIRE(log.size() == 510);
  for (std::size_t i = 1; i < log.size(); ++i) CHECK(log[i].first >= log[i - 1].first);
}

TEST_CASE("the same seed gives the same run, another seed a different one") {
  CHECK(run_toy(42) == run_toy(42));
  CHECK(run_toy(42) != run_toy(43));
}

TEST_CASE("run_until stops before later events and advances the clock to the limit") {
  Simulation<int> sim;
  sim.schedule_at(SimTime::ms(1), 1);
  sim.schedule_at(SimTime::ms(10), 2);
  std::vector<int> seen;
  auto reason = sim.run_until(SimTime::ms(5), [&](int v) { seen.push_back(v); });
  CHECK(reason == StopReason::kTimeLimit);
  CHECK(seen == std::vector<int>{1});
  CHECK(sim.now() == SimTime::ms(5));
  reason = sim.run_until(SimTime::ms(10), [&](int v) { seen.push_back(v); });
  CHECK(seen == std::vector<int>{1, 2});
  CHECK(sim.run_until(SimTime::sec(1), [](int) {}) == StopReason::kNoEvents);
}

TEST_CASE("event-count and predicate limits stop the run") {
  Simulation<int> sim;
  for (int i = 0; i < 10; ++i) sim.schedule_at(SimTime::ms(i), i);
  StopRule by_count;
  by_count.max_events = 3;
  int last = -1;
  CHECK(sim.run(by_count, [&](int v) { last = v; }) == StopReason::kEventLimit);
  CHECK(last == 2);
  StopRule by_predicate;
  by_predicate.predicate = [&] { return last == 6; };
  CHECK(sim.run(by_predicate, [&](int v) { last = v; }) == StopReason::kPredicate);
  CHECK(sim.now() == SimTime::ms(6));
  CHECK(sim.events_processed() == 7);
}

TEST_CASE("a handler can cancel a pending event and request a stop") {
  Simulation<int> sim;
  sim.schedule_at(SimTime::ms(1), 1);
  auto victim = sim.schedule_at(SimTime::ms(2), 2);
  sim.schedule_at(SimTime::ms(3), 3);
  sim.schedule_at(SimTime::ms(4), 4);
  std::vector<int> seen;
  auto reason = sim.run(StopRule{}, [&](int v) {
    seen.push_back(v);
    if (v == 1) sim.cancel(victim);
    if (v == 3) sim.request_stop();
  });
  CHECK(reason == StopReason::kStopRequested);
  CHECK(seen == std::vector<int>{1, 3});
}

TEST_CASE("SimTime converts units and saturates at max") {
  CHECK(SimTime::ms(1).count_ns() == 1'000'000);
  CHECK(SimTime::us(3).count_ns() == 3'000);
  CHECK(SimTime::from_ms(0.5).count_ns() == 500'000);
  CHECK(SimTime::ms(1500).whole_ms() == 1500);
  CHECK(SimTime::max().saturating_add(SimTime::ms(1)) == SimTime::max());
}
