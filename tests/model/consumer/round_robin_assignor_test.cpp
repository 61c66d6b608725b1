// Kafka's RoundRobinAssignorTest (clients), ported case by case; Kafka compares these lists
// in order.

#include <doctest/doctest.h>

#include "model/consumer/kafka_fixtures.hpp"
#include "model/consumer/round_robin_assignor.hpp"

using namespace partsim::testing::kafka;
using partsim::model::consumer::round_robin_assign;

namespace {

Result rr(std::vector<std::pair<std::string, int>> topics, std::vector<GroupMember> members) {
  GroupSpec spec;
  for (const auto& [name, n] : topics) spec.topics.push_back({name, n, {}, {}});
  spec.members = std::move(members);
  return {spec, round_robin_assign(spec)};
}

GroupMember static_member(const std::string& id, const std::string& instance, std::vector<std::string> topics) {
  auto m = member(id, std::move(topics));
  m.instance_id = instance;
  return m;
}

}  // namespace

TEST_CASE(
    "RoundRobinAssignorTest one consumer: no topic, nonexistent topic, one topic, subscribed only, multiple topics") {
  CHECK(rr({}, {member("consumer", {})})["consumer"].empty());
  CHECK(rr({}, {member("consumer", {"topic"})})["consumer"].empty());
  CHECK(list(rr({{"topic", 3}}, {member("consumer", {"topic"})})["consumer"]) == list("topic-0, topic-1, topic-2"));
  CHECK(list(rr({{"topic", 3}, {"other", 3}}, {member("consumer", {"topic"})})["consumer"]) ==
        list("topic-0, topic-1, topic-2"));
  CHECK(list(rr({{"topic1", 1}, {"topic2", 2}}, {member("consumer", kT12)})["consumer"]) ==
        list("topic1-0, topic2-0, topic2-1"));
}

TEST_CASE("RoundRobinAssignorTest two consumers on one topic with one and two partitions") {
  auto one = rr({{"topic", 1}}, {member("consumer1", {"topic"}), member("consumer2", {"topic"})});
  CHECK(list(one["consumer1"]) == list("topic-0"));
  CHECK(one["consumer2"].empty());
  auto two = rr({{"topic", 2}}, {member("consumer1", {"topic"}), member("consumer2", {"topic"})});
  CHECK(list(two["consumer1"]) == list("topic-0"));
  CHECK(list(two["consumer2"]) == list("topic-1"));
}

TEST_CASE("RoundRobinAssignorTest.testMultipleConsumersMixedTopics") {
  auto r = rr({{"topic1", 3}, {"topic2", 2}},
              {member("consumer1", {"topic1"}), member("consumer2", kT12), member("consumer3", {"topic1"})});
  CHECK(list(r["consumer1"]) == list("topic1-0"));
  CHECK(list(r["consumer2"]) == list("topic1-1, topic2-0, topic2-1"));
  CHECK(list(r["consumer3"]) == list("topic1-2"));
}

TEST_CASE("RoundRobinAssignorTest six partitions: two dynamic, two static, one static and one dynamic consumer") {
  const std::vector<std::pair<std::string, int>> topics{{"topic1", 3}, {"topic2", 3}};
  auto dynamic = rr(topics, {member("consumer1", kT12), member("consumer2", kT12)});
  CHECK(list(dynamic["consumer1"]) == list("topic1-0, topic1-2, topic2-1"));
  CHECK(list(dynamic["consumer2"]) == list("topic1-1, topic2-0, topic2-2"));
  auto both =
      rr(topics, {static_member("consumer-b", "instance1", kT12), static_member("consumer-a", "instance2", kT12)});
  CHECK(list(both["consumer-b"]) == list("topic1-0, topic1-2, topic2-1"));
  CHECK(list(both["consumer-a"]) == list("topic1-1, topic2-0, topic2-2"));
  auto one = rr(topics, {static_member("consumer-b", "instance1", kT12), member("consumer-a", kT12)});
  CHECK(list(one["consumer-b"]) == list("topic1-0, topic1-2, topic2-1"));
  CHECK(list(one["consumer-a"]) == list("topic1-1, topic2-0, topic2-2"));
}

TEST_CASE("RoundRobinAssignorTest.testStaticMemberRoundRobinAssignmentPersistent") {
  const std::vector<std::pair<std::string, int>> topics{{"topic1", 3}, {"topic2", 3}};
  std::vector<GroupMember> members{static_member("consumer1", "instance1", kT12),
                                   static_member("consumer2", "instance2", kT12),
                                   static_member("consumer3", "instance3", kT12), member("consumer4", kT12)};
  auto first = rr(topics, members);
  CHECK(list(first["consumer1"]) == list("topic1-0, topic2-1"));
  CHECK(list(first["consumer2"]) == list("topic1-1, topic2-2"));
  CHECK(list(first["consumer3"]) == list("topic1-2"));
  CHECK(list(first["consumer4"]) == list("topic2-0"));
  members.back() = member("consumer5", kT12);
  auto second = rr(topics, members);
  CHECK(list(second["consumer3"]) == list("topic1-2"));
  CHECK(list(second["consumer5"]) == list("topic2-0"));
}

TEST_CASE("RoundRobinAssignorTest.testStaticMemberRoundRobinAssignmentPersistentAfterMemberIdChanges") {
  const std::vector<std::pair<std::string, int>> topics{{"topic1", 5}, {"topic2", 5}};
  std::vector<GroupMember> members{static_member("consumer1", "instance1", kT12),
                                   static_member("consumer2", "instance2", kT12),
                                   static_member("consumer3", "instance3", kT12)};
  auto before = rr(topics, members);
  CHECK(list(before["consumer1"]) == list("topic1-0, topic1-3, topic2-1, topic2-4"));
  CHECK(list(before["consumer2"]) == list("topic1-1, topic1-4, topic2-2"));
  CHECK(list(before["consumer3"]) == list("topic1-2, topic2-0, topic2-3"));
  members[2].id = "consumer4";
  members[1].id = "consumer5";
  auto after = rr(topics, members);
  CHECK(list(after["consumer1"]) == list(before["consumer1"]));
  CHECK(list(after["consumer5"]) == list(before["consumer2"]));
  CHECK(list(after["consumer4"]) == list(before["consumer3"]));
}
