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

TEST_CASE(
    "NOT_ENOUGH_REPLICAS is retried until the ISR recovers, then accepted: nothing fails within delivery.timeout.ms") {
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

TEST_CASE(
    "the shipped RF 3 vs RF 2 failure: RF 3 keeps accepting writes, RF 2 refuses them and loses records to delivery.timeout.ms") {
  const auto rf3 =
      scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/replication/rf3-min2-failure.yaml");
  const auto rf2 =
      scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/replication/rf2-min2-failure.yaml");
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

TEST_CASE(
    "a request queued at a broker that loses the leadership is refused NOT_LEADER_OR_FOLLOWER, retried, then accepted") {
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

TEST_CASE(
    "cluster.replication: fixed takes min.insync.replicas: acks=all is refused while too few replicas' brokers are up") {
  // RF 2, min.insync.replicas 2, acks=all; broker 1 fails at 1 s for good. Under fixed the
  // replicas on live brokers stand for the ISR: from 1 s every partition with a replica on
  // broker 1 (here all four: replicas p -> brokers p, p+1 mod 2) has one live replica < 2,
  // so its batches are refused NOT_ENOUGH_REPLICAS (retriable) and retried until
  // delivery.timeout.ms (5 s here) fails them. Before, the setting was ignored: 0 failures.
  const char* yaml = R"(
run: {duration.ms: 10000}
cluster:
  min.insync.replicas: 2
  brokers:
    - {id: 0}
    - {id: 1, schedule: [{at.ms: 1000, fail: true}]}
topics: [{name: t, partitions: 4, replication.factor: 2}]
producers:
  - config: {acks: all, linger.ms: 5, request.timeout.ms: 2000, delivery.timeout.ms: 5000}
    workload: {arrivals: {kind: constant, rate: 100}, keys: {kind: none}}
)";
  auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 1, 0, {});
  check_invariants(r, s);
  CHECK_FALSE(r.replication.enabled);
  CHECK(r.produce_errors.not_enough_replicas > 0);
  CHECK(r.failed.delivery_timeout > 0);
  // Everything sent up to 1 s (about 100 records, less what was in flight) is acked, and
  // records sent after 1 s never are: each is retried until its delivery.timeout.ms.
  CHECK(r.records_acked <= 101);
  CHECK(r.records_acked >= 95);
  CHECK(r.failed.delivery_timeout + r.records_acked == r.records_sent);

  SUBCASE("min.insync.replicas 1 (the default) and the topic's own setting") {
    auto lenient = s;
    lenient.replication.min_insync = 1;
    const auto ok = model::run_scenario(lenient, 1, 0, {});
    CHECK(ok.produce_errors.not_enough_replicas == 0);
    CHECK(ok.failed.total() == 0);
    // The topic's min.insync.replicas overrides the cluster's, both ways.
    auto topic_strict = lenient;
    topic_strict.topics[0].min_insync = 2;
    CHECK(model::run_scenario(topic_strict, 1, 0, {}).produce_errors.not_enough_replicas ==
          r.produce_errors.not_enough_replicas);
    auto topic_lenient = s;
    topic_lenient.topics[0].min_insync = 1;
    CHECK(model::run_scenario(topic_lenient, 1, 0, {}).failed.total() == 0);
  }
  SUBCASE("acks=1 is not refused, and RF 3 with one broker down keeps two live replicas") {
    auto acks1 = s;
    acks1.producers[0].config.acks = model::Acks::kLeader;
    CHECK(model::run_scenario(acks1, 1, 0, {}).failed.total() == 0);
    auto rf3 = s;
    rf3.brokers.push_back(rf3.brokers[0]);
    rf3.brokers.back().id = 2;
    rf3.topics[0].replication_factor = 3;
    const auto three = model::run_scenario(rf3, 1, 0, {});
    CHECK(three.produce_errors.not_enough_replicas == 0);
    CHECK(three.failed.total() == 0);
  }
}

TEST_CASE(
    "a setting the chosen cluster.replication mode ignores draws a located warning when set to anything but its default") {
  const auto warnings_of = [](const std::string& yaml) {
    std::vector<std::string> w;
    scenarios::load_scenario_text(yaml, "inline", {}, &w);
    return w;
  };
  const std::string tail = R"(
topics: [{name: t, partitions: 2, replication.factor: 2}]
producers: [{workload: {keys: {kind: none}}}]
run: {records: 10}
)";
  const std::string fixed_says =
      " is ignored under cluster.replication: fixed (the default), which models no follower fetches, ISR "
      "changes or fencing; set cluster.replication: followers for it to take effect";
  // Under fixed, each of the followers' settings, one at a time.
  const std::pair<const char*, const char*> followers_only[] = {{"replica.fetch.wait.max.ms", "100"},
                                                                {"replica.fetch.min.bytes", "1024"},
                                                                {"replica.lag.time.max.ms", "10000"},
                                                                {"broker.heartbeat.interval.ms", "1000"},
                                                                {"broker.session.timeout.ms", "6000"}};
  for (const auto& [key, value] : followers_only) {
    CAPTURE(key);
    const std::string yaml =
        "cluster:\n  " + std::string(key) + ": " + value + "\n  brokers: [{id: 0}, {id: 1}]" + tail;
    const auto w = warnings_of(yaml);
    REQUIRE(w.size() == 1);
    CHECK(w[0] ==
          "inline:2:" + std::to_string(5 + std::string(key).size()) + ": cluster." + key + ": " + key + fixed_says);
    // Its default value, or the followers' mode: no warning.
    CHECK(warnings_of("cluster:\n  replication: followers\n  " + std::string(key) + ": " + value +
                      "\n  brokers: [{id: 0}, {id: 1}]" + tail)
              .empty());
  }
  CHECK(warnings_of("cluster:\n  replica.fetch.wait.max.ms: 500\n  brokers: [{id: 0}, {id: 1}]" + tail).empty());
  // A broker's replica.rtt.ms under fixed; its replication.ms under followers.
  auto w = warnings_of("cluster:\n  brokers: [{id: 0}, {id: 1, replica.rtt.ms: 20}]" + tail);
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "inline:2:46: cluster.brokers.1.replica.rtt.ms: replica.rtt.ms" + fixed_says);
  w = warnings_of("cluster:\n  replication: followers\n  brokers: [{id: 0}, {id: 1, replication.ms: 20}]" + tail);
  REQUIRE(w.size() == 1);
  CHECK(
      w[0] ==
      "inline:3:46: cluster.brokers.1.replication.ms: replication.ms is ignored under cluster.replication: followers, "
      "where acks=all waits for the followers' fetches (replica.rtt.ms, replica.fetch.wait.max.ms); it applies under fixed");
  CHECK(warnings_of("cluster:\n  brokers: [{id: 0}, {id: 1, replication.ms: 20}]" + tail).empty());
  // min.insync.replicas takes effect under fixed (above): no warning.
  CHECK(warnings_of("cluster:\n  min.insync.replicas: 2\n  brokers: [{id: 0}, {id: 1}]" + tail).empty());
}

TEST_CASE("topics[].assignment: the records go to the leaders it names, and a failover to its next replica") {
  // Brokers 1, 2, 3; t-0 led by 3 (then 1), t-1 by 1 (then 2), against the striped rule's
  // 1 and 2. Broker 3 fails at 1 s; the controller fences it at 9 s (broker.session.timeout.ms)
  // and t-0's leadership moves to broker 1, where its waiting records then go.
  const char* yaml = R"(
run: {duration.ms: 3000}
cluster:
  replication: followers
  brokers:
    - {id: 1}
    - {id: 2}
    - id: 3
      schedule: [{at.ms: 1000, fail: true}]
topics: [{name: t, partitions: 2, replication.factor: 2, assignment: [[3, 1], [1, 2]]}]
producers:
  - config: {acks: all, linger.ms: 0}
    workload:
      arrivals: {kind: constant, rate: 200}
      keys: {kind: none}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 1, 0, {});
  check_invariants(r, s);
  REQUIRE(r.partitions.size() == 2);
  CHECK(r.partitions[0].leader == 1);  // after the failover
  CHECK(r.partitions[1].leader == 1);
  REQUIRE(r.brokers.size() == 3);
  CHECK(r.brokers[0].records > 0);   // broker 1: t-1 throughout, t-0 after the failover
  CHECK(r.brokers[1].records == 0);  // broker 2 leads nothing
  CHECK(r.brokers[2].records > 0);   // broker 3 led t-0 for the first second
  CHECK(r.failed.total() == 0);
}
