// Leadership: the replica rule (partition p on brokers p, p+1, ... mod n, the first
// preferred), failover to the next live replica in replica order, offline partitions and
// their recovery, and the controller's preferred leader election above
// leader.imbalance.per.broker.percentage.

#include "model/cluster/leadership.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace partsim::model;

namespace {

TopicConfig topic(std::string name, std::int32_t partitions, std::int32_t rf) {
  TopicConfig t;
  t.name = std::move(name);
  t.partitions = partitions;
  t.replication_factor = rf;
  return t;
}

std::vector<std::int32_t> to_vector(std::span<const std::int32_t> s) { return {s.begin(), s.end()}; }
using Ints = std::vector<std::int32_t>;

}  // namespace

TEST_CASE("partition p has replicas p, p+1, ... mod n, and starts led by the first") {
  const Leadership l({topic("a", 6, 3)}, 4);
  CHECK(l.topics() == 1);
  CHECK(to_vector(l.replicas(0, 0)) == Ints{0, 1, 2});
  CHECK(to_vector(l.replicas(0, 3)) == Ints{3, 0, 1});
  CHECK(to_vector(l.replicas(0, 5)) == Ints{1, 2, 3});
  CHECK(to_vector(l.leaders(0)) == Ints{0, 1, 2, 3, 0, 1});
  CHECK(l.leaders_per_broker() == Ints{2, 2, 1, 1});
}

TEST_CASE("a failed broker's partitions move to their next live replica in replica order, in every topic") {
  Leadership l({topic("a", 6, 3), topic("b", 4, 2)}, 4);
  std::vector<char> up{1, 1, 0, 1};
  CHECK(l.broker_failed(2, up));
  CHECK(to_vector(l.leaders(0)) == Ints{0, 1, 3, 3, 0, 1});  // a-2: replicas 2, 3, 0 -> 3
  CHECK(to_vector(l.leaders(1)) == Ints{0, 1, 3, 3});        // b-2: replicas 2, 3 -> 3
  up[1] = 0;
  CHECK(l.broker_failed(1, up));
  // a-1 (1, 2, 3) and a-5 (1, 2, 3) skip the dead 2 for 3; b-1 (1, 2) has no live replica.
  CHECK(to_vector(l.leaders(0)) == Ints{0, 3, 3, 3, 0, 3});
  CHECK(to_vector(l.leaders(1)) == Ints{0, -1, 3, 3});
  CHECK(l.leaders_per_broker() == Ints{3, 0, 0, 6});  // over both topics, offline b-1 uncounted
}

TEST_CASE("a partition whose replicas are all down goes offline; a broker leading nothing changes nothing") {
  Leadership l({topic("a", 3, 1)}, 3);
  std::vector<char> up{1, 0, 1};
  CHECK(l.broker_failed(1, up));
  CHECK(to_vector(l.leaders(0)) == Ints{0, -1, 2});
  CHECK(l.leaders_per_broker() == Ints{1, 0, 1});
  CHECK_FALSE(l.broker_failed(1, up));  // leads nothing any more
}

TEST_CASE("a recovered broker takes back only the offline partitions it holds a replica of") {
  Leadership l({topic("a", 3, 2)}, 3);  // a-0 on 0,1; a-1 on 1,2; a-2 on 2,0
  std::vector<char> up{0, 1, 1};
  l.broker_failed(0, up);
  CHECK(to_vector(l.leaders(0)) == Ints{1, 1, 2});
  up[1] = 0;
  l.broker_failed(1, up);
  CHECK(to_vector(l.leaders(0)) == Ints{-1, 2, 2});  // a-0 has no live replica
  up[0] = 1;
  CHECK(l.broker_recovered(0));
  CHECK(to_vector(l.leaders(0)) == Ints{0, 2, 2});  // a-0 back on 0; a-2 (preferred 2) stays
  up[1] = 1;
  CHECK_FALSE(l.broker_recovered(1));  // nothing offline: a-1 stays with 2 until an election
  CHECK(to_vector(l.leaders(0)) == Ints{0, 2, 2});
}

namespace {

// Two brokers. Topic x: 18 partitions, one replica each (broker 0 preferred for the 9
// even ones); topic y: 2 partitions on both brokers (y-0 preferred 0, y-1 preferred 1).
// Broker 0 fails and comes back: x's even partitions were offline and return to it, y-0
// moved to broker 1 and stays there. Broker 0 then has 1 of its 10 preferred partitions
// led elsewhere: an imbalance of exactly 10%.
Leadership imbalanced() {
  Leadership l({topic("x", 18, 1), topic("y", 2, 2)}, 2);
  std::vector<char> up{0, 1};
  l.broker_failed(0, up);
  l.broker_recovered(0);
  REQUIRE(to_vector(l.leaders(1)) == Ints{1, 1});
  REQUIRE(l.leaders_per_broker() == Ints{9, 11});
  return l;
}

}  // namespace

TEST_CASE("a preferred leader election moves leadership back only above leader.imbalance.per.broker.percentage") {
  const std::vector<char> up{1, 1};
  SUBCASE("an imbalance just above the threshold: elected") {
    Leadership l = imbalanced();
    CHECK(l.rebalance_preferred(up, 9.99));
    CHECK(to_vector(l.leaders(1)) == Ints{0, 1});
    CHECK(l.leaders_per_broker() == Ints{10, 10});
    CHECK_FALSE(l.rebalance_preferred(up, 0));  // balanced now: nothing moves
  }
  SUBCASE("an imbalance equal to the threshold: no election (the rule is 'above')") {
    Leadership l = imbalanced();
    CHECK_FALSE(l.rebalance_preferred(up, 10.0));
    CHECK(to_vector(l.leaders(1)) == Ints{1, 1});
  }
  SUBCASE("an imbalance just below the threshold: no election") {
    Leadership l = imbalanced();
    CHECK_FALSE(l.rebalance_preferred(up, 10.01));
    CHECK(l.leaders_per_broker() == Ints{9, 11});
  }
}

TEST_CASE("a broker that is down gets nothing back from a preferred leader election") {
  Leadership l({topic("y", 4, 2)}, 2);
  std::vector<char> up{0, 1};
  l.broker_failed(0, up);
  CHECK(to_vector(l.leaders(0)) == Ints{1, 1, 1, 1});
  CHECK_FALSE(l.rebalance_preferred(up, 0));
  CHECK(to_vector(l.leaders(0)) == Ints{1, 1, 1, 1});
  up[0] = 1;
  CHECK_FALSE(l.broker_recovered(0));    // nothing was offline
  CHECK(l.rebalance_preferred(up, 10));  // 2 of 2 elsewhere: 100%
  CHECK(to_vector(l.leaders(0)) == Ints{0, 1, 0, 1});
}

TEST_CASE("a topic's assignment places its replicas by broker id, the partitions it adds later too") {
  // Brokers with ids 10, 20, 30 (positions 0, 1, 2); t-0 on 30 then 10, t-1 on 20 then 30,
  // t-2 (added later) on 10 then 20.
  std::vector<BrokerConfig> brokers(3);
  for (std::size_t b = 0; b < 3; ++b) brokers[b].id = static_cast<std::int32_t>(10 * (b + 1));
  TopicConfig t = topic("t", 2, 2);
  t.assignment = {{30, 10}, {20, 30}, {10, 20}};
  Leadership l({t}, brokers);
  CHECK(to_vector(l.replicas(0, 0)) == Ints{2, 0});
  CHECK(to_vector(l.replicas(0, 1)) == Ints{1, 2});
  CHECK(to_vector(l.leaders(0)) == Ints{2, 1});
  const std::vector<char> up{1, 1, 1};
  l.add_partitions(0, 3, up);
  CHECK(to_vector(l.replicas(0, 2)) == Ints{0, 1});
  CHECK(to_vector(l.leaders(0)) == Ints{2, 1, 0});
  // Broker 30 fails: t-0 moves to its next replica, 10.
  const std::vector<char> without_30{1, 1, 0};
  CHECK(l.broker_failed(2, without_30));
  CHECK(to_vector(l.leaders(0)) == Ints{0, 1, 0});
}
