// The KRaft placer against Kafka's own StripedReplicaPlacerTest expectations (MockRandom).

#include "model/placement/striped_placer.hpp"

#include <doctest/doctest.h>

#include <memory>

#include "model/placement/java_random.hpp"

using namespace partsim::model;

namespace {
PlacerRandom mock() {
  auto r = std::make_shared<JavaRandom<MockLcg>>(MockLcg(17));
  return PlacerRandom{[r](std::int32_t bound) { return r->next_int(bound); }};
}
using V = std::vector<std::int32_t>;
}  // namespace

TEST_CASE("striped placer avoids the fenced broker on a single rack when it can") {
  RackList racks(mock(), {{3, {}, false}, {1, {}, true}, {0, {}, false}, {4, {}, false}, {2, {}, false}});
  CHECK(racks.total_brokers() == 5);
  CHECK(racks.unfenced_brokers() == 4);
  CHECK_THROWS_AS(racks.place(0), PlacementError);
  CHECK(racks.place(4) == V{3, 4, 0, 2});
  CHECK(racks.place(4) == V{4, 0, 2, 3});
  CHECK(racks.place(4) == V{0, 2, 3, 4});
  CHECK(racks.place(4) == V{2, 3, 4, 0});
  CHECK(racks.place(4) == V{0, 4, 3, 2});
}

TEST_CASE("striped placer uses the fenced broker when it must") {
  RackList racks(mock(), {{3, {}, false}, {1, {}, true}, {2, {}, false}});
  CHECK(racks.place(3) == V{3, 2, 1});
  CHECK(racks.place(3) == V{2, 3, 1});
  CHECK(racks.place(3) == V{3, 2, 1});
  CHECK(racks.place(3) == V{2, 3, 1});
}

TEST_CASE("striped placer over three racks") {
  RackList racks(
      mock(),
      {{11, "1", false}, {10, "1", false}, {30, "3", false}, {31, "3", false}, {21, "2", false}, {20, "2", true}});
  CHECK(racks.total_brokers() == 6);
  CHECK(racks.unfenced_brokers() == 5);
  CHECK(racks.rack_names() == std::vector<std::string>{"1", "2", "3"});
  CHECK(racks.place(4) == V{11, 21, 31, 10});
  CHECK(racks.place(4) == V{21, 30, 10, 20});
  CHECK(racks.place(4) == V{31, 11, 21, 30});
}

TEST_CASE("striped placer with racks that are mostly fenced") {
  RackList racks(mock(), {{11, "1", false},
                          {10, "1", false},
                          {30, "3", true},
                          {31, "3", true},
                          {20, "2", true},
                          {21, "2", true},
                          {41, "4", false},
                          {40, "4", true}});
  CHECK(racks.unfenced_brokers() == 3);
  CHECK(racks.place(4) == V{41, 11, 21, 30});
  CHECK(racks.place(4) == V{10, 20, 31, 41});
  CHECK(racks.place(4) == V{41, 21, 30, 11});
}

TEST_CASE("striped placer refuses impossible replication factors with Kafka's messages") {
  RackList all_fenced(mock(), {{1, {}, true}});
  CHECK_THROWS_WITH_AS(all_fenced.place(1), "All brokers are currently fenced.", PlacementError);
  RackList two(mock(), {{1, {}, false}, {2, {}, false}});
  CHECK_THROWS_WITH_AS(two.place(3),
                       "The target replication factor of 3 cannot be reached because only 2 broker(s) are registered.",
                       PlacementError);
  CHECK(striped_place(mock(), {{0, {}, false}, {1, {}, true}}, 3, 1) == std::vector<V>{{0}, {0}, {0}});
}

TEST_CASE("java.util.Random: known first draws for seed 42") {
  JavaRandom<JavaLcg> r{JavaLcg(42)};
  CHECK(r.next_int(10) == 0);
  CHECK(r.next_int(10) == 3);
  CHECK(r.next_int(10) == 8);
  JavaRandom<JavaLcg> r2{JavaLcg(42)};
  CHECK(r2.next_int() == -1170105035);
}
