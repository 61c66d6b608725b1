// What `client:` changes in a run and in the loader: each version rule seen through a
// scenario on both sides of its boundary (kafka-versions.md; the rules themselves are
// tested in tests/model/client_version_test.cpp).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/run_report.hpp"
#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::counts;

namespace {

std::string shipped(const std::string& rel) { return std::string(PARTSIM_SOURCE_DIR) + "/scenarios/" + rel; }

model::RunResult run_shipped(const std::string& rel, const std::vector<std::string>& sets) {
  return model::run_scenario(scenarios::load_scenario_file(shipped(rel), sets), 1);
}

constexpr const char* kOneBroker = R"(name: versions
run: {records: 40}
cluster:
  brokers: [{id: 0, rtt.ms: 1, error.rate: 1, error.code: NOT_ENOUGH_REPLICAS, schedule: [{at.ms: 2500, set.error.rate: 0}]}]
topics: [{name: t, partitions: 1}]
producers:
  - name: app
    config: {linger.ms: 0, delivery.timeout.ms: 600000}
    workload: {arrivals: {kind: closed-loop}, keys: {kind: none}}
consumers:
  - group: g
    topics: [t]
)";

model::Scenario load_text(const std::string& text, const std::vector<std::string>& sets = {},
                          std::vector<std::string>* warnings = nullptr) {
  return scenarios::load_scenario_text(text, "versions.yaml", sets, warnings);
}

}  // namespace

TEST_CASE("T8 by version: KAFKA-9965 through 3.9.1, fixed in 3.9.2, a plain counter from 4.0") {
  const std::vector<std::int64_t> skipping{200, 0, 200, 0, 200, 0}, even{100, 100, 100, 100, 100, 100};
  CHECK(counts(run_shipped("round-robin/new-batch-per-record.yaml", {})) == skipping);  // the file pins kafka-3.6
  CHECK(counts(run_shipped("round-robin/new-batch-per-record.yaml", {"client=kafka-3.9.1"})) == skipping);
  CHECK(counts(run_shipped("round-robin/new-batch-per-record.yaml", {"client=kafka-3.9.2"})) == even);
  CHECK(counts(run_shipped("round-robin/new-batch-per-record.yaml", {"client=kafka-4.0.0"})) == even);
  CHECK(counts(run_shipped("round-robin/new-batch-per-record.yaml", {"client=kafka-4.3"})) == even);
}

TEST_CASE("R6 under kafka-4.3: every one of the 48 partitions within one record of the others") {
  auto rr = counts(run_shipped("round-robin/kafka-9965-production.yaml", {"client=kafka-4.3"}));
  std::sort(rr.begin(), rr.end());
  CHECK(rr.back() - rr.front() <= 1);
  CHECK(rr.front() == 98400 / 48);
}

TEST_CASE("retries wait a flat retry.backoff.ms before kafka-3.7, an exponential one from it") {
  // The broker answers every request with a retriable error for 2.5 s: a flat 100 ms backoff
  // retries about 25 times, 100, 200, 400, 800 then 1000 ms about 5 times.
  const auto flat = model::run_scenario(load_text(kOneBroker, {"client=kafka-3.6"}), 1);
  const auto exponential = model::run_scenario(load_text(kOneBroker, {"client=kafka-3.7"}), 1);
  CHECK(flat.records_acked == 40);
  CHECK(exponential.records_acked == 40);
  CHECK(flat.retries >= 20);
  CHECK(exponential.retries <= 7);
  CHECK(exponential.retries >= 3);
}

TEST_CASE("the loader sets each client's defaults, and a producer or group may name its own") {
  const auto old = load_text(kOneBroker, {"client=kafka-2.8"});
  CHECK(old.producers[0].config.acks == model::Acks::kLeader);
  CHECK_FALSE(old.producers[0].config.idempotence);
  CHECK(old.consumers[0].config.session_timeout == model::SimTime::ms(10000));
  CHECK(old.consumers[0].config.assignment_strategy == std::vector<std::string>{"range"});
  const auto v300 = load_text(kOneBroker, {"client=kafka-3.0.0"});
  CHECK(v300.producers[0].config.acks == model::Acks::kAll);
  CHECK_FALSE(v300.producers[0].config.idempotence);  // KAFKA-13598: not in effect before 3.0.1
  CHECK(load_text(kOneBroker, {"client=kafka-3.0.1"}).producers[0].config.idempotence);
  const auto now = load_text(kOneBroker);
  CHECK(now.producers[0].config.client.name() == "kafka-4.3");
  CHECK(now.consumers[0].config.session_timeout == model::SimTime::ms(45000));
  CHECK(now.producers[0].config.linger == model::SimTime::zero());  // the file's own value wins
  const auto unset = load_text(kOneBroker, {"client=kafka-3.9", "producers.0.config.linger.ms=~"});
  CHECK(unset.producers[0].config.linger == model::SimTime::zero());
  CHECK(load_text(kOneBroker, {"producers.0.config.linger.ms=~"}).producers[0].config.linger == model::SimTime::ms(5));
  // A producer's and a group's own client beat the scenario's; the next item is the scenario's again.
  const auto mixed =
      load_text(kOneBroker, {"client=kafka-4.3", "producers.0.client=kafka-2.8", "consumers.0.client=kafka-2.8"});
  CHECK(mixed.producers[0].config.acks == model::Acks::kLeader);
  CHECK(mixed.consumers[0].config.session_timeout == model::SimTime::ms(10000));
  // Explicit idempotence under 2.x with acks unset: acks becomes all, as Kafka 2.x does.
  const auto explicit_idem = load_text(kOneBroker, {"client=kafka-2.8", "producers.0.config.enable.idempotence=true"});
  CHECK(explicit_idem.producers[0].config.acks == model::Acks::kAll);
  CHECK(explicit_idem.producers[0].config.idempotence);
}

TEST_CASE("max.in.flight 6 with a default idempotence: 3.x turns idempotence off with a warning, 4.0 refuses") {
  std::vector<std::string> warnings;
  const auto v39 = load_text(kOneBroker,
                             {"client=kafka-3.9", "producers.0.config.max.in.flight.requests.per.connection=6"},
                             &warnings);
  CHECK_FALSE(v39.producers[0].config.idempotence);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("turns idempotence off") != std::string::npos);
  CHECK_THROWS(load_text(kOneBroker,
                         {"client=kafka-4.0", "producers.0.config.max.in.flight.requests.per.connection=6"}));
  // acks=1 too: 4.0 checks the in-flight limit before it quietly turns a default idempotence off.
  CHECK_THROWS(load_text(kOneBroker, {"client=kafka-4.0", "producers.0.config.max.in.flight.requests.per.connection=6",
                                      "producers.0.config.acks=1"}));
  CHECK_FALSE(load_text(kOneBroker, {"client=kafka-4.0", "producers.0.config.max.in.flight.requests.per.connection=6",
                                     "producers.0.config.enable.idempotence=false"})
                  .producers[0]
                  .config.idempotence);
}

TEST_CASE("the report and the JSON say which client ran, and as which line a historical partitioner runs") {
  const auto r =
      model::run_scenario(load_text(kOneBroker, {"client=kafka-4.3", "producers.0.config.partitioner=sticky-kip480",
                                                 "run.records=2", "cluster.brokers.0.error.rate=0"}),
                          1);
  const std::string text = analysis::run_to_text(r);
  CHECK(text.find("seed 1  client kafka-4.3  simulated") != std::string::npos);
  CHECK(text.find("partitioner sticky-kip480 (producer app) runs as in kafka-3.9, not kafka-4.3") != std::string::npos);
  const auto j = analysis::run_to_json(r);
  CHECK(j["client"] == "kafka-4.3");
  CHECK(j["clients"][0]["partitioner_runs_as"] == "kafka-3.9");
  CHECK(j["clients"][1]["group"] == "g");
  const auto old = model::run_scenario(load_text(kOneBroker, {"client=kafka-3.2", "run.records=2",
                                                              "cluster.brokers.0.error.rate=0"}),
                                       1);
  CHECK(analysis::run_to_text(old).find("partitioner builtin (producer app) is sticky-kip480 in kafka-3.2") !=
        std::string::npos);
}

namespace {

constexpr const char* kRacks = R"(name: rack-aware
client: kafka-4.4
run: {seed: 1, duration.ms: 3000}
cluster:
  brokers:
    - {id: 0, rack: r1}
    - {id: 1, rack: r1, rtt.ms: 50}
    - {id: 2, rack: r2}
topics: [{name: t, partitions: 6}]
producers:
  - name: app
    config: {linger.ms: 0, client.rack: r1, partitioner.rack.aware: true}
    workload: {arrivals: {kind: constant, rate: 3000}, keys: {kind: none}, values: {kind: fixed, size: 100}}
)";

std::int64_t adaptive_draws(const model::RunResult& r) {
  std::int64_t n = 0;
  for (const auto c : r.adaptive_choices) n += c;
  return n;
}

}  // namespace

TEST_CASE("KIP-1123: a rack-aware producer's null-key records go only to leaders in its rack") {
  const auto r = model::run_scenario(load_text(kRacks), 1);
  const auto c = counts(r);  // p2 and p5 are led by broker 2, in rack r2
  CHECK(c[2] == 0);
  CHECK(c[5] == 0);
  CHECK(r.clients[0].records_in_rack == r.records_acked);
  CHECK(analysis::run_to_text(r).find("producer app in rack r1 (partitioner.rack.aware): 9000 of 9000 records "
                                      "(100.0%) to leaders in its rack") != std::string::npos);
  // The consequence of Kafka's rule that the load table waits until every partition has had a
  // batch (RecordAccumulator.partitionReady on 4.4): the out-of-rack partitions never get
  // one, so the choice stays uniform over the rack, the slow broker 1 included: no adaptive draw.
  CHECK(adaptive_draws(r) == 0);
  // Rack-aware off: every partition gets batches, the table fills, and a third goes out of the rack.
  const auto off = model::run_scenario(load_text(kRacks, {"producers.0.config.partitioner.rack.aware=false"}), 1);
  CHECK(adaptive_draws(off) > 0);
  CHECK(off.clients[0].records_in_rack < off.records_acked * 3 / 4);
  CHECK(off.clients[0].records_in_rack > off.records_acked / 2);
  // No broker in the producer's rack: every available partition, as without rack-awareness.
  const auto elsewhere = model::run_scenario(load_text(kRacks, {"producers.0.config.client.rack=r9"}), 1);
  CHECK(counts(elsewhere)[2] > 0);
  CHECK(elsewhere.clients[0].records_in_rack == 0);
}

TEST_CASE("KIP-1123's keys: unknown before kafka-4.4, and rack-awareness needs a client.rack") {
  CHECK_THROWS_WITH(load_text(kRacks, {"client=kafka-4.3"}),
                    doctest::Contains("partitioner.rack.aware: is unknown to kafka-4.3: it came with kafka-4.4"));
  CHECK_THROWS_WITH(load_text(kRacks, {"producers.0.config.client.rack=\" \""}),
                    doctest::Contains("client.rack must be provided if partitioner.rack.aware is enabled"));
  CHECK_NOTHROW(load_text(kRacks, {"client=kafka-4.3", "producers.0.config.partitioner.rack.aware=false",
                                   "producers.0.config.client.rack=~"}));
}

TEST_CASE("an item's own client holds through the lists inside it, and a resolved scenario reads back the same") {
  // A group's schedule and a producer's rules are lists read before or inside its config.
  std::string text = kOneBroker;
  const std::string topics = "    topics: [t]", config = "    config: {linger.ms: 0,";
  text.replace(text.find(topics), topics.size(),
               "    client: kafka-2.8\n    schedule: [{at.ms: 1000, join: 1}]\n" + topics);
  text.replace(text.find(config), config.size(),
               "    client: kafka-2.8\n    config: {partitioner: rules, partsim.partitioner.rules: [{prefix: x, "
               "partition: 0}], acks: all, linger.ms: 0,");
  const auto s = load_text(text);
  CHECK(s.consumers[0].config.session_timeout == model::SimTime::ms(10000));
  CHECK(s.consumers[0].config.assignment_strategy == std::vector<std::string>{"range"});
  CHECK_FALSE(s.producers[0].config.idempotence);  // 2.8: off by default, acks=all or not
  // Written out and read again: idempotence and every client-dependent default as they were.
  for (const char* client : {"kafka-2.8", "kafka-3.0.0", "kafka-4.3"}) {
    CAPTURE(client);
    for (const char* idempotence : {"true", "false"}) {
      const auto once = load_text(kOneBroker, {std::string("client=") + client,
                                               std::string("producers.0.config.enable.idempotence=") + idempotence,
                                               "producers.0.config.acks=all"});
      const std::string resolved = scenarios::write_scenario_yaml(once);
      const auto again = scenarios::load_scenario_text(resolved, "resolved");
      CHECK(again.producers[0].config.idempotence == once.producers[0].config.idempotence);
      CHECK(scenarios::write_scenario_yaml(again) == resolved);
    }
  }
}

TEST_CASE("KIP-881 from kafka-3.5: before, the range assignor knows no racks") {
  const std::string text = R"(name: racks
run: {records: 60}
cluster:
  brokers: [{id: 0, rack: a}, {id: 1, rack: b}, {id: 2, rack: c}]
topics: [{name: t, partitions: 6}]
producers: [{workload: {keys: {kind: none}}}]
consumers:
  - group: g
    topics: [t]
    members: 3
    rack: [a, b, c]
    config: {partition.assignment.strategy: [range]}
)";
  const auto partitions_of = [&](const std::string& client) {
    const auto r = model::run_scenario(load_text(text, {"client=" + client}), 1);
    REQUIRE(r.consumer_groups.size() == 1);
    std::vector<std::vector<std::string>> out;
    for (const auto& m : r.consumer_groups[0].members) out.push_back(m.partitions);
    return out;
  };
  // Range without racks: 2 consecutive partitions each. With racks (partition p led by broker
  // p mod 3, in rack a, b, c): each member the partitions of its rack.
  CHECK(partitions_of("kafka-3.4") ==
        std::vector<std::vector<std::string>>{{"t-0", "t-1"}, {"t-2", "t-3"}, {"t-4", "t-5"}});
  CHECK(partitions_of("kafka-3.5") ==
        std::vector<std::vector<std::string>>{{"t-0", "t-3"}, {"t-1", "t-4"}, {"t-2", "t-5"}});
}
