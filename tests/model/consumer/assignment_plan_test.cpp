#include <doctest/doctest.h>

#include "model/consumer/assignment_plan.hpp"
#include "model/consumer/kafka_fixtures.hpp"

using namespace partsim::testing::kafka;
using partsim::model::consumer::AssignmentPlan;
using partsim::model::consumer::plan_assignment;

namespace {

std::vector<std::string> moves(const AssignmentPlan& plan) {
  std::vector<std::string> out;
  for (const auto& m : plan.moved) out.push_back(m.partition.name() + ":" + m.from + "->" + (m.to ? *m.to : "nobody"));
  return out;
}

}  // namespace

TEST_CASE("scaling a range group from 3 to 4 members: what each gets, the spread, and what moves") {
  GroupSpec spec{{{"orders", 6, {}, {}}}, {}, MemberOrder::kJavaHashMap, false};
  spec.members = {member("c0", {"orders"}, "", tps("orders-0, orders-1")),
                  member("c1", {"orders"}, "", tps("orders-2, orders-3")),
                  member("c2", {"orders"}, "", tps("orders-4, orders-5")), member("c3", {"orders"})};
  const auto plan = plan_assignment(AssignorKind::kRange, spec);
  CHECK(list(plan.partitions[0]) == list("orders-0, orders-1"));
  CHECK(list(plan.partitions[1]) == list("orders-2, orders-3"));
  CHECK(list(plan.partitions[2]) == list("orders-4"));
  CHECK(list(plan.partitions[3]) == list("orders-5"));
  CHECK(moves(plan) == std::vector<std::string>{"orders-5:c2->c3"});
  CHECK(plan.min_partitions == 1);
  CHECK(plan.max_partitions == 2);
  CHECK(plan.assigned == 6);
  CHECK(plan.idle.empty());
  CHECK(plan.rebalances == 1);
}

TEST_CASE("more members than partitions leaves the last ones idle") {
  GroupSpec spec{{{"orders", 2, {}, {}}},
                 {member("c0", {"orders"}), member("c1", {"orders"}), member("c2", {"orders"})},
                 MemberOrder::kJavaHashMap,
                 false};
  const auto plan = plan_assignment(AssignorKind::kRoundRobin, spec);
  CHECK(plan.idle == std::vector<std::string>{"c2"});
  CHECK(plan.min_partitions == 0);
  CHECK(plan.max_partitions == 1);
}

TEST_CASE("cooperative-sticky takes a second rebalance for what the first withholds; eager sticky one") {
  GroupSpec spec{{{"topic1", 2, {}, {}}, {"topic2", 2, {}, {}}}, {}, MemberOrder::kJavaHashMap, false};
  spec.members = {member("consumer1", {"topic1", "topic2"}, "", tps("topic1-0, topic2-0"), 1),
                  member("consumer2", {"topic1", "topic2"}, "", tps("topic1-1, topic2-1"), 1),
                  member("consumer3", {"topic1", "topic2"}, "", {}, 1)};
  const auto coop = plan_assignment(AssignorKind::kCooperativeSticky, spec);
  CHECK(coop.rebalances == 2);
  CHECK(coop.settled);
  REQUIRE(coop.withheld.size() == 1);
  CHECK(coop.withheld[0].partition.name() == "topic2-0");
  CHECK(coop.withheld[0].owners == std::vector<std::string>{"consumer1"});
  CHECK(coop.withheld[0].to == "consumer3");
  CHECK(list(coop.partitions[2]) == list("topic2-0"));
  CHECK(moves(coop) == std::vector<std::string>{"topic2-0:consumer1->consumer3"});
  const auto eager = plan_assignment(AssignorKind::kSticky, spec);
  CHECK(eager.rebalances == 1);
  CHECK(eager.withheld.empty());
  CHECK(list(eager.partitions[2]) == list("topic2-0"));
}

TEST_CASE("moves list every claimant that loses a partition, and nobody for a topic no one subscribes any more") {
  GroupSpec spec{{{"a", 2, {}, {}}, {"b", 1, {}, {}}}, {}, MemberOrder::kJavaHashMap, false};
  spec.members = {member("c0", {"a"}, "", tps("a-0, b-0"), 3), member("c1", {"a"}, "", tps("a-0"), 3)};
  const auto plan = plan_assignment(AssignorKind::kSticky, spec);
  // a-0 was claimed by both in one generation: neither keeps it for sure; b-0 has no subscriber.
  CHECK(moves(plan) == std::vector<std::string>{"a-0:c1->c0", "b-0:c0->nobody"});
}

TEST_CASE("a group on which Kafka's sticky assignor throws carries the failure into the plan") {
  // From the differential run against Kafka's classes (its output: NullPointerException at
  // AbstractStickyAssignor.java:1412). c48, without a generation, last owned t0-0 and now
  // subscribes only to t1, which has no partitions: Kafka leaves c48 out of the members it
  // rebalances, then looks up its size to hand t0-0 back to it.
  GroupSpec spec{{{"t0", 2, {}, {}}, {"t1", 0, {}, {}}}, {}, MemberOrder::kJavaHashMap, false};
  spec.members = {member("c30", {"t1", "gone"}, "", {}, 2), member("c46", {"t0"}, "", tps("t0-0, t0-1"), 3),
                  member("c33", {"t0"}, "", {}, 2), member("c48", {"t1"}, "", tps("t0-0"), std::nullopt)};
  const auto plan = plan_assignment(AssignorKind::kSticky, spec);
  REQUIRE(plan.kafka_failure.has_value());
  CHECK(plan.kafka_failure->find("NullPointerException") != std::string::npos);
  CHECK(plan.kafka_failure->find("t0-0") != std::string::npos);
  CHECK(plan.kafka_failure->find("c48") != std::string::npos);
  spec.members[3].owned.clear();  // without that claim Kafka assigns normally
  CHECK_FALSE(plan_assignment(AssignorKind::kSticky, spec).kafka_failure.has_value());
}

TEST_CASE("members that leave the group hand over everything they owned") {
  GroupSpec spec{{{"orders", 4, {}, {}}},
                 {member("c0", {"orders"}, "", tps("orders-0, orders-1"), 2)},
                 MemberOrder::kJavaHashMap,
                 false};
  const std::vector<GroupMember> departed{member("c1", {"orders"}, "", tps("orders-2, orders-3"), 2)};
  const auto plan = plan_assignment(AssignorKind::kSticky, spec, departed);
  CHECK(plan.left == std::vector<std::string>{"c1"});
  CHECK(moves(plan) == std::vector<std::string>{"orders-2:c1->c0", "orders-3:c1->c0"});
  CHECK(list(plan.partitions[0]) == list("orders-0, orders-1, orders-2, orders-3"));
}
