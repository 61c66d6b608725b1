// The leaders' logs on their own, with requests made by hand: the idempotent producer's
// sequence check (a duplicate answered without a second append, a gap refused), acks=all
// refused below min.insync.replicas while replicas are down (replication fixed), injected
// errors before and after the append, records readable as the high watermark passes them
// (never going back), and with followers the high watermark, a failover's truncation and the
// records never committed. Expectations counted by hand (kafka-consumer-spec §8, §9.2).

#include "model/detail/leader_logs.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace partsim::model;
using namespace partsim::model::detail;
using partsim::sim::SimTime;

namespace {

struct Listener final : ReadableListener {
  std::vector<std::size_t> told;
  void readable_changed(std::size_t log) override { told.push_back(log); }
};

struct NoFetches final : ReplicationHost {
  void schedule_fetch(Step, std::uint32_t, std::uint64_t, SimTime) override {}
  void acks_settled(std::uint64_t) override {}
  void ack_error(std::uint64_t, std::size_t, ProduceError) override {}
  std::int64_t records_acked() const override { return 0; }
  void high_watermark_moved(std::size_t, std::int64_t) override {}
  void log_truncated(std::size_t, std::int64_t) override {}
};

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

std::size_t records_in(const LeaderLogs& l, std::size_t log) { return l.logs()->partitions[log].records.size(); }

}  // namespace

TEST_CASE("an idempotent producer's duplicate is answered without a second append, a gap is refused") {
  LeadersFixture f;
  RunRecorder recorder(f.s, f.options, f.clock, RunLayout{f.topic_of, f.first_row, f.count}, {false});
  const Leadership leadership(f.s.topics, 3);
  LeaderLogs leaders(f.s, {true, true}, 2, f.first_row, leadership, f.up, nullptr, recorder, f.listener,
                     std::pmr::new_delete_resource());
  Request first = request(0, {batch(0, 0, 3)});
  leaders.serve(1, first, ProduceError::kNone, SimTime::ms(1), SimTime::ms(2));
  CHECK(first.errors.empty());
  CHECK(records_in(leaders, 0) == 3);
  Request again = request(0, {batch(0, 0, 3)});  // a retry of the same batch
  leaders.serve(2, again, ProduceError::kNone, SimTime::ms(5), SimTime::ms(6));
  CHECK(again.errors.empty());
  CHECK(records_in(leaders, 0) == 3);
  CHECK(recorder.result().produce_errors.duplicates == 1);
  Request gap = request(0, {batch(0, 5, 1), batch(1, 0, 2)});  // 3 and 4 are missing on log 0
  leaders.serve(3, gap, ProduceError::kNone, SimTime::ms(7), SimTime::ms(8));
  REQUIRE(gap.errors.size() == 2);
  CHECK(gap.errors[0] == ProduceError::kOutOfOrderSequenceNumber);
  CHECK(gap.errors[1] == ProduceError::kNone);
  CHECK(records_in(leaders, 0) == 3);
  CHECK(records_in(leaders, 1) == 2);
  CHECK(recorder.result().produce_errors.out_of_order == 1);
  // The producer bumped its epoch (a gap): the leader forgets it, sequence 0 appends again.
  leaders.sequence_gap(0, 0);
  Request fresh = request(0, {batch(0, 0, 1)});
  leaders.serve(4, fresh, ProduceError::kNone, SimTime::ms(9), SimTime::ms(9));
  CHECK(fresh.errors.empty());
  CHECK(records_in(leaders, 0) == 4);
}

TEST_CASE("replication fixed: acks=all is refused below min.insync.replicas, acks=1 is not") {
  LeadersFixture f;
  RunRecorder recorder(f.s, f.options, f.clock, RunLayout{f.topic_of, f.first_row, f.count}, {false});
  const Leadership leadership(f.s.topics, 3);
  LeaderLogs leaders(f.s, {true, true}, 2, f.first_row, leadership, f.up, nullptr, recorder, f.listener,
                     std::pmr::new_delete_resource());
  f.up = {1, 0, 1};  // 2 of 3 replicas live: min.insync.replicas 2 holds
  Request two = request(0, {batch(0, 0, 1)});
  leaders.serve(1, two, ProduceError::kNone, SimTime::ms(1), SimTime::ms(1));
  CHECK(two.errors.empty());
  f.up = {1, 0, 0};  // 1 live
  Request one = request(0, {batch(0, 1, 1)});
  leaders.serve(2, one, ProduceError::kNone, SimTime::ms(2), SimTime::ms(2));
  REQUIRE(one.errors.size() == 1);
  CHECK(one.errors[0] == ProduceError::kNotEnoughReplicas);
  CHECK(recorder.result().produce_errors.not_enough_replicas == 1);
  CHECK(records_in(leaders, 0) == 1);
  Request leader_only = request(1, {batch(0, -1, 2)});
  leaders.serve(3, leader_only, ProduceError::kNone, SimTime::ms(3), SimTime::ms(3));
  CHECK(leader_only.errors.empty());
  CHECK(records_in(leaders, 0) == 3);
}

TEST_CASE("an injected error refuses every batch, appended only when the error says the leader appended") {
  LeadersFixture f;
  RunRecorder recorder(f.s, f.options, f.clock, RunLayout{f.topic_of, f.first_row, f.count}, {false});
  const Leadership leadership(f.s.topics, 3);
  LeaderLogs leaders(f.s, {true, true}, 2, f.first_row, leadership, f.up, nullptr, recorder, f.listener,
                     std::pmr::new_delete_resource());
  Request before = request(1, {batch(0, -1, 1), batch(1, -1, 1)});
  leaders.serve(1, before, ProduceError::kNotLeaderOrFollower, SimTime::ms(1), SimTime::ms(1));
  CHECK(before.errors == std::vector<ProduceError>(2, ProduceError::kNotLeaderOrFollower));
  CHECK(records_in(leaders, 0) + records_in(leaders, 1) == 0);
  Request after = request(1, {batch(0, -1, 1), batch(1, -1, 1)});
  leaders.serve(2, after, ProduceError::kRequestTimedOut, SimTime::ms(2), SimTime::ms(2));
  CHECK(after.errors == std::vector<ProduceError>(2, ProduceError::kRequestTimedOut));
  CHECK(records_in(leaders, 0) + records_in(leaders, 1) == 2);
  CHECK(recorder.result().produce_errors.injected == 4);
}

TEST_CASE("records are readable as the high watermark passes them, which never goes back") {
  LeadersFixture f;
  RunRecorder recorder(f.s, f.options, f.clock, RunLayout{f.topic_of, f.first_row, f.count}, {false});
  const Leadership leadership(f.s.topics, 3);
  LeaderLogs leaders(f.s, {true, true}, 2, f.first_row, leadership, f.up, nullptr, recorder, f.listener,
                     std::pmr::new_delete_resource());
  Request slow = request(0, {batch(0, 0, 1)});  // acks=all: readable once replicated, at 9 ms
  leaders.serve(1, slow, ProduceError::kNone, SimTime::ms(1), SimTime::ms(9));
  Request fast = request(1, {batch(0, -1, 1)});  // appended behind it at 2 ms: waits for it
  leaders.serve(2, fast, ProduceError::kNone, SimTime::ms(2), SimTime::ms(2));
  const auto& records = leaders.logs()->partitions[0].records;
  REQUIRE(records.size() == 2);
  CHECK(records[0].readable == SimTime::ms(9));
  CHECK(records[1].readable == SimTime::ms(9));
  CHECK(f.listener.told == std::vector<std::size_t>{0, 0});
}

TEST_CASE("followers: readable at the high watermark, a failover truncates past it, the rest is never committed") {
  LeadersFixture f;
  f.s.replication.mode = ReplicationConfig::Mode::kFollowers;
  RunRecorder recorder(f.s, f.options, f.clock, RunLayout{f.topic_of, f.first_row, f.count}, {false});
  Leadership leadership(f.s.topics, 3);
  NoFetches host;
  Replication replication(f.s, leadership, host);
  LeaderLogs leaders(f.s, {true, true}, 2, f.first_row, leadership, f.up, &replication, recorder, f.listener,
                     std::pmr::new_delete_resource());
  // Partition 0 is led by broker 0; three batches of 1 record (100 bytes each).
  for (std::int32_t i = 0; i < 3; ++i) {
    Request r = request(1, {batch(0, -1, 1)});
    leaders.serve(static_cast<std::uint64_t>(i), r, ProduceError::kNone, SimTime::ms(1 + i), SimTime::ms(1 + i));
    CHECK(r.errors.empty());
  }
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
