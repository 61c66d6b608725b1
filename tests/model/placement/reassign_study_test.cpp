// A reassignment plan with its copy cost, stranded partitions, failover order and
// kafka-reassign-partitions --generate beside it.

#include "model/placement/reassign_study.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace partsim::model;

namespace {
// t-0 [0,1], t-1 [1,2]; broker 2 leaves, 3 joins; every broker alive.
ReassignStudyRequest drain_broker_2() {
  ReassignStudyRequest s;
  s.plan.current = {{0, 1}, {1, 2}};
  s.plan.rf = {2, 2};
  s.plan.targets = {{0, ""}, {1, ""}, {3, ""}};
  s.plan.replicas = {1, 2};  // broker 3 must take a replica, so t-1 moves from 2 to 3
  s.plan.leaders = {0, 2};
  s.partitions = {{"t", 0}, {"t", 1}};
  s.live = {{0, ""}, {1, ""}, {2, ""}, {3, ""}};
  s.sizes_bytes = {3'000'000'000, 1'000'000'000};
  return s;
}
}  // namespace

TEST_CASE("draining a broker: one move, copied from the partition's leader") {
  const auto s = study_reassignment(drain_broker_2());
  REQUIRE(s.plan.status == PlanStatus::kOptimal);
  CHECK(s.plan.moves == 1);
  CHECK(s.planned == Assignment{{0, 1}, {1, 3}});
  CHECK(s.changed == std::vector<std::size_t>{1});
  CHECK(s.stranded.empty());
  CHECK(s.load.total_bytes == 1'000'000'000);
  CHECK(s.load.in_bytes.at(3) == 1'000'000'000);
  CHECK(s.load.out_bytes.at(1) == 1'000'000'000);
  CHECK(s.failover_changes == 0);
  // --generate over brokers 0, 1, 3 with seed 0 (start 0, shift 1 as in kafka_generate_test).
  CHECK(s.generate.seeded == Assignment{{0, 3}, {1, 0}});
  CHECK(s.generate_load.total_bytes == 4'000'000'000);
}

TEST_CASE("a partition without a live replica is stranded; its copy has no sender") {
  auto r = drain_broker_2();
  r.live = {{0, ""}, {1, ""}, {3, ""}};  // broker 2 is dead, and t-1's only replica is on it
  r.plan.current[1] = {2};
  r.plan.rf[1] = 1;
  const auto s = study_reassignment(r);
  REQUIRE(s.plan.status == PlanStatus::kOptimal);
  CHECK(s.stranded == std::vector<std::size_t>{1});
  CHECK(s.planned[1] == std::vector<std::int32_t>{3});
  CHECK(s.load.in_bytes.at(3) == 1'000'000'000);
  CHECK(s.load.out_bytes.empty());
}

TEST_CASE("with failover the plan keeps its replicas and leaders and orders the followers") {
  ReassignStudyRequest r;
  // Brokers 0 and 1 lead two partitions each, each the other's second: if 0 fails, 1 leads 4.
  r.plan.current = {{0, 1, 2}, {0, 1, 3}, {1, 0, 2}, {1, 0, 3}};
  r.plan.rf = {3, 3, 3, 3};
  r.plan.targets = {{0, ""}, {1, ""}, {2, ""}, {3, ""}};
  r.plan.replicas = {0, 12};
  r.plan.leaders = {0, 4};
  r.partitions = {{"t", 0}, {"t", 1}, {"t", 2}, {"t", 3}};
  r.live = r.plan.targets;
  r.sizes_bytes.assign(4, 0);
  const auto plain = study_reassignment(r);
  REQUIRE(plain.plan.status == PlanStatus::kOptimal);
  CHECK(plain.changed.empty());
  CHECK(plain.before.worst_failure_max_leaders == 4);
  CHECK(plain.after.worst_failure_max_leaders == 4);
  r.failover = true;
  const auto s = study_reassignment(r);
  CHECK(s.plan.moves == 0);
  for (std::size_t p = 0; p < 4; ++p) {
    CHECK(s.planned[p].front() == r.plan.current[p].front());
    CHECK(std::is_permutation(s.planned[p].begin(), s.planned[p].end(), r.plan.current[p].begin()));
  }
  // One of each leader's two partitions gets another second (2 or 3): a failure then
  // hands the survivor one partition, not two.
  CHECK(s.failover_changes == 2);
  CHECK(s.changed.size() == 2);
  CHECK(s.after.worst_failure_max_leaders == 3);
}

TEST_CASE("an infeasible plan is reported as such and nothing is measured") {
  auto r = drain_broker_2();
  r.plan.replicas = {0, 1};  // 4 replicas, 3 brokers, at most 1 each
  const auto s = study_reassignment(r);
  CHECK(s.plan.status == PlanStatus::kInfeasible);
  CHECK(s.planned.empty());
  CHECK(s.changed.empty());
}
