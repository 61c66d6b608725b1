// Shipped scenarios run end to end through the loader and the model.

#include <doctest/doctest.h>

#include <vector>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;
using partsim::testing::counts;
using partsim::testing::run_lengths;

namespace {
std::string scenario_path(const std::string& rel) { return std::string(PARTSIM_SOURCE_DIR) + "/scenarios/" + rel; }
}  // namespace

TEST_CASE("T2 and T3 come out exactly through partsim run's model") {
  const auto t2 = scenarios::load_scenario_file(scenario_path("book/keyed.yaml"));
  CHECK(counts(model::run_scenario(t2, 1)) == std::vector<std::int64_t>{56, 63, 45, 52, 43, 41});
  const auto t3 = scenarios::load_scenario_file(scenario_path("book/low-cardinality.yaml"));
  const auto r3 = model::run_scenario(t3, 1);
  CHECK(counts(r3) == std::vector<std::int64_t>{60, 60, 60, 0, 60, 60});
  CHECK(std::vector<std::int32_t>(r3.trace.begin(), r3.trace.begin() + 5) == std::vector<std::int32_t>{4, 2, 5, 0, 1});
  check_invariants(r3, t3);
}

TEST_CASE("R1: null keys, closed loop, batch.size 1024 give runs of 14 records per partition") {
  const auto s = scenarios::load_scenario_file(scenario_path("book/null-key-sticky.yaml"), {"run.trace=300"});
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto r = model::run_scenario(s, seed);
    check_invariants(r, s);
    CHECK(r.records_acked == 300);
    REQUIRE(r.trace.size() == 300);
    // Every run but the last, which the trace's end may cut, is complete: at least 10 of
    // them (300 records in runs of 14 make about 21), each a multiple of 14 (28, 42: the
    // same partition redrawn). A partitioner that never switched would leave one run.
    const auto runs = run_lengths(r.trace);
    REQUIRE(runs.size() >= 11);
    for (std::size_t i = 0; i + 1 < runs.size(); ++i) CHECK(runs[i] % 14 == 0);
    CHECK(r.partitioner_switches >= static_cast<std::int64_t>(runs.size()) - 1);
  }
}

TEST_CASE("spec §5.4 sizing: 819 records of 'value-book-7' fill a 16384-byte batch") {
  const char* yaml = R"(
run: {records: 2457}
cluster: {brokers: [{id: 0}]}
topics: [{name: t, partitions: 1}]
producers:
  - config: {linger.ms: 1000, batch.size: 16384}
    workload:
      arrivals: {kind: constant, rate: 100000}
      values: {kind: template, template: value-book-7}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 1);
  check_invariants(r, s);
  CHECK(r.partitions[0].batches == 3);
  CHECK(r.partitions[0].records == 2457);
  CHECK(r.partitions[0].bytes == 3 * 16377);
}

TEST_CASE("spec §5.4: one record per batch in a closed loop switches every 205 records") {
  const char* yaml = R"(
run: {records: 2000, trace: 2000}
cluster: {brokers: [{id: 0}, {id: 1}]}
topics: [{name: t, partitions: 6}]
producers:
  - config: {linger.ms: 0, batch.size: 16384}
    workload:
      arrivals: {kind: closed-loop}
      values: {kind: template, template: value-book-7}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 3);
  REQUIRE(r.trace.size() == 2000);
  const auto runs = run_lengths(r.trace);
  REQUIRE(runs.size() >= 5);  // at least 4 complete runs of the ~9 that 2000 records make
  for (std::size_t i = 0; i + 1 < runs.size(); ++i) CHECK(runs[i] % 205 == 0);
}

TEST_CASE("slow broker: more than a third at a fixed rate, adaptive lowers it; flat out, adaptive goes below a third") {
  const std::string path = scenario_path("slow-broker.yaml");
  const std::string adaptive_off = "producers.0.config.partitioner.adaptive.partitioning.enable=false";
  const std::vector<std::string> flat{"producers.0.workload.arrivals.kind=flat-out",
                                      "producers.0.workload.arrivals.send.cost.us=1", "run.duration.ms=3000",
                                      "run.warmup.ms=500"};
  auto slow_share = [](const model::RunResult& r) {
    std::int64_t total = 0;
    for (const auto& b : r.brokers) total += b.records;
    return static_cast<double>(r.brokers[2].records) / static_cast<double>(total);
  };
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const auto on = model::run_scenario(scenarios::load_scenario_file(path), seed);
    const auto off = model::run_scenario(scenarios::load_scenario_file(path, {adaptive_off}), seed);
    CHECK(slow_share(on) > 1.0 / 3);
    CHECK(slow_share(off) > 1.0 / 3);
    CHECK(slow_share(on) < slow_share(off));
    const auto flat_on = model::run_scenario(scenarios::load_scenario_file(path, flat), seed);
    CHECK(slow_share(flat_on) < 0.25);
  }
}

TEST_CASE("flat out with full batches everywhere: about a third without adaptive") {
  const std::vector<std::string> flat{"producers.0.workload.arrivals.kind=flat-out",
                                      "producers.0.workload.arrivals.send.cost.us=1", "run.duration.ms=3000",
                                      "run.warmup.ms=500",
                                      "producers.0.config.partitioner.adaptive.partitioning.enable=false"};
  const auto r = model::run_scenario(scenarios::load_scenario_file(scenario_path("slow-broker.yaml"), flat), 1);
  std::int64_t total = 0;
  for (const auto& b : r.brokers) total += b.records;
  const double share = static_cast<double>(r.brokers[2].records) / static_cast<double>(total);
  CHECK(share > 0.30);
  CHECK(share < 0.38);
}

TEST_CASE("the availability timeout excludes a broker that stalls longer than it") {
  // Broker 2 takes 150 ms per request: with its in-flight requests all waiting, it is not
  // drainable for longer than 100 ms, so its partitions leave the adaptive table.
  const std::vector<std::string> stall{"cluster.brokers.2.request.ms=150", "cluster.brokers.2.rtt.ms=1"};
  auto with_timeout = stall;
  with_timeout.push_back("producers.0.config.partitioner.availability.timeout.ms=100");
  auto share = [](const model::RunResult& r) {
    std::int64_t total = 0;
    for (const auto& b : r.brokers) total += b.records;
    return static_cast<double>(r.brokers[2].records) / static_cast<double>(total);
  };
  double base = 0, timed = 0;  // mean over seeds: the effect is a few points, the noise too
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    base +=
        share(model::run_scenario(scenarios::load_scenario_file(scenario_path("slow-broker.yaml"), stall), seed)) / 5;
    timed += share(model::run_scenario(scenarios::load_scenario_file(scenario_path("slow-broker.yaml"), with_timeout),
                                       seed)) /
             5;
  }
  CHECK(timed < base - 0.02);
}

TEST_CASE("the same scenario and seed give the same result") {
  const auto s = scenarios::load_scenario_file(scenario_path("slow-broker.yaml"), {"run.duration.ms=3000"});
  const auto a = model::run_scenario(s, 7);
  const auto b = model::run_scenario(s, 7);
  CHECK(counts(a) == counts(b));
  CHECK(a.trace == b.trace);
  CHECK(a.latency.quantile(0.99) == b.latency.quantile(0.99));
  CHECK(a.events == b.events);
  // ... and the seed matters: another one gives another trace and other counts.
  const auto c = model::run_scenario(s, 8);
  CHECK(c.trace != a.trace);
  CHECK(counts(c) != counts(a));
}

TEST_CASE("buffer.memory exhaustion blocks send() and fails it after max.block.ms") {
  const char* yaml = R"(
run: {duration.ms: 2000}
cluster: {brokers: [{id: 0, rtt.ms: 500}]}
topics: [{name: t, partitions: 2}]
producers:
  - config: {buffer.memory: 65536, max.block.ms: 100, linger.ms: 0, max.in.flight.requests.per.connection: 1}
    workload:
      arrivals: {kind: flat-out, send.cost.us: 10}
      values: {kind: fixed, size: 1000}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 1);
  check_invariants(r, s);
  CHECK(r.failed.buffer_timeout > 0);
  CHECK(r.buffer_full_ms > 0);
  CHECK(r.peak_buffer_bytes <= 65536);
}

TEST_CASE("every shipped scenario loads and runs with its invariants") {
  // Whole, with its own seed: the very runs whose summaries tests/golden/ holds (all of them
  // take 0.3 s), so the conservation rules back every golden figure of records and bytes.
  const auto files = partsim::testing::shipped_scenarios();
  REQUIRE(files.size() >= 16);
  for (const auto& f : files) {
    CAPTURE(f.string());
    const auto s = scenarios::load_scenario_file(f.string());
    const auto r = model::run_scenario(s, s.run.seed);
    check_invariants(r, s);
    CHECK(r.records_acked > 0);
  }
}
