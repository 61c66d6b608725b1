// Kafka's group-coordinator RangeAssignorTest (KIP-848 "range"), ported case by case.

#include <doctest/doctest.h>

#include "model/consumer/kafka_fixtures.hpp"
#include "model/consumer/server_range_assignor.hpp"

using namespace partsim::testing::kafka;
using partsim::model::consumer::server_range_assign;

namespace {

TopicMetadata topic(int n, int partitions) { return {"topic" + std::to_string(n), partitions, {}, {}}; }

Result range(std::vector<TopicMetadata> t, std::vector<GroupMember> members) {
  GroupSpec spec{std::move(t), std::move(members), MemberOrder::kJavaHashMap, false};
  return {spec, server_range_assign(spec)};
}

}  // namespace

TEST_CASE("consumer RangeAssignorTest.testOneMemberNoTopic and a nonexistent topic") {
  CHECK(range({topic(1, 3)}, {member("A", {})})["A"].empty());
  CHECK(range({topic(1, 3)}, {member("A", topics({2}))})["A"].empty());  // Kafka throws; the coordinator never asks
}

TEST_CASE("consumer RangeAssignorTest first assignments") {
  auto same = range({topic(1, 3), topic(3, 2)}, {member("A", topics({1, 3})), member("B", topics({1, 3}))});
  CHECK(as_set(same["A"]) == as_set(tps("topic1-0, topic1-1, topic3-0")));
  CHECK(as_set(same["B"]) == as_set(tps("topic1-2, topic3-1")));
  auto different = range({topic(1, 3), topic(2, 3), topic(3, 2)},
                         {member("A", topics({1, 2})), member("B", topics({3})), member("C", topics({2, 3}))});
  CHECK(as_set(different["A"]) == as_set(tps("topic1-0, topic1-1, topic1-2, topic2-0, topic2-1")));
  CHECK(as_set(different["B"]) == as_set(tps("topic3-0")));
  CHECK(as_set(different["C"]) == as_set(tps("topic2-2, topic3-1")));
  auto more = range({topic(1, 3), topic(3, 2)},
                    {member("A", topics({1, 3})), member("B", topics({1, 3})), member("C", topics({1, 3}))});
  CHECK(as_set(more["A"]) == as_set(tps("topic1-0, topic3-0")));
  CHECK(as_set(more["B"]) == as_set(tps("topic1-1, topic3-1")));
  CHECK(as_set(more["C"]) == as_set(tps("topic1-2")));
}

TEST_CASE("consumer RangeAssignorTest.testStaticMembership and testMixedStaticMembership") {
  std::vector<GroupMember> members{with_instance(member("A", topics({1})), "instanceA"),
                                   with_instance(member("B", topics({1})), "instanceB")};
  auto before = range({topic(1, 3)}, members);
  members[0].id = "memberA1";  // A rejoins with a new member id, the same instance id
  auto after = range({topic(1, 3)}, members);
  CHECK(list(after["memberA1"]) == list(before["A"]));
  CHECK(list(after["B"]) == list(before["B"]));
  std::vector<GroupMember> mixed{with_instance(member("A", topics({1})), "instanceA"),
                                 with_instance(member("C", topics({1})), "instanceC"), member("B", topics({1}))};
  auto first = range({topic(1, 5)}, mixed);
  mixed[0].id = "memberA1";
  auto second = range({topic(1, 5)}, mixed);
  CHECK(list(second["memberA1"]) == list(first["A"]));
  CHECK(list(second["B"]) == list(first["B"]));
  CHECK(list(second["C"]) == list(first["C"]));
  CHECK(as_set(first["A"]) == as_set(tps("topic1-0, topic1-1")));  // static members first: A, C, then B
  CHECK(as_set(first["C"]) == as_set(tps("topic1-2, topic1-3")));
  CHECK(as_set(first["B"]) == as_set(tps("topic1-4")));
}

TEST_CASE("consumer RangeAssignorTest reassignments: members and partitions added, members and subscriptions removed") {
  auto added = range({topic(1, 2), topic(2, 2)},
                     {member("A", topics({1, 2}), "", tps("topic1-0, topic2-0")),
                      member("B", topics({1, 2}), "", tps("topic1-1, topic2-1")), member("C", topics({1, 2}))});
  CHECK(as_set(added["A"]) == as_set(tps("topic1-0, topic2-0")));
  CHECK(as_set(added["B"]) == as_set(tps("topic1-1, topic2-1")));
  CHECK(added["C"].empty());
  auto partition =
      range({topic(1, 4), topic(2, 4)}, {member("A", topics({1, 2}), "", tps("topic1-0, topic1-1, topic2-0, topic2-1")),
                                         member("B", topics({1, 2}), "", tps("topic1-2, topic2-2"))});
  CHECK(as_set(partition["A"]) == as_set(tps("topic1-0, topic1-1, topic2-0, topic2-1")));
  CHECK(as_set(partition["B"]) == as_set(tps("topic1-2, topic1-3, topic2-2, topic2-3")));
  auto member_added = range({topic(1, 3), topic(2, 3)},
                            {member("A", topics({1, 2}), "", tps("topic1-0, topic1-1, topic2-0, topic2-1")),
                             member("B", topics({1, 2}), "", tps("topic1-2, topic2-2")), member("C", topics({1, 2}))});
  CHECK(as_set(member_added["A"]) == as_set(tps("topic1-0, topic2-0")));
  CHECK(as_set(member_added["B"]) == as_set(tps("topic1-1, topic2-1")));
  CHECK(as_set(member_added["C"]) == as_set(tps("topic1-2, topic2-2")));
  auto both = range({topic(1, 4), topic(2, 3)},
                    {member("A", topics({1, 2}), "", tps("topic1-0, topic1-1, topic2-0, topic2-1")),
                     member("B", topics({1, 2}), "", tps("topic1-2, topic2-2")), member("C", topics({1}))});
  CHECK(as_set(both["A"]) == as_set(tps("topic1-0, topic1-1, topic2-0, topic2-1")));
  CHECK(as_set(both["B"]) == as_set(tps("topic1-2, topic2-2")));
  CHECK(as_set(both["C"]) == as_set(tps("topic1-3")));
  auto removed = range({topic(1, 3), topic(2, 3)}, {member("B", topics({1, 2}), "", tps("topic1-2, topic2-2"))});
  CHECK(as_set(removed["B"]) == as_set(tps("topic1-0, topic1-1, topic1-2, topic2-0, topic2-1, topic2-2")));
  auto resubscribed = range({topic(1, 3), topic(2, 3), topic(3, 2)},
                            {member("A", topics({1}), "", tps("topic1-0, topic1-1, topic1-2, topic2-0")),
                             member("B", topics({1, 2, 3}), "", tps("topic2-1")),
                             member("C", topics({2}), "", tps("topic2-2, topic3-0, topic3-1"))});
  CHECK(as_set(resubscribed["A"]) == as_set(tps("topic1-0, topic1-1")));
  CHECK(as_set(resubscribed["B"]) == as_set(tps("topic1-2, topic2-0, topic2-1, topic3-0, topic3-1")));
  CHECK(as_set(resubscribed["C"]) == as_set(tps("topic2-2")));
}
