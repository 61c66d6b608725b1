#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "group_logs.hpp"
#include "model/consumer/consumer_simulation.hpp"

using namespace partsim::model;
using namespace partsim::model::consumer;
using namespace partsim::model::consumer::testing;

namespace {

struct TracedGroupLogs : GroupLogs {
  explicit TracedGroupLogs(std::int32_t partitions) : GroupLogs(partitions, 1000) {}
};

}  // namespace

TEST_CASE("one consumer gets the records grouped by partition, in offset order within each (book T9)") {
  TracedGroupLogs f(3);
  // book-0..book-4 on p1, p2, p2, p0, p1, sent one at a time 1 ms apart.
  f.add(1, "book-0", 0, 1);
  f.add(2, "book-1", 1, 2);
  f.add(2, "book-2", 2, 3);
  f.add(0, "book-3", 3, 4);
  f.add(1, "book-4", 4, 5);
  const auto run = simulate_group(group(1), {}, f.in);
  CHECK(run.result.records_consumed == 5);
  CHECK(run.result.order_violations == 0);
  CHECK(run.result.records_unconsumed == 0);
  std::vector<std::string> p1, p2;
  for (const auto& row : run.trace) {
    if (row.partition == "t-1") p1.push_back(row.key + "@" + std::to_string(row.offset));
    if (row.partition == "t-2") p2.push_back(row.key + "@" + std::to_string(row.offset));
  }
  CHECK(p1 == std::vector<std::string>{"book-0@0", "book-4@1"});
  CHECK(p2 == std::vector<std::string>{"book-1@0", "book-2@1"});
  CHECK(run.result.e2e_latency.count() == 5);
}

TEST_CASE("four consumers on three partitions leave one idle") {
  TracedGroupLogs f(3);
  f.add(0, "a", 0, 1);
  const auto run = simulate_group(group(4), {}, f.in);
  CHECK(run.result.idle_members == std::vector<std::string>{"c3"});
  CHECK(run.result.members.size() == 4);
  CHECK(run.result.members[0].partitions == std::vector<std::string>{"t-0"});
}

TEST_CASE("a key spread over two partitions is seen out of order when one partition is consumed slower") {
  TracedGroupLogs f(2);
  // Key k alternates partitions; p0 is full of other records before it, so its k records
  // wait behind them while p1's are processed at once.
  for (int i = 0; i < 400; ++i) f.add(0, "filler-" + std::to_string(i), 0, 0.5);
  for (int i = 0; i < 10; ++i) f.add(i % 2, "k", 1 + i, 1.5 + i);
  auto g = group(2, 100);  // 100 us per record: p0's backlog takes 40 ms
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.order_violations > 0);
  CHECK(run.result.keys_out_of_order == 1);
  CHECK(run.result.duplicates == 0);
}

TEST_CASE("keys that stay in one partition keep their order across members") {
  TracedGroupLogs f(4);
  for (int i = 0; i < 2000; ++i) f.add(i % 4, "key-" + std::to_string(i % 4 + 4 * (i % 7)), i * 0.1, i * 0.1 + 1);
  const auto run = simulate_group(group(3, 20), {}, f.in);
  CHECK(run.result.records_consumed == 2000);
  CHECK(run.result.order_violations == 0);
}

TEST_CASE(
    "a crash before the first auto commit makes the new owner process the records again: duplicates, not violations") {
  TracedGroupLogs f(2);
  for (int i = 0; i < 200; ++i) f.add(i % 2, "key-" + std::to_string(i % 2), i, i + 1);
  auto g = group(2, 100);
  g.schedule.push_back({SimTime::ms(150), MemberChange::Kind::kCrash, 1, "c1"});
  const auto run = simulate_group(g, {}, f.in);
  // c1 processed p1's records up to 150 ms, never committed (auto commit every 5 s); c0
  // takes p1 after the session timeout and starts from the reset offset (earliest).
  CHECK(run.result.duplicates > 50);
  CHECK(run.result.order_violations == 0);
  CHECK(run.result.records_unconsumed == 0);
  REQUIRE(run.result.rebalances.size() == 2);
  CHECK(run.result.rebalances[1].cause == "crash c1");
  CHECK(run.result.rebalances[1].pause_max_ms > 45000);
  CHECK(run.result.members[1].crashed);
}

TEST_CASE("an eager rebalance on a leave commits first: no duplicates") {
  TracedGroupLogs f(2);
  for (int i = 0; i < 200; ++i) f.add(i % 2, "key-" + std::to_string(i % 2), i, i + 1);
  auto g = group(2, 100);
  g.schedule.push_back({SimTime::ms(150), MemberChange::Kind::kLeave, 1, "c1"});
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.duplicates == 0);
  CHECK(run.result.records_consumed == 200);
  CHECK(run.result.members[1].left);
  CHECK(run.result.members[0].partitions == std::vector<std::string>{"t-0", "t-1"});
}

TEST_CASE("fetch.min.bytes above what is readable makes the broker wait fetch.max.wait.ms") {
  TracedGroupLogs f(1);
  f.add(0, "a", 0, 0);
  auto g = group(1);
  g.config.fetch_min_bytes = 1000;  // 10 records of 100 bytes; only one exists
  const auto run = simulate_group(g, {}, f.in);
  // Fetch sent at 0, reaches the broker at 0.5 ms, parked 500 ms, back 0.5 ms later.
  CHECK(run.result.end_ms == doctest::Approx(501));
  g.config.fetch_min_bytes = 1;
  CHECK(simulate_group(g, {}, f.in).result.end_ms == doctest::Approx(1));
}

TEST_CASE("max.poll.records caps a poll: processing runs batch by batch") {
  TracedGroupLogs f(1);
  for (int i = 0; i < 1000; ++i) f.add(0, "", 0, 0);
  auto g = group(1, 1000);  // 1 ms per record
  g.config.max_poll_records = 100;
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.records_consumed == 1000);
  // One fetch (1 ms) brings all 1000 (100 kB < 1 MiB); then 1000 records at 1 ms each.
  CHECK(run.result.end_ms == doctest::Approx(1001));
  CHECK(run.result.lag_max == 1000);
}

TEST_CASE("max.partition.fetch.bytes limits a response; the first record always comes") {
  TracedGroupLogs f(1);
  for (int i = 0; i < 10; ++i) f.add(0, "", 0, 0);
  auto g = group(1);
  g.config.max_partition_fetch_bytes = 250;  // 2 records of 100 bytes per fetch
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.end_ms == doctest::Approx(5));  // 5 fetches of 1 ms
  g.config.max_partition_fetch_bytes = 50;         // less than one record: still one per fetch
  CHECK(simulate_group(g, {}, f.in).result.end_ms == doctest::Approx(10));
}

TEST_CASE("auto.offset.reset latest skips what was readable before the assignment") {
  TracedGroupLogs f(1);
  for (int i = 0; i < 10; ++i) f.add(0, "", 0, 0);
  f.add(0, "", 5, 5);
  auto g = group(1);
  g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kLatest;
  const auto run = simulate_group(g, {}, f.in);
  CHECK(run.result.records_consumed == 1);
  CHECK(run.result.records_unconsumed == 10);
}

TEST_CASE("a cooperative revoke commits nothing: what the old owner processed after its rejoin is processed again") {
  TracedGroupLogs f(4);
  for (int i = 0; i < 4000; ++i) f.add(i % 4, "key-" + std::to_string(i % 4), i * 5, i * 5 + 1);  // 20 s of records
  auto g = group(2, 100);
  g.config.assignment_strategy = {"cooperative-sticky"};
  g.schedule.push_back({SimTime::ms(10000), MemberChange::Kind::kJoin, 1, ""});
  const auto run = simulate_group(g, {}, f.in);
  REQUIRE(run.result.rebalances.size() == 2);
  const auto& r = run.result.rebalances[1];
  CHECK(r.kind == "cooperative");
  CHECK(r.rounds == 2);
  CHECK(r.paused >= 1);
  CHECK(run.result.duplicates > 0);
  CHECK(run.result.order_violations == 0);
  CHECK(run.result.records_unconsumed == 0);
  g.config.assignment_strategy = {"range"};
  const auto eager = simulate_group(g, {}, f.in);
  CHECK(eager.result.duplicates == 0);
  CHECK(eager.result.rebalances[1].paused == 4);
}

TEST_CASE("KIP-848: a join moves partitions at the members' heartbeats, with a commit before each revoke") {
  TracedGroupLogs f(6);
  for (int i = 0; i < 6000; ++i) f.add(i % 6, "key-" + std::to_string(i % 6), i * 5, i * 5 + 1);  // 30 s of records
  auto g = group(2, 100);
  g.config.protocol = ConsumerConfig::Protocol::kConsumer;
  g.config.remote_assignor = ConsumerConfig::RemoteAssignor::kRange;
  g.schedule.push_back({SimTime::ms(10000), MemberChange::Kind::kJoin, 1, ""});
  GroupCoordinatorConfig k;  // heartbeats every 5 s
  const auto run = simulate_group(g, k, f.in);
  CHECK(run.result.protocol == "consumer");
  CHECK(run.result.assignor == "consumer-range");
  REQUIRE(run.result.rebalances.size() == 2);
  const auto& r = run.result.rebalances[1];
  CHECK(r.kind == "consumer");
  // Range over 3 members: c0 {0,1,2} -> {0,1}, c1 {3,4,5} -> {2,3}, c2 gets {4,5}. Heartbeats
  // every 5 s: c0's at 15 s (phase 0) releases 2, c1's at 12.5 s (phase 2.5 s) releases 4
  // and 5; c2 (joined at 10 s) takes them at 15 s, c1 takes 2 at 17.5 s.
  CHECK(r.paused == 3);
  CHECK(r.done_ms == doctest::Approx(17500));
  CHECK(r.pause_max_ms == doctest::Approx(2500));
  CHECK(r.pause_sum_ms == doctest::Approx(7500));
  CHECK(run.result.duplicates == 0);
  CHECK(run.result.records_unconsumed == 0);
  CHECK(run.result.members[2].partitions.size() == 2);
}

TEST_CASE("KIP-848: a crash is noticed group.consumer.session.timeout.ms after the last heartbeat") {
  TracedGroupLogs f(2);
  for (int i = 0; i < 2000; ++i) f.add(i % 2, "key-" + std::to_string(i % 2), i * 50, i * 50 + 1);  // 100 s of records
  auto g = group(2, 100);
  g.config.protocol = ConsumerConfig::Protocol::kConsumer;
  g.schedule.push_back({SimTime::ms(7000), MemberChange::Kind::kCrash, 1, "c1"});
  GroupCoordinatorConfig k;
  k.consumer_session_timeout = SimTime::ms(50000);
  const auto run = simulate_group(g, k, f.in);
  REQUIRE(run.result.rebalances.size() == 2);
  CHECK(run.result.rebalances[1].cause == "crash c1");
  // c1 joined at 0 with its heartbeats at 2.5 s + 5 s k: the last before 7 s at 2.5 s;
  // noticed at 52.5 s, taken by c0 at its next heartbeat after that, 55 s.
  CHECK(run.result.rebalances[1].at_ms == doctest::Approx(52500));
  CHECK(run.result.rebalances[1].done_ms == doctest::Approx(55000));
  CHECK(run.result.rebalances[1].pause_max_ms == doctest::Approx(48000));
  CHECK(run.result.duplicates > 0);  // since the last auto commit at ~5 s
  CHECK(run.result.records_unconsumed == 0);
}

TEST_CASE("a batch that outlasts max.poll.interval.ms costs the member its partitions: a rebalance and duplicates") {
  TracedGroupLogs f(2);
  for (int i = 0; i < 2000; ++i) f.add(i % 2, "key-" + std::to_string(i % 2), i * 0.001, 1);  // all readable at 1 ms
  auto g = group(2, 1000);  // 1 ms a record: a poll of 500 records takes 500 ms
  g.config.max_poll_interval = SimTime::ms(300);
  const auto run = simulate_group(g, {}, f.in);
  REQUIRE(run.result.rebalances.size() >= 3);
  CHECK(run.result.rebalances[1].cause.rfind("poll timeout c", 0) == 0);
  CHECK(run.result.duplicates > 0);
  CHECK(run.result.order_violations == 0);
  // Nothing is ever committed (the late member's partitions are lost without a commit, and
  // it owns nothing at its next poll): the storm repeats as in Kafka, until partsim stops
  // the group after 10 x max(max.poll.interval.ms, session.timeout.ms) without progress.
  CHECK(run.result.stalled);
  CHECK(run.result.records_unconsumed > 0);
  CHECK(run.result.duplicates > 10000);
  // With max.poll.records 200 (200 ms a poll) nobody is late.
  g.config.max_poll_records = 200;
  const auto calm = simulate_group(g, {}, f.in);
  CHECK(calm.result.rebalances.size() == 1);
  CHECK(calm.result.duplicates == 0);
  CHECK_FALSE(calm.result.stalled);
  CHECK(calm.result.records_unconsumed == 0);
}
