// The application's commits (ConsumerGroupSpec::commit), auto.offset.reset by_duration,
// static membership (group.instance.id) and the group's end after the run, in the consumer
// group simulation.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "group_logs.hpp"
#include "model/consumer/consumer_simulation.hpp"

using namespace partsim::model;
using namespace partsim::model::consumer;
using namespace partsim::model::consumer::testing;

namespace {

ConsumerGroupSpec group_ms(std::int32_t members, double processing_ms) {
  return group_from_earliest(members, SimTime::from_ms(processing_ms));
}

using Commit = ConsumerGroupSpec::Commit;

/// Two partitions of 200 records, all readable at 1 ms; two members processing 1 ms a
/// record, 100 a poll, without auto commit; c1 crashes at 150 ms, in its second batch.
GroupRun crash_run(Commit commit) {
  GroupLogs f(2);
  for (int i = 0; i < 400; ++i) f.add(i % 2, 0, 1);
  auto g = group_ms(2, 1);
  g.config.enable_auto_commit = false;
  g.config.max_poll_records = 100;
  g.commit = commit;
  g.schedule.push_back({SimTime::ms(150), MemberChange::Kind::kCrash, 1, "c1"});
  return simulate_group(g, {}, f.in);
}

}  // namespace

TEST_CASE("enable.auto.commit false: what a crash replays depends on how the application commits") {
  const auto none = crash_run(Commit::kNone);
  const auto sync = crash_run(Commit::kSyncPerPoll);
  const auto async = crash_run(Commit::kAsyncPerPoll);
  const auto per_record = crash_run(Commit::kPerRecord);
  // none: nothing is ever committed; c0 takes t-1 after c1's session expires and starts
  // over from the reset offset (earliest): everything c1 processed, ~148 records, again
  // (and its own t-0 too: its eager revoke commits nothing either).
  CHECK(none.result.duplicates > 140);
  // per poll: the first batch of 100 was committed at ~101.5 ms; the second batch's
  // records processed before the crash (~47) are replayed.
  CHECK(sync.result.duplicates > 30);
  CHECK(sync.result.duplicates < 60);
  CHECK(async.result.duplicates > 30);
  CHECK(async.result.duplicates < 60);
  // per record, synchronously: every processed record was committed (1 ms processing + a
  // 1 ms round trip each): nothing is replayed.
  CHECK(per_record.result.duplicates == 0);
  for (const auto* r : {&none, &sync, &async, &per_record}) {
    CHECK(r->result.records_unconsumed == 0);
    CHECK(r->result.order_violations == 0);
  }
}

TEST_CASE("a synchronous commit blocks the member a round trip to the coordinator; an asynchronous one does not") {
  GroupLogs f(1);
  for (int i = 0; i < 1000; ++i) f.add(0, 0, 0);
  auto g = group_ms(1, 1);
  g.config.max_poll_records = 100;
  g.commit = Commit::kAsyncPerPoll;
  const double async_end = simulate_group(g, {}, f.in).result.end_ms;
  g.commit = Commit::kNone;
  const double none_end = simulate_group(g, {}, f.in).result.end_ms;
  g.commit = Commit::kSyncPerPoll;
  const double sync_end = simulate_group(g, {}, f.in).result.end_ms;
  g.commit = Commit::kPerRecord;
  const double per_record_end = simulate_group(g, {}, f.in).result.end_ms;
  CHECK(async_end == doctest::Approx(none_end));
  // 10 polls: the 9 commits before the last poll's records each cost 1 ms.
  CHECK(sync_end - async_end == doctest::Approx(9));
  // A round trip after each of the 999 records before the last.
  CHECK(per_record_end - async_end == doctest::Approx(999));
}

TEST_CASE("a cooperative revoke replays nothing when the application commits each record") {
  GroupLogs f(4);
  for (int i = 0; i < 4000; ++i) f.add(i % 4, i * 5, i * 5 + 1);  // 20 s of records
  auto g = group_ms(2, 0.1);
  g.config.assignment_strategy = {"cooperative-sticky"};
  g.config.enable_auto_commit = false;
  g.schedule.push_back({SimTime::ms(10000), MemberChange::Kind::kJoin, 1, ""});
  g.commit = Commit::kNone;
  CHECK(simulate_group(g, {}, f.in).result.duplicates > 0);
  g.commit = Commit::kPerRecord;
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.rebalances.size() == 2);
  CHECK(run.result.duplicates == 0);
  CHECK(run.result.records_unconsumed == 0);
}

TEST_CASE(
    "auto.offset.reset by_duration starts at the first record sent at or after the assignment minus the duration") {
  GroupLogs f(1);
  for (int i = 0; i < 10; ++i) f.add(0, i * 1000, i * 1000 + 1);  // sent at 0, 1, ..., 9 s
  auto g = group_ms(0, 0);
  g.schedule.push_back({SimTime::ms(10000), MemberChange::Kind::kJoin, 1, ""});
  g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kByDuration;
  g.config.auto_offset_reset_by = SimTime::sec(3);  // by_duration:PT3S at 10 s: from 7 s on
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.records_consumed == 3);
  CHECK(run.result.records_unconsumed == 7);
  CHECK(run.result.records_skipped_latest == 0);
  g.config.auto_offset_reset_by = SimTime::sec(60);  // older than every record: all of them
  CHECK(simulate_group(g, {}, f.in).result.records_consumed == 10);
  g.config.auto_offset_reset_by = SimTime::zero();  // nothing sent at or after 10 s: latest
  CHECK(simulate_group(g, {}, f.in).result.records_consumed == 0);
}

TEST_CASE("a static member restarting within session.timeout.ms gets its partitions back without a rebalance") {
  GroupLogs f(2);
  for (int i = 0; i < 2000; ++i) f.add(i % 2, i * 10, i * 10 + 1);  // 20 s of records
  auto g = group_ms(2, 0.1);
  g.config.group_instance_id = "i";
  g.schedule.push_back({SimTime::ms(7000), MemberChange::Kind::kCrash, 1, "c1"});
  g.schedule.push_back({SimTime::ms(12000), MemberChange::Kind::kRestart, 1, "c1"});
  const auto run = simulate_group(g, {}, f.in);
  REQUIRE(run.result.rebalances.size() == 1);  // the start only
  CHECK(run.result.members[1].partitions == std::vector<std::string>{"t-1"});
  CHECK_FALSE(run.result.members[1].crashed);
  // It restarts from its last auto commit (at 5 s): what it processed from 5 s to 7 s
  // (a record every 20 ms on t-1), ~100 records, again.
  CHECK(run.result.duplicates > 70);
  CHECK(run.result.duplicates < 130);
  CHECK(run.result.records_unconsumed == 0);
  // After its session (45 s) the coordinator removed it: its restart is a join, a rebalance
  // (in a run of 100 s: after the run's end, with every record processed, it would not play).
  g.schedule[1].at = SimTime::ms(60000);
  f.in.run_end = SimTime::ms(100000);
  const auto late = simulate_group(g, {}, f.in);
  REQUIRE(late.result.rebalances.size() == 3);
  CHECK(late.result.rebalances[1].cause == "crash c1");
  CHECK(late.result.rebalances[2].cause == "rejoin c1");
  CHECK(late.result.records_unconsumed == 0);
}

TEST_CASE("a static member's close sends no LeaveGroup: its partitions wait for it until its session expires") {
  GroupLogs f(2);
  for (int i = 0; i < 2000; ++i) f.add(i % 2, i * 10, i * 10 + 1);
  auto g = group_ms(2, 0.1);
  g.config.group_instance_id = "i";
  g.schedule.push_back({SimTime::ms(7000), MemberChange::Kind::kLeave, 1, "c1"});
  g.schedule.push_back({SimTime::ms(9000), MemberChange::Kind::kRestart, 1, "c1"});
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.rebalances.size() == 1);
  CHECK(run.result.duplicates == 0);  // close() committed
  CHECK(run.result.records_unconsumed == 0);
  // Not restarted: the session expires 45 s after its last heartbeat and c0 takes t-1.
  g.schedule.pop_back();
  const auto gone = simulate_group(g, {}, f.in);
  REQUIRE(gone.result.rebalances.size() == 2);
  CHECK(gone.result.rebalances[1].cause == "session expired c1");
  CHECK(gone.result.rebalances[1].at_ms > 45000);
  CHECK(gone.result.members[1].left);
  CHECK(gone.result.duplicates == 0);
  CHECK(gone.result.records_unconsumed == 0);
  // A dynamic member's leave rebalances at once.
  g.config.group_instance_id.clear();
  const auto dynamic = simulate_group(g, {}, f.in);
  REQUIRE(dynamic.result.rebalances.size() == 2);
  CHECK(dynamic.result.rebalances[1].at_ms >= 7000);
  CHECK(dynamic.result.rebalances[1].at_ms < 7001);
}

TEST_CASE("a static member that leaves in the middle of a batch and restarts before its close() restarts after it") {
  // Every record readable at once, 10 ms each: c1 is busy with t-1 for 10 s. Its leave at
  // 5 s waits for the batch in hand; the restart step at 5.001 s comes before that close().
  GroupLogs f(2);
  for (int i = 0; i < 2000; ++i) f.add(i % 2, 0, 1);
  auto g = group_ms(2, 10);
  g.config.group_instance_id = "i";
  g.schedule.push_back({SimTime::ms(5000), MemberChange::Kind::kLeave, 1, "c1"});
  g.schedule.push_back({SimTime::ms(5001), MemberChange::Kind::kRestart, 1, "c1"});
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.rebalances.size() == 1);  // the start only: the new process takes t-1 back
  CHECK(run.result.members[1].partitions == std::vector<std::string>{"t-1"});
  CHECK_FALSE(run.result.members[1].left);
  CHECK(run.result.records_unconsumed == 0);
}

TEST_CASE("steps after the run's end are not played once every record is processed") {
  GroupLogs f(2);
  for (int i = 0; i < 2000; ++i) f.add(i % 2, i * 10, i * 10 + 1);  // a 20 s run
  f.in.run_end = SimTime::ms(20000);
  f.in.sample_interval = SimTime::ms(1000);
  auto g = group_ms(2, 0.1);
  g.schedule.push_back({SimTime::ms(10000), MemberChange::Kind::kJoin, 1, ""});
  g.schedule.push_back({SimTime::ms(1000000), MemberChange::Kind::kLeave, 1, "c1"});
  const auto run = simulate_group(g, {}, f.in);
  REQUIRE(run.result.rebalances.size() == 2);  // the start and the join; not the leave at 1,000 s
  CHECK(run.result.steps_not_played == 1);
  CHECK_FALSE(run.result.members[1].left);
  REQUIRE_FALSE(run.result.lag_time_ms.empty());
  CHECK(run.result.lag_time_ms.back() <= 21000);
  // A step after the end still plays while records are left: the only member crashed in
  // the run, a join at 100 s consumes what it left.
  auto alone = group_ms(1, 0.1);
  alone.schedule.push_back({SimTime::ms(5000), MemberChange::Kind::kCrash, 1, "c0"});
  alone.schedule.push_back({SimTime::ms(100000), MemberChange::Kind::kJoin, 1, ""});
  const auto late = simulate_group(alone, {}, f.in);
  CHECK(late.result.steps_not_played == 0);
  CHECK(late.result.records_unconsumed == 0);
}

TEST_CASE("KIP-848: a static member's restart within group.consumer.session.timeout.ms keeps its assignment too") {
  GroupLogs f(4);
  for (int i = 0; i < 4000; ++i) f.add(i % 4, i * 5, i * 5 + 1);  // 20 s of records
  auto g = group_ms(2, 0.1);
  g.config.protocol = ConsumerConfig::Protocol::kConsumer;
  g.config.group_instance_id = "i";
  g.schedule.push_back({SimTime::ms(7000), MemberChange::Kind::kCrash, 1, "c1"});
  g.schedule.push_back({SimTime::ms(12000), MemberChange::Kind::kRestart, 1, "c1"});
  // A join at 13 s while c1 is back: the rebalance it starts completes with c1 in it.
  g.schedule.push_back({SimTime::ms(13000), MemberChange::Kind::kJoin, 1, ""});
  const auto run = simulate_group(g, {}, f.in);
  REQUIRE(run.result.rebalances.size() == 2);
  CHECK(run.result.rebalances[1].cause == "join c2");
  CHECK(run.result.records_unconsumed == 0);
  CHECK(run.result.order_violations == 0);
  for (const auto& m : run.result.members) CHECK(m.partitions.size() >= 1);
  // Classic eager: a join while c1 is down waits for it (a crashed member holds the join);
  // its restart joins the round, which then completes without waiting for its session.
  g.config.protocol = ConsumerConfig::Protocol::kClassic;
  g.schedule[2].at = SimTime::ms(9000);
  const auto eager = simulate_group(g, {}, f.in);
  REQUIRE(eager.result.rebalances.size() == 2);
  CHECK(eager.result.rebalances[1].cause == "join c2");
  CHECK(eager.result.rebalances[1].done_ms < 20000);
  CHECK(eager.result.records_unconsumed == 0);
  for (const auto& m : eager.result.members) CHECK(m.partitions.size() >= 1);
}
