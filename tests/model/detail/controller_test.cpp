// The engine's Controller on its own: who leads after a broker's failure and recovery
// (replication fixed: at once; followers: at the fence), the preferred leader election, a
// topic's new partitions, and the leader history it keeps. Expectations worked by hand
// from the replica rule (partition p on brokers p, p+1, ... mod n).

#include "model/detail/controller.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "idle_replication_host.hpp"

using namespace partsim::model;
using partsim::model::detail::Controller;
using partsim::model::testing::IdleReplicationHost;
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

std::vector<std::string> causes(const Controller& c) {
  std::vector<std::string> out;
  for (const auto& h : c.history()) out.push_back(h.cause);
  return out;
}

struct ControllerFixture {
  Scenario s = three_brokers();
  Leadership leadership{s.topics, s.brokers.size()};
  std::vector<char> up{1, 1, 1};
  Ints leaders() const { return {leadership.leaders(0).begin(), leadership.leaders(0).end()}; }
};

}  // namespace

TEST_CASE("replication fixed: a failed broker's partitions move at once, come back at the preferred leader election") {
  ControllerFixture f;
  Controller c(f.s, f.leadership, f.up, nullptr);
  REQUIRE(c.keeps_history());
  c.start(SimTime::zero());
  CHECK_FALSE(c.broker_failed(1, SimTime::ms(1000)).has_value());  // no fence: moved now
  CHECK(f.up == std::vector<char>{1, 0, 1});
  CHECK(f.leaders() == Ints{0, 2, 2});  // p1's next live replica is broker 2
  CHECK(c.history().back().leaders == Ints{1, 0, 2});
  CHECK_FALSE(c.broker_failed(1, SimTime::ms(1500)).has_value());  // already down: nothing
  c.broker_recovered(1, SimTime::ms(2000));
  CHECK(f.leaders() == Ints{0, 2, 2});  // p1 had a leader: it stays until the election
  // Broker 1 leads none of its one preferred partition: 100% > 10% imbalance.
  CHECK(c.check_preferred_leaders(SimTime::ms(3000)));
  CHECK(f.leaders() == Ints{0, 1, 2});
  CHECK_FALSE(c.check_preferred_leaders(SimTime::ms(4000)));  // balanced: no election, no row
  CHECK(causes(c) ==
        std::vector<std::string>{"start", "broker 11 failed", "broker 11 back", "preferred leader election"});
  CHECK(c.history()[3].time_ms == 3000.0);
}

TEST_CASE("a partition whose replicas are all down goes offline, and its replica leads again when back") {
  ControllerFixture f;
  Controller c(f.s, f.leadership, f.up, nullptr);
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
  IdleReplicationHost host;
  Replication replication(f.s, f.leadership, host);
  Controller c(f.s, f.leadership, f.up, &replication);
  replication.start(SimTime::zero());
  const auto fence = c.broker_failed(1, SimTime::ms(11000));
  REQUIRE(fence.has_value());
  CHECK(*fence == SimTime::ms(19000));
  CHECK(f.leaders() == Ints{0, 1, 2});  // until the fence
  CHECK(c.fence(1, *fence));
  CHECK(f.leaders() == Ints{0, 2, 2});
  CHECK(causes(c) == std::vector<std::string>{"broker 11 failed", "broker 11 fenced"});
}

TEST_CASE("a topic's new partitions follow the replica rule, led by their first live replica") {
  ControllerFixture f;
  Controller c(f.s, f.leadership, f.up, nullptr);
  c.broker_failed(2, SimTime::ms(1000));
  c.topic_grew(0, 5, SimTime::ms(2000));
  // p3 on (0,1): broker 0; p4 on (1,2): broker 1 (2 is down).
  CHECK(f.leaders() == Ints{0, 1, 0, 0, 1});
  CHECK(causes(c).back() == "topic t grew to 5 partitions");
}

TEST_CASE("without a broker failure in the scenario, no leader history is kept") {
  ControllerFixture f;
  f.s.brokers[1].schedule.clear();
  Controller c(f.s, f.leadership, f.up, nullptr);
  CHECK_FALSE(c.keeps_history());
  c.start(SimTime::zero());
  c.topic_grew(0, 4, SimTime::ms(10));
  CHECK(c.history().empty());
}

TEST_CASE("a topic's steps are made in time order, equal times as written; one at or after the run's end never") {
  ControllerFixture f;
  f.s.topics[0].name = "t6";
  f.s.topics[0].partitions = 6;
  f.s.run.duration = SimTime::ms(10000);
  // Written out of order; the step at 10,000 ms is at the run's end: never made.
  f.s.topics[0].schedule = {{SimTime::ms(5000), 9, std::nullopt},
                            {SimTime::ms(2000), 7, std::nullopt},
                            {SimTime::ms(10000), 12, std::nullopt},
                            {SimTime::ms(2000), 8, std::nullopt}};
  Leadership leadership(f.s.topics, f.s.brokers.size());
  Controller c(f.s, leadership, f.up, nullptr);
  REQUIRE(c.topics_grow());
  REQUIRE(c.topic_steps(0).size() == 3);
  CHECK(c.topic_steps(0)[0].partitions == 7);  // the two at 2,000 ms as written
  CHECK(c.topic_steps(0)[1].partitions == 8);
  CHECK(c.topic_steps(0)[2].partitions == 9);
  CHECK(c.partition_counts() == Ints{6});
  // Rows for the 9 partitions the topic reaches: 6 from the start, 3 not made yet.
  REQUIRE(c.created().size() == 9);
  CHECK(c.created()[5] == SimTime::zero());
  CHECK(c.created()[6] == SimTime::max());
  // The client's order at each count it will have (spec §2.2's example for "t6", 6).
  CHECK(c.client_order(0, 6) == Ints{3, 2, 1, 0, 5, 4});
  CHECK(c.client_order(0, 9).size() == 9);
  CHECK_THROWS(c.client_order(0, 12));  // never reached

  const auto first = c.make_step(0, 0, SimTime::ms(2000), false);
  REQUIRE(first.has_value());
  CHECK(first->topic == "t6");
  CHECK(first->from == 6);
  CHECK(first->to == 7);
  CHECK(first->at_ms == 2000.0);
  CHECK(c.partition_counts() == Ints{7});
  CHECK(c.created()[6] == SimTime::ms(2000));
  CHECK(c.created()[7] == SimTime::max());
  CHECK(c.steps_done(0) == 1);
  CHECK(leadership.leaders(0).size() == 7);  // placed and led
  // Once every producer has stopped, a step is passed, not made.
  CHECK_FALSE(c.make_step(0, 1, SimTime::ms(2000), true).has_value());
  CHECK(c.steps_done(0) == 2);
  CHECK(c.partition_counts() == Ints{7});
  CHECK(c.created()[7] == SimTime::max());
}

TEST_CASE("with run.sorted_partition_order the client lists a topic's partitions in order") {
  ControllerFixture f;
  f.s.run.sorted_partition_order = true;
  Controller c(f.s, f.leadership, f.up, nullptr);
  CHECK_FALSE(c.topics_grow());
  CHECK(c.client_order(0, 3) == Ints{0, 1, 2});
}
