// One topic placed by the placer the user picks, with Kafka's draws and refusals.

#include "model/placement/topic_placement.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace partsim::model;

namespace {
TopicPlacementRequest request(Placer placer, std::vector<UsableBroker> brokers, std::int32_t partitions,
                              std::int32_t rf) {
  TopicPlacementRequest r;
  r.placer = placer;
  r.brokers = std::move(brokers);
  r.partitions = partitions;
  r.replication_factor = rf;
  return r;
}
}  // namespace

TEST_CASE("admin placer with a fixed start index: the book's T6 the Kafka way, brokers sorted by id") {
  auto r = request(Placer::kAdmin, {{3, {}, false}, {1, {}, false}, {0, {}, false}, {2, {}, false}}, 6, 2);
  r.start_index = 0;
  const auto p = place_topic(r);
  CHECK_FALSE(p.rack_aware);
  CHECK(p.start_index == 0);
  CHECK(p.replica_shift == 0);
  CHECK(p.assignment == Assignment{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}});
}

TEST_CASE("admin placer draws start index then shift from java.util.Random, rack-aware with racks") {
  // new Random(5).nextInt(4): 2, then 0. Rack-alternated list (r1: 0 1, r2: 2 3): 0, 2, 1, 3.
  // p0 leads on list[2] = 1, its follower list[(2 + 1 + 0) % 4] = 3 (rack r2); p1 on 3 with 0; ...
  auto r = request(Placer::kAdmin, {{3, "r2", false}, {0, "r1", false}, {1, "r1", false}, {2, "r2", false}}, 4, 2);
  r.seed = 5;
  const auto p = place_topic(r);
  CHECK(p.rack_aware);
  CHECK(p.start_index == 2);
  CHECK(p.replica_shift == 0);
  CHECK(p.assignment == Assignment{{1, 3}, {3, 0}, {0, 2}, {2, 1}});
}

TEST_CASE("simple placer: round-robin over the brokers as listed") {
  CHECK(place_topic(request(Placer::kSimple, {{2, {}, false}, {0, {}, false}, {1, {}, false}}, 3, 2)).assignment ==
        Assignment{{2, 0}, {0, 1}, {1, 2}});
}

TEST_CASE("striped placer: the controller sorts the brokers, so their order does not matter") {
  auto listed = request(Placer::kStriped, {{3, "b", false}, {0, "a", false}, {2, "b", false}, {1, "a", false}}, 8, 2);
  auto sorted = request(Placer::kStriped, {{0, "a", false}, {1, "a", false}, {2, "b", false}, {3, "b", false}}, 8, 2);
  listed.seed = sorted.seed = 11;
  const auto a = place_topic(listed).assignment;
  CHECK(a == place_topic(sorted).assignment);
  for (const auto& replicas : a) CHECK((replicas[0] < 2) != (replicas[1] < 2));  // one replica per rack
}

TEST_CASE("place_topic refuses what Kafka refuses, with Kafka's messages") {
  auto r = request(Placer::kAdmin, {{0, {}, false}, {1, {}, false}}, 3, 3);
  CHECK_THROWS_WITH_AS(place_topic(r), "Replication factor: 3 larger than available brokers: 2.", PlacementError);
  r.replication_factor = 1;
  r.partitions = 0;
  CHECK_THROWS_WITH_AS(place_topic(r), "Number of partitions must be larger than 0.", PlacementError);
  r = request(Placer::kAdmin, {{0, "a", false}, {1, {}, false}}, 3, 1);
  CHECK_THROWS_WITH_AS(place_topic(r), "Not all brokers have rack information for replica rack aware assignment.",
                       PlacementError);
  r = request(Placer::kStriped, {{0, "a", true}, {1, "a", true}}, 3, 1);
  CHECK_THROWS_WITH_AS(place_topic(r), "All brokers are currently fenced.", PlacementError);
}

TEST_CASE(
    "added partitions, ZooKeeper-era rule: AdminUtils continued from partition 0's leader (Kafka's AddPartitionsTest)") {
  const std::vector<UsableBroker> four{{0, {}, false}, {1, {}, false}, {2, {}, false}, {3, {}, false}};
  auto how = request(Placer::kAdmin, four, 2, 0);
  // testReplicaPlacementPartialServers: p0 [1,2], increased to 3.
  auto added = place_added_partitions({{1, 2}}, how);
  CHECK(added.start_index == 1);
  CHECK(added.assignment == Assignment{{2, 0}, {3, 1}});
  // testReplicaPlacementAllServers: p0 [2,3,0,1], increased to 7: leaders 3, 0, 1, 2, 3, 0.
  how.partitions = 6;
  added = place_added_partitions({{2, 3, 0, 1}}, how);
  REQUIRE(added.assignment.size() == 6);
  std::vector<std::int32_t> leaders;
  for (const auto& r : added.assignment) {
    leaders.push_back(r[0]);
    CHECK(std::set<std::int32_t>(r.begin(), r.end()) == std::set<std::int32_t>{0, 1, 2, 3});
  }
  CHECK(leaders == std::vector<std::int32_t>{3, 0, 1, 2, 3, 0});
  // Partition 0 led by a broker gone since: the first broker with a larger id starts.
  how.partitions = 1;
  CHECK(place_added_partitions({{5, 0}}, how).start_index == 0);
  const std::vector<UsableBroker> gap{{0, {}, false}, {4, {}, false}, {8, {}, false}};
  how.brokers = gap;
  added = place_added_partitions({{5, 0}}, how);
  CHECK(added.start_index == 2);                  // broker 8
  CHECK(added.assignment == Assignment{{0, 4}});  // partition 1: (1 + 2) mod 3 = position 0
}

TEST_CASE("added partitions, KRaft: a fresh striped placement of the new partitions alone") {
  const std::vector<UsableBroker> six{{0, {}, false}, {1, {}, false}, {2, {}, false},
                                      {3, {}, false}, {4, {}, false}, {5, {}, false}};
  auto how = request(Placer::kStriped, six, 3, 0);
  how.seed = 11;
  const auto added = place_added_partitions({{0, 1}, {1, 2}, {2, 0}}, how);
  auto fresh = request(Placer::kStriped, six, 3, 2);
  fresh.seed = 11;
  CHECK(added.assignment == place_topic(fresh).assignment);
  CHECK_THROWS_AS(place_added_partitions({}, how), PlacementError);
  how.placer = Placer::kSimple;
  CHECK_THROWS_AS(place_added_partitions({{0, 1}}, how), PlacementError);
}
