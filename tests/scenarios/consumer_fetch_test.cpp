// Consumer groups in the cluster's event loop: a fetch is a request the partition leader
// serves on its threads (so fetches and produce requests wait for each other), and it waits
// at the leader for fetch.min.bytes until fetch.max.wait.ms (kafka-consumer-spec §4.3).

#include <doctest/doctest.h>

#include <string>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;

namespace {

// One broker whose every request costs 2 ms, one producer (200 records/s, no linger) on 8
// partitions, and, with `members` > 0, a group reading them with `fetch` in its config.
std::string fetch_yaml(int members, const std::string& fetch = "") {
  std::string y = "name: fetch-load\nrun: {seed: 3, duration.ms: 4000}\n"
                  "cluster:\n  brokers:\n    - {id: 0, request.ms: 2}\n"
                  "topics:\n  - {name: events, partitions: 8}\n"
                  "producers:\n"
                  "  - name: app\n"
                  "    config: {acks: 1, linger.ms: 0}\n"
                  "    workload:\n"
                  "      topic: events\n"
                  "      arrivals: {kind: poisson, rate: 200}\n"
                  "      keys: {kind: template, template: \"k{i}\", cardinality: 100}\n";
  if (members > 0)
    y += "consumers:\n  - group: readers\n    topics: [events]\n    members: " + std::to_string(members) +
         "\n    config: {auto.offset.reset: earliest" + fetch + "}\n";
  return y;
}

model::RunResult run_yaml(const std::string& yaml) {
  const model::Scenario s = scenarios::load_scenario_text(yaml, "fetch.yaml");
  model::RunResult r = model::run_scenario(s, s.run.seed, 0, {});
  check_invariants(r, s);
  return r;
}

}  // namespace

TEST_CASE("a group's fetches load the broker: the producer's requests wait behind them") {
  const model::RunResult alone = run_yaml(fetch_yaml(0));
  const model::RunResult read = run_yaml(fetch_yaml(8));
  REQUIRE(read.consumer_groups.size() == 1);
  const auto& g = read.consumer_groups[0];
  CHECK(g.records_consumed == read.records_acked);
  CHECK(g.records_unconsumed == 0);
  // The same records sent (the workload does not depend on the broker), but the eight
  // members' fetches, 2 ms each, take the broker's one server between produce requests.
  CHECK(read.records_sent == alone.records_sent);
  REQUIRE(alone.brokers.size() == 1);
  const double wait_alone = alone.brokers[0].queue_wait_ms_sum / static_cast<double>(alone.brokers[0].requests);
  const double wait_read = read.brokers[0].queue_wait_ms_sum / static_cast<double>(read.brokers[0].requests);
  CAPTURE(wait_alone);
  CAPTURE(wait_read);
  CHECK(wait_read > 2 * wait_alone + 0.2);
  CHECK(read.brokers[0].records == alone.brokers[0].records);
  // The broker's account of the fetches: every record returned once (no rebalance here),
  // and they too waited for its server.
  REQUIRE(read.consumer_fetches.size() == 1);
  const model::BrokerFetches& served = read.consumer_fetches[0];
  CHECK(served.fetches > 0);
  CHECK(served.records == g.records_consumed);
  CHECK(served.failed == 0);
  CHECK(served.queue_wait_ms_sum / static_cast<double>(served.fetches) > 0.2);
  CHECK(alone.consumer_fetches.empty());
}

TEST_CASE("a fetch waits at the leader for fetch.min.bytes, at most fetch.max.wait.ms") {
  // fetch.min.bytes 1: answered as soon as a record is readable, a few ms after its send.
  const model::RunResult eager = run_yaml(fetch_yaml(1));
  // A megabyte is never readable at 200 records/s: every fetch waits its 200 ms out, so a
  // record waits for the next answer, 100 ms on average.
  const model::RunResult patient = run_yaml(fetch_yaml(1, ", fetch.min.bytes: 1000000, fetch.max.wait.ms: 200"));
  const auto& e = eager.consumer_groups.at(0).e2e_latency;
  const auto& p = patient.consumer_groups.at(0).e2e_latency;
  CHECK(eager.consumer_groups[0].records_unconsumed == 0);
  CHECK(patient.consumer_groups[0].records_unconsumed == 0);
  const double eager_p50 = static_cast<double>(e.quantile(0.5)) / 1e6;
  const double patient_p50 = static_cast<double>(p.quantile(0.5)) / 1e6;
  const double patient_max = static_cast<double>(p.max()) / 1e6;
  CAPTURE(eager_p50);
  CAPTURE(patient_p50);
  CAPTURE(patient_max);
  CHECK(eager_p50 < 10);
  CHECK(patient_p50 > 60);
  CHECK(patient_p50 < 160);
  CHECK(patient_max < 230);
  // Parked at the leader: the whole fetch.max.wait.ms when patient, next to nothing when not.
  const auto parked_mean = [](const model::RunResult& r) {
    return r.consumer_fetches.at(0).parked_ms_sum / static_cast<double>(r.consumer_fetches.at(0).fetches);
  };
  CHECK(parked_mean(patient) == doctest::Approx(200).epsilon(0.01));
  CHECK(parked_mean(eager) < 10);
  CHECK(patient.consumer_fetches[0].empty == 0);
}

// Records that can still arrive once the producers are done (acks=0 requests on their way,
// a fence that moves the high watermark), a partition increase at 0 ms, and a producer that
// pauses longer than the stall window: the group reads every record and is not "stalled".
TEST_CASE("a group reads every record however late it arrives, and waits through a producer's pause") {
  const char* const cases[] = {
      // acks=0: the last requests are still on their way when the producer has stopped.
      "name: acks0\nrun: {seed: 1, duration.ms: 2000}\ncluster:\n  brokers: [{id: 0, request.ms: 5}]\n"
      "topics: [{name: t, partitions: 1}]\nproducers:\n  - name: p\n    config: {acks: 0, linger.ms: 0}\n"
      "    workload: {topic: t, arrivals: {kind: constant, rate: 1000}}\n"
      "consumers:\n  - {group: g, topics: [t], members: 1, config: {auto.offset.reset: earliest}}\n",
      // followers: broker 1 fails at 2.5 s; its fence, long after the producer, moves the high watermark.
      "name: fence\nrun: {seed: 1, duration.ms: 3000}\ncluster:\n  brokers: [{id: 0}, {id: 1, schedule: [{at.ms: 2500, "
      "fail: true}]}]\n  replication: followers\ntopics: [{name: t, partitions: 2, replication.factor: 2}]\n"
      "producers:\n  - name: p\n    config: {acks: 1}\n"
      "    workload: {topic: t, partition: 0, arrivals: {kind: constant, rate: 1000}}\n"
      "consumers:\n  - {group: g, topics: [t], members: 1, config: {auto.offset.reset: earliest}}\n",
      // a topic grown at 0 ms: the group learns of the new partitions.
      "name: step0\nrun: {seed: 1, duration.ms: 3000}\ncluster:\n  brokers: [{id: 0}, {id: 1}]\n"
      "topics: [{name: t, partitions: 2, schedule: [{at.ms: 0, set.partitions: 4}]}]\n"
      "producers:\n  - name: p\n    workload: {topic: t, arrivals: {kind: constant, rate: 1000}}\n"
      "consumers:\n  - {group: g, topics: [t], members: 2, config: {auto.offset.reset: earliest, group.protocol: "
      "consumer}}\n",
      // 200 s without a record, longer than the stall window (10 x 6 s).
      "name: onoff\nrun: {seed: 1, duration.ms: 400000}\ncluster:\n  brokers: [{id: 0}]\n"
      "topics: [{name: t, partitions: 1}]\nproducers:\n  - name: p\n"
      "    workload: {topic: t, arrivals: {kind: on-off, rate: 100, on.ms: 1000, off.ms: 200000}}\n"
      "consumers:\n  - {group: g, topics: [t], members: 1, config: {auto.offset.reset: earliest, max.poll.interval.ms: "
      "6000, session.timeout.ms: 6000}}\n",
      // no network nor service time and fetch.max.wait.ms 0: an empty answer comes back the
      // instant the fetch is sent (asking again at once would never let time advance).
      "name: zero\nrun: {seed: 1, duration.ms: 200}\ncluster:\n  brokers: [{id: 0, rtt.ms: 0, request.ms: 0}]\n"
      "topics: [{name: t, partitions: 1}]\nproducers:\n  - name: p\n"
      "    workload: {topic: t, arrivals: {kind: constant, rate: 100}}\n"
      "consumers:\n  - {group: g, topics: [t], members: 1, config: {auto.offset.reset: earliest, fetch.max.wait.ms: 0}}\n",
      // a crash at 70 s without commits: the survivor processes 70 s of records again (longer than
      // the stall window, 10 x 6 s), which is progress, not a stall.
      "name: replay\nrun: {seed: 1, duration.ms: 10000}\ncluster:\n  brokers: [{id: 0}]\n"
      "topics: [{name: t, partitions: 1}]\nproducers:\n  - name: p\n"
      "    workload: {topic: t, arrivals: {kind: constant, rate: 10000}}\n"
      "consumers:\n  - {group: g, topics: [t], members: 2, processing.us: 1000, schedule: [{at.ms: 70000, crash: c0}],\n"
      "     config: {auto.offset.reset: earliest, enable.auto.commit: false, max.poll.interval.ms: 1000,\n"
      "              session.timeout.ms: 6000, heartbeat.interval.ms: 2000}}\n",
  };
  for (const char* yaml : cases) {
    CAPTURE(yaml);
    const model::RunResult r = run_yaml(yaml);
    REQUIRE(r.consumer_groups.size() == 1);
    const auto& g = r.consumer_groups[0];
    std::int64_t in_logs = 0;
    for (const auto& p : r.partitions) in_logs += p.records;
    CHECK(in_logs > 0);
    CHECK(g.records_unconsumed == 0);
    CHECK(g.records_consumed - g.duplicates == in_logs);
    CHECK_FALSE(g.stalled);
  }
}
