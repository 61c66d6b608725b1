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
  s.topics.push_back({"t", partitions, 1, {}});
  ProducerSpec p;
  p.workload.topic = "t";
  p.workload.arrivals.kind = Arrivals::Kind::kConstant;
  p.workload.arrivals.records_per_second = 3000;
  s.producers.push_back(p);
  s.run.duration = SimTime::from_ms(seconds * 1000);
  return s;
}

// scenarios/book/keyed.yaml with `producers` copies of its producer: 300 records keyed
// book-{i}, values value-{i}, closed loop, linger.ms 0.
Scenario book_keyed(std::int32_t partitions, int producers = 1) {
  Scenario s = scenario(partitions, 1);
  s.run.duration.reset();
  s.run.records = 300;
  s.run.trace = 20;
  ProducerSpec p;
  p.config.linger = SimTime::zero();
  p.workload.topic = "t";
  p.workload.arrivals.kind = Arrivals::Kind::kClosedLoop;
  p.workload.keys.kind = KeySpec::Kind::kTemplate;
  p.workload.keys.key_template = "book-{i}";
  p.workload.values.kind = ValueSpec::Kind::kTemplate;
  p.workload.values.value_template = "value-{i}";
  s.producers.assign(static_cast<std::size_t>(producers), p);
  return s;
}

// bench/producer_bench.cpp's fleet: `producers` x Poisson 5,000 records/s, keys k{i} over
// 100,000, 200-byte values, linger.ms 5, one topic of `partitions` on 10 brokers.
Scenario fleet(int producers, std::int32_t partitions, double seconds) {
  Scenario s = scenario(partitions, seconds);
  for (std::int32_t id = 3; id < 10; ++id) {
    BrokerConfig b;
    b.id = id;
    s.brokers.push_back(b);
  }
  ProducerSpec p;
  p.workload.topic = "t";
  p.workload.arrivals.kind = Arrivals::Kind::kPoisson;
  p.workload.arrivals.records_per_second = 5000;
  p.workload.keys.kind = KeySpec::Kind::kTemplate;
  p.workload.keys.key_template = "k{i}";
  p.workload.keys.cardinality = 100'000;
  p.workload.values.size_bytes = 200;
  s.producers.assign(static_cast<std::size_t>(producers), p);
  s.run.trace = 0;
  return s;
}

// scenarios/slow-broker.yaml with run.warmup.ms 0: 3,000 records/s of 100 bytes, linger.ms 0.
Scenario slow_broker(std::int32_t partitions, double seconds) {
  Scenario s = scenario(partitions, seconds);
  s.brokers[2].rtt = SimTime::ms(51);
  s.producers[0].config.linger = SimTime::zero();
  s.producers[0].workload.arrivals.send_cost = SimTime::us(5);
  return s;
}

const MemoryPart* find_part(const RunEstimate& e, const std::string& prefix) {
  for (const auto& p : e.parts)
    if (p.what.rfind(prefix, 0) == 0) return &p;
  return nullptr;
}

double part(const RunEstimate& e, const std::string& prefix) {
  const MemoryPart* p = find_part(e, prefix);
  return p ? p->bytes : 0;
}

// The estimate over a measured peak RSS (docs/robustness.md, "Absurd runs are refused").
double ratio(const Scenario& s, const RunPlan& plan, double peak_mb) {
  return estimate_run(s, plan).memory_bytes / (peak_mb * 1e6);
}

}  // namespace

TEST_CASE("the time series costs memory per sample: a microsecond interval over a minute is refused") {
  RunPlan plan;
  plan.timeseries = SimTime::from_ms(0.001);
  const auto e = estimate_run(scenario(6, 60), plan);
  CHECK(e.simulated_s == doctest::Approx(60));
  const double samples = 60e6 + 1;
  CHECK(part(e, "--timeseries") >
        samples * 300);  // measured 280 to 420 bytes a sample with 6 partitions (docs/robustness.md)
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
  CHECK(part(big, "report rows: 1e+06 partitions") > 1e9);  // the report's rows, about 1 KB each
  CHECK(part(big, "simulation state of 1e+06 partitions") > 0.25e9);
  CHECK(big.memory_bytes < 1.5e9);
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

TEST_CASE("each producer keeps state per partition of its topic") {
  const double one = part(estimate_run(book_keyed(1000000, 1)), "simulation state");
  const auto four = estimate_run(book_keyed(1000000, 4));
  // Measured 92 bytes per producer and partition (1 to 4 producers on 1,000,000 partitions).
  CHECK((part(four, "simulation state of 1e+06 partitions and 4 producers") - one) / 3e6 ==
        doctest::Approx(100).epsilon(0.01));
  REQUIRE(find_part(four, "simulation state") != nullptr);
  CHECK(find_part(four, "simulation state")->remedy == "lower the partitions or producers");
  // A second topic the producers do not write costs its run-wide rows only.
  auto two_topics = book_keyed(1000000, 1);
  two_topics.topics.push_back({"other", 1000000, 1, {}});
  CHECK(part(estimate_run(two_topics), "simulation state") - one == doctest::Approx(1e6 * (150 + 16)).epsilon(0.01));
}

TEST_CASE("buffered batches cost what buffer.memory can hold of this workload's smallest records") {
  // A full 32 MiB buffer of empty records (7 bytes each) holds 4.8 million send times: measured
  // 37 MB above a tiny run (slow brokers, flat-out sends of 0-byte values).
  auto tiny = slow_broker(6, 5);
  tiny.producers[0].workload.arrivals.kind = Arrivals::Kind::kFlatOut;
  tiny.producers[0].workload.arrivals.send_cost = SimTime::us(1);
  tiny.producers[0].workload.values.size_bytes = 0;
  CHECK(part(estimate_run(tiny), "batches under buffer.memory") == doctest::Approx(33554432.0 / 7 * 8 + 2048 * 150));
  // 100-byte values: 107-byte records at least, a fourteenth of that.
  auto hundred = tiny;
  hundred.producers[0].workload.values.size_bytes = 100;
  CHECK(part(estimate_run(hundred), "batches under buffer.memory") ==
        doctest::Approx(33554432.0 / 107 * 8 + 2048 * 150));
  // Never more batches or records than the producer sends: 300 records, at most 300 batches.
  CHECK(part(estimate_run(book_keyed(6)), "batches under buffer.memory") == doctest::Approx(300 * (150 + 8)));
}

TEST_CASE("a fleet of producers is estimated per producer, not refused for its buffers") {
  // 1,100 producers on 1,000 partitions for 200 ms: the estimate that charged a quarter of
  // buffer.memory (8.4 MB) to every producer refused this at 9.2 GB.
  const auto e = estimate_run(fleet(1100, 1000, 0.2));
  CHECK(e.memory_bytes < 0.5e9);
  CHECK(check_run_limits(fleet(1100, 1000, 0.2)).empty());
}

TEST_CASE("the estimate lies within 0.8x to 1.5x of the measured peaks (docs/robustness.md's table)") {
  // Peak RSS in MB (/usr/bin/time -v, release build, 2 cores); each case as run there.
  RunPlan none, reps, ts, fine_ts;
  reps.replications = 100000;
  reps.concurrent = 2;
  auto ten_records = book_keyed(6);
  ten_records.run.records = 10;
  RunPlan hundred = reps;
  hundred.replications = 100;
  RunPlan eight;
  eight.replications = 8;
  eight.concurrent = 8;
  fine_ts.timeseries = SimTime::from_ms(0.001);
  ts.timeseries = SimTime::from_ms(0.1);
  struct Case {
    const char* run;
    Scenario scenario;
    RunPlan plan;
    double peak_mb;
  };
  const Case cases[] = {
      {"book/keyed.yaml, 100,000 partitions, table", book_keyed(100000), none, 124.8},
      {"the same, JSON", book_keyed(100000), none, 144.7},
      {"book/keyed.yaml, 1,000,000 partitions", book_keyed(1000000), none, 1176},
      {"book/keyed.yaml, run.records=10, --replications 100000", ten_records, reps, 67.3},
      {"book/keyed.yaml, 10,000 partitions, --replications 100", book_keyed(10000), hundred, 74.0},
      {"slow-broker.yaml, --timeseries 0.001, 0.2 s", slow_broker(6, 0.2), fine_ts, 93.4},
      {"slow-broker.yaml, --timeseries 0.001, 0.8 s", slow_broker(6, 0.8), fine_ts, 240.5},
      {"slow-broker.yaml, --timeseries 0.001, 1.6 s", slow_broker(6, 1.6), fine_ts, 462.0},
      {"slow-broker.yaml, 1,000 partitions, --timeseries 0.1, 2 s", slow_broker(1000, 2), ts, 263.2},
      {"200 producers x 1,000 partitions, 200 ms", fleet(200, 1000, 0.2), none, 54.8},
      {"200 producers x 1,000 partitions, 2 s", fleet(200, 1000, 2), none, 93.6},
      {"1,100 producers x 1,000 partitions, 200 ms", fleet(1100, 1000, 0.2), none, 305.1},
      {"book/keyed.yaml, 1,000,000 partitions, --replications 8 --threads 8", book_keyed(1000000), eight, 4367},
  };
  for (const auto& c : cases) {
    CAPTURE(c.run);
    const double r = ratio(c.scenario, c.plan, c.peak_mb);
    CHECK(r >= 0.8);
    CHECK(r <= 1.5);
  }
  // --out's batch rows take the worst case, one batch per record: 1.2 million rows
  // estimated, 571,020 written (2.1 records a batch).
  RunPlan out;
  out.batches = true;
  const double with_rows = ratio(slow_broker(6, 400), out, 92.3);
  CHECK(with_rows > 1.5);
  CHECK(with_rows < 2.5);
}

TEST_CASE("consumer groups cost the logs per record and what each group processed") {
  auto s = scenario(6, 100);  // 300,000 records
  const double without = estimate_run(s).memory_bytes;
  s.consumers.resize(2);
  const auto e = estimate_run(s);
  // ... and 150 bytes per partition and group.
  CHECK(e.memory_bytes - without == doctest::Approx(300000.0 * (80 + 64 * 2) + 6 * 2 * 150.0));
  bool named = false;
  for (const auto& part : e.parts)
    named = named || part.what == "brokers' logs and records processed by 2 consumer groups";
  CHECK(named);
}

TEST_CASE("a topic's schedule counts the partitions its steps add before the run's end") {
  auto s = scenario(6, 100);
  s.consumers.resize(1);
  const double before = estimate_run(s).memory_bytes;
  s.topics[0].schedule = {{SimTime::ms(5000), 1'000'000, std::nullopt}};
  // Per partition at least the report's row, the run's state, the producer's and the group's.
  CHECK(estimate_run(s).memory_bytes - before > 999'994 * (1000.0 + 150 + 100 + 150));
  s.topics[0].schedule[0].at = *s.run.duration;  // at the run's end: never made
  CHECK(estimate_run(s).memory_bytes == doctest::Approx(before));
}
