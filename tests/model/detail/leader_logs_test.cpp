// The leaders' logs on their own, with requests made by hand: the idempotent producer's
// sequence check (a duplicate answered without a second append, a gap refused), acks=all
// refused below min.insync.replicas while replicas are down (replication fixed), injected
// errors before and after the append, records readable as the high watermark passes them
// (never going back), and with followers the high watermark, a failover's truncation and the
// records never committed. Expectations counted by hand (kafka-consumer-spec §8, §9.2).

#include "model/detail/leader_logs.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "idle_replication_host.hpp"

using namespace partsim::model;
using namespace partsim::model::detail;
using partsim::model::testing::IdleReplicationHost;
using partsim::sim::SimTime;

namespace {

struct Listener final : ReadableListener {
  std::vector<std::size_t> told;
  void readable_changed(std::size_t log) override { told.push_back(log); }
};

/// A request of `producer` to broker 0 with one batch per (log, base sequence, records).
Request request(std::uint32_t producer, std::vector<RequestBatch> batches) {
  Request r;
  r.producer = producer;
  r.batches = static_cast<std::int32_t>(batches.size());
  for (const RequestBatch& b : batches) {
    std::vector<LogRecord>& tagged = r.tagged.emplace_back();
    for (std::int32_t i = 0; i < b.records; ++i)
      tagged.push_back(LogRecord{LogRecord::kNullKey, static_cast<std::int32_t>(producer), i, SimTime::zero(),
                                 SimTime::zero()});
  }
  r.described = std::move(batches);
  return r;
}

RequestBatch batch(std::uint32_t log, std::int32_t base_sequence, std::int32_t records) {
  return RequestBatch{log, base_sequence, records, 100 * records, kNoBatch};
}

// Three brokers; topic "t" of 2 partitions, RF 3, min.insync.replicas 2; producer 0
// idempotent with acks=all, producer 1 acks=1. Logs kept.
struct LeadersFixture {
  Scenario s;
  RunOptions options;
  SimTime clock = SimTime::zero();
  std::vector<std::size_t> topic_of{0, 0};
  std::vector<std::size_t> first_row{0};
  std::vector<std::int32_t> count{2};
  std::vector<char> up{1, 1, 1};
  Listener listener;

  LeadersFixture() {
    for (std::int32_t b = 0; b < 3; ++b) {
      BrokerConfig bc;
      bc.id = b;
      s.brokers.push_back(bc);
    }
    TopicConfig t;
    t.partitions = 2;
    t.replication_factor = 3;
    t.min_insync = 2;
    s.topics = {t};
    s.producers.resize(2);
    s.producers[0].config.idempotence = true;
    s.producers[0].config.acks = Acks::kAll;
    s.producers[1].config.idempotence = false;
    s.producers[1].config.acks = Acks::kLeader;
  }

  // Built on first use, once the test has set up `s`.
  std::optional<RunRecorder> recorder;
  std::optional<Leadership> leadership;
  std::optional<LeaderLogs> leaders;
  Leadership& leaders_of_partitions() {
    if (!leadership) leadership.emplace(s.topics, 3);
    return *leadership;
  }
  /// The leaders' logs (logs kept), with the followers' model `replication` or none.
  LeaderLogs& logs(Replication* replication = nullptr) {
    recorder.emplace(s, options, clock, RunLayout{topic_of, first_row, count}, std::vector<bool>{false});
    leaders.emplace(s, LeaderLogs::Keeping{true, true}, 2, first_row, leaders_of_partitions(), up, replication,
                    *recorder, listener, std::pmr::new_delete_resource());
    return *leaders;
  }
  const ProduceErrorCounts& errors() const { return recorder->result().produce_errors; }
  /// A request of `producer` with `batches` served at `at_ms` (records readable at
  /// `readable_ms`, replication fixed), its id counting up; returns the answer's errors.
  std::vector<ProduceError> serve(std::uint32_t producer, std::vector<RequestBatch> batches, ProduceError injected,
                                  double at_ms, double readable_ms) {
    Request r = request(producer, std::move(batches));
    r.acks_all = s.producers[producer].config.acks == Acks::kAll;  // what the producer's requests carry
    r.idempotent = s.producers[producer].config.idempotence;
    leaders->serve(next_id++, r, injected, SimTime::from_ms(at_ms), SimTime::from_ms(readable_ms));
    return r.errors;
  }
  std::uint64_t next_id = 1;
};

std::size_t records_in(const LeaderLogs& l, std::size_t log) { return l.logs()->partitions[log].records.size(); }

}  // namespace

TEST_CASE("an idempotent producer's duplicate is answered without a second append, a gap is refused") {
  LeadersFixture f;
  LeaderLogs& leaders = f.logs();
  const std::vector<ProduceError> first = f.serve(0, {batch(0, 0, 3)}, ProduceError::kNone, 1, 2);
  CHECK(first.empty());
  CHECK(records_in(leaders, 0) == 3);
  const std::vector<ProduceError> again =
      f.serve(0, {batch(0, 0, 3)}, ProduceError::kNone, 5, 6);  // a retry of the same batch
  CHECK(again.empty());
  CHECK(records_in(leaders, 0) == 3);
  CHECK(f.errors().duplicates == 1);
  const std::vector<ProduceError> gap =
      f.serve(0, {batch(0, 5, 1), batch(1, 0, 2)}, ProduceError::kNone, 7, 8);  // 3 and 4 are missing on log 0
  REQUIRE(gap.size() == 2);
  CHECK(gap[0] == ProduceError::kOutOfOrderSequenceNumber);
  CHECK(gap[1] == ProduceError::kNone);
  CHECK(records_in(leaders, 0) == 3);
  CHECK(records_in(leaders, 1) == 2);
  CHECK(f.errors().out_of_order == 1);
  // The producer bumped its epoch (a gap): the leader forgets it, sequence 0 appends again.
  leaders.sequence_gap(0, 0);
  const std::vector<ProduceError> fresh = f.serve(0, {batch(0, 0, 1)}, ProduceError::kNone, 9, 9);
  CHECK(fresh.empty());
  CHECK(records_in(leaders, 0) == 4);
}

TEST_CASE("replication fixed: acks=all is refused below min.insync.replicas, acks=1 is not") {
  LeadersFixture f;
  LeaderLogs& leaders = f.logs();
  f.up = {1, 0, 1};  // 2 of 3 replicas live: min.insync.replicas 2 holds
  const std::vector<ProduceError> two = f.serve(0, {batch(0, 0, 1)}, ProduceError::kNone, 1, 1);
  CHECK(two.empty());
  f.up = {1, 0, 0};  // 1 live
  const std::vector<ProduceError> one = f.serve(0, {batch(0, 1, 1)}, ProduceError::kNone, 2, 2);
  REQUIRE(one.size() == 1);
  CHECK(one[0] == ProduceError::kNotEnoughReplicas);
  CHECK(f.errors().not_enough_replicas == 1);
  CHECK(records_in(leaders, 0) == 1);
  const std::vector<ProduceError> leader_only = f.serve(1, {batch(0, -1, 2)}, ProduceError::kNone, 3, 3);
  CHECK(leader_only.empty());
  CHECK(records_in(leaders, 0) == 3);
}

TEST_CASE("an injected error refuses every batch, appended only when the error says the leader appended") {
  LeadersFixture f;
  LeaderLogs& leaders = f.logs();
  const std::vector<ProduceError> before =
      f.serve(1, {batch(0, -1, 1), batch(1, -1, 1)}, ProduceError::kNotLeaderOrFollower, 1, 1);
  CHECK(before == std::vector<ProduceError>(2, ProduceError::kNotLeaderOrFollower));
  CHECK(records_in(leaders, 0) + records_in(leaders, 1) == 0);
  const std::vector<ProduceError> after =
      f.serve(1, {batch(0, -1, 1), batch(1, -1, 1)}, ProduceError::kRequestTimedOut, 2, 2);
  CHECK(after == std::vector<ProduceError>(2, ProduceError::kRequestTimedOut));
  CHECK(records_in(leaders, 0) + records_in(leaders, 1) == 2);
  CHECK(f.errors().injected == 4);
}

TEST_CASE("records are readable as the high watermark passes them, which never goes back") {
  LeadersFixture f;
  LeaderLogs& leaders = f.logs();
  const std::vector<ProduceError> slow =
      f.serve(0, {batch(0, 0, 1)}, ProduceError::kNone, 1, 9);  // acks=all: readable once replicated, at 9 ms
  const std::vector<ProduceError> fast =
      f.serve(1, {batch(0, -1, 1)}, ProduceError::kNone, 2, 2);  // appended behind it at 2 ms: waits for it
  const auto& records = leaders.logs()->partitions[0].records;
  REQUIRE(records.size() == 2);
  CHECK(records[0].readable == SimTime::ms(9));
  CHECK(records[1].readable == SimTime::ms(9));
  CHECK(f.listener.told == std::vector<std::size_t>{0, 0});
}

TEST_CASE("followers: readable at the high watermark, a failover truncates past it, the rest is never committed") {
  LeadersFixture f;
  f.s.replication.mode = ReplicationConfig::Mode::kFollowers;
  IdleReplicationHost host;
  Replication replication(f.s, f.leaders_of_partitions(), host);
  LeaderLogs& leaders = f.logs(&replication);
  // Partition 0 is led by broker 0; three batches of 1 record (100 bytes each).
  for (std::int32_t i = 0; i < 3; ++i) CHECK(f.serve(1, {batch(0, -1, 1)}, ProduceError::kNone, 1 + i, 1 + i).empty());
  const auto& records = leaders.logs()->partitions[0].records;
  REQUIRE(records.size() == 3);
  CHECK(records[0].readable == SimTime::max());
  CHECK(leaders.unreplicated());
  leaders.high_watermark_moved(0, 100, SimTime::ms(10));  // the first batch is in every follower
  CHECK(records[0].readable == SimTime::ms(10));
  CHECK(records[1].readable == SimTime::max());
  leaders.log_truncated(0, 200);  // the new leader has the second batch, not the third
  CHECK(records.size() == 2);
  CHECK(leaders.records_truncated() == 1);
  leaders.finish();  // the second never became readable
  CHECK(records.size() == 1);
  CHECK(leaders.records_uncommitted() == 1);
  CHECK_FALSE(leaders.unreplicated());
}
