// Kafka's RangeAssignorTest (clients), ported case by case: the test names are Kafka's, each
// run under every RackConfig where Kafka parameterizes it (with rack-aware logic preferred, as
// its initializeRacks sets). Expected assignments are Kafka's.

#include <doctest/doctest.h>

#include "model/consumer/kafka_fixtures.hpp"
#include "model/consumer/range_assignor.hpp"

using namespace partsim::testing::kafka;
using partsim::model::consumer::range_assign;

namespace {

// RangeAssignorTest.initializeRacks(rackConfig, maxConsumers): replication factor and broker
// racks both maxConsumers; every topic's partition i on nodes i, i+1, ... (nextNodeIndex 0).
struct RangeFixture {
  int rf = 3, broker_racks = 0;
  bool consumer_rack = false;
  RangeFixture(RackConfig c, int max_consumers = 3)
      : rf(max_consumers),
        broker_racks(c != RackConfig::kNoBrokerRack ? max_consumers : 0),
        consumer_rack(c != RackConfig::kNoConsumerRack) {}
  TopicMetadata topic(const std::string& name, int partitions) const {
    return topic_on_racks(name, partitions, rf, broker_racks, 0);
  }
  GroupMember sub(const std::string& id, std::vector<std::string> topics, int index) const {
    const int n = broker_racks > 0 ? broker_racks : static_cast<int>(kAllRacks.size());
    return member(id, std::move(topics), consumer_rack ? kAllRacks[static_cast<std::size_t>(index % n)] : "");
  }
  Result run(std::vector<TopicMetadata> topics, std::vector<GroupMember> members) const {
    GroupSpec spec{std::move(topics), std::move(members), MemberOrder::kJavaHashMap, true};
    return {spec, range_assign(spec)};
  }
};

}  // namespace

TEST_CASE("RangeAssignorTest.testOneConsumerNoTopic / testOneConsumerNonexistentTopic") {
  for (auto c : {RackConfig::kBrokerAndConsumerRack, RackConfig::kNoConsumerRack}) {
    const RangeFixture f(c);
    CHECK(f.run({}, {f.sub("consumer1", {}, 0)})["consumer1"].empty());
    CHECK(f.run({}, {f.sub("consumer1", {"topic1"}, 0)})["consumer1"].empty());
  }
}

TEST_CASE("RangeAssignorTest one consumer: one topic, only subscribed topics, multiple topics") {
  for (auto c : kRackConfigs) {
    CAPTURE(name(c));
    const RangeFixture f(c);
    CHECK(as_set(f.run({f.topic("topic1", 3)}, {f.sub("consumer1", {"topic1"}, 0)})["consumer1"]) ==
          as_set(tps("topic1-0, topic1-1, topic1-2")));
    CHECK(as_set(f.run({f.topic("topic1", 3), f.topic("other", 3)},
                       {f.sub("consumer1", {"topic1"}, 0)})["consumer1"]) ==
          as_set(tps("topic1-0, topic1-1, topic1-2")));
    CHECK(as_set(f.run({f.topic("topic1", 1), f.topic("topic2", 2)}, {f.sub("consumer1", kT12, 0)})["consumer1"]) ==
          as_set(tps("topic1-0, topic2-0, topic2-1")));
  }
}

TEST_CASE("RangeAssignorTest two consumers on one topic with one and two partitions") {
  for (auto c : kRackConfigs) {
    CAPTURE(name(c));
    const RangeFixture f(c);
    auto one = f.run({f.topic("topic1", 1)}, {f.sub("consumer1", {"topic1"}, 0), f.sub("consumer2", {"topic1"}, 1)});
    CHECK(as_set(one["consumer1"]) == as_set(tps("topic1-0")));
    CHECK(one["consumer2"].empty());
    auto two = f.run({f.topic("topic1", 2)}, {f.sub("consumer1", {"topic1"}, 0), f.sub("consumer2", {"topic1"}, 1)});
    CHECK(as_set(two["consumer1"]) == as_set(tps("topic1-0")));
    CHECK(as_set(two["consumer2"]) == as_set(tps("topic1-1")));
  }
}

TEST_CASE("RangeAssignorTest.testMultipleConsumersMixedTopics and testTwoConsumersTwoTopicsSixPartitions") {
  for (auto c : kRackConfigs) {
    CAPTURE(name(c));
    const RangeFixture f(c);
    auto mixed =
        f.run({f.topic("topic1", 3), f.topic("topic2", 2)},
              {f.sub("consumer1", {"topic1"}, 0), f.sub("consumer2", kT12, 1), f.sub("consumer3", {"topic1"}, 2)});
    CHECK(as_set(mixed["consumer1"]) == as_set(tps("topic1-0")));
    CHECK(as_set(mixed["consumer2"]) == as_set(tps("topic1-1, topic2-0, topic2-1")));
    CHECK(as_set(mixed["consumer3"]) == as_set(tps("topic1-2")));
    auto six =
        f.run({f.topic("topic1", 3), f.topic("topic2", 3)}, {f.sub("consumer1", kT12, 0), f.sub("consumer2", kT12, 1)});
    CHECK(as_set(six["consumer1"]) == as_set(tps("topic1-0, topic1-1, topic2-0, topic2-1")));
    CHECK(as_set(six["consumer2"]) == as_set(tps("topic1-2, topic2-2")));
  }
}

TEST_CASE("RangeAssignorTest static members sort by instance id, before dynamic members") {
  for (auto c : kRackConfigs) {
    CAPTURE(name(c));
    const RangeFixture f(c);
    const std::vector<TopicMetadata> topics{f.topic("topic1", 3), f.topic("topic2", 3)};
    // testTwoStaticConsumersTwoTopicsSixPartitions: consumer-b (instance1) before consumer-a.
    auto both = f.run(topics, {with_instance(f.sub("consumer-b", kT12, 0), "instance1"),
                               with_instance(f.sub("consumer-a", kT12, 1), "instance2")});
    CHECK(as_set(both["consumer-b"]) == as_set(tps("topic1-0, topic1-1, topic2-0, topic2-1")));
    CHECK(as_set(both["consumer-a"]) == as_set(tps("topic1-2, topic2-2")));
    // testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions.
    auto one = f.run(topics, {with_instance(f.sub("consumer-b", kT12, 0), "instance1"), f.sub("consumer-a", kT12, 1)});
    CHECK(as_set(one["consumer-b"]) == as_set(tps("topic1-0, topic1-1, topic2-0, topic2-1")));
    CHECK(as_set(one["consumer-a"]) == as_set(tps("topic1-2, topic2-2")));
  }
}

TEST_CASE("RangeAssignorTest.testStaticMemberRangeAssignmentPersistent") {
  for (auto c : kRackConfigs) {
    CAPTURE(name(c));
    const RangeFixture f(c, 5);
    const std::vector<TopicMetadata> topics{f.topic("topic1", 5), f.topic("topic2", 4)};
    std::vector<GroupMember> members;
    for (int i = 1; i <= 3; ++i)
      members.push_back(with_instance(f.sub("consumer" + std::to_string(i), kT12, i - 1),
                                      "instance" + std::to_string(i)));
    members.push_back(f.sub("consumer4", kT12, 3));
    // Kafka compares these lists in order: topic1's run, then topic2's.
    auto first = f.run(topics, members);
    CHECK(list(first["consumer1"]) == list("topic1-0, topic1-1, topic2-0"));
    CHECK(list(first["consumer2"]) == list("topic1-2, topic2-1"));
    CHECK(list(first["consumer3"]) == list("topic1-3, topic2-2"));
    CHECK(list(first["consumer4"]) == list("topic1-4, topic2-3"));
    members.back() = f.sub("consumer5", kT12, 4);  // the dynamic member is replaced
    auto second = f.run(topics, members);
    CHECK(list(second["consumer1"]) == list("topic1-0, topic1-1, topic2-0"));
    CHECK(list(second["consumer5"]) == list("topic1-4, topic2-3"));
  }
}

TEST_CASE("RangeAssignorTest.testStaticMemberRangeAssignmentPersistentAfterMemberIdChanges") {
  for (auto c : kRackConfigs) {
    CAPTURE(name(c));
    const RangeFixture f(c);
    const std::vector<TopicMetadata> topics{f.topic("topic1", 5), f.topic("topic2", 5)};
    std::vector<GroupMember> members;
    for (int i = 1; i <= 3; ++i)
      members.push_back(with_instance(f.sub("consumer" + std::to_string(i), kT12, i - 1),
                                      "instance" + std::to_string(i)));
    auto before = f.run(topics, members);
    CHECK(as_set(before["consumer1"]) == as_set(tps("topic1-0, topic1-1, topic2-0, topic2-1")));
    CHECK(as_set(before["consumer2"]) == as_set(tps("topic1-2, topic1-3, topic2-2, topic2-3")));
    CHECK(as_set(before["consumer3"]) == as_set(tps("topic1-4, topic2-4")));
    members[2].id = "consumer4";  // instance3 rejoins as consumer4, instance2 as consumer5
    members[1].id = "consumer5";
    auto after = f.run(topics, members);
    CHECK(list(after["consumer1"]) == list(before["consumer1"]));
    CHECK(list(after["consumer5"]) == list(before["consumer2"]));
    CHECK(list(after["consumer4"]) == list(before["consumer3"]));
  }
}

TEST_CASE("RangeAssignorTest.testRackAwareStaticMemberRangeAssignmentPersistentAfterMemberIdChanges") {
  const RangeFixture f(RackConfig::kBrokerAndConsumerRack);
  const std::vector<TopicMetadata> topics{topic_on_racks("topic1", 5, 2, 3, 0), topic_on_racks("topic2", 5, 2, 3, 0)};
  std::vector<GroupMember> members;
  for (int i = 1; i <= 3; ++i)
    members.push_back(with_instance(f.sub("consumer" + std::to_string(i), kT12, i - 1),
                                    "instance" + std::to_string(i)));
  auto before = f.run(topics, members);
  CHECK(list(before["consumer1"]) == list("topic1-0, topic1-2, topic2-0, topic2-2"));
  CHECK(list(before["consumer2"]) == list("topic1-1, topic1-3, topic2-1, topic2-3"));
  CHECK(list(before["consumer3"]) == list("topic1-4, topic2-4"));
  members[2].id = "consumer4";
  members[1].id = "consumer5";
  auto after = f.run(topics, members);
  CHECK(list(after["consumer1"]) == list(before["consumer1"]));
  CHECK(list(after["consumer5"]) == list(before["consumer2"]));
  CHECK(list(after["consumer4"]) == list(before["consumer3"]));
}

namespace {

const std::vector<std::pair<std::string, int>> kT1T2T3{{"t1", 6}, {"t2", 7}, {"t3", 2}};
const std::vector<std::string> kAll3{"t1", "t2", "t3"};

// RangeAssignorTest.verifyNonRackAwareAssignment: every rack combination where rack matching
// is off (or on but changes nothing) gives the plain range assignment.
void verify_non_rack_aware(const std::vector<std::pair<std::string, int>>& topics,
                           const std::vector<std::vector<std::string>>& subs,
                           const std::vector<std::string>& expected) {
  const auto check = [&](int rf, const std::vector<std::string>& brokers, const std::vector<std::string>& consumers,
                         bool prefer, int mismatches) {
    const auto r = verify_rack_assignment(AssignorKind::kRange, topics, rf, brokers, consumers, subs, {}, prefer);
    CHECK(r.assignment == expected);
    if (mismatches >= 0) CHECK(r.mismatches == mismatches);
  };
  check(3, null_racks(3), racks(3), false, -1);
  check(3, racks(3), null_racks(3), false, -1);
  check(3, racks(3), racks(3), false, 0);
  check(4, racks(4), racks(3), false, 0);
  check(3, racks(3), {"d", "e", "f"}, false, -1);
  check(3, racks(3), {"", "e", "f"}, false, -1);
  check(3, racks(3), racks(3), true, 0);
}

void verify(const std::vector<std::pair<std::string, int>>& topics, int rf, const std::vector<std::string>& brokers,
            const std::vector<std::string>& consumers, const std::vector<std::vector<std::string>>& subs,
            const std::vector<std::string>& expected, int mismatches, bool prefer = false) {
  const auto r = verify_rack_assignment(AssignorKind::kRange, topics, rf, brokers, consumers, subs, {}, prefer);
  CHECK(r.assignment == expected);
  if (mismatches >= 0) CHECK(r.mismatches == mismatches);
}

}  // namespace

TEST_CASE("RangeAssignorTest.testRackAwareAssignmentWithUniformSubscription") {
  const std::vector<std::vector<std::string>> subs{kAll3, kAll3, kAll3};
  verify_non_rack_aware(kT1T2T3, subs,
                        {"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1",
                         "t1-4, t1-5, t2-5, t2-6"});
  verify(kT1T2T3, 1, racks(3), racks(3), subs,
         {"t1-0, t1-3, t2-0, t2-3, t2-6", "t1-1, t1-4, t2-1, t2-4, t3-0", "t1-2, t1-5, t2-2, t2-5, t3-1"}, 0);
  verify(kT1T2T3, 2, racks(3), racks(3), subs,
         {"t1-0, t1-2, t2-0, t2-2, t2-3, t3-1", "t1-1, t1-3, t2-1, t2-4, t3-0", "t1-4, t1-5, t2-5, t2-6"}, 1);
  verify(kT1T2T3, 3, racks(2), racks(3), subs,
         {"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1", "t1-4, t1-5, t2-5, t2-6"}, 4);
}

TEST_CASE("RangeAssignorTest.testRackAwareAssignmentWithNonEqualSubscription") {
  const std::vector<std::vector<std::string>> subs{kAll3, kAll3, {"t1", "t3"}};
  verify_non_rack_aware(kT1T2T3, subs,
                        {"t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1",
                         "t1-4, t1-5"});
  verify(kT1T2T3, 1, racks(3), racks(3), subs,
         {"t1-0, t1-3, t2-0, t2-2, t2-3, t2-6", "t1-1, t1-4, t2-1, t2-4, t2-5, t3-0", "t1-2, t1-5, t3-1"}, 2);
  verify(kT1T2T3, 2, racks(3), racks(3), subs,
         {"t1-0, t1-2, t2-0, t2-2, t2-3, t2-5, t3-1", "t1-1, t1-3, t2-1, t2-4, t2-6, t3-0", "t1-4, t1-5"}, 0);
  verify(kT1T2T3, 3, racks(2), racks(3), subs,
         {"t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1", "t1-4, t1-5"}, 2);
}

TEST_CASE("RangeAssignorTest.testRackAwareAssignmentWithUniformPartitions: co-partitioning before rack alignment") {
  const std::vector<std::pair<std::string, int>> topics{{"t1", 5}, {"t2", 5}, {"t3", 5}};
  const std::vector<std::vector<std::string>> subs{kAll3, kAll3, kAll3};
  const std::vector<std::string> plain{"t1-0, t1-1, t2-0, t2-1, t3-0, t3-1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3",
                                       "t1-4, t2-4, t3-4"};
  verify_non_rack_aware(topics, subs, plain);
  verify(topics, 1, racks(3), racks(3), subs, plain, 10);
  verify(topics, 2, racks(3), racks(3), subs, plain, 5);
  verify(topics, 3, racks(2), racks(3), subs, plain, 3);
}

TEST_CASE("RangeAssignorTest.testRackAwareAssignmentWithUniformPartitionsNonEqualSubscription") {
  const std::vector<std::pair<std::string, int>> topics{{"t1", 5}, {"t2", 5}, {"t3", 5}};
  const std::vector<std::vector<std::string>> subs{kAll3, kAll3, {"t1", "t3"}};
  verify_non_rack_aware(topics, subs,
                        {"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1", "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3",
                         "t1-4, t3-4"});
  verify(topics, 1, racks(3), racks(3), subs,
         {"t1-0, t1-1, t2-0, t2-1, t2-4, t3-0, t3-1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3", "t1-4, t3-4"}, 9);
  verify(topics, 2, racks(3), racks(3), subs,
         {"t1-2, t2-0, t2-1, t2-3, t3-2", "t1-0, t1-3, t2-2, t2-4, t3-0, t3-3", "t1-1, t1-4, t3-1, t3-4"}, 0);
  verify(topics, 3, racks(2), racks(3), subs,
         {"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1", "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3", "t1-4, t3-4"}, 2);
}

TEST_CASE("RangeAssignorTest.testRackAwareAssignmentWithCoPartitioning") {
  const std::vector<std::pair<std::string, int>> topics{{"t1", 6}, {"t2", 6}, {"t3", 2}, {"t4", 2}};
  const std::vector<std::string> consumer_racks{"a", "b", "b", "a"};
  std::vector<std::vector<std::string>> subs{{"t1", "t2"}, {"t1", "t2"}, {"t3", "t4"}, {"t3", "t4"}};
  std::vector<std::string> plain{"t1-0, t1-1, t1-2, t2-0, t2-1, t2-2", "t1-3, t1-4, t1-5, t2-3, t2-4, t2-5",
                                 "t3-0, t4-0", "t3-1, t4-1"};
  verify(topics, 3, racks(2), consumer_racks, subs, plain, -1);
  verify(topics, 2, racks(2), consumer_racks, subs, plain, 0);
  verify(topics, 1, racks(2), consumer_racks, subs,
         {"t1-0, t1-2, t1-4, t2-0, t2-2, t2-4", "t1-1, t1-3, t1-5, t2-1, t2-3, t2-5", "t3-1, t4-1", "t3-0, t4-0"}, 0);
  const std::vector<std::string> all{"t1", "t2", "t3", "t4"};
  subs = {all, all, all, all};
  plain = {"t1-0, t1-1, t2-0, t2-1, t3-0, t4-0", "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1", "t1-4, t2-4", "t1-5, t2-5"};
  verify(topics, 3, racks(2), consumer_racks, subs, plain, -1);
  verify(topics, 2, racks(2), consumer_racks, subs, plain, 0);
  verify(topics, 1, racks(2), consumer_racks, subs,
         {"t1-0, t1-2, t2-0, t2-2, t3-0, t4-0", "t1-1, t1-3, t2-1, t2-3, t3-1, t4-1", "t1-5, t2-5", "t1-4, t2-4"}, 0);
  verify(topics, 1, racks(3), consumer_racks, subs,
         {"t1-0, t1-3, t2-0, t2-3, t3-0, t4-0", "t1-1, t1-4, t2-1, t2-4, t3-1, t4-1", "t1-2, t2-2", "t1-5, t2-5"}, 6);
}

TEST_CASE("RangeAssignorTest.testCoPartitionedAssignmentWithSameSubscription") {
  const std::vector<std::pair<std::string, int>> topics{{"t1", 6}, {"t2", 6}, {"t3", 2},
                                                        {"t4", 2}, {"t5", 4}, {"t6", 4}};
  const std::vector<std::string> list{"t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"};
  const std::vector<std::vector<std::string>> subs{list, list, list};
  const std::vector<std::string> plain{"t1-0, t1-1, t2-0, t2-1, t3-0, t4-0, t5-0, t5-1, t6-0, t6-1",
                                       "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1, t5-2, t6-2",
                                       "t1-4, t1-5, t2-4, t2-5, t5-3, t6-3"};
  verify(topics, 3, null_racks(3), racks(3), subs, plain, -1);
  verify(topics, 3, racks(3), racks(3), subs, plain, 0, true);
  verify(topics, 2, racks(3), racks(3), subs,
         {"t1-0, t1-2, t2-0, t2-2, t3-0, t4-0, t5-1, t6-1", "t1-1, t1-3, t2-1, t2-3, t3-1, t4-1, t5-2, t6-2",
          "t1-4, t1-5, t2-4, t2-5, t5-0, t5-3, t6-0, t6-3"},
         0, true);
}
