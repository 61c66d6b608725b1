// The engine's Controller on its own: who leads after a broker's failure and recovery
// (replication fixed: at once; followers: at the fence), the preferred leader election, a
// topic's new partitions, and the leader history it keeps. Expectations worked by hand
// from the replica rule (partition p on brokers p, p+1, ... mod n).

#include "model/detail/controller.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace partsim::model;
using partsim::model::detail::Controller;
using partsim::sim::SimTime;

namespace {

using Ints = std::vector<std::int32_t>;

// Three brokers (ids 10, 11, 12); one topic of 3 partitions with RF 2: p0 on (0,1), p1 on
// (1,2), p2 on (2,0). Broker 1's schedule fails it, so the history is kept.
Scenario three_brokers() {
  Scenario s;
  for (std::int32_t b = 0; b < 3; ++b) {
    BrokerConfig bc;
    bc.id = 10 + b;
    s.brokers.push_back(bc);
  }
  BrokerChange fail;
  fail.at = SimTime::ms(1000);
  fail.kind = BrokerChange::Kind::kFail;
  s.brokers[1].schedule.push_back(fail);
  TopicConfig t;
  t.name = "t";
  t.partitions = 3;
  t.replication_factor = 2;
  s.topics.push_back(t);
  return s;
}

// A replication host that runs nothing: the followers' fetches never happen, which the
// controller's decisions here do not need.
struct IdleHost final : ReplicationHost {
  void schedule_fetch(Step, std::uint32_t, std::uint64_t, SimTime) override {}
  void acks_settled(std::uint64_t) override {}
  void ack_error(std::uint64_t, std::size_t, ProduceError) override {}
  std::int64_t records_acked() const override { return 0; }
  void high_watermark_moved(std::size_t, std::int64_t) override {}
  void log_truncated(std::size_t, std::int64_t) override {}
};

struct ControllerFixture {
  Scenario s = three_brokers();
  Leadership leadership{s.topics, s.brokers.size()};
  std::vector<char> up{1, 1, 1};
  std::vector<LeaderSnapshot> history;
  Ints leaders() const { return {leadership.leaders(0).begin(), leadership.leaders(0).end()}; }
  std::vector<std::string> causes() const {
    std::vector<std::string> out;
    for (const auto& h : history) out.push_back(h.cause);
    return out;
  }
};

}  // namespace

TEST_CASE("replication fixed: a failed broker's partitions move at once, come back at the preferred leader election") {
  ControllerFixture f;
  Controller c(f.s, f.leadership, f.up, nullptr, f.history);
  REQUIRE(c.keeps_history());
  c.start(SimTime::zero());
  CHECK_FALSE(c.broker_failed(1, SimTime::ms(1000)).has_value());  // no fence: moved now
  CHECK(f.up == std::vector<char>{1, 0, 1});
  CHECK(f.leaders() == Ints{0, 2, 2});  // p1's next live replica is broker 2
  CHECK(f.history.back().leaders == Ints{1, 0, 2});
  CHECK_FALSE(c.broker_failed(1, SimTime::ms(1500)).has_value());  // already down: nothing
  c.broker_recovered(1, SimTime::ms(2000));
  CHECK(f.leaders() == Ints{0, 2, 2});  // p1 had a leader: it stays until the election
  // Broker 1 leads none of its one preferred partition: 100% > 10% imbalance.
  CHECK(c.check_preferred_leaders(SimTime::ms(3000)));
  CHECK(f.leaders() == Ints{0, 1, 2});
  CHECK_FALSE(c.check_preferred_leaders(SimTime::ms(4000)));  // balanced: no election, no row
  CHECK(f.causes() ==
        std::vector<std::string>{"start", "broker 11 failed", "broker 11 back", "preferred leader election"});
  CHECK(f.history[3].time_ms == 3000.0);
}

TEST_CASE("a partition whose replicas are all down goes offline, and its replica leads again when back") {
  ControllerFixture f;
  Controller c(f.s, f.leadership, f.up, nullptr, f.history);
  c.broker_failed(1, SimTime::ms(1000));
  c.broker_failed(2, SimTime::ms(1000));
  CHECK(f.leaders() == Ints{0, -1, 0});  // p1 on (1,2): offline; p2 on (2,0): broker 0
  c.broker_recovered(2, SimTime::ms(2000));
  CHECK(f.leaders() == Ints{0, 2, 0});
}

TEST_CASE("followers: nothing moves until the fence, broker.session.timeout.ms after the last heartbeat") {
  // Heartbeats every 2 s from 0: broker 1 fails at 11 s, its last heartbeat was at 10 s,
  // the fence comes at 19 s; p1 (1,2) is then led by broker 2, the rest of its ISR.
  ControllerFixture f;
  f.s.replication.mode = ReplicationConfig::Mode::kFollowers;
  IdleHost host;
  Replication replication(f.s, f.leadership, host);
  Controller c(f.s, f.leadership, f.up, &replication, f.history);
  replication.start(SimTime::zero());
  const auto fence = c.broker_failed(1, SimTime::ms(11000));
  REQUIRE(fence.has_value());
  CHECK(*fence == SimTime::ms(19000));
  CHECK(f.leaders() == Ints{0, 1, 2});  // until the fence
  CHECK(c.fence(1, *fence));
  CHECK(f.leaders() == Ints{0, 2, 2});
  CHECK(f.causes() == std::vector<std::string>{"broker 11 failed", "broker 11 fenced"});
}

TEST_CASE("a topic's new partitions follow the replica rule, led by their first live replica") {
  ControllerFixture f;
  Controller c(f.s, f.leadership, f.up, nullptr, f.history);
  c.broker_failed(2, SimTime::ms(1000));
  c.topic_grew(0, 5, SimTime::ms(2000));
  // p3 on (0,1): broker 0; p4 on (1,2): broker 1 (2 is down).
  CHECK(f.leaders() == Ints{0, 1, 0, 0, 1});
  CHECK(f.causes().back() == "topic t grew to 5 partitions");
}

TEST_CASE("without a broker failure in the scenario, no leader history is kept") {
  ControllerFixture f;
  f.s.brokers[1].schedule.clear();
  Controller c(f.s, f.leadership, f.up, nullptr, f.history);
  CHECK_FALSE(c.keeps_history());
  c.start(SimTime::zero());
  c.topic_grew(0, 4, SimTime::ms(10));
  CHECK(f.history.empty());
}
