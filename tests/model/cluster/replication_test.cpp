// Replication with followers (kafka-consumer-spec §9), driven by a test host that keeps the
// fetchers' steps in a time-ordered list: the high watermark and the acks=all answer time,
// replica.fetch.wait.max.ms with replica.fetch.min.bytes, the ISR shrink at
// replica.lag.time.max.ms and the rejoin, fencing at broker.session.timeout.ms after the
// last heartbeat, elections from the ISR only, and min.insync.replicas. Every expectation is
// computed by hand in the comments.

#include "model/cluster/replication.hpp"

#include <doctest/doctest.h>

#include <map>
#include <tuple>
#include <vector>

using namespace partsim::model;
using partsim::sim::SimTime;

namespace {

using Ints = std::vector<std::int32_t>;

class ListHost final : public ReplicationHost {
public:
  Replication* rep = nullptr;
  std::map<std::uint64_t, SimTime> settled;  // request -> when answered
  std::vector<std::tuple<std::uint64_t, std::size_t, ProduceError>> errors;

  bool schedule_fetch(Step step, std::uint32_t session, std::uint64_t fetch, SimTime at) override {
    steps_.emplace(std::make_pair(at.count_ns(), order_++), std::make_tuple(step, session, fetch));
    return true;
  }
  /// KIP-392: the records below the high watermark, one per 100 bytes here (the appends' size).
  std::int64_t readable_records(std::size_t partition) const override { return rep->high_watermark(partition) / 100; }
  void acks_settled(std::uint64_t request) override { settled[request] = now_; }
  void ack_error(std::uint64_t request, std::size_t partition, ProduceError e) override {
    errors.emplace_back(request, partition, e);
  }
  std::int64_t records_acked() const override { return 0; }
  void high_watermark_moved(std::size_t partition, std::int64_t hw) override { hw_moves.emplace_back(partition, hw); }
  void log_truncated(std::size_t partition, std::int64_t end) override { truncations.emplace_back(partition, end); }
  void fetch_answered(std::int32_t leader, std::int32_t follower, std::int64_t bytes, std::int32_t partitions,
                      std::int32_t) override {
    answers.push_back({leader, follower, bytes, partitions});
  }
  void follower_high_watermark(std::size_t partition, std::int32_t follower) override {
    hw_learnt.emplace_back(partition, follower, now_);
  }
  void reassignment_done(std::size_t partition, bool leader_moved) override {
    completions.emplace_back(partition, leader_moved, now_);
  }
  void log_dir_failed(std::int32_t broker) override { dir_failures.emplace_back(broker, now_); }
  std::vector<std::pair<std::int32_t, SimTime>> dir_failures;       // full disks: (broker, when)
  std::vector<std::tuple<std::size_t, bool, SimTime>> completions;  // reassignments: (partition, leader moved, when)
  std::vector<std::pair<std::size_t, std::int64_t>> hw_moves, truncations;
  std::vector<std::tuple<std::size_t, std::int32_t, SimTime>> hw_learnt;  // KIP-392: (partition, follower, when)
  struct Answer {
    std::int32_t leader, follower;
    std::int64_t bytes;
    std::int32_t partitions;
  };
  std::vector<Answer> answers;  // the leaders' answers to follower fetches

  /// Runs the fetchers' steps up to and including `until`; the clock ends at `until`.
  void run_until(SimTime until) {
    while (!steps_.empty() && steps_.begin()->first.first <= until.count_ns()) {
      const auto [key, what] = *steps_.begin();
      steps_.erase(steps_.begin());
      now_ = SimTime::ns(key.first);
      const auto [step, session, fetch] = what;
      if (step == Step::kArrive) rep->on_fetch_arrive(session, fetch, now_);
      if (step == Step::kReturn) rep->on_fetch_return(session, fetch, now_);
      if (step == Step::kExpire) rep->on_fetch_expire(session, fetch, now_);
      if (step == Step::kBackoff) rep->on_fetch_backoff(session, fetch, now_);
    }
    now_ = until;
  }
  SimTime now() const { return now_; }

private:
  std::map<std::pair<std::int64_t, std::uint64_t>, std::tuple<Step, std::uint32_t, std::uint64_t>> steps_;
  std::uint64_t order_ = 0;
  SimTime now_ = SimTime::zero();
};

Scenario cluster(std::int32_t brokers, std::int32_t partitions, std::int32_t rf, SimTime replica_rtt) {
  Scenario s;
  for (std::int32_t b = 0; b < brokers; ++b) {
    BrokerConfig bc;
    bc.id = b;
    bc.replica_rtt = replica_rtt;
    s.brokers.push_back(bc);
  }
  TopicConfig t;
  t.partitions = partitions;
  t.replication_factor = rf;
  s.topics.push_back(t);
  s.replication.mode = ReplicationConfig::Mode::kFollowers;
  return s;
}

// One engine-less setup: scenario, leadership, host and replication, started at 0.
struct ReplicationFixture {
  Scenario s;
  Leadership leadership;
  ListHost host;
  Replication rep;
  explicit ReplicationFixture(Scenario sc)
      : s(std::move(sc)), leadership(s.topics, s.brokers.size()), rep(s, leadership, host) {
    host.rep = &rep;
    rep.start(SimTime::zero());
  }
  /// The leader of partition 0 appends 100 bytes at `at` for acks=all request `request`.
  void append_at(SimTime at, std::uint64_t request) {
    host.run_until(at);
    rep.append(0, 100, at, request);
  }
  Ints isr(std::size_t p) const { return {rep.isr(p).begin(), rep.isr(p).end()}; }
  Ints leaders() const { return {leadership.leaders(0).begin(), leadership.leaders(0).end()}; }
};

}  // namespace

TEST_CASE(
    "acks=all is answered when the high watermark covers the batch: one follower round trip after a parked fetch") {
  // Followers' fetches (rtt 2 ms) reach the leader at 1 ms and park (nothing to fetch). The
  // append at 10 ms answers them at once; they are back at 11 ms, and the next fetches reach
  // the leader at 12 ms with offset 100: the high watermark is 100 and request 7 is answered.
  ReplicationFixture f(cluster(3, 1, 3, SimTime::ms(2)));
  f.host.run_until(SimTime::ms(10));
  CHECK(f.rep.append(0, 100, SimTime::ms(10), 7));
  CHECK(f.rep.high_watermark(0) == 0);
  f.host.run_until(SimTime::ms(11));
  CHECK(f.rep.high_watermark(0) == 0);  // the followers have the bytes; the leader does not know yet
  CHECK(f.host.settled.empty());
  f.host.run_until(SimTime::ms(20));
  CHECK(f.rep.high_watermark(0) == 100);
  REQUIRE(f.host.settled.contains(7));
  CHECK(f.host.settled[7] == SimTime::ms(12));
  // Traffic: each follower's answers carried the 100 bytes once, in one answer with a partition.
  std::map<std::int32_t, std::int64_t> carried;
  for (const auto& a : f.host.answers) {
    CHECK(a.leader == 0);
    CHECK(a.partitions == (a.bytes > 0 ? 1 : 0));
    carried[a.follower] += a.bytes;
  }
  CHECK(carried == std::map<std::int32_t, std::int64_t>{{1, 100}, {2, 100}});
}

TEST_CASE(
    "the slowest in-sync follower sets the ack; replica.fetch.min.bytes keeps a fetch parked until replica.fetch.wait.max.ms") {
  SUBCASE("a 6 ms follower") {
    // Broker 2's fetch reaches the leader at 3 ms and parks; the append at 10 ms answers it,
    // back at 13 ms, the next fetch arrives at 16 ms: HW 100 then (broker 1 was there at 12).
    Scenario s = cluster(3, 1, 3, SimTime::ms(2));
    s.brokers[2].replica_rtt = SimTime::ms(6);
    ReplicationFixture f(s);
    f.append_at(SimTime::ms(10), 1);
    f.host.run_until(SimTime::ms(50));
    CHECK(f.host.settled[1] == SimTime::ms(16));
  }
  SUBCASE("min.bytes 150 against a 100-byte append") {
    // The parked fetches (arrived at 1 ms) are not answered by 100 bytes; at 1 + 500 ms they
    // expire and answer, back at 502, next fetch at 503 ms.
    Scenario s = cluster(3, 1, 3, SimTime::ms(2));
    s.replication.fetch_min_bytes = 150;
    ReplicationFixture f(s);
    f.append_at(SimTime::ms(10), 1);
    f.host.run_until(SimTime::ms(600));
    CHECK(f.host.settled[1] == SimTime::ms(503));
  }
  SUBCASE("an ISR of the leader alone covers the append at once") {
    ReplicationFixture f(cluster(1, 1, 1, SimTime::ms(2)));
    CHECK_FALSE(f.rep.append(0, 100, SimTime::ms(10), 1));
    CHECK(f.rep.high_watermark(0) == 100);
  }
}

TEST_CASE(
    "a follower behind for longer than replica.lag.time.max.ms leaves the ISR, and rejoins at the high watermark") {
  // Broker 2 fetches with a 40 s round trip: its first fetch reaches the leader at 20 s (it
  // last caught up at 0, when there was nothing to fetch), its second at 60 s.
  Scenario s = cluster(3, 1, 3, SimTime::ms(2));
  s.brokers[2].replica_rtt = SimTime::ms(40000);
  ReplicationFixture f(s);
  f.append_at(SimTime::ms(10), 1);
  f.host.run_until(SimTime::ms(30000));
  f.rep.check_isr(SimTime::ms(30000));  // 30000 - 0 <= replica.lag.time.max.ms: still in sync
  CHECK(f.isr(0) == Ints{0, 1, 2});
  CHECK(f.host.settled.empty());  // the high watermark waits for broker 2
  f.host.run_until(SimTime::ms(30000) + SimTime::ns(1));
  f.rep.check_isr(SimTime::ms(30000) + SimTime::ns(1));
  CHECK(f.isr(0) == Ints{0, 1});
  CHECK(f.host.settled[1] == SimTime::ms(30000) + SimTime::ns(1));  // HW = broker 1's 100 at once
  f.host.run_until(SimTime::ms(59999));
  CHECK(f.isr(0) == Ints{0, 1});
  f.host.run_until(SimTime::ms(60000));  // fetch offset 100 >= HW 100: back in
  CHECK(f.isr(0) == Ints{0, 1, 2});
  const ReplicationResult r = f.rep.finish(SimTime::ms(60000));
  CHECK(r.partitions[0].shrinks == 1);
  CHECK(r.partitions[0].expands == 1);
  CHECK(r.partitions[0].isr_min == 2);
  CHECK(r.partitions[0].under_replicated_ms == doctest::Approx(30000.0 - 0.000001));
}

TEST_CASE(
    "the controller fences a dead broker broker.session.timeout.ms after its last heartbeat; leaders come from the ISR") {
  // p0 on (0,1,2), p1 on (1,2,0), p2 on (2,0,1). Heartbeats every 2 s: broker 1 dies at 11 s,
  // last heartbeat 10 s, fenced at 19 s.
  ReplicationFixture f(cluster(3, 3, 3, SimTime::ms(2)));
  f.host.run_until(SimTime::ms(11000));
  CHECK(f.rep.broker_failed(1, SimTime::ms(11000)) == SimTime::ms(19000));
  CHECK(f.leaders() == Ints{0, 1, 2});  // nothing moves before the fence
  CHECK(f.isr(1) == Ints{1, 2, 0});
  f.host.run_until(SimTime::ms(19000));
  CHECK(f.rep.fence(1, SimTime::ms(19000)));
  CHECK(f.isr(0) == Ints{0, 2});
  CHECK(f.isr(1) == Ints{2, 0});
  CHECK(f.leaders() == Ints{0, 2, 2});  // p1: the first of its ISR in assignment order
  const ReplicationResult r = f.rep.finish(SimTime::ms(20000));
  CHECK(r.partitions[1].offline_ms == doctest::Approx(8000.0));  // 11 s to 19 s
  CHECK(r.partitions[1].fenced_removals == 1);
  CHECK(r.partitions[1].shrinks == 0);  // the controller's removal is no IsrShrink (§9.4)
}

TEST_CASE(
    "only an in-sync replica may lead: an out-of-sync live replica is skipped, and with none the partition goes offline") {
  // Two topics' worth on 3 brokers, RF 3 p1 (1,2,0) and RF 2 p1 (1,2): broker 2 is stuck
  // (out of every ISR), then broker 1 dies and is fenced. Today's "next live replica" would
  // pick broker 2 for both.
  Scenario s = cluster(3, 3, 3, SimTime::ms(2));
  TopicConfig t2;
  t2.name = "rf2";
  t2.partitions = 3;
  t2.replication_factor = 2;
  s.topics.push_back(t2);
  s.brokers[2].replica_rtt = SimTime::ms(100000);
  ReplicationFixture f(s);
  f.host.run_until(SimTime::ms(10));
  for (std::size_t p = 0; p < 6; ++p) f.rep.append(p, 100, SimTime::ms(10), std::nullopt);
  f.host.run_until(SimTime::ms(45000));
  f.rep.check_isr(SimTime::ms(45000));
  CHECK(f.isr(1) == Ints{1, 0});  // RF 3 p1 without broker 2
  CHECK(f.isr(4) == Ints{1});     // RF 2 p1 without broker 2
  const SimTime fence = f.rep.broker_failed(1, SimTime::ms(45000));
  f.host.run_until(fence);
  f.rep.fence(1, fence);
  CHECK(f.leadership.leaders(0)[1] == 0);   // not 2: out of sync
  CHECK(f.leadership.leaders(1)[1] == -1);  // offline: its ISR is broker 1 alone
  CHECK(f.isr(4) == Ints{1});               // the ISR never empties
  CHECK(f.rep.broker_recovered(1, fence + SimTime::ms(1000)));
  CHECK(f.leadership.leaders(1)[1] == 1);  // its last ISR member is back: it leads again
}

TEST_CASE("min.insync.replicas: acks=all is refused while the ISR is smaller, and accepted once the follower rejoins") {
  // RF 2, min.insync.replicas 2: p0 on (0,1). Broker 1 dies at 1 s and is fenced at 9 s:
  // ISR [0] < 2, refused; back at 20 s, it fetches (arrives 20.001 s) at the high watermark
  // and rejoins: accepted again.
  Scenario s = cluster(2, 1, 2, SimTime::ms(2));
  s.replication.min_insync = 2;
  ReplicationFixture f(s);
  f.host.run_until(SimTime::ms(1000));
  CHECK_FALSE(f.rep.refuses(0));
  const SimTime fence = f.rep.broker_failed(1, SimTime::ms(1000));
  CHECK(fence == SimTime::ms(9000));
  f.host.run_until(fence);
  f.rep.fence(1, fence);
  CHECK(f.isr(0) == Ints{0});
  CHECK(f.rep.refuses(0));
  CHECK(f.rep.refuses(0));
  f.rep.broker_recovered(1, SimTime::ms(20000));
  CHECK(f.rep.refuses(0));  // back, not yet in sync
  f.host.run_until(SimTime::ms(20001));
  CHECK(f.isr(0) == Ints{0, 1});
  CHECK_FALSE(f.rep.refuses(0));
  const ReplicationResult r = f.rep.finish(SimTime::ms(20001));
  CHECK(r.partitions[0].not_enough_replicas == 3);
  CHECK(r.errors.at("NOT_ENOUGH_REPLICAS") == 3);
  CHECK(r.partitions[0].under_min_isr_ms == doctest::Approx(11001.0));  // 9 s to 20.001 s
}

TEST_CASE("an out-of-sync follower rejoins the ISR only once its fetch offset reaches the high watermark (§9.3)") {
  // Broker 2 fetches with a 40 s round trip (20 s each way): its fetches reach the leader at
  // 20 s (offset 0), 60 s (offset 100: what the 20 s answer carried) and 100 s (offset 200:
  // what the 60 s answer carried). It leaves the ISR at 30 s + 1 ns; a second append at 35 s
  // is fetched by broker 1 within 2 ms, so the high watermark is 200 from 35.002 s on. At
  // 60 s broker 2 is live, unfenced and fetching, but at 100 < 200: it stays out. At 100 s
  // it fetches at 200 and rejoins.
  Scenario s = cluster(3, 1, 3, SimTime::ms(2));
  s.brokers[2].replica_rtt = SimTime::ms(40000);
  ReplicationFixture f(s);
  f.append_at(SimTime::ms(10), 1);
  f.host.run_until(SimTime::ms(30000) + SimTime::ns(1));
  f.rep.check_isr(SimTime::ms(30000) + SimTime::ns(1));
  REQUIRE(f.isr(0) == Ints{0, 1});
  f.append_at(SimTime::ms(35000), 2);
  f.host.run_until(SimTime::ms(35010));
  REQUIRE(f.rep.high_watermark(0) == 200);
  f.host.run_until(SimTime::ms(60000));
  CHECK(f.isr(0) == Ints{0, 1});  // fetched 100 < high watermark 200
  f.host.run_until(SimTime::ms(99999));
  CHECK(f.isr(0) == Ints{0, 1});
  f.host.run_until(SimTime::ms(100000));
  CHECK(f.isr(0) == Ints{0, 1, 2});
  CHECK(f.rep.finish(SimTime::ms(100000)).partitions[0].expands == 1);
}

TEST_CASE("the high watermark does not advance while the ISR is below min.insync.replicas (§9.2)") {
  // RF 2, min.insync.replicas 2: p0 on (0,1). Broker 1 dies at 1 s, fenced at 9 s: ISR [0].
  // An acks=1 append of 100 bytes at 10 s is the leader's alone: the ISR's least log end
  // would be 100, but the ISR is below the minimum, so the high watermark stays 0. Broker 1
  // is back at 20 s: its first fetch (20.001 s, offset 0 = the high watermark) brings it
  // back into the ISR with the watermark still 0; the fetch after it (20.003 s, offset 100)
  // moves the watermark to 100.
  Scenario s = cluster(2, 1, 2, SimTime::ms(2));
  s.replication.min_insync = 2;
  ReplicationFixture f(s);
  f.host.run_until(SimTime::ms(1000));
  const SimTime fence = f.rep.broker_failed(1, SimTime::ms(1000));
  f.host.run_until(fence);
  f.rep.fence(1, fence);
  REQUIRE(f.isr(0) == Ints{0});
  f.host.run_until(SimTime::ms(10000));
  CHECK_FALSE(f.rep.append(0, 100, SimTime::ms(10000), std::nullopt));
  CHECK(f.rep.high_watermark(0) == 0);
  f.host.run_until(SimTime::ms(19999));
  CHECK(f.rep.high_watermark(0) == 0);
  f.rep.broker_recovered(1, SimTime::ms(20000));
  f.host.run_until(SimTime::ms(20001));
  CHECK(f.isr(0) == Ints{0, 1});
  CHECK(f.rep.high_watermark(0) == 0);
  f.host.run_until(SimTime::ms(20003));
  CHECK(f.rep.high_watermark(0) == 100);
}

TEST_CASE("the host hears the high watermark move, and a new leader that lacked the last batch truncates the log") {
  // RF 2, p0 on (0,1), broker 1's fetches 5 ms each way. Its first fetch parks at the leader
  // at 5 ms; the append at 10 ms answers it (back at 15 ms), its next fetch arrives at 20 ms
  // with offset 100: the high watermark moves to 100 then. It parks again; the append at
  // 30 ms answers it, but broker 0 dies at 32 ms, before the answer is back (35 ms): broker 1
  // never gets bytes 100-200. Fenced at 9 s (last heartbeat 0 s), broker 1 leads with a log
  // that ends at 100: the log is cut there. The high watermark never passed 100.
  ReplicationFixture f(cluster(2, 1, 2, SimTime::ms(10)));
  f.host.run_until(SimTime::ms(10));
  f.rep.append(0, 100, SimTime::ms(10), std::nullopt);
  f.host.run_until(SimTime::ms(19));
  CHECK(f.host.hw_moves.empty());
  f.host.run_until(SimTime::ms(20));
  CHECK(f.host.hw_moves == std::vector<std::pair<std::size_t, std::int64_t>>{{0, 100}});
  f.host.run_until(SimTime::ms(30));
  f.rep.append(0, 100, SimTime::ms(30), std::nullopt);
  CHECK(f.rep.log_end(0) == 200);
  f.host.run_until(SimTime::ms(32));
  const SimTime fence = f.rep.broker_failed(0, SimTime::ms(32));
  CHECK(fence == SimTime::ms(9000));
  f.host.run_until(fence);
  CHECK(f.host.truncations.empty());
  f.rep.fence(0, fence);
  CHECK(f.leaders() == Ints{1});
  CHECK(f.host.truncations == std::vector<std::pair<std::size_t, std::int64_t>>{{0, 100}});
  CHECK(f.rep.log_end(0) == 100);
  CHECK(f.rep.high_watermark(0) == 100);
  CHECK(f.host.hw_moves.size() == 1);
}

TEST_CASE("partitions a topic schedule adds exist from their step: empty, in sync on the unfenced replicas, fetched") {
  // 3 brokers, RF 3, one partition growing to 3 at 10 s. Broker 1 dies at 1 s and is fenced
  // at 9 s (heartbeats every 2 s from 0). Before the step the rows of p1 and p2 have no ISR
  // (0 in the snapshots); at 10 s p1 (1,2,0) is led by 2 with ISR [2,0] (broker 1 fenced),
  // p2 (2,0,1) by 2 with ISR [2,0]. An acks=all append to p2 at 10 s is covered once broker
  // 0's fetch reports it: its fetcher towards broker 2 starts at the step.
  Scenario s = cluster(3, 1, 3, SimTime::ms(2));
  s.topics[0].schedule.push_back(TopicChange{SimTime::ms(10000), 3, std::nullopt});
  ReplicationFixture f(s);
  CHECK(f.isr(1).empty());
  f.host.run_until(SimTime::ms(1000));
  const SimTime fence = f.rep.broker_failed(1, SimTime::ms(1000));
  f.host.run_until(fence);
  f.rep.fence(1, fence);
  f.host.run_until(SimTime::ms(10000));
  const std::vector<char> up{1, 0, 1};
  f.leadership.add_partitions(0, 3, up);
  f.rep.add_partitions(0, 3, SimTime::ms(10000));
  CHECK(f.isr(1) == Ints{2, 0});
  CHECK(f.isr(2) == Ints{2, 0});
  CHECK(f.leaders() == Ints{0, 2, 2});
  CHECK(f.rep.append(2, 100, SimTime::ms(10000), 9));
  f.host.run_until(SimTime::ms(10010));
  CHECK(f.rep.high_watermark(2) == 100);
  REQUIRE(f.host.settled.contains(9));
  // Broker 0's first fetch towards 2 left at 10 s (1 ms each way) and found the bytes: the
  // answer is back at 10.002 s, the next fetch reports offset 100 at 10.003 s.
  CHECK(f.host.settled[9] == SimTime::ms(10003));
  const ReplicationResult r = f.rep.finish(SimTime::ms(10010));
  CHECK(r.history.front().isr_size == Ints{3, 0, 0});
  CHECK(r.partitions[1].isr_min == 2);
  CHECK(r.partitions[1].offline_ms == 0.0);  // not offline before it existed
}

TEST_CASE(
    "KIP-392: a follower learns the high watermark from its leader's next answer; the leader names a replica in the client's rack") {
  Scenario s = cluster(3, 1, 3, SimTime::ms(2));
  s.replication.rack_aware_selector = true;
  s.brokers[0].rack = "a";
  s.brokers[1].rack = "b";
  s.brokers[2].rack = "b";
  ReplicationFixture f(s);
  REQUIRE(f.leaders() == Ints{0});
  // The append at 10 ms reaches the followers at 11; their next fetches (12 ms) move the high
  // watermark to 100, and park: nothing more to fetch. The followers learn it only from the
  // answer to those, when replica.fetch.wait.max.ms (500) has passed: answered at 512, back at 513.
  f.append_at(SimTime::ms(10), 1);
  f.host.run_until(SimTime::ms(20));
  CHECK(f.rep.high_watermark(0) == 100);
  CHECK(f.host.hw_learnt.empty());
  CHECK(f.rep.follower_readable_records(0, 1) == 0);
  CHECK(f.rep.followers_behind());  // the host keeps their expiry when the producers are done
  f.host.run_until(SimTime::ms(600));
  CHECK_FALSE(f.rep.followers_behind());
  REQUIRE(f.host.hw_learnt.size() == 2);
  CHECK(f.host.hw_learnt[0] == std::make_tuple(std::size_t{0}, 1, SimTime::ms(513)));
  CHECK(f.host.hw_learnt[1] == std::make_tuple(std::size_t{0}, 2, SimTime::ms(513)));
  CHECK(f.rep.follower_readable_records(0, 1) == 1);  // the host's count: one record per 100 bytes
  // On a busy partition sooner: an append answers the parked fetches at once (700 ms, with the
  // high watermark of 100 they knew); their next fetches (702) move it to 200 and park, and the
  // next append (710) answers them with it.
  f.append_at(SimTime::ms(700), 2);
  f.host.run_until(SimTime::ms(705));
  CHECK(f.rep.high_watermark(0) == 200);
  CHECK(f.rep.follower_readable_records(0, 2) == 1);
  f.append_at(SimTime::ms(710), 3);
  f.host.run_until(SimTime::ms(711));
  CHECK(f.rep.follower_readable_records(0, 2) == 2);
  CHECK_FALSE(f.rep.follower_readable_records(0, 0));  // the leader serves as the leader
  // A fetch answered as it arrives carries the high watermark from before it: the leader reads,
  // then updates the follower's state (Partition.fetchRecords). The appends at 720 and 721.5:
  // the fetches that arrive at 722 with the second append to take move the high watermark to
  // 400 and are answered at once, with the 300 they found.
  f.append_at(SimTime::ms(720), 4);
  f.host.run_until(SimTime::from_ms(721.5));
  f.rep.append(0, 100, SimTime::from_ms(721.5), 5);
  f.host.run_until(SimTime::ms(723));
  CHECK(f.rep.high_watermark(0) == 400);
  CHECK(f.rep.follower_readable_records(0, 1) == 3);
  CHECK(f.rep.follower_readable_records(0, 2) == 3);
  // RackAwareReplicaSelector: the leader in the client's rack, or none there, or no rack: the
  // leader (-1); two in-sync followers in rack b, equally caught up: the larger broker id.
  CHECK(f.rep.preferred_read_replica(0, "a") == -1);
  CHECK(f.rep.preferred_read_replica(0, "c") == -1);
  CHECK(f.rep.preferred_read_replica(0, "") == -1);
  CHECK(f.rep.preferred_read_replica(0, "b") == 2);
  s.replication.rack_aware_selector = false;
  ReplicationFixture off(s);
  CHECK(off.rep.preferred_read_replica(0, "b") == -1);
}

TEST_CASE("a disk that cannot take a write fails its log directory: a follower's copy, then the leader's append") {
  // Broker 2's disk holds 250 bytes: its copy of the third 100-byte append does not fit. The
  // leader's 1,000 bytes refuse an append past them, and every write after (the directory
  // stays failed), telling the host once.
  Scenario s = cluster(3, 1, 3, SimTime::ms(2));
  s.brokers[0].disk_bytes = 1000;
  s.brokers[2].disk_bytes = 250;
  ReplicationFixture f(s);
  REQUIRE(f.rep.models_disks());
  f.append_at(SimTime::ms(10), 1);
  f.append_at(SimTime::ms(30), 2);
  f.host.run_until(SimTime::ms(40));
  CHECK(f.host.dir_failures.empty());
  f.append_at(SimTime::ms(50), 3);
  f.host.run_until(SimTime::ms(60));
  REQUIRE(f.host.dir_failures.size() == 1);
  CHECK(f.host.dir_failures[0] == std::pair{2, SimTime::ms(51)});  // the answer's return, one way after
  CHECK_FALSE(f.rep.disk_refuses(0, 700, SimTime::ms(60)));        // 300 + 700 fits exactly
  CHECK(f.rep.disk_refuses(0, 701, SimTime::ms(60)));
  CHECK(f.rep.disk_refuses(0, 1, SimTime::ms(61)));
  REQUIRE(f.host.dir_failures.size() == 2);
  CHECK(f.host.dir_failures[1] == std::pair{0, SimTime::ms(60)});
  const auto r = f.rep.finish(SimTime::ms(61));
  CHECK(r.errors.at("KAFKA_STORAGE_ERROR") == 2);
  CHECK(r.disks.brokers[2].failures_ms == std::vector<double>{51.0});
  CHECK(r.disks.brokers[2].peak == 200);
  CHECK(r.disks.brokers[0].peak == 300);
}
