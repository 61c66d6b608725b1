// Kafka's AbstractStickyAssignorTest, ported case by case and run, as Kafka runs it, for both
// StickyAssignor and CooperativeStickyAssignor under every RackConfig. Test names are Kafka's;
// expectations are Kafka's. (Kafka compares these lists in order.) For cooperative-sticky,
// verify() first runs the follow-up rebalances, as CooperativeStickyAssignorTest's verifier
// does, so checks after it see the settled assignment.

#include <doctest/doctest.h>

#include <array>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "model/consumer/sticky_fixture.hpp"

using namespace partsim::testing::kafka;

namespace {

// getTopicName / getConsumerName: "t" or "c" + the index zero-padded to the width of maxNum.
std::string padded(const std::string& prefix, int i, int max) {
  std::string digits = std::to_string(i);
  while (digits.size() < std::to_string(max).size()) digits.insert(0, "0");
  return prefix + digits;
}

}  // namespace

TEST_CASE(
    "AbstractStickyAssignorTest one consumer: no topic, a topic without partitions, one topic, only subscribed topics, multiple topics") {
  for_each_config([](Sticky& s) {
    s.put(s.subscription("consumer", {}, 0));
    auto none = s.assign();
    CHECK(none["consumer"].empty());
    CHECK(s.transferring().empty());
    s.put_topic("topic", 0);  // testOneConsumerNonexistentTopic: the topic has no partitions
    s.put(s.subscription("consumer", {"topic"}, 0));
    CHECK(s.assign()["consumer"].empty());
    s.put_topic("topic", 3);
    auto one = s.assign();
    CHECK(list(one["consumer"]) == list("topic-0, topic-1, topic-2"));
    CHECK(s.transferring().empty());
  });
  for_each_config([](Sticky& s) {  // testOnlyAssignsPartitionsFromSubscribedTopics
    s.put_topic("topic", 2);
    s.put(s.v2("consumer", {"topic"}, tps("topic-0, topic-1, other-0, other-1"), s.generation_id, 0));
    auto r = s.assign();
    CHECK(list(r["consumer"]) == list("topic-0, topic-1"));
    CHECK(s.transferring().empty());
    s.verify(r);
  });
  for_each_config([](Sticky& s) {  // testOneConsumerMultipleTopics
    s.put_topic("topic1", 1);
    s.put_topic("topic2", 2);
    s.put(s.subscription("consumer", {"topic1", "topic2"}, 0));
    CHECK(list(s.assign()["consumer"]) == list("topic1-0, topic2-0, topic2-1"));
  });
}

TEST_CASE("AbstractStickyAssignorTest two consumers on one topic with one and two partitions") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 1);
    s.put(s.subscription("consumer1", {"topic"}, 0));
    s.put(s.subscription("consumer2", {"topic"}, 1));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    CHECK(fully_balanced(r));
    s.put_topic("topic", 2);
    r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic-0"));
    CHECK(list(r["consumer2"]) == list("topic-1"));
    CHECK(s.transferring().empty());
  });
}

TEST_CASE("AbstractStickyAssignorTest.testMultipleConsumersMixedTopicSubscriptions") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 3);
    s.put_topic("topic2", 2);
    s.put(s.subscription("consumer1", {"topic1"}, 0));
    s.put(s.subscription("consumer2", {"topic1", "topic2"}, 1));
    s.put(s.subscription("consumer3", {"topic1"}, 2));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic1-0, topic1-2"));
    CHECK(list(r["consumer2"]) == list("topic2-0, topic2-1"));
    CHECK(list(r["consumer3"]) == list("topic1-1"));
    s.verify(r);
    CHECK(fully_balanced(r));
  });
}

TEST_CASE("AbstractStickyAssignorTest.testTwoConsumersTwoTopicsSixPartitions") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 3);
    s.put_topic("topic2", 3);
    s.put(s.subscription("consumer1", {"topic1", "topic2"}, 0));
    s.put(s.subscription("consumer2", {"topic1", "topic2"}, 1));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic1-0, topic1-2, topic2-1"));
    CHECK(list(r["consumer2"]) == list("topic1-1, topic2-0, topic2-2"));
    CHECK(s.transferring().empty());
  });
}

TEST_CASE("AbstractStickyAssignorTest.testConsumerOwningMinQuotaExpectedMaxQuota") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 2);
    s.put_topic("topic2", 3);
    const std::vector<std::string> both{"topic1", "topic2"};
    s.put(s.v2("consumer1", both, tps("topic1-0, topic2-1"), s.generation_id, 0));
    s.put(s.v2("consumer2", both, tps("topic1-1, topic2-2"), s.generation_id, 1));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic1-0, topic2-1, topic2-0"));
    CHECK(list(r["consumer2"]) == list("topic1-1, topic2-2"));
    CHECK(s.transferring().empty());
    s.verify(r);
    CHECK(fully_balanced(r));
  });
}

TEST_CASE("AbstractStickyAssignorTest.testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 2);
    s.put_topic("topic2", 2);
    const std::vector<std::string> both{"topic1", "topic2"};
    s.put(s.v2("consumer1", both, tps("topic1-0, topic2-0"), s.generation_id, 0));
    s.put(s.v2("consumer2", both, tps("topic1-1, topic2-1"), s.generation_id, 1));
    s.put(s.v2("consumer3", both, {}, s.generation_id, 2));
    auto r = s.assign();
    CHECK(s.transferring() == std::vector<std::string>{"topic2-0->consumer3"});
    s.verify(r);
    CHECK(list(r["consumer1"]) == list("topic1-0"));
    CHECK(list(r["consumer2"]) == list("topic1-1, topic2-1"));
    CHECK(list(r["consumer3"]) == list("topic2-0"));
    CHECK(fully_balanced(r));
  });
}

TEST_CASE("AbstractStickyAssignorTest.testAllConsumersAreUnderMinQuota") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 2);
    s.put_topic("topic2", 3);
    const std::vector<std::string> both{"topic1", "topic2"};
    s.put(s.v2("consumer1", both, tps("topic1-0"), s.generation_id, 0));
    s.put(s.v2("consumer2", both, tps("topic1-1"), s.generation_id, 1));
    s.put(s.v2("consumer3", both, {}, s.generation_id, 2));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    CHECK(list(r["consumer1"]) == list("topic1-0, topic2-1"));
    CHECK(list(r["consumer2"]) == list("topic1-1, topic2-2"));
    CHECK(list(r["consumer3"]) == list("topic2-0"));
  });
}

TEST_CASE("AbstractStickyAssignorTest.testAddRemoveConsumerOneTopic") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 3);
    s.put(s.subscription("consumer1", {"topic"}, 0));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic-0, topic-1, topic-2"));
    s.put(s.v2("consumer1", {"topic"}, r["consumer1"], s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic"}, {}, s.generation_id, 1));
    r = s.assign();
    CHECK(s.transferring() == std::vector<std::string>{"topic-2->consumer2"});
    s.verify(r);
    CHECK(list(r["consumer1"]) == list("topic-0, topic-1"));
    CHECK(list(r["consumer2"]) == list("topic-2"));
    s.remove("consumer1");
    s.put(s.v2("consumer2", {"topic"}, r["consumer2"], s.generation_id, 1));
    r = s.assign();
    CHECK(as_set(r["consumer2"]) == as_set(tps("topic-0, topic-1, topic-2")));
    CHECK(s.transferring().empty());
  });
}

TEST_CASE("AbstractStickyAssignorTest.testTopicBalanceAfterReassignment") {
  for_each_config([](Sticky& s) {
    const std::vector<std::string> all{"topic1", "topic2"};
    s.put_topic("topic1", 12);
    s.put_topic("topic2", 12);
    const auto per_topic = [](const Result& r, int n) {
      for (std::size_t m = 0; m < r.spec.members.size(); ++m)
        for (const char* t : {"topic1", "topic2"})
          CHECK(std::count_if(r.result.partitions[m].begin(), r.result.partitions[m].end(),
                              [&](const TopicPartition& p) { return p.topic == t; }) == n);
    };
    s.put(s.subscription("consumer1", all, 0));
    auto r = s.assign();
    s.verify(r);
    per_topic(r, 12);
    s.put(s.v2("consumer1", all, r["consumer1"], s.generation_id, 0));
    s.put(s.v2("consumer2", all, {}, s.generation_id, 1));
    r = s.assign();
    s.verify(r);
    per_topic(r, 6);
    s.put(s.v2("consumer1", all, r["consumer1"], s.generation_id, 0));
    s.put(s.v2("consumer2", all, r["consumer2"], s.generation_id, 1));
    s.put(s.v2("consumer3", all, {}, s.generation_id, 2));
    s.put(s.v2("consumer4", all, {}, s.generation_id, 3));
    r = s.assign();
    s.verify(r);
    per_topic(r, 3);
    s.remove("consumer1");
    s.remove("consumer2");
    s.put(s.v2("consumer3", all, r["consumer3"], s.generation_id, 2));
    s.put(s.v2("consumer4", all, r["consumer4"], s.generation_id, 3));
    r = s.assign();
    s.verify(r);
    per_topic(r, 6);
    CHECK(s.transferring().empty());
  });
}

TEST_CASE("AbstractStickyAssignorTest.testAddRemoveTwoConsumersTwoTopics") {
  for_each_config([](Sticky& s) {
    const std::vector<std::string> all{"topic1", "topic2"};
    s.put_topic("topic1", 3);
    s.put_topic("topic2", 4);
    s.put(s.subscription("consumer1", all, 0));
    s.put(s.subscription("consumer2", all, 1));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic1-0, topic1-2, topic2-1, topic2-3"));
    CHECK(list(r["consumer2"]) == list("topic1-1, topic2-0, topic2-2"));
    CHECK(s.transferring().empty());
    s.put(s.v2("consumer1", all, r["consumer1"], s.generation_id, 0));
    s.put(s.v2("consumer2", all, r["consumer2"], s.generation_id, 1));
    s.put(s.v2("consumer3", all, {}, s.generation_id, 2));
    s.put(s.v2("consumer4", all, {}, s.generation_id, 3));
    r = s.assign();
    CHECK(s.transferring() ==
          std::vector<std::string>{"topic1-2->consumer3", "topic2-2->consumer4", "topic2-3->consumer3"});
    s.verify(r);
    CHECK(list(r["consumer1"]) == list("topic1-0, topic2-1"));
    CHECK(list(r["consumer2"]) == list("topic2-0, topic1-1"));
    CHECK(list(r["consumer3"]) == list("topic1-2, topic2-3"));
    CHECK(list(r["consumer4"]) == list("topic2-2"));
    s.remove("consumer1");
    s.remove("consumer2");
    s.put(s.v2("consumer3", all, r["consumer3"], s.generation_id, 2));
    s.put(s.v2("consumer4", all, r["consumer4"], s.generation_id, 3));
    r = s.assign();
    CHECK(list(r["consumer3"]) == list("topic1-2, topic2-3, topic1-0, topic2-1"));
    CHECK(list(r["consumer4"]) == list("topic2-2, topic1-1, topic2-0"));
    CHECK(s.transferring().empty());
    s.verify(r);
  });
}

TEST_CASE("AbstractStickyAssignorTest.testPoorRoundRobinAssignmentScenario and testMoveExistingAssignments") {
  for_each_config([](Sticky& s) {
    for (int i = 1; i <= 5; ++i) s.put_topic("topic" + std::to_string(i), (i % 2) + 1);
    const std::vector<std::string> all{"topic1", "topic2", "topic3", "topic4", "topic5"},
        odd{"topic1", "topic3", "topic5"};
    s.put(s.subscription("consumer1", all, 0));
    s.put(s.subscription("consumer2", odd, 1));
    s.put(s.subscription("consumer3", odd, 2));
    s.put(s.subscription("consumer4", all, 3));
    auto r = s.assign();
    s.verify(r);
  });
  for_each_config([](Sticky& s) {
    for (int i = 1; i <= 6; ++i) s.put_topic("topic" + std::to_string(i), 1);
    s.put(s.v2("consumer1", {"topic1", "topic2"}, tps("topic1-0"), s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic1", "topic2", "topic3", "topic4"}, tps("topic2-0, topic3-0"), s.generation_id, 1));
    s.put(s.v2("consumer3", {"topic2", "topic3", "topic4", "topic5", "topic6"}, tps("topic4-0, topic5-0, topic6-0"),
               s.generation_id, 2));
    auto r = s.assign();
    s.verify(r);
  });
}

TEST_CASE("AbstractStickyAssignorTest.testAddRemoveTopicTwoConsumers") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 3);
    s.put(s.subscription("consumer1", {"topic"}, 0));
    s.put(s.subscription("consumer2", {"topic"}, 1));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    CHECK(fully_balanced(r));
    s.verify(r);
    const auto first1 = as_set(r["consumer1"]), first2 = as_set(r["consumer2"]);
    CHECK(first1.size() + first2.size() == 3);
    s.put_topic("topic2", 3);
    s.put(s.v2("consumer1", {"topic", "topic2"}, r["consumer1"], s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic", "topic2"}, r["consumer2"], s.generation_id, 1));
    r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    const auto second1 = as_set(r["consumer1"]), second2 = as_set(r["consumer2"]);
    CHECK(second1.size() == 3);
    CHECK(second2.size() == 3);
    CHECK(std::includes(second1.begin(), second1.end(), first1.begin(), first1.end()));
    CHECK(std::includes(second2.begin(), second2.end(), first2.begin(), first2.end()));
    s.remove_topic("topic");
    s.put(s.v2("consumer1", {"topic2"}, r["consumer1"], s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic2"}, r["consumer2"], s.generation_id, 1));
    r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    CHECK(fully_balanced(r));
    const auto third1 = as_set(r["consumer1"]), third2 = as_set(r["consumer2"]);
    CHECK(std::includes(second1.begin(), second1.end(), third1.begin(), third1.end()));
    CHECK(std::includes(second2.begin(), second2.end(), third2.begin(), third2.end()));
  });
}

TEST_CASE("AbstractStickyAssignorTest.testReassignmentAfterOneConsumerLeaves") {
  for_each_config([](Sticky& s) {
    for (int i = 1; i < 20; ++i) s.put_topic(padded("t", i, 20), i);
    for (int i = 1; i < 20; ++i) {
      std::vector<std::string> topics;
      for (int j = 1; j <= i; ++j) topics.push_back(padded("t", j, 20));
      s.put(s.subscription(padded("c", i, 20), topics, i));
    }
    auto r = s.assign();
    s.verify(r);
    for (int i = 1; i < 20; ++i) {
      const auto id = padded("c", i, 20);
      s.put(s.v2(id, s.get(id).topics, r[id], s.generation_id, i));
    }
    s.remove("c10");
    r = s.assign();
    s.verify(r);
    CHECK(is_sticky(r.spec, r));
  });
}

TEST_CASE("AbstractStickyAssignorTest.testReassignmentAfterOneConsumerAdded and testSameSubscriptions") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 20);
    for (int i = 1; i < 10; ++i) s.put(s.subscription(padded("c", i, 10), {"topic"}, i));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    s.put(s.subscription(padded("c", 10, 10), {"topic"}, 10));
    r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
  });
  for_each_config([](Sticky& s) {
    std::vector<std::string> topics;
    for (int i = 1; i < 15; ++i) {
      s.put_topic(padded("t", i, 15), i);
      topics.push_back(padded("t", i, 15));
    }
    for (int i = 1; i < 9; ++i) s.put(s.subscription(padded("c", i, 9), topics, i));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    for (int i = 1; i < 9; ++i) {
      const auto id = padded("c", i, 9);
      s.put(s.v2(id, topics, r[id], s.generation_id, i));
    }
    s.remove(padded("c", 5, 9));
    r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
  });
}

TEST_CASE("AbstractStickyAssignorTest.testSubscriptionNotEqualAndAssignSamePartitionWith3Generation") {
  for (auto kind : kStickyKinds) {
    CAPTURE(kind_name(kind));
    for (const auto& g :
         std::vector<std::array<int, 3>>{{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}}) {
      Sticky s(kind);
      s.put_topic("topic", 6);
      s.put_topic("topic1", 1);
      s.put(s.v2("consumer1", {"topic"}, tps("topic-0, topic-2"), g[0], 0));
      s.put(s.v2("consumer2", {"topic"}, tps("topic-1, topic-2, topic-3"), g[1], 1));
      s.put(s.v2("consumer3", {"topic"}, tps("topic-2, topic-4, topic-5"), g[2], 2));
      s.put(s.v2("consumer4", {"topic1"}, tps("topic1-0"), 2, 3));
      const auto r = s.assign();
      std::set<std::string> all;
      std::size_t total = 0;
      for (const auto& list : r.result.partitions) {
        CHECK(list.size() >= 1);
        CHECK(list.size() <= 2);
        total += list.size();
        for (const auto& p : list) all.insert(p.name());
      }
      CHECK(all.size() == total);
    }
  }
}

TEST_CASE(
    "AbstractStickyAssignorTest random groups: testLargeAssignmentWithMultipleConsumersLeavingAndRandomSubscription and "
    "testReassignmentWithRandomSubscriptionsAndChanges (seeded)") {
  boost::random::mt19937 rng(20240917);
  const auto draw = [&](int n) { return boost::random::uniform_int_distribution<int>(0, n - 1)(rng); };
  for (bool rack : {false, true}) {
    for (auto kind : kStickyKinds) {
      CAPTURE(kind_name(kind));
      CAPTURE(rack);
      Sticky s(kind);
      s.initialize_racks(rack ? RackConfig::kBrokerAndConsumerRack : RackConfig::kNoConsumerRack);
      for (int i = 0; i < 40; ++i) s.put_topic(padded("t", i, 40), draw(10) + 1);
      for (int i = 0; i < 200; ++i) {
        std::vector<std::string> topics;
        for (int j = 0, n = draw(20); j < n; ++j) topics.push_back(padded("t", draw(40), 40));
        std::sort(topics.begin(), topics.end());
        topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
        s.put(s.subscription(padded("c", i, 200), topics, i));
      }
      auto r = s.assign();
      s.verify(r);
      for (int i = 1; i < 200; ++i) {
        const auto id = padded("c", i, 200);
        if (index_of(r.spec, id) < r.spec.members.size()) s.put(s.v2(id, s.get(id).topics, r[id], s.generation_id, i));
      }
      for (int i = 0; i < 50; ++i) s.remove(padded("c", draw(200), 200));
      r = s.assign();
      CHECK(is_sticky(r.spec, r));
      s.verify(r);
    }
  }
  for (auto config : kRackConfigs)
    for (auto kind : kStickyKinds)
      for (int round = 0; round < 10; ++round) {
        CAPTURE(kind_name(kind));
        CAPTURE(name(config));
        CAPTURE(round);
        Sticky s(kind);
        s.initialize_racks(config);
        const int topics_n = 10 + draw(10);
        std::vector<std::string> topics;
        for (int i = 0; i < topics_n; ++i) {
          topics.push_back(padded("t", i, 20));
          s.put_topic(topics.back(), i + 1);
        }
        const auto random_sublist = [&] {
          auto sub = topics;
          for (int k = 0, remove = draw(static_cast<int>(topics.size())); k < remove; ++k)
            sub.erase(sub.begin() + draw(static_cast<int>(sub.size())));
          return sub;
        };
        const int consumers = 20 + draw(20);
        for (int i = 0; i < consumers; ++i) s.put(s.subscription(padded("c", i, 40), random_sublist(), i));
        auto r = s.assign();
        s.verify(r);
        s.subs.clear();
        for (int i = 0; i < consumers; ++i)
          s.put(s.v2(padded("c", i, 40), random_sublist(), r[padded("c", i, 40)], s.generation_id, i));
        r = s.assign();
        CHECK(is_sticky(r.spec, r));
        s.verify(r);
      }
}

TEST_CASE("AbstractStickyAssignorTest.testNewSubscription and testStickiness") {
  for_each_config([](Sticky& s) {
    for (int i = 1; i < 5; ++i) s.put_topic(padded("t", i, 5), 1);
    for (int i = 0; i < 3; ++i) {
      std::vector<std::string> topics;
      for (int j = i; j <= 3 * i - 2; ++j) topics.push_back(padded("t", j, 5));
      s.put(s.subscription(padded("c", i, 3), topics, i));
    }
    auto r = s.assign();
    s.verify(r);
    s.subs[index_of(s.spec(), "c0")].topics.push_back(padded("t", 1, 5));  // Kafka mutates the subscription in place
    r = s.assign();
    s.verify(r);
    CHECK(is_sticky(r.spec, r));
  });
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 3);
    for (int i = 1; i <= 4; ++i) s.put(s.subscription("consumer" + std::to_string(i), {"topic1"}, i - 1));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    std::map<std::string, std::string> held;
    for (std::size_t m = 0; m < r.spec.members.size(); ++m) {
      CHECK(r.result.partitions[m].size() <= 1);
      if (r.result.partitions[m].size() == 1) held[r.spec.members[m].id] = r.result.partitions[m][0].name();
    }
    s.remove("consumer1");  // the potential group leader leaves
    for (int i = 2; i <= 4; ++i) {
      const auto id = "consumer" + std::to_string(i);
      s.put(s.v2(id, {"topic1"}, r[id], s.generation_id, i - 1));
    }
    r = s.assign();
    CHECK(s.transferring().empty());
    s.verify(r);
    for (std::size_t m = 0; m < r.spec.members.size(); ++m) {
      CHECK(r.result.partitions[m].size() == 1);
      const auto it = held.find(r.spec.members[m].id);
      if (it != held.end()) CHECK(as_set(r.result.partitions[m]) == std::vector<std::string>{it->second});
    }
  });
}

TEST_CASE(
    "AbstractStickyAssignorTest deleted topics: testAssignmentUpdatedForDeletedTopic and testNoExceptionThrownWhenOnlySubscribedTopicDeleted") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic1", 1);
    s.put_topic("topic3", 100);
    s.put(s.subscription("consumer", {"topic1", "topic2", "topic3"}, 0));
    auto r = s.assign();
    CHECK(s.transferring().empty());
    CHECK(r["consumer"].size() == 101);
  });
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 3);
    s.put(s.subscription("consumer", {"topic"}, 0));
    auto r = s.assign();
    s.put(s.v2("consumer", {"topic"}, r["consumer"], s.generation_id, 0));
    s.topics.clear();
    r = s.assign();
    CHECK(s.transferring().empty());
    CHECK(r["consumer"].empty());
  });
}

TEST_CASE("AbstractStickyAssignorTest.testAllConsumersReachExpectedQuotaAndAreConsideredFilled") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 4);
    s.put(s.v2("consumer1", {"topic"}, tps("topic-0, topic-1"), s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic"}, tps("topic-2"), s.generation_id, 1));
    s.put(s.v2("consumer3", {"topic"}, {}, s.generation_id, 2));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic-0, topic-1"));
    CHECK(list(r["consumer2"]) == list("topic-2"));
    CHECK(list(r["consumer3"]) == list("topic-3"));
    CHECK(s.transferring().empty());
    s.verify(r);
  });
}

TEST_CASE("AbstractStickyAssignorTest owned partitions of a stale, absent or older generation are invalidated") {
  for (int second : {9, -1}) {  // testOwnedPartitionsAreInvalidatedForConsumerWithStaleGeneration / WithNoGeneration
    for_each_config([&](Sticky& s) {
      s.put_topic("topic", 3);
      s.put_topic("topic2", 3);
      const std::vector<std::string> both{"topic", "topic2"};
      s.put(s.v2("consumer1", both, tps("topic-0, topic-2, topic2-1"), 10, 0));
      s.put(s.v2("consumer2", both, tps("topic-0, topic-2, topic2-1"), second, 1));
      auto r = s.assign();
      CHECK(as_set(r["consumer1"]) == as_set(tps("topic-0, topic-2, topic2-1")));
      CHECK(as_set(r["consumer2"]) == as_set(tps("topic-1, topic2-0, topic2-2")));
      CHECK(s.transferring().empty());
      s.verify(r);
    });
  }
  for_each_config([](Sticky& s) {  // testOwnedPartitionsAreInvalidatedForConsumerWithMultipleGeneration
    s.put_topic("topic", 3);
    s.put_topic("topic2", 3);
    const std::vector<std::string> both{"topic", "topic2"};
    s.put(s.v2("consumer1", both, tps("topic-0, topic2-1, topic-1"), 10, 0));
    s.put(s.v2("consumer2", both, tps("topic-0, topic2-1, topic2-2"), 8, 1));
    auto r = s.assign();
    CHECK(as_set(r["consumer1"]) == as_set(tps("topic-0, topic2-1, topic-1")));
    CHECK(as_set(r["consumer2"]) == as_set(tps("topic-2, topic2-2, topic2-0")));
    CHECK(s.transferring().empty());
    s.verify(r);
  });
}

TEST_CASE(
    "AbstractStickyAssignorTest.testPartitionsTransferringOwnershipIncludeThePartitionClaimedByMultipleConsumersInSameGeneration") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 3);
    s.put(s.v2("consumer1", {"topic"}, tps("topic-0, topic-1"), s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic"}, tps("topic-0, topic-2"), s.generation_id, 1));
    s.put(s.v2("consumer3", {"topic"}, {}, s.generation_id, 2));
    auto r = s.assign();
    CHECK(s.transferring() == std::vector<std::string>{"topic-0->consumer3"});
    s.verify(r);
    CHECK(list(r["consumer1"]) == list("topic-1"));
    CHECK(list(r["consumer2"]) == list("topic-2"));
    CHECK(list(r["consumer3"]) == list("topic-0"));
  });
}

TEST_CASE(
    "AbstractStickyAssignorTest.testEnsurePartitionsAssignedToHighestGeneration and testNoReassignmentOnCurrentMembers") {
  for_each_config([](Sticky& s) {
    s.put_topic("topic", 3);
    s.put_topic("topic2", 3);
    s.put_topic("topic3", 3);
    const std::vector<std::string> all{"topic", "topic2", "topic3"};
    s.put(s.v2("consumer1", all, tps("topic-0, topic2-0, topic3-0"), 10, 0));
    s.put(s.v2("consumer2", all, tps("topic-1, topic2-1, topic3-1"), 9, 1));
    s.put(s.v2("consumer3", all, tps("topic2-1, topic3-0, topic3-2"), 8, 1));
    auto r = s.assign();
    CHECK(as_set(r["consumer1"]) == as_set(tps("topic-0, topic2-0, topic3-0")));
    CHECK(as_set(r["consumer2"]) == as_set(tps("topic-1, topic2-1, topic3-1")));
    CHECK(as_set(r["consumer3"]) == as_set(tps("topic-2, topic2-2, topic3-2")));
    CHECK(s.transferring().empty());
    s.verify(r);
  });
  for_each_config([](Sticky& s) {
    for (const char* t : {"topic", "topic1", "topic2", "topic3"}) s.put_topic(t, 3);
    const std::vector<std::string> all{"topic", "topic2", "topic3", "topic1"};
    s.put(s.v2("consumer1", all, {}, -1, 0));
    s.put(s.v2("consumer2", all, tps("topic-0, topic2-0, topic1-0"), 9, 1));
    s.put(s.v2("consumer3", all, tps("topic3-2, topic2-2, topic1-1"), 8, 2));
    s.put(s.v2("consumer4", all, tps("topic3-1, topic-1, topic-2"), 7, 3));
    auto r = s.assign();
    CHECK(as_set(r["consumer1"]) == as_set(tps("topic1-2, topic2-1, topic3-0")));
    CHECK(s.transferring().empty());
    s.verify(r);
  });
}
