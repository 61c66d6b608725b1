// Partition increases during a run (a topic's schedule, issue 14): the loader refuses what
// Kafka's CreatePartitions refuses, with its messages; each producer switches to the new
// count at its first metadata refresh at or after the change (lastRefresh +
// metadata.max.age.ms, kafka-consumer-spec §6.2) and partitions by the old count until
// then; a group with auto.offset.reset=latest skips what was written to a new partition
// before it was assigned (§5.2).

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "model/partitioners/key_hash.hpp"
#include "scenarios/error_of.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::error_of;
using partsim::testing::run_with_logs;

namespace {

// One producer, 1 record per ms (sends at 0, 1, 2, ... ms), 40 keys in turn; the topic
// grows from 4 to 8 partitions at 5000 ms; sending stops at 10000 ms.
std::string one_producer(const std::string& age, const std::string& consumers = "") {
  return R"(
run: {duration.ms: 10000, trace: 0}
cluster: {brokers: [{id: 0}, {id: 1}]}
topics:
  - name: events
    partitions: 4
    schedule: [{at.ms: 5000, set.partitions: 8}]
producers:
  - name: app
    config: {metadata.max.age.ms: )" +
         age + R"(}
    workload:
      topic: events
      arrivals: {kind: constant, rate: 1000}
      keys: {kind: template, template: "k{i}", cardinality: 40}
)" + consumers;
}

model::RunResult run_text(const std::string& text) {
  const auto s = scenarios::load_scenario_text(text, "inline");
  return run_with_logs(s, 1);
}

std::int32_t partition_of(const std::string& key, std::int32_t n) {
  return model::to_positive(model::murmur2(key)) % n;
}

}  // namespace

TEST_CASE("a schedule that shrinks or keeps a topic's partition count is refused with Kafka's messages") {
  const std::string decrease = R"(run: {records: 10}
cluster: {brokers: [{id: 0}]}
topics:
  - name: events
    partitions: 4
    schedule: [{at.ms: 1000, set.partitions: 8}, {at.ms: 5000, set.partitions: 4}]
producers:
  - workload: {topic: events}
)";
  CHECK(
      error_of([&] { scenarios::load_scenario_text(decrease, "inline"); }) ==
      "inline:6:80: topics.0.schedule.1.set.partitions: The topic events currently has 8 partition(s); 4 would not be an increase.");
  const std::string unchanged = R"(run: {records: 10}
cluster: {brokers: [{id: 0}]}
topics:
  - name: events
    partitions: 8
    schedule:
      - {at.ms: 5000, set.partitions: 8}
producers:
  - workload: {topic: events}
)";
  CHECK(error_of([&] { scenarios::load_scenario_text(unchanged, "inline"); }) ==
        "inline:7:39: topics.0.schedule.0.set.partitions: Topic already has 8 partition(s).");
  // Steps apply in time order, not in the order written.
  const std::string out_of_order = R"(run: {records: 10}
cluster: {brokers: [{id: 0}]}
topics:
  - name: events
    partitions: 4
    schedule: [{at.ms: 9000, set.partitions: 12}, {at.ms: 1000, set.partitions: 8}]
producers:
  - workload: {topic: events}
)";
  CHECK(error_of([&] { scenarios::load_scenario_text(out_of_order, "inline"); }).empty());
}

TEST_CASE("a producer switches to the new count at its first refresh at or after the change") {
  // metadata.max.age.ms 1000: refreshes at 1000, 2000, ..., 5000; the step at 5000 comes
  // first, so the refresh at 5000 sees 8 partitions, before the send at 5000.
  const auto fast = run_text(one_producer("1000"));
  REQUIRE(fast.repartition);
  REQUIRE(fast.repartition->changes.size() == 1);
  CHECK(fast.repartition->changes[0].at_ms == 5000);
  CHECK(fast.repartition->changes[0].from == 4);
  CHECK(fast.repartition->changes[0].to == 8);
  REQUIRE(fast.repartition->producers.size() == 1);
  CHECK(fast.repartition->producers[0].saw_new_count_at_ms == 5000);
  CHECK(fast.repartition->records_old_rule_after_change == 0);
  // 3000: refreshes at 3000 and 6000, so the sends at 5000 ... 5999 ms (1000 records) still
  // hash over 4 partitions.
  const auto slow = run_text(one_producer("3000"));
  CHECK(slow.repartition->producers[0].saw_new_count_at_ms == 6000);
  CHECK(slow.repartition->records_old_rule_after_change == 1000);
  // Kafka's default, 300000: not within the 10 s of sending.
  const auto never = run_text(one_producer("300000"));
  CHECK_FALSE(never.repartition->producers[0].saw_new_count_at_ms.has_value());
  CHECK(never.repartition->records_old_rule_after_change == 5000);
  // Two steps, 4 -> 8 at 5000 and 8 -> 12 at 9500, refreshes every 3000: the producer sees 8
  // at 6000 and never 12 (its next refresh, 12000, is after the run): no time, no window.
  std::string two = one_producer("3000");
  two.replace(two.find("[{at.ms: 5000, set.partitions: 8}]"), 34,
              "[{at.ms: 5000, set.partitions: 8}, {at.ms: 9500, set.partitions: 12}]");
  const auto stepped = run_text(two);
  REQUIRE(stepped.repartition->changes.size() == 2);
  CHECK_FALSE(stepped.repartition->producers[0].saw_new_count_at_ms.has_value());
  // Records before the switch by the old count, after it by the new one.
  REQUIRE(slow.logs);
  for (std::size_t p = 0; p < slow.logs->partitions.size(); ++p)
    for (const auto& rec : slow.logs->partitions[p].records) {
      const std::string& key = slow.logs->keys[static_cast<std::size_t>(rec.key)];
      CHECK(static_cast<std::int32_t>(p) == partition_of(key, rec.sent < sim::SimTime::ms(6000) ? 4 : 8));
    }
}

TEST_CASE("keys split: the keys whose partition under 8 differs from the one under 4") {
  const auto r = run_text(one_producer("1000"));
  std::int64_t moved = 0;
  for (int i = 0; i < 40; ++i)
    moved += partition_of("k" + std::to_string(i), 4) != partition_of("k" + std::to_string(i), 8) ? 1 : 0;
  CHECK(moved > 0);
  CHECK(r.repartition->keys_split == moved);
  CHECK_FALSE(r.repartition->keys_out_of_order.has_value());  // no consumer group
  CHECK(r.partitions.size() == 8);
}

TEST_CASE("auto.offset.reset=latest skips what was written to a new partition before the group was assigned it") {
  // The classic group refreshes every 20000 ms: it learns of the new partitions at 20000,
  // after the last record (sent before 10000), so latest skips every record of partitions
  // 4..7: those of the sends from 5000 ms on whose key hashes there under 8.
  const std::string group = R"(consumers:
  - group: readers
    topics: [events]
    members: 2
    config: {auto.offset.reset: RESET, metadata.max.age.ms: 20000}
)";
  std::int64_t expected = 0;
  for (std::int64_t k = 5000; k < 10000; ++k) expected += partition_of("k" + std::to_string(k % 40), 8) >= 4 ? 1 : 0;
  REQUIRE(expected > 0);
  auto with = [&](const std::string& reset) {
    std::string g = group;
    g.replace(g.find("RESET"), 5, reset);
    return run_text(one_producer("1000", g));
  };
  const auto latest = with("latest");
  REQUIRE(latest.consumer_groups.size() == 1);
  CHECK(latest.repartition->records_skipped_latest == expected);
  CHECK(latest.consumer_groups[0].records_unconsumed == expected);
  const auto earliest = with("earliest");
  CHECK(earliest.repartition->records_skipped_latest == 0);
  CHECK(earliest.consumer_groups[0].records_unconsumed == 0);
  // A KIP-848 group learns at once (the coordinator sees the new partitions at 5000 ms):
  // it skips only what came before its members' next heartbeats.
  std::string kip848 = group;
  kip848.replace(kip848.find("RESET"), 5, "latest, group.protocol: consumer");
  const auto at_once = run_text(one_producer("1000", kip848));
  CHECK(at_once.repartition->records_skipped_latest > 0);
  CHECK(at_once.repartition->records_skipped_latest < expected);
  CHECK(at_once.consumer_groups[0].records_unconsumed == at_once.repartition->records_skipped_latest);
  CHECK(at_once.consumer_groups[0].rebalances.size() == 2);  // the start, then the new partitions
  // Without commits every assignment resets to latest, the old partitions' too at the
  // rebalance: what the group processed before is not skipped again; what it had not
  // reached yet is. Every record the group never processed was skipped by a reset, once.
  std::string no_commit = group;
  no_commit.replace(no_commit.find("RESET"), 5, "latest, enable.auto.commit: false");
  const auto uncommitted = run_text(one_producer("1000", no_commit));
  CHECK(uncommitted.repartition->records_skipped_latest >= expected);
  CHECK(uncommitted.repartition->records_skipped_latest == uncommitted.consumer_groups[0].records_unconsumed);
}

TEST_CASE("a migration reads its topic's logs behind a topic that grows") {
  // Topic "other" grows from 2 to 5 partitions; the logs of "events" start after all five.
  const std::string text = R"(
run: {seed: 1, duration.ms: 3000}
cluster: {brokers: [{id: 0}, {id: 1}]}
topics:
  - {name: other, partitions: 2, schedule: [{at.ms: 1000, set.partitions: 5}]}
  - {name: events, partitions: 4}
  - {name: events-v2, partitions: 8}
producers:
  - name: o
    config: {metadata.max.age.ms: 500}
    workload: {topic: other, arrivals: {kind: constant, rate: 100}, keys: {kind: template, template: "x{i}", cardinality: 20}}
  - name: app
    workload: {topic: events, arrivals: {kind: constant, rate: 100}, keys: {kind: template, template: "k{i}", cardinality: 50}}
migration: {strategy: bridge, from: events, to: events-v2, at.ms: 1000}
)";
  const auto r = run_text(text);
  REQUIRE(r.migration);
  // The new topic holds the old one's records (copied) and what the producer sent it after
  // the switch.
  std::int64_t events = 0, direct = 0;
  for (const auto& p : r.partitions) {
    events += p.topic == "events" ? p.records : 0;
    direct += p.topic == "events-v2" ? p.records : 0;
  }
  CHECK(events > 0);
  CHECK(direct > 0);
  CHECK(r.migration->keys == 50);
  CHECK(r.migration->old_records == events);
  CHECK(r.migration->new_records == events + direct);
}

TEST_CASE("a step at 0 ms is seen by the producers' first refresh, at their start") {
  // docs/repartitioning.md: the first refresh is at the start (0 ms) and a step at the same time comes
  // first. At Kafka's default max age the next refresh would be at 300 s, after the run.
  std::string text = one_producer("300000");
  text.replace(text.find("{at.ms: 5000, set.partitions: 8}"), 32, "{at.ms: 0, set.partitions: 8}");
  const auto r = run_text(text);
  REQUIRE(r.repartition);
  REQUIRE(r.repartition->changes.size() == 1);
  CHECK(r.repartition->changes[0].at_ms == 0);
  REQUIRE(r.repartition->producers.size() == 1);
  CHECK(r.repartition->producers[0].saw_new_count_at_ms == 0);
  CHECK(r.repartition->records_old_rule_after_change == 0);
  // Every record, the one sent at 0 ms included, hashes over 8 partitions.
  REQUIRE(r.logs);
  std::int64_t records = 0;
  for (std::size_t p = 0; p < r.logs->partitions.size(); ++p)
    for (const auto& rec : r.logs->partitions[p].records) {
      ++records;
      CHECK(static_cast<std::int32_t>(p) == partition_of(r.logs->keys[static_cast<std::size_t>(rec.key)], 8));
    }
  CHECK(records == 10000);
}

TEST_CASE("a step after the run's end is warned about and never made: no rows, no statistics, no rebalance") {
  std::string text = one_producer("1000", R"(consumers:
  - group: readers
    topics: [events]
    members: 2
    config: {auto.offset.reset: earliest}
)");
  text.replace(text.find("{at.ms: 5000, set.partitions: 8}"), 32, "{at.ms: 1200000, set.partitions: 8}");
  std::vector<std::string> warnings;
  const auto s = scenarios::load_scenario_text(text, "inline", {}, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "inline:7:24: topics.0.schedule.0.at.ms: the step to 8 partitions at 1200000 ms is at or after the run's end "
        "(run.duration.ms 10000): it is never made, the topic keeps 4 partitions");
  const auto r = run_with_logs(s, 1);
  CHECK(r.partitions.size() == 4);
  CHECK_FALSE(r.repartition);
  REQUIRE(r.consumer_groups.size() == 1);
  for (const auto& rb : r.consumer_groups[0].rebalances) {  // the joins; none for new partitions at 1,200 s
    CHECK(rb.at_ms < 10000);
    CHECK(rb.cause.find("metadata") == std::string::npos);
  }
  for (const auto& p : r.partitions) CHECK(p.existed_ms == doctest::Approx(9999.0));
  // A run stopped by its records: the step comes once every producer has stopped, and is
  // not made either (its rows stay, existing 0 ms, out of the statistics).
  std::string counted = one_producer("1000");
  counted.replace(counted.find("duration.ms: 10000"), 18, "records: 1000");
  const auto c = run_text(counted);
  REQUIRE(c.repartition);
  CHECK(c.repartition->changes.empty());
  CHECK(c.simulated_ms < 5000);
  REQUIRE(c.partitions.size() == 8);
  for (std::size_t p = 0; p < 8; ++p) CHECK((p < 4 ? c.partitions[p].existed_ms > 0 : c.partitions[p].existed_ms == 0));
}

TEST_CASE("each partition's time in existence: from its step to the run's last send") {
  const auto r = run_text(one_producer("1000"));  // sends at 0 ... 9999 ms, 4 -> 8 at 5000
  REQUIRE(r.partitions.size() == 8);
  for (std::size_t p = 0; p < 8; ++p) CHECK(r.partitions[p].existed_ms == doctest::Approx(p < 4 ? 9999.0 : 4999.0));
}
