// The reassignment planner on a Kafka-placed topic scaled out by 10%: partitions x brokers
// grow together (brokers = partitions / 60, rf 3, three racks), the planner proves the
// optimum with flows. Reports the time per plan and the moves.

#include <benchmark/benchmark.h>

#include "model/placement/java_random.hpp"
#include "model/placement/reassign_planner.hpp"

namespace {

void BM_ReassignScaleOut(benchmark::State& state) {
  using namespace partsim::model;
  const auto partitions = static_cast<std::int32_t>(state.range(0));
  const std::int32_t brokers = std::max(6, partitions / 60 / 3 * 3), added = std::max(3, brokers / 10 / 3 * 3);
  std::vector<RackedBroker> all;
  for (std::int32_t b = 0; b < brokers + added; ++b) all.push_back({b, std::string(1, static_cast<char>('a' + b % 3))});
  const std::vector<RackedBroker> before(all.begin(), all.begin() + brokers);
  ReassignRequest r;
  r.current = admin_rack_aware(before, partitions, 3, 7 % brokers, 11 % brokers);
  r.rf.assign(r.current.size(), 3);
  r.targets = all;
  r.rack_mode = RackMode::kEven;
  r.replicas = leader_bounds_band(3 * partitions, brokers + added, 1.10);
  r.leaders = leader_bounds_band(partitions, brokers + added, 1.10);
  ReassignPlan plan;
  for (auto _ : state) {
    plan = plan_reassignment(r);
    benchmark::DoNotOptimize(plan.moves);
  }
  state.counters["brokers"] = static_cast<double>(brokers + added);
  state.counters["moves"] = plan.moves;
  state.counters["optimal"] = plan.status == PlanStatus::kOptimal && plan.method == "flow";
}

}  // namespace

BENCHMARK(BM_ReassignScaleOut)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
