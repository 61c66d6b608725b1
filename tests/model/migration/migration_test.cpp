// The migration strategies (model/migration/): a bridge's order per key by routing, dual
// write's failed second sends, stop-replay's downtime, and the live bridge's catch-up and
// switch. Each case runs the producer simulation on a small workload (a second or so of
// simulated time, milliseconds of CPU).

#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <set>
#include <string>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "model/migration/migration.hpp"
#include "model/partitioners/key_hash.hpp"

using namespace partsim::model;
using partsim::sim::SimTime;

namespace {

// `keys` keys "k{i}", `events` records each (record i has key k{i mod keys}), at `rate`
// records/s into events (4 partitions); the migration copies them to events-v2 (8).
Scenario workload(std::int64_t keys, std::int64_t events, double rate, MigrationSpec::Strategy strategy) {
  Scenario s;
  s.name = "migration-test";
  for (std::int32_t b = 0; b < 3; ++b) {
    BrokerConfig bc;
    bc.id = b;
    s.brokers.push_back(bc);
  }
  s.topics = {TopicConfig{"events", 4, 1, {}}, TopicConfig{"events-v2", 8, 1, {}}};
  ProducerSpec p;
  p.name = "app";
  p.workload.topic = "events";
  p.workload.arrivals.records_per_second = rate;
  p.workload.keys.kind = KeySpec::Kind::kTemplate;
  p.workload.keys.key_template = "k{i}";
  p.workload.keys.cardinality = keys;
  s.producers.push_back(p);
  s.run.records = keys * events;
  s.run.trace = 0;
  MigrationSpec m;
  m.strategy = strategy;
  m.from = "events";
  m.to = "events-v2";
  s.migration = m;
  return s;
}

void add_jitter(Scenario& s, double mean_ms) {
  for (auto& b : s.brokers) {
    b.jitter.kind = Jitter::Kind::kExponential;
    b.jitter.mean_ms = mean_ms;
  }
}

migration::MigrationResult migrate(const Scenario& s, std::uint64_t seed = 1) {
  const RunResult r = run_scenario(s, seed);
  REQUIRE(r.migration.has_value());
  return *r.migration;
}

}  // namespace

TEST_CASE("a bridge of several round-robin threads breaks order per key; routed by key it keeps it") {
  // Five keys, so a key's records are about five apart in the bridge's read order:
  // round-robin hands neighbours to different threads whose writes race (broker jitter).
  Scenario s = workload(5, 200, 5000, MigrationSpec::Strategy::kBridge);
  s.migration->at = SimTime::ms(2000);
  s.migration->bridge.threads = 4;
  add_jitter(s, 2);
  s.migration->bridge.route = BridgeSpec::Route::kRoundRobin;
  const auto rr = migrate(s);
  CHECK(rr.records_migrated == 1000);
  CHECK(rr.order_violations > 0);
  CHECK(rr.keys_out_of_order > 0);
  CHECK(rr.keys_out_of_order <= rr.order_violations);
  s.migration->bridge.route = BridgeSpec::Route::kByKey;
  const auto by_key = migrate(s);
  CHECK(by_key.records_migrated == 1000);
  CHECK(by_key.order_violations == 0);
  // One thread keeps the order whatever the jitter.
  s.migration->bridge.threads = 1;
  s.migration->bridge.route = BridgeSpec::Route::kRoundRobin;
  CHECK(migrate(s).order_violations == 0);
}

TEST_CASE("the new topic routes keys by murmur2 over its own partition count") {
  Scenario s = workload(300, 2, 2000, MigrationSpec::Strategy::kBridge);
  s.migration->at = SimTime::ms(1000);
  const auto m = migrate(s);
  CHECK(m.keys == 300);
  CHECK(m.new_records == 600);
  CHECK(m.keys_with_all_events == 300);
  CHECK(m.stable);
  // From 4 to 8 partitions a key moves exactly when bit 2 of its hash is set (p mod 8 >= 4).
  std::int64_t moved = 0;
  for (int i = 0; i < 300; ++i) moved += (to_positive(murmur2("k" + std::to_string(i))) & 4) != 0 ? 1 : 0;
  CHECK(m.keys_changed_partition == moved);
  CHECK(m.sample_key == "k0");
  CHECK(m.sample_new == partition_for_key("k0", 8));
  CHECK(m.sample_old == partition_for_key("k0", 4));
}

TEST_CASE("dual write: a failed second send leaves its key inconsistent, and nothing else") {
  Scenario s = workload(500, 2, 2000, MigrationSpec::Strategy::kDualWrite);
  const auto clean = migrate(s);
  CHECK(clean.old_records == 1000);
  CHECK(clean.new_records == 1000);
  CHECK(clean.records_migrated == 1000);
  CHECK(clean.inconsistent_keys == 0);
  CHECK(clean.keys_with_all_events == 500);
  CHECK(clean.order_violations == 0);
  CHECK(clean.order_violations_old == 0);
  CHECK(clean.downtime_ms == 0);
  CHECK_FALSE(clean.has_bridge);
  s.migration->dual_write_failure_rate = 0.1;
  const auto failing = migrate(s);
  CHECK(failing.old_records == 1000);
  CHECK(failing.new_records < 1000);
  CHECK(failing.new_records > 800);  // about 900 expected: 0.1 of 1,000 sends, seed-dependent
  CHECK(failing.inconsistent_keys > 0);
  CHECK(failing.inconsistent_keys == failing.keys - failing.keys_with_all_events);
  // A key has two sends: at most one inconsistent key per failed second send.
  CHECK(failing.inconsistent_keys <= 1000 - failing.new_records);
  // Dual writes begin at at.ms: what was sent before stays in the old topic only.
  s.migration->dual_write_failure_rate = 0;
  s.migration->at = SimTime::ms(250);  // 2,000 records/s: about 500 records before
  const auto late = migrate(s);
  CHECK(late.new_records < 600);
  CHECK(late.new_records > 400);
  CHECK(late.inconsistent_keys == 0);
  CHECK(late.keys_with_all_events < 500);
}

TEST_CASE("stop-replay: producers stop at at.ms, downtime = replay + verify, more threads by key replay faster") {
  Scenario s = workload(1000, 2, 1000, MigrationSpec::Strategy::kStopReplay);
  s.migration->at = SimTime::ms(1000);  // about 1,000 of the 2,000 records sent by then
  const auto one = migrate(s);
  CHECK(one.old_records < 1100);
  CHECK(one.old_records > 900);
  CHECK(one.records_migrated == one.old_records);
  REQUIRE(one.has_bridge);
  // Single thread, send().get(): each record waits a round trip (1 ms), the request (0.1 ms)
  // and acks=all's replication (1 ms), so the replay takes about 2.1 ms per record.
  CHECK(one.downtime_ms == doctest::Approx(one.bridge.finished_ms - 1000));
  CHECK(one.downtime_ms > 2.0 * static_cast<double>(one.old_records));
  CHECK(one.downtime_ms < 2.2 * static_cast<double>(one.old_records) + 10);
  s.migration->verify = SimTime::ms(500);
  const auto verified = migrate(s);
  CHECK(verified.downtime_ms == doctest::Approx(one.downtime_ms + 500));
  s.migration->bridge.threads = 4;
  const auto four = migrate(s);
  CHECK(four.downtime_ms < verified.downtime_ms / 2);
  CHECK(four.order_violations == 0);
  CHECK(four.keys_with_all_events == four.keys);
}

TEST_CASE("a live bridge: backlog at start, catch-up, the switch, and records sent after it written directly") {
  Scenario s = workload(1000, 3, 1000, MigrationSpec::Strategy::kBridge);  // 3 s of sends
  s.migration->at = SimTime::ms(1000);
  // 8 writers by key (~2.1 ms a write: ~3,800 records/s) capped at 2,000 records/s: the
  // backlog shrinks at 2,000 - 1,000 records/s.
  s.migration->bridge.threads = 8;
  s.migration->bridge.records_per_second = 2000;
  s.migration->verify = SimTime::ms(200);
  const auto m = migrate(s);
  REQUIRE(m.has_bridge);
  CHECK(m.bridge.lag_at_start > 950);
  CHECK(m.bridge.lag_at_start < 1000);
  CHECK(m.bridge.max_lag >= m.bridge.lag_at_start);
  // The backlog of ~1,000 records shrinks by ~1,000/s: caught up about 1 s after the start.
  CHECK(m.bridge.catch_up_ms > 900);
  CHECK(m.bridge.catch_up_ms < 1200);
  CHECK(m.bridge.switch_ms == doctest::Approx(m.bridge.caught_up_ms + 200));
  // Everything sent before the switch is copied, the rest written directly: all 3,000 arrive.
  CHECK(m.new_records == 3000);
  CHECK(m.records_migrated == m.old_records);
  CHECK(m.records_migrated < 3000);
  CHECK(m.keys_with_all_events == 1000);
  CHECK(m.inconsistent_keys == 0);
  CHECK(m.downtime_ms == 0);
  CHECK(m.bridge.caught_up);
}

TEST_CASE("a bridge that catches up only once the producers stopped makes no switch") {
  Scenario s = workload(100, 2, 1000, MigrationSpec::Strategy::kBridge);  // 0.2 s of sends
  s.migration->at = SimTime::ms(100);
  s.migration->bridge.records_per_second = 100;  // far slower than the producers
  const auto m = migrate(s);
  REQUIRE(m.has_bridge);
  CHECK_FALSE(m.bridge.caught_up);
  CHECK(m.bridge.after_switch == 0);
  CHECK(m.old_records == 200);
  CHECK(m.records_migrated == 200);
  // Started with the producers still sending, it catches up in time when fast enough.
  s.migration->bridge.records_per_second = 0;
  s.migration->bridge.threads = 8;
  CHECK(migrate(s).bridge.caught_up);
}

TEST_CASE("a consumer group on the old topic reads what the bridge strategy left there") {
  Scenario s = workload(1000, 3, 1000, MigrationSpec::Strategy::kBridge);  // the live bridge above
  s.migration->at = SimTime::ms(1000);
  s.migration->bridge.threads = 8;
  s.migration->bridge.records_per_second = 2000;
  s.migration->verify = SimTime::ms(200);
  ConsumerGroupSpec g;
  g.group = "old-readers";
  g.topics = {"events"};
  g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kEarliest;
  s.consumers.push_back(g);
  g.group = "new-readers";
  g.topics = {"events-v2"};
  s.consumers.push_back(g);
  const RunResult r = run_scenario(s, 1);
  REQUIRE(r.migration.has_value());
  REQUIRE(r.consumer_groups.size() == 2);
  // Records sent after the switch went to the new topic only.
  CHECK(r.migration->old_records < 3000);
  CHECK(r.consumer_groups[0].records_consumed == r.migration->old_records);
  CHECK(r.consumer_groups[1].records_consumed == r.migration->new_records);
}

TEST_CASE("stop-replay stops only the producers of the old topic") {
  Scenario s = workload(1000, 2, 1000, MigrationSpec::Strategy::kStopReplay);  // 2 s of sends
  s.run.records.reset();
  s.producers[0].workload.records = 2000;
  s.topics.push_back(TopicConfig{"audit", 1, 1, {}});
  ProducerSpec side = s.producers[0];
  side.name = "side";
  side.workload.topic = "audit";
  s.producers.push_back(side);
  s.migration->at = SimTime::ms(1000);
  const RunResult r = run_scenario(s, 1);
  REQUIRE(r.migration.has_value());
  std::int64_t events = 0, audit = 0;
  for (const auto& p : r.partitions) (p.topic == "audit" ? audit : events) += p.records;
  CHECK(audit == 2000);
  // The old topic keeps what was sent before at.ms; the rest came after the resume and went
  // to the new topic (the partition statistics stay the producers' run: they count both).
  CHECK(r.migration->old_records < 1100);
  CHECK(r.migration->old_records + r.migration->records_after_resume == 2000);
  CHECK(events == 2000);
}

TEST_CASE(
    "stop-replay: the producers resume after the replay and verify.ms, writing to the new topic until the run ends") {
  // 1,000 records/s for 4 s, stopped at 1 s; 4 threads by key replay the ~1,000 records
  // (~0.5 s), then 200 ms of verification: the producers resume at switch_ms and send until
  // 4 s, their arrivals shifted by the downtime (the record due at 1 s goes at the resume).
  // Before, they never resumed: ~1,000 records sent in a 4 s run.
  Scenario s = workload(1000, 2, 1000, MigrationSpec::Strategy::kStopReplay);
  s.run.records.reset();
  s.run.duration = SimTime::ms(4000);
  s.migration->at = SimTime::ms(1000);
  s.migration->bridge.threads = 4;
  s.migration->verify = SimTime::ms(200);
  const RunResult r = run_scenario(s, 1);
  REQUIRE(r.migration.has_value());
  const auto& m = *r.migration;
  CHECK(m.old_records > 950);
  CHECK(m.old_records < 1050);
  CHECK(m.records_migrated == m.old_records);
  CHECK(m.downtime_ms == doctest::Approx(m.bridge.switch_ms - 1000));
  CHECK(m.downtime_ms > 200);
  CHECK(m.downtime_ms < 1500);
  // One record a millisecond from the resume to 4 s: 4000 - switch_ms of them (+-1 for the
  // edges), all of them in the new topic.
  const double resumed = 4000 - m.bridge.switch_ms;
  CHECK(static_cast<double>(m.records_after_resume) == doctest::Approx(resumed).epsilon(0.002));
  CHECK(r.records_sent == m.old_records + m.records_after_resume);
  CHECK(m.new_records == m.records_migrated + m.records_after_resume);
  CHECK(m.inconsistent_keys == 0);
  CHECK(m.keys_with_all_events == m.keys);
  CHECK(m.order_violations == 0);
  CHECK(m.duplicates == 0);
  CHECK(r.failed.total() == 0);
  CHECK(r.simulated_ms > 3990);
  // The same seed, the same run (the run is deterministic).
  CHECK(run_scenario(s, 1).migration->records_after_resume == m.records_after_resume);
}

TEST_CASE(
    "without keyed records the ratio is undefined; a key spread over old partitions changed only if it left them all") {
  Scenario s = workload(50, 4, 2000, MigrationSpec::Strategy::kBridge);
  s.producers[0].workload.keys.kind = KeySpec::Kind::kNone;
  const auto unkeyed = migrate(s);
  CHECK(unkeyed.keys == 0);
  CHECK_FALSE(unkeyed.ratio.has_value());
  // Round-robin over 4 partitions: key k{j} (records j, j+50, j+100, j+150) lands in two.
  // (A bridge too slow to catch up while the producer sends: no switch, the old topic's log
  // keeps every record, and the bridge writes each by its key's hash.)
  s = workload(50, 4, 2000, MigrationSpec::Strategy::kBridge);
  s.migration->at = SimTime::ms(50);  // ~100 records of backlog, copied at 100/s: the producer is done first
  s.migration->bridge.records_per_second = 100;
  s.producers[0].config.partitioner.kind = PartitionerKind::kRoundRobinFixed;
  RunOptions keep;
  keep.keep_logs = true;
  const RunResult r = run_scenario(s, 1, 0, keep);
  REQUIRE(r.migration.has_value());
  CHECK_FALSE(r.migration->bridge.caught_up);
  REQUIRE(r.logs != nullptr);
  std::map<std::string, std::set<std::int32_t>> old;
  for (std::size_t i = 0; i < 4; ++i)
    for (const auto& rec : r.logs->partitions[i].records)
      old[r.logs->keys[static_cast<std::size_t>(rec.key)]].insert(static_cast<std::int32_t>(i));
  std::int64_t changed = 0, spread = 0;
  for (const auto& [key, parts] : old) {
    changed += parts.count(partition_for_key(key, 8)) == 0 ? 1 : 0;
    spread += parts.size() > 1 ? 1 : 0;
  }
  CHECK(spread == 50);
  CHECK(changed > 0);
  CHECK(changed < 50);
  CHECK(r.migration->keys_changed_partition == changed);
  REQUIRE(r.migration->ratio.has_value());
  CHECK(*r.migration->ratio == doctest::Approx(static_cast<double>(changed) / 50));
}

TEST_CASE("a bridge's pace saturates at the end of simulated time instead of overflowing") {
  const SimTime start = SimTime::ms(5);
  CHECK(migration::paced(start, 0, 1e-300) == start);
  CHECK(migration::paced(start, 3, 2) == SimTime::ms(1505));
  CHECK(migration::paced(start, 1, 1e-6) == start + SimTime::ns(1'000'000'000'000'000));
  CHECK(migration::paced(start, 10'000'000, 1e-6) == SimTime::ns(1'000'000'000'000'000'000));
  CHECK(migration::paced(start, 1'000'000, 1e-300) == SimTime::ns(1'000'000'000'000'000'000));
}

TEST_CASE("a migration is deterministic for a seed") {
  Scenario s = workload(5, 200, 5000, MigrationSpec::Strategy::kBridge);
  s.migration->bridge.threads = 3;
  s.migration->bridge.route = BridgeSpec::Route::kRoundRobin;
  add_jitter(s, 2);
  const auto a = migrate(s, 7), b = migrate(s, 7);
  CHECK(a.order_violations == b.order_violations);
  CHECK(a.bridge.finished_ms == b.bridge.finished_ms);
}

TEST_CASE("a consumer group reads the new topic as the migration left it, order per key included") {
  Scenario s = workload(5, 200, 5000, MigrationSpec::Strategy::kBridge);
  s.migration->at = SimTime::ms(2000);
  s.migration->bridge.threads = 4;
  s.migration->bridge.route = BridgeSpec::Route::kRoundRobin;
  add_jitter(s, 2);
  ConsumerGroupSpec g;
  g.group = "readers";
  g.topics = {"events-v2"};
  g.members = 1;
  g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kEarliest;
  s.consumers.push_back(g);
  const RunResult rr = run_scenario(s, 1);
  REQUIRE(rr.migration.has_value());
  REQUIRE(rr.consumer_groups.size() == 1);
  CHECK(rr.consumer_groups[0].records_consumed == 1000);
  // The consumer sees the order the bridge wrote: broken by round-robin writers.
  CHECK(rr.consumer_groups[0].order_violations == rr.migration->order_violations);
  CHECK(rr.consumer_groups[0].order_violations > 0);
  s.migration->bridge.route = BridgeSpec::Route::kByKey;
  const RunResult by_key = run_scenario(s, 1);
  CHECK(by_key.consumer_groups[0].records_consumed == 1000);
  CHECK(by_key.consumer_groups[0].order_violations == 0);
}

TEST_CASE("a run with a migration stops at a cancel request and is marked partial") {
  // Ctrl-C or SIGTERM: the migration runs in the event loop, which sees the request within a
  // few thousand events.
  for (const auto strategy :
       {MigrationSpec::Strategy::kBridge, MigrationSpec::Strategy::kDualWrite, MigrationSpec::Strategy::kStopReplay}) {
    CAPTURE(static_cast<int>(strategy));
    Scenario s = workload(5, 100, 5000, strategy);
    s.migration->at = SimTime::ms(50);
    CHECK_FALSE(run_scenario(s, 1).partial);
    const std::atomic<bool> stop{true};
    RunOptions cancel;
    cancel.cancel = &stop;
    CHECK(run_scenario(s, 1, 0, cancel).partial);
  }
}

TEST_CASE("migration order is per key and producer: records of one key from two producers are not compared") {
  // Kafka orders nothing across producers: producer 1's record of k0, sent before producer
  // 0's, may follow it in the log. Here both topics hold the two sends in the same order.
  Scenario s = workload(1, 2, 1000, MigrationSpec::Strategy::kDualWrite);
  s.migration->at = SimTime::zero();
  BrokerLogs logs;
  logs.partitions.resize(12);  // events' 4 partitions, then events-v2's 8
  const std::int32_t k = logs.intern("k0");
  const auto record = [&](std::int32_t producer, std::int64_t send_index, double sent_ms, double readable_ms) {
    LogRecord r;
    r.key = k;
    r.producer = producer;
    r.send_index = send_index;
    r.sent = SimTime::from_ms(sent_ms);
    r.readable = SimTime::from_ms(readable_ms);
    return r;
  };
  const migration::Timeline timeline;
  logs.partitions[0].records = {record(0, 0, 2, 3), record(1, 0, 1, 4)};
  logs.partitions[4].records = logs.partitions[0].records;
  const auto two = migration::figures(s, logs, 0, 4, timeline);
  CHECK(two.new_records == 2);
  CHECK(two.order_violations == 0);
  CHECK(two.order_violations_old == 0);
  CHECK(two.keys_with_all_events == 1);
  // One producer's two records of k0 logged in reverse send order: a violation in each topic.
  logs.partitions[0].records = {record(0, 1, 2, 3), record(0, 0, 1, 4)};
  logs.partitions[4].records = logs.partitions[0].records;
  const auto one = migration::figures(s, logs, 0, 4, timeline);
  CHECK(one.order_violations == 1);
  CHECK(one.order_violations_old == 1);
  CHECK(one.keys_out_of_order == 1);
  // A second send that never reached the new topic leaves the key inconsistent; one held
  // twice there is a duplicate.
  logs.partitions[4].records = {record(0, 1, 2, 3), record(0, 1, 2, 5)};
  const auto gap = migration::figures(s, logs, 0, 4, timeline);
  CHECK(gap.inconsistent_keys == 1);
  CHECK(gap.keys_with_all_events == 0);
  CHECK(gap.duplicates == 1);
}

TEST_CASE("the new topic may grow during a migration: the producer on it sees its new partitions at a refresh") {
  // The bridge catches up within a second of at.ms and the application moves to the new
  // topic, which grows from 4 to 8 partitions at 2 s; the application's producer there
  // (metadata.max.age.ms 500) sees the new partitions by 2.5 s and writes them: its keys,
  // copied by the old count's rule, now land elsewhere too.
  Scenario s = workload(100, 30, 1000, MigrationSpec::Strategy::kBridge);  // 3 s of sends
  s.topics[1] = TopicConfig{"events-v2", 4, 1, {}};
  TopicChange grow;
  grow.at = SimTime::ms(2000);
  grow.partitions = 8;
  s.topics[1].schedule.push_back(grow);
  s.producers[0].config.metadata_max_age = SimTime::ms(500);
  s.migration->at = SimTime::ms(500);
  s.migration->bridge.threads = 8;
  const RunResult r = run_scenario(s, 1);
  REQUIRE(r.migration.has_value());
  CHECK(r.migration->bridge.caught_up);
  CHECK(r.migration->bridge.switch_ms < 2000);
  CHECK(r.migration->to_partitions == 8);
  std::int64_t added = 0;
  for (const auto& p : r.partitions)
    if (p.topic == "events-v2" && p.partition >= 4) added += p.records;
  CHECK(added > 0);
  CHECK_FALSE(r.migration->stable);  // a key in a partition of 4, then of 8
  CHECK(r.migration->keys_with_all_events == r.migration->keys);
  REQUIRE(r.repartition.has_value());
  CHECK(r.repartition->changes.size() == 1);
}
