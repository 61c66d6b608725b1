#include "model/placement/replica_placement.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>

using namespace partsim::model;

TEST_CASE("admin rack-unaware placer: AdminRackAwareTest.testReplicaAssignment (5 brokers, rf 3, start 0)") {
  const auto a = admin_rack_unaware({0, 1, 2, 3, 4}, 10, 3, 0, 0);
  CHECK(a[0] == std::vector<std::int32_t>{0, 1, 2});
  CHECK(a[1] == std::vector<std::int32_t>{1, 2, 3});
  CHECK(a[4] == std::vector<std::int32_t>{4, 0, 1});
  CHECK(a[5] == std::vector<std::int32_t>{0, 2, 3});  // shift 1 after the first round
}

TEST_CASE("book T6: plain round-robin as printed, Kafka's placer shifts from p4 on") {
  const Assignment rr = round_robin_assignment({0, 1, 2, 3}, 6, 2);
  CHECK(rr == Assignment{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 1}, {1, 2}});
  const Assignment kafka = admin_rack_unaware({0, 1, 2, 3}, 6, 2, 0, 0);
  CHECK(kafka == Assignment{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}});
}

TEST_CASE("the rack-alternated broker list") {
  CHECK(rack_alternated_list({{0, "r1"}, {1, "r3"}, {2, "r3"}, {3, "r2"}, {4, "r2"}, {5, "r1"}}) ==
        std::vector<std::int32_t>{0, 3, 1, 5, 4, 2});
}

TEST_CASE("rack-aware placement: a replica per rack when rf <= racks, every rack when rf >= racks") {
  const std::vector<RackedBroker> brokers{{0, "a"}, {1, "a"}, {2, "b"}, {3, "b"}, {4, "c"}, {5, "c"}};
  for (std::int32_t start = 0; start < 6; ++start) {
    const auto two = admin_rack_aware(brokers, 12, 2, start, start);
    for (const auto& replicas : two) {
      std::set<std::string> racks;
      for (auto b : replicas) racks.insert(b < 2 ? "a" : b < 4 ? "b" : "c");
      CHECK(racks.size() == 2);  // at most one per rack
    }
    const auto four = admin_rack_aware(brokers, 12, 4, start, start);
    for (const auto& replicas : four) {
      std::set<std::string> racks;
      std::set<std::int32_t> distinct(replicas.begin(), replicas.end());
      for (auto b : replicas) racks.insert(b < 2 ? "a" : b < 4 ? "b" : "c");
      CHECK(racks.size() == 3);  // every rack
      CHECK(distinct.size() == 4);
    }
  }
}

TEST_CASE("partition cost (book T7)") {
  const auto c = partition_cost(30, 3);
  CHECK(c.logs == 90);
  CHECK(c.min_segment_files == 270);
  CHECK(partition_cost(30, 1).files == 150);
}
