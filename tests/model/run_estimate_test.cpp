#include "model/run_estimate.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace partsim::model;

namespace {

// 3 brokers, one topic of `partitions`, one producer at 3,000 records/s for `seconds`.
Scenario scenario(std::int32_t partitions, double seconds) {
  Scenario s;
  s.name = "estimate";
  for (std::int32_t id = 0; id < 3; ++id) {
    BrokerConfig b;
    b.id = id;
    s.brokers.push_back(b);
  }
  s.topics.push_back({"t", partitions, 1});
  ProducerSpec p;
  p.workload.topic = "t";
  p.workload.arrivals.kind = Arrivals::Kind::kConstant;
  p.workload.arrivals.records_per_second = 3000;
  s.producers.push_back(p);
  s.run.duration = SimTime::from_ms(seconds * 1000);
  return s;
}

double part(const RunEstimate& e, const std::string& prefix) {
  for (const auto& p : e.parts)
    if (p.what.rfind(prefix, 0) == 0) return p.bytes;
  return 0;
}

}  // namespace

TEST_CASE("the time series costs memory per sample: a microsecond interval over a minute is refused") {
  RunPlan plan;
  plan.timeseries = SimTime::from_ms(0.001);
  const auto e = estimate_run(scenario(6, 60), plan);
  CHECK(e.simulated_s == doctest::Approx(60));
  const double samples = 60e6 + 1;
  CHECK(part(e, "--timeseries") > samples * 300);  // measured about 330 bytes a sample with 6 partitions (README)
  CHECK(part(e, "--timeseries") < samples * 500);
  const auto why = check_run_limits(scenario(6, 60), plan);
  CHECK(why.find("--timeseries: 6e+07 samples") != std::string::npos);
  CHECK(why.find("raise --timeseries MS") != std::string::npos);
  plan.timeseries = SimTime::ms(1);
  CHECK(check_run_limits(scenario(6, 60), plan).empty());
  // A sample grows with the partitions: 12 bytes each (queue and records).
  plan.timeseries = SimTime::ms(1);
  const double small = part(estimate_run(scenario(6, 1), plan), "--timeseries");
  const double big = part(estimate_run(scenario(1006, 1), plan), "--timeseries");
  CHECK((big - small) / 1001 == doctest::Approx(12 * 1000).epsilon(0.01));
}

TEST_CASE("replications cost one double per metric each, and runs at once multiply the simulation state") {
  RunPlan plan;
  plan.replications = 100000;
  const auto e = estimate_run(scenario(100000, 1), plan);
  CHECK(part(e, "replication summaries") >= 100000 * replication_metrics(100000, 3) * 8);
  CHECK(check_run_limits(scenario(100000, 1), plan).find("lower --replications") != std::string::npos);
  plan.replications = 10;
  plan.concurrent = 1;
  const double one = part(estimate_run(scenario(100000, 1), plan), "simulation state");
  plan.concurrent = 4;
  CHECK(part(estimate_run(scenario(100000, 1), plan), "simulation state") == doctest::Approx(4 * one));
  // Never more runs at once than replications.
  plan.replications = 2;
  CHECK(part(estimate_run(scenario(100000, 1), plan), "simulation state") == doctest::Approx(2 * one));
}

TEST_CASE("a big topic is estimated per partition, and --out's batch rows per record") {
  const auto big = estimate_run(scenario(1000000, 1));
  CHECK(part(big, "simulation state of 1e+06 partitions") > 0.8e9);  // measured 1.15 GB peak with the table (README)
  CHECK(big.memory_bytes < 2e9);
  RunPlan plan;
  plan.batches = true;
  auto s = scenario(6, 1);
  s.run.duration.reset();
  s.run.records = 100'000'000;
  const auto why = check_run_limits(s, plan);
  CHECK(why.find("batches.csv: up to 1e+08 rows") != std::string::npos);
  plan.batches = false;
  CHECK(check_run_limits(s, plan).empty());
}
