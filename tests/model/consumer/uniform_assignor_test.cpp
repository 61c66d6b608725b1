// Kafka's group-coordinator tests of the KIP-848 UniformAssignor, ported case by case:
// OptimizedUniformAssignmentBuilderTest (homogeneous subscriptions) and
// UniformHeterogeneousAssignmentBuilderTest. Kafka's tests fix the member order with a TreeMap
// (and TestGroupSpecImpl), and some previous assignments with a LinkedHashMap: partsim's
// MemberOrder::kAsGiven with members and owned partitions listed in that order. The topics
// carry the tests' topic ids, whose HashSet order decides the homogeneous builder's topic order.

#include <doctest/doctest.h>

#include <set>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "model/consumer/kafka_fixtures.hpp"
#include "model/consumer/topic_id.hpp"
#include "model/consumer/uniform_assignor.hpp"

using namespace partsim::testing::kafka;
using partsim::model::consumer::TopicId;
using partsim::model::consumer::uniform_assign;

namespace {

const char* kIds[] = {"T1-A4s3VTwiI5CTbEp6POw", "T2-B4s3VTwiI5YHbPp6YUe", "T3-CU8fVTLCz5YMkLoDQsa",
                      "T4-Tw9fVTLCz5HbPp6YQsa"};

// topicN with the test's topic id.
TopicMetadata topic_with_id(int n, int partitions) {
  return {"topic" + std::to_string(n), partitions, {}, TopicId::parse(kIds[n - 1])};
}

Result uniform(std::vector<TopicMetadata> t, std::vector<GroupMember> members) {
  GroupSpec spec{std::move(t), std::move(members), MemberOrder::kAsGiven, false};
  return {spec, uniform_assign(spec)};
}

// checkValidityAndBalance of OptimizedUniformAssignmentBuilderTest: subscribed topics only,
// each partition once, sizes within one.
void check_validity_and_balance(const Result& r) {
  std::set<std::string> seen;
  std::size_t lo = SIZE_MAX, hi = 0;
  for (std::size_t m = 0; m < r.spec.members.size(); ++m) {
    const auto& subs = r.spec.members[m].topics;
    for (const auto& p : r.result.partitions[m]) {
      CHECK(std::find(subs.begin(), subs.end(), p.topic) != subs.end());
      CHECK(seen.insert(p.name()).second);
    }
    lo = std::min(lo, r.result.partitions[m].size());
    hi = std::max(hi, r.result.partitions[m].size());
  }
  CHECK(hi - lo <= 1);
}

}  // namespace

TEST_CASE("OptimizedUniformAssignmentBuilderTest.testOneMemberNoTopicSubscription and a nonexistent topic") {
  CHECK(uniform({topic_with_id(1, 3)}, {member("A", {})})["A"].empty());
  // Kafka's assignor throws on a subscription to a topic it has no metadata for; the
  // coordinator never passes one (it resolves only existing topics), and partsim skips it.
  CHECK(uniform({topic_with_id(1, 3)}, {member("A", topics({2}))})["A"].empty());
}

TEST_CASE("OptimizedUniformAssignmentBuilderTest.testFirstAssignmentTwoMembersTwoTopicsNoMemberRacks") {
  auto r =
      uniform({topic_with_id(1, 3), topic_with_id(3, 2)}, {member("A", topics({1, 3})), member("B", topics({1, 3}))});
  CHECK(as_set(r["A"]) == as_set(tps("topic1-0, topic3-0, topic3-1")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-1, topic1-2")));
  check_validity_and_balance(r);
}

TEST_CASE("OptimizedUniformAssignmentBuilderTest.testFirstAssignmentNumMembersGreaterThanTotalNumPartitions") {
  auto r =
      uniform({topic_with_id(3, 2)}, {member("A", topics({3})), member("B", topics({3})), member("C", topics({3}))});
  CHECK(as_set(r["A"]) == as_set(tps("topic3-0")));
  CHECK(as_set(r["B"]) == as_set(tps("topic3-1")));
  CHECK(r["C"].empty());
}

TEST_CASE("OptimizedUniformAssignmentBuilderTest.testValidityAndBalanceForLargeSampleSet") {
  boost::random::mt19937 rng(848);
  boost::random::uniform_int_distribution<std::int64_t> bits(INT64_MIN, INT64_MAX);
  std::vector<TopicMetadata> t;
  std::vector<std::string> names;
  for (int i = 1; i < 100; ++i) {
    t.push_back({"topic-" + std::to_string(i), 3, {}, TopicId{bits(rng), bits(rng)}});
    names.push_back(t.back().name);
  }
  std::vector<GroupMember> members;
  for (int i = 1; i < 50; ++i) members.push_back(member("member" + std::to_string(i), names));
  std::sort(members.begin(), members.end(), [](const GroupMember& a, const GroupMember& b) { return a.id < b.id; });
  check_validity_and_balance(uniform(t, members));
}

TEST_CASE("OptimizedUniformAssignmentBuilderTest.testReassignmentForTwoMembersTwoTopicsGivenUnbalancedPrevAssignment") {
  auto r = uniform({topic_with_id(1, 3), topic_with_id(2, 3)},
                   {member("A", topics({1, 2}), "", tps("topic1-0, topic1-1, topic2-0, topic2-1")),
                    member("B", topics({1, 2}), "", tps("topic1-2, topic2-2"))});
  CHECK(as_set(r["A"]) == as_set(tps("topic1-0, topic1-1, topic2-0")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-2, topic2-1, topic2-2")));
  check_validity_and_balance(r);
}

TEST_CASE("OptimizedUniformAssignmentBuilderTest.testReassignmentWhenPartitionsAreAddedForTwoMembersTwoTopics") {
  auto r = uniform({topic_with_id(1, 6), topic_with_id(2, 5)},
                   {member("A", topics({1, 2}), "", tps("topic1-0, topic1-2, topic2-0")),
                    member("B", topics({1, 2}), "", tps("topic1-1, topic2-1, topic2-2"))});
  CHECK(as_set(r["A"]) == as_set(tps("topic1-0, topic1-2, topic1-3, topic2-0, topic2-3, topic2-4")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-1, topic1-4, topic1-5, topic2-1, topic2-2")));
  check_validity_and_balance(r);
}

TEST_CASE(
    "OptimizedUniformAssignmentBuilderTest.testReassignmentWhenOneMemberAddedAfterInitialAssignmentWithTwoMembersTwoTopics") {
  auto r = uniform({topic_with_id(1, 3), topic_with_id(2, 3)},
                   {member("A", topics({1, 2}), "", tps("topic1-0, topic1-2, topic2-0")),
                    member("B", topics({1, 2}), "", tps("topic1-1, topic2-1, topic2-2")), member("C", topics({1, 2}))});
  CHECK(as_set(r["A"]) == as_set(tps("topic1-0, topic1-2")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-1, topic2-1")));
  CHECK(as_set(r["C"]) == as_set(tps("topic2-0, topic2-2")));
  check_validity_and_balance(r);
}

TEST_CASE("OptimizedUniformAssignmentBuilderTest member or subscription removed after the initial assignment") {
  // testReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithThreeMembersTwoTopics
  auto removed =
      uniform({topic_with_id(1, 3), topic_with_id(2, 3)}, {member("A", topics({1, 2}), "", tps("topic2-0, topic1-0")),
                                                           member("B", topics({1, 2}), "", tps("topic2-1, topic1-1"))});
  CHECK(as_set(removed["A"]) == as_set(tps("topic1-0, topic2-0, topic2-2")));
  CHECK(as_set(removed["B"]) == as_set(tps("topic1-1, topic1-2, topic2-1")));
  // testReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics
  auto unsubscribed =
      uniform({topic_with_id(1, 2), topic_with_id(2, 2)}, {member("A", topics({2}), "", tps("topic2-0, topic1-0")),
                                                           member("B", topics({2}), "", tps("topic2-1, topic1-1"))});
  CHECK(as_set(unsubscribed["A"]) == as_set(tps("topic2-0")));
  CHECK(as_set(unsubscribed["B"]) == as_set(tps("topic2-1")));
}

TEST_CASE(
    "the homogeneous builder in Kafka's own order: member ids through a HashMap, topics through a HashSet of their ids") {
  // Put into the coordinator's HashMap as C, B, A, the ids land in buckets 3, 2, 1
  // ("A".hashCode() = 65): it walks A, B, C, so A and B get the two extra partitions. The
  // HashSet of the topic ids walks topic3 first: t3-0, t3-1, t1-0, t1-1, t1-2 in turn.
  GroupSpec spec{{topic_with_id(1, 3), topic_with_id(3, 2)},
                 {member("C", topics({1, 3})), member("B", topics({1, 3})), member("A", topics({1, 3}))},
                 MemberOrder::kJavaHashMap,
                 false};
  Result r{spec, uniform_assign(spec)};
  CHECK(as_set(r["A"]) == as_set(tps("topic3-0, topic3-1")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-0, topic1-1")));
  CHECK(as_set(r["C"]) == as_set(tps("topic1-2")));
  // Without topic ids partsim walks the topics by name: topic1 first.
  for (auto& t : spec.topics) t.id.reset();
  Result by_name{spec, uniform_assign(spec)};
  CHECK(as_set(by_name["A"]) == as_set(tps("topic1-0, topic1-1")));
  CHECK(as_set(by_name["C"]) == as_set(tps("topic3-1")));
}

TEST_CASE("UniformHeterogeneousAssignmentBuilderTest no subscriptions, nonexistent topics, first assignments") {
  CHECK(uniform({topic_with_id(1, 3)}, {member("A", {}), member("B", {})})["A"].empty());
  auto first =
      uniform({topic_with_id(1, 3), topic_with_id(3, 6)}, {member("A", topics({1, 3})), member("B", topics({3}))});
  CHECK(as_set(first["A"]) == as_set(tps("topic1-0, topic1-1, topic1-2, topic3-4")));
  CHECK(as_set(first["B"]) == as_set(tps("topic3-0, topic3-1, topic3-2, topic3-3, topic3-5")));
  auto more = uniform({topic_with_id(3, 1), topic_with_id(1, 2)},
                      {member("A", topics({3})), member("B", topics({3})), member("C", topics({1}))});
  CHECK(as_set(more["A"]) == as_set(tps("topic3-0")));
  CHECK(more["B"].empty());
  CHECK(as_set(more["C"]) == as_set(tps("topic1-0, topic1-1")));
  auto one_without = uniform({topic_with_id(1, 3)}, {member("A", topics({1})), member("B", {})});
  CHECK(as_set(one_without["A"]) == as_set(tps("topic1-0, topic1-1, topic1-2")));
  CHECK(one_without["B"].empty());
}

TEST_CASE(
    "UniformHeterogeneousAssignmentBuilderTest.testReassignmentForTwoMembersThreeTopicsGivenUnbalancedPrevAssignment") {
  auto r = uniform(
      {topic_with_id(1, 6), topic_with_id(2, 4), topic_with_id(3, 4)},
      {member("A", topics({1}), "", tps("topic1-0, topic1-1, topic1-2")),
       member("B", topics({1, 2}), "", tps("topic1-3, topic2-0")),
       member("C", topics({1, 2, 3}), "",
              tps("topic1-4, topic1-5, topic2-1, topic2-2, topic2-3, topic3-0, topic3-1, topic3-2, topic3-3"))});
  CHECK(as_set(r["A"]) == as_set(tps("topic1-0, topic1-1, topic1-2, topic1-5")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-3, topic2-0, topic2-1, topic2-2, topic2-3")));
  CHECK(as_set(r["C"]) == as_set(tps("topic1-4, topic3-0, topic3-1, topic3-2, topic3-3")));
}

TEST_CASE("UniformHeterogeneousAssignmentBuilderTest.testReassignmentWhenPartitionsAreAddedForTwoMembers") {
  auto r = uniform({topic_with_id(1, 6), topic_with_id(2, 5), topic_with_id(3, 3), topic_with_id(4, 3)},
                   {member("A", topics({1, 3}), "", tps("topic1-0, topic1-1, topic1-2, topic1-3, topic3-0, topic3-1")),
                    member("B", topics({1, 2, 3, 4}), "",
                           tps("topic2-0, topic2-1, topic2-2, topic4-0, topic4-1, topic4-2"))});
  CHECK(as_set(r["A"]) ==
        as_set(tps("topic1-0, topic1-1, topic1-2, topic1-3, topic1-4, topic1-5, topic3-0, topic3-1, topic3-2")));
  CHECK(as_set(r["B"]) ==
        as_set(tps("topic2-0, topic2-1, topic2-2, topic2-3, topic2-4, topic4-0, topic4-1, topic4-2")));
}

TEST_CASE(
    "UniformHeterogeneousAssignmentBuilderTest.testReassignmentWhenOneMemberAddedAndPartitionsAddedTwoMembersTwoTopics") {
  auto r = uniform({topic_with_id(1, 6), topic_with_id(2, 7)},
                   {member("A", topics({1}), "", tps("topic1-0, topic1-2, topic2-0")),
                    member("B", topics({1, 2}), "", tps("topic1-1, topic2-1, topic2-2")), member("C", topics({1, 2}))});
  CHECK(as_set(r["A"]) == as_set(tps("topic1-0, topic1-2, topic1-3, topic1-4, topic1-5")));
  CHECK(as_set(r["B"]) == as_set(tps("topic1-1, topic2-1, topic2-2, topic2-6")));
  CHECK(as_set(r["C"]) == as_set(tps("topic2-0, topic2-3, topic2-4, topic2-5")));
}

TEST_CASE("UniformHeterogeneousAssignmentBuilderTest member and subscription removed after the initial assignment") {
  auto removed = uniform({topic_with_id(1, 3), topic_with_id(2, 8), topic_with_id(3, 3)},
                         {member("A", topics({1, 3}), "", tps("topic1-0, topic1-1, topic1-2, topic3-0, topic3-1")),
                          member("B", topics({2}), "", tps("topic2-3, topic2-4, topic2-5, topic2-6"))});
  CHECK(as_set(removed["A"]) == as_set(tps("topic1-0, topic1-1, topic1-2, topic3-0, topic3-1, topic3-2")));
  CHECK(as_set(removed["B"]) ==
        as_set(tps("topic2-0, topic2-1, topic2-2, topic2-3, topic2-4, topic2-5, topic2-6, topic2-7")));
  auto unsubscribed = uniform({topic_with_id(1, 3), topic_with_id(2, 5)},
                              {member("A", topics({1}), "", tps("topic1-0, topic1-2, topic2-1, topic2-3")),
                               member("B", topics({1, 2}), "", tps("topic1-1, topic2-0, topic2-2, topic2-4"))});
  CHECK(as_set(unsubscribed["A"]) == as_set(tps("topic1-0, topic1-1, topic1-2")));
  CHECK(as_set(unsubscribed["B"]) == as_set(tps("topic2-0, topic2-1, topic2-2, topic2-3, topic2-4")));
}

TEST_CASE(
    "UniformHeterogeneousAssignmentBuilderTest.testReassignmentWhenTopicPartitionsRunOutAndMembersHaveNoPartitions") {
  // Kafka's test hands identical subscriptions to the heterogeneous builder. The coordinator
  // picks that builder when some subscribed name is not subscribed by every member, even a
  // name that does not exist: B's "deleted" does it here.
  GroupSpec spec{{topic_with_id(1, 2), topic_with_id(2, 2), topic_with_id(3, 2)},
                 {member("A", topics({1, 2, 3}), "", tps("topic1-0, topic1-1, topic2-0, topic2-1, topic3-0, topic3-1")),
                  member("B", {"topic1", "topic2", "topic3", "deleted"})},
                 MemberOrder::kAsGiven,
                 false};
  Result h{spec, uniform_assign(spec)};
  CHECK(as_set(h["A"]) == as_set(tps("topic2-0, topic3-0, topic3-1")));
  CHECK(as_set(h["B"]) == as_set(tps("topic1-0, topic1-1, topic2-1")));
}
