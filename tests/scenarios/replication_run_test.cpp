// cluster.replication: followers through the whole engine (kafka-consumer-spec §9): acks=all
// refused with NOT_ENOUGH_REPLICAS while the ISR is below min.insync.replicas, retried by
// the producer and accepted once the follower is back in sync; the shipped RF 3 / RF 2
// pair; and the fixed model left as it was.

#include <doctest/doctest.h>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;

TEST_CASE("NOT_ENOUGH_REPLICAS is retried until the ISR recovers, then accepted: nothing fails within delivery.timeout.ms") {
  // p0 on brokers (0, 1), min.insync.replicas 2. Broker 1 dies at 1 s (last heartbeat 0 s):
  // acks=all stalls (broker 1 still in the ISR) until the fence at 9 s, then is refused
  // (ISR [0] < 2) until broker 1 is back at 12 s and rejoins at its first fetch (12.0005 s).
  // request.timeout.ms 2000 frees the in-flight slots of the stalled requests, so that the
  // retries meet the refusal (with 5 requests waiting for the high watermark, nothing new
  // would be sent until the rejoin).
  const char* yaml = R"(
run: {duration.ms: 15000}
cluster:
  replication: followers
  min.insync.replicas: 2
  brokers:
    - {id: 0}
    - id: 1
      schedule: [{at.ms: 1000, fail: true}, {at.ms: 12000, recover: true}]
topics: [{name: t, partitions: 1, replication.factor: 2}]
producers:
  - config: {acks: all, linger.ms: 0, request.timeout.ms: 2000}
    workload:
      arrivals: {kind: constant, rate: 100}
      keys: {kind: none}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 1, 0, {});
  check_invariants(r, s);
  REQUIRE(r.replication.enabled);
  const auto& p = r.replication.partitions[0];
  CHECK(p.not_enough_replicas > 0);
  CHECK(r.replication.errors.at("NOT_ENOUGH_REPLICAS") == p.not_enough_replicas);
  CHECK(r.retries >= p.not_enough_replicas);
  CHECK(r.failed.total() == 0);
  CHECK(r.records_acked == r.records_sent);
  CHECK(p.isr == std::vector<std::int32_t>{0, 1});
  CHECK(p.isr_min == 1);
  CHECK(p.fenced_removals == 1);
  CHECK(p.expands == 1);
  CHECK(p.under_min_isr_ms == doctest::Approx(3000.5));  // 9 s to 12.0005 s
  // A record sent at 1 s waits until the rejoin (12.0005 s) and at most one more retry
  // backoff (retry.backoff.max.ms 1000): the worst latency is 11 to 12 s.
  CHECK(r.latency.max() > 10'990'000'000);
  CHECK(r.latency.max() < 12'100'000'000);
  // No refusal before the fence or after the rejoin: the history's counts only grow between.
  for (const auto& h : r.replication.history) {
    if (h.time_ms <= 9000) CHECK(h.not_enough_replicas == 0);
    if (h.time_ms > 12000.5) CHECK(h.not_enough_replicas == p.not_enough_replicas);
  }
}

TEST_CASE("the shipped RF 3 vs RF 2 failure: RF 3 keeps accepting writes, RF 2 refuses them and loses records to delivery.timeout.ms") {
  const auto rf3 = scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/replication/rf3-min2-failure.yaml");
  const auto rf2 = scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/replication/rf2-min2-failure.yaml");
  const auto a = model::run_scenario(rf3, 1, 0, {});
  const auto b = model::run_scenario(rf2, 1, 0, {});
  check_invariants(a, rf3);
  check_invariants(b, rf2);
  CHECK(a.replication.errors.empty());
  CHECK(a.failed.total() == 0);
  CHECK(b.replication.errors.at("NOT_ENOUGH_REPLICAS") > 0);
  CHECK(b.failed.delivery_timeout > 0);
  for (const auto& p : a.replication.partitions) CHECK(p.under_min_isr_ms == 0);
  // RF 2: the four partitions with a replica on broker 1 (0, 1, 3, 4) fall under the min ISR.
  for (std::size_t i : {0, 1, 3, 4}) CHECK(b.replication.partitions[i].under_min_isr_ms > 20000);
  for (std::size_t i : {2, 5}) CHECK(b.replication.partitions[i].under_min_isr_ms == 0);
}

TEST_CASE("cluster.replication: fixed (the default) has no replication section") {
  const char* yaml = R"(
run: {records: 100}
cluster: {brokers: [{id: 0}, {id: 1}]}
topics: [{name: t, partitions: 2, replication.factor: 2}]
producers: [{workload: {keys: {kind: none}}}]
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  CHECK_FALSE(model::run_scenario(s, 1, 0, {}).replication.enabled);
}

TEST_CASE("a request queued at a broker that loses the leadership is refused NOT_LEADER_OR_FOLLOWER, retried, then accepted") {
  // Broker 0 fails at 1 s, is fenced at 9 s (broker 1 leads both partitions), is back at
  // 12 s and rejoins the ISR; the preferred-leader check at 13 s gives it p0 back while
  // broker 1, slow (20 ms a request) under 20,000 records/s, still holds queued requests
  // with batches of p0: those are refused (§9.4), retried at the new leader, and acked.
  const char* yaml = R"(
run: {duration.ms: 20000, trace: 0}
cluster:
  replication: followers
  leader.imbalance.check.interval.seconds: 1
  brokers:
    - id: 0
      request.ms: 20
      schedule: [{at.ms: 1000, fail: true}, {at.ms: 12000, recover: true}]
    - {id: 1, request.ms: 20}
topics: [{name: t, partitions: 2, replication.factor: 2}]
producers: [{config: {acks: all}, workload: {topic: t, arrivals: {kind: poisson, rate: 20000}}}]
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 1, 0, {});
  check_invariants(r, s);
  REQUIRE(r.replication.enabled);
  REQUIRE(r.replication.errors.contains("NOT_LEADER_OR_FOLLOWER"));
  CHECK(r.replication.errors.at("NOT_LEADER_OR_FOLLOWER") > 0);
  CHECK(r.failed.total() == 0);
  CHECK(r.records_acked == r.records_sent);
}
