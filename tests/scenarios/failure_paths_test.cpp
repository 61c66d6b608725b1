// A broker that fails or stalls, end to end through the loader and the model: batches in
// flight are retried on the new leader, batches that cannot be delivered fail by
// delivery.timeout.ms, and an in-flight batch that expires keeps its request's slot until
// the request ends (spec §4.3, §4.4, §3.9). Each case checks that every record is counted
// once.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;

namespace {

model::RunResult run_with_batches(const model::Scenario& s, std::uint64_t seed) {
  model::RunOptions options;
  options.batches = true;
  return model::run_scenario(s, seed, 0, options);
}

std::int64_t records_of(const std::vector<model::BatchRecord>& rows, bool acked) {
  std::int64_t n = 0;
  for (const auto& b : rows) n += b.acked == acked ? b.records : 0;
  return n;
}

}  // namespace

TEST_CASE(
    "a broker that fails and recovers: its in-flight batches are retried on the new leader and every record is acked once") {
  // Two replicas per partition: broker 1's partitions (1 and 3) move to broker 0 while it is
  // down. With a 50 ms round trip several requests to broker 1 are in flight when it fails;
  // the disconnect fails them with a retriable error, and the retries go to broker 0.
  const char* yaml = R"(
run: {duration.ms: 3000}
cluster:
  brokers:
    - {id: 0, rtt.ms: 50}
    - {id: 1, rtt.ms: 50, schedule: [{at.ms: 1000, fail: true}, {at.ms: 2000, recover: true}]}
topics: [{name: t, partitions: 4, replication.factor: 2}]
producers:
  - config: {linger.ms: 5}
    workload:
      arrivals: {kind: poisson, rate: 2000}
      keys: {kind: template, template: "k{i}", cardinality: 50}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const auto r = run_with_batches(s, seed);
    check_invariants(r, s);
    CHECK(r.retries >= 3);         // 5, 7 and 5 batches for seeds 1-3
    CHECK(r.failed.total() == 0);  // the default delivery.timeout.ms (120 s) covers the outage
    CHECK(r.records_acked == r.records_sent);
    CHECK(records_of(r.batches, true) == r.records_acked);
    // Elsewhere: broker 1's partitions had batches acknowledged by broker 0.
    const auto moved = std::count_if(r.batches.begin(), r.batches.end(), [](const model::BatchRecord& b) {
      return (b.partition == 1 || b.partition == 3) && b.broker == 0;
    });
    CHECK(moved > 100);
  }
}

TEST_CASE(
    "a broker down longer than delivery.timeout.ms: its partitions' records fail by delivery timeout, each counted once") {
  // One replica: while broker 1 is down (1.0 s to 2.5 s) partitions 1 and 3 have no leader,
  // so their batches wait in the accumulator and expire 1,000 ms after they were created.
  const char* yaml = R"(
run: {duration.ms: 3000}
cluster:
  brokers:
    - {id: 0}
    - {id: 1, schedule: [{at.ms: 1000, fail: true}, {at.ms: 2500, recover: true}]}
topics: [{name: t, partitions: 4, replication.factor: 1}]
producers:
  - config: {linger.ms: 5, delivery.timeout.ms: 1000, request.timeout.ms: 500}
    workload:
      arrivals: {kind: poisson, rate: 2000}
      keys: {kind: template, template: "k{i}", cardinality: 50}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = run_with_batches(s, 1);
  check_invariants(r, s);
  CHECK(r.failed.delivery_timeout > 100);  // 555 records for seed 1
  CHECK(r.failed.total() == r.failed.delivery_timeout);
  CHECK(r.records_acked > r.records_sent / 2);
  CHECK(records_of(r.batches, false) == r.failed.delivery_timeout);
  CHECK(records_of(r.batches, true) == r.records_acked);
  std::set<std::int32_t> failed_partitions;
  for (const auto& b : r.batches) {
    if (b.acked) continue;
    CAPTURE(b.created_ms);
    failed_partitions.insert(b.partition);
    CHECK(b.done_ms - b.created_ms >= 1000.0 - 1e-6);  // not before delivery.timeout.ms (ms from ns: rounding)
    CHECK(b.done_ms - b.created_ms < 1010.0);          // nor long after: the sender wakes for the expiry
  }
  CHECK(failed_partitions == std::set<std::int32_t>{1, 3});  // only the leaderless partitions
}

TEST_CASE("batches that expire while in flight are counted once, and their slots are not reused early") {
  // One request in flight at a time (max.in.flight 1) to a broker 4 s away: a request takes
  // 4,001.1 ms (round trip and service), less than request.timeout.ms, so its slot frees
  // only at the response. The batches it carries were created up to 2 s earlier, so they
  // pass delivery.timeout.ms (6 s) in flight and fail then; the slot must stay taken until
  // the response, so requests leave a full round trip apart.
  const char* yaml = R"(
run: {duration.ms: 20000}
cluster: {brokers: [{id: 0, rtt.ms: 4000}]}
topics: [{name: t, partitions: 1}]
producers:
  - config: {linger.ms: 0, max.in.flight.requests.per.connection: 1, request.timeout.ms: 5000, delivery.timeout.ms: 6000}
    workload:
      arrivals: {kind: constant, rate: 100}
      values: {kind: fixed, size: 100}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = run_with_batches(s, 1);
  check_invariants(r, s);
  CHECK(r.failed.total() == r.failed.delivery_timeout);
  CHECK(records_of(r.batches, false) == r.failed.delivery_timeout);
  std::vector<double> sends;
  int expired_in_flight = 0;
  for (const auto& b : r.batches) {
    if (b.sent_ms < 0) continue;  // expired in the queue, never sent
    sends.push_back(b.sent_ms);
    if (!b.acked && b.done_ms < b.sent_ms + 4000) ++expired_in_flight;
  }
  CHECK(expired_in_flight >= 4);  // 6 of the 15 batches for seed 1
  std::sort(sends.begin(), sends.end());
  REQUIRE(sends.size() >= 5);
  for (std::size_t i = 1; i < sends.size(); ++i) {
    CAPTURE(sends[i - 1]);
    CHECK(sends[i] - sends[i - 1] >= 4000.0);
  }
}
