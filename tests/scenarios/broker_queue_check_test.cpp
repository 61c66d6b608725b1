// run.check: broker-queue (analysis/theory_report.cpp): the broker's mean queue wait over
// replications against Pollaczek-Khinchine. The service moments are checked by hand, the
// simulation must pass the test, and the test must be able to fail: the same runs judged
// against a broker without its jitter's variance (a fixed service of the same mean) are
// rejected.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/theory_report.hpp"
#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {

model::Scenario broker_queue(std::vector<std::string> sets = {}) {
  return scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/theory/broker-queue.yaml", sets);
}

std::vector<analysis::QueueSample> replicate(const model::Scenario& s, std::size_t n) {
  std::vector<analysis::QueueSample> samples;
  for (std::size_t i = 0; i < n; ++i) samples.push_back(analysis::queue_sample(model::run_scenario(s, s.run.seed, i)));
  return samples;
}

}  // namespace

TEST_CASE("a one-record request's service moments, by hand") {
  // request.ms 1 + batch.ms 0.5 + 170 bytes at 1e6 B/s: a 100-byte value without key is a
  // record of 109 bytes (attributes 1, timestamp and offset deltas 1 + 1, key length -1: 1,
  // value length 2 (zigzag 200), value 100, header count 1: a body of 107, and its length
  // 2 (zigzag 214)), in a batch with its 61-byte header.
  auto s = broker_queue({"cluster.brokers.0.batch.ms=0.5", "cluster.brokers.0.byte.rate=1000000"});
  const double fixed = 1 + 0.5 + 0.170;
  auto m = analysis::one_record_service(s, s.brokers[0]);
  CHECK(m.mean_ms == doctest::Approx(fixed + 1));  // exponential jitter, mean 1: E[J^2] = 2
  CHECK(m.second_ms2 == doctest::Approx(fixed * fixed + 2 * fixed + 2));
  s.brokers[0].jitter.kind = model::Jitter::Kind::kUniform;  // on [0, 3]: E = 1.5, E[J^2] = 3
  s.brokers[0].jitter.max_ms = 3;
  m = analysis::one_record_service(s, s.brokers[0]);
  CHECK(m.mean_ms == doctest::Approx(fixed + 1.5));
  CHECK(m.second_ms2 == doctest::Approx(fixed * fixed + 3 * fixed + 3));
}

TEST_CASE("the broker's mean queue wait fits Pollaczek-Khinchine, and a wrong service variance is rejected") {
  const auto s = broker_queue({"run.duration.ms=60000"});
  const auto samples = replicate(s, 8);
  const auto report = analysis::broker_queue_report(s, samples);
  CHECK(report.json["theory_wait_ms"].get<double>() == doctest::Approx(1.875));  // 0.3 x 5 / (2 x 0.4)
  CHECK(report.json["records_per_request"].get<double>() == doctest::Approx(1.0));
  const double p = report.json["p_value"].get<double>();
  CAPTURE(report.text);
  CHECK(p > 0.01);
  // The same runs against a fixed service of the same 2 ms mean (E[S^2] = 4, Wq = 1.5 ms):
  // the jitter's variance is what the simulation's waits carry, so the test rejects it.
  auto fixed = s;
  fixed.brokers[0].jitter.kind = model::Jitter::Kind::kNone;
  fixed.brokers[0].request_time = sim::SimTime::ms(2);
  const auto wrong = analysis::broker_queue_report(fixed, samples);
  CAPTURE(wrong.text);
  CHECK(wrong.json["theory_wait_ms"].get<double>() == doctest::Approx(1.5));
  CHECK(wrong.json["p_value"].get<double>() < 1e-4);
}

TEST_CASE("the broker-queue check refuses a scenario its closed form does not describe") {
  for (const char* set :
       {"topics.0.partitions=2", "producers.0.config.linger.ms=5", "producers.0.workload.arrivals.kind=constant",
        "cluster.brokers.0.num.io.threads=2", "producers.0.workload.arrivals.send.cost.us=3",
        "producers.0.workload.records=100", "run.warmup.ms=1000", "producers.0.cpu.sender.byte.ns=1000"}) {
    CAPTURE(set);
    CHECK_THROWS_WITH(broker_queue({set}), doctest::Contains("broker-queue needs one topic with one partition"));
  }
}

TEST_CASE("the broker-queue check gives no test where its assumptions broke in the run") {
  // Kafka's in-flight cap of 5 at utilization 0.855: producers hold records back and batch
  // them, and the queue's longest waits are cut short (9.17 against 9.44 ms when tested).
  const auto s = broker_queue({"run.duration.ms=60000", "cluster.brokers.0.byte.rate=200000",
                               "producers.*.config.max.in.flight.requests.per.connection=5"});
  const auto batched = analysis::broker_queue_report(s, replicate(s, 3));
  CAPTURE(batched.text);
  CHECK(batched.json["records_per_request"].get<double>() > 1.0);
  CHECK(batched.json["p_value"].is_null());
  CHECK(batched.text.find("no test: ") != std::string::npos);
  // Requests given up (request.timeout.ms below the waits) and retried.
  const auto timed_out = broker_queue({"run.duration.ms=20000", "producers.*.config.request.timeout.ms=4"});
  const auto retried = analysis::broker_queue_report(timed_out, replicate(timed_out, 3));
  CAPTURE(retried.text);
  CHECK(retried.json["p_value"].is_null());
  CHECK(retried.text.find("retried") != std::string::npos);
  // One replication: the figures, no test; every test member null.
  const auto short_run = broker_queue({"run.duration.ms=20000"});
  const auto one = analysis::broker_queue_report(short_run, replicate(short_run, 1));
  for (const char* k : {"simulated_wait_std_error_ms", "t", "p_value"}) CHECK(one.json[k].is_null());
}
