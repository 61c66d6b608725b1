// The cases Kafka's StickyAssignorTest and CooperativeStickyAssignorTest add to the shared
// AbstractStickyAssignorTest: same-generation double claims, several generations (eager
// StickyAssignor only, as in Kafka), old subscription versions, and the cooperative
// assignor's withheld ("transferring") partitions.

#include <doctest/doctest.h>

#include "model/consumer/sticky_fixture.hpp"

using namespace partsim::testing::kafka;

TEST_CASE(
    "testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGeneration, equal and unequal partitions per consumer") {
  for (int partitions : {3, 4}) {
    for_each_config([&](Sticky& s) {
      s.put_topic("topic", partitions);
      s.put(s.v2("consumer1", {"topic"}, tps("topic-0, topic-1"), s.generation_id, 0));
      s.put(s.v2("consumer2", {"topic"}, tps("topic-0, topic-2"), s.generation_id, 1));
      s.put(s.v2("consumer3", {"topic"}, {}, s.generation_id, 2));
      auto r = s.assign();
      CHECK(list(r["consumer1"]) == list(partitions == 3 ? "topic-1" : "topic-1, topic-3"));
      CHECK(list(r["consumer2"]) == list("topic-2"));
      if (s.cooperative()) CHECK(r["consumer3"].empty());  // topic-0 waits until both claimants have revoked it
      else CHECK(list(r["consumer3"]) == list("topic-0"));
      s.verify(r);
      CHECK(list(r["consumer3"]) == list("topic-0"));
      CHECK(fully_balanced(r));
    });
  }
}

TEST_CASE("StickyAssignorTest.testAssignmentWithMultipleGenerations1") {
  for (bool equal : {true, false}) {
    for_each_config(
        [&](Sticky& s) {
          CAPTURE(equal);
          const std::vector<std::string> all{"topic", "topic2"};
          const auto sub2 = equal ? all : std::vector<std::string>{"topic"};
          s.put_topic("topic", 6);
          s.put_topic("topic2", 6);
          s.put(s.subscription("consumer1", all, 0));
          s.put(s.subscription("consumer2", sub2, 1));
          s.put(s.subscription("consumer3", all, 2));
          auto r = s.assign();
          const auto r1p1 = r["consumer1"], r1p2 = r["consumer2"], r1p3 = r["consumer3"];
          CHECK(r1p1.size() == 4);
          CHECK(r1p2.size() == 4);
          CHECK(r1p3.size() == 4);
          s.verify(r);
          s.put(s.v2("consumer1", all, r1p1, s.generation_id, 0));
          s.put(s.v2("consumer2", sub2, r1p2, s.generation_id, 1));
          s.remove("consumer3");
          r = s.assign();
          const auto r2p1 = as_set(r["consumer1"]), r2p2 = as_set(r["consumer2"]);
          CHECK(r2p1.size() == 6);
          CHECK(r2p2.size() == 6);
          const auto old1 = as_set(r1p1);
          if (equal) CHECK(std::includes(r2p1.begin(), r2p1.end(), old1.begin(), old1.end()));
          const auto old2 = as_set(r1p2);
          CHECK(std::includes(r2p2.begin(), r2p2.end(), old2.begin(), old2.end()));
          s.verify(r);
          const auto old3 = as_set(r1p3);
          CHECK(std::any_of(old3.begin(), old3.end(),
                            [&](const std::string& p) { return std::binary_search(r2p2.begin(), r2p2.end(), p); }));
          s.remove("consumer1");
          s.put(s.v2("consumer2", sub2, r["consumer2"], 2, 1));
          s.put(s.v2("consumer3", all, r1p3, 1, 2));
          r = s.assign();
          const auto r3p2 = as_set(r["consumer2"]), r3p3 = as_set(r["consumer3"]);
          CHECK(r3p2.size() == 6);
          CHECK(r3p3.size() == 6);
          CHECK(std::none_of(r3p2.begin(), r3p2.end(),
                             [&](const std::string& p) { return std::binary_search(r3p3.begin(), r3p3.end(), p); }));
          s.verify(r);
        },
        {AssignorKind::kSticky});
  }
}

TEST_CASE("StickyAssignorTest.testAssignmentWithMultipleGenerations2") {
  for (bool equal : {true, false}) {
    for_each_config(
        [&](Sticky& s) {
          CAPTURE(equal);
          const std::vector<std::string> all{"topic", "topic2", "topic3"};
          const auto sub1 = equal ? all : std::vector<std::string>{"topic"};
          const auto sub3 = equal ? all : std::vector<std::string>{"topic", "topic2"};
          for (const char* t : {"topic", "topic2", "topic3"}) s.put_topic(t, 4);
          s.put(s.subscription("consumer1", sub1, 0));
          s.put(s.subscription("consumer2", all, 1));
          s.put(s.subscription("consumer3", sub3, 2));
          auto r = s.assign();
          const auto r1p1 = r["consumer1"], r1p2 = r["consumer2"], r1p3 = r["consumer3"];
          CHECK(r1p1.size() == 4);
          CHECK(r1p2.size() == 4);
          CHECK(r1p3.size() == 4);
          s.verify(r);
          s.remove("consumer1");
          s.put(s.v2("consumer2", all, r1p2, 1, 1));
          s.remove("consumer3");
          r = s.assign();
          const auto r2p2 = as_set(r["consumer2"]), old2 = as_set(r1p2);
          CHECK(r2p2.size() == 12);
          CHECK(std::includes(r2p2.begin(), r2p2.end(), old2.begin(), old2.end()));
          s.verify(r);
          s.put(s.v2("consumer1", sub1, r1p1, 1, 0));
          s.put(s.v2("consumer2", all, r["consumer2"], 2, 1));
          s.put(s.v2("consumer3", sub3, r1p3, 1, 2));
          r = s.assign();
          CHECK(r["consumer1"].size() == 4);
          CHECK(r["consumer2"].size() == 4);
          CHECK(r["consumer3"].size() == 4);
          s.verify(r);
          CHECK(fully_balanced(r));
        },
        {AssignorKind::kSticky});
  }
}

TEST_CASE("StickyAssignorTest.testAssignmentWithConflictingPreviousGenerations") {
  for (bool equal : {true, false}) {
    for_each_config(
        [&](Sticky& s) {
          CAPTURE(equal);
          const std::vector<std::string> all{"topic", "topic2", "topic3"};
          const auto sub1 = equal ? all : std::vector<std::string>{"topic"};
          const auto sub2 = equal ? all : std::vector<std::string>{"topic", "topic2"};
          for (const char* t : {"topic", "topic2", "topic3"}) s.put_topic(t, 4);
          const auto c1 = tps(equal ? "topic-0, topic-1, topic-2, topic2-2, topic2-3, topic3-0"
                                    : "topic-0, topic-1, topic-2, topic-3");
          const auto c2 = tps("topic-0, topic-1, topic2-0, topic2-1, topic2-2, topic2-3");
          const auto c3 = tps("topic-2, topic-3, topic3-0, topic3-1, topic3-2, topic3-3");
          s.put(s.v2("consumer1", sub1, c1, 1, 0));
          s.put(s.v2("consumer2", sub2, c2, 2, 1));
          s.put(s.v2("consumer3", all, c3, 2, 2));
          auto r = s.assign();
          CHECK(r["consumer1"].size() == 4);
          CHECK(r["consumer2"].size() == 4);
          CHECK(r["consumer3"].size() == 4);
          const auto got2 = as_set(r["consumer2"]), got3 = as_set(r["consumer3"]), had2 = as_set(c2), had3 = as_set(c3);
          CHECK(std::includes(had2.begin(), had2.end(), got2.begin(), got2.end()));
          CHECK(std::includes(had3.begin(), had3.end(), got3.begin(), got3.end()));
          s.verify(r);
        },
        {AssignorKind::kSticky});
  }
}

TEST_CASE("StickyAssignorTest.testSchemaBackwardCompatibility: a member without a generation") {
  for (auto config : kRackConfigs) {
    CAPTURE(name(config));
    Sticky s(AssignorKind::kSticky);
    s.initialize_racks(config);
    s.put_topic("topic", 3);
    s.put(s.subscription("consumer1", {"topic"}, 0));
    s.put(s.subscription("consumer2", {"topic"}, 1));
    s.put(s.subscription("consumer3", {"topic"}, 2));
    s.put(s.v2("consumer1", {"topic"}, tps("topic-0, topic-2"), 1, 0));
    auto old = s.v2("consumer2", {"topic"}, tps("topic-1"), -1, 1);  // the version 0 user data: no generation
    old.rack = s.rack(1);
    s.put(old);
    auto r = s.assign();
    CHECK(r["consumer1"].size() == 1);
    CHECK(r["consumer2"].size() == 1);
    CHECK(r["consumer3"].size() == 1);
    const auto had1 = as_set(tps("topic-0, topic-2")), got1 = as_set(r["consumer1"]);
    CHECK(std::includes(had1.begin(), had1.end(), got1.begin(), got1.end()));
    CHECK(list(r["consumer2"]) == list("topic-1"));
    s.verify(r);
  }
}

TEST_CASE("testAssignorWithOldVersionSubscriptions: owned partitions and generation from older subscription versions") {
  for (auto kind : kStickyKinds) {
    Sticky s(kind);
    s.put_topic("topic1", 3);
    s.put(s.v2("consumer1", {"topic1"}, tps("topic1-0"), s.generation_id, 0));
    s.put(s.v2("consumer2", {"topic1"}, tps("topic1-1"), s.generation_id, 1));
    s.put(s.v2("consumer3", {"topic1"}, {}, s.generation_id, 2));
    auto r = s.assign();
    CHECK(list(r["consumer1"]) == list("topic1-0"));
    CHECK(list(r["consumer2"]) == list("topic1-1"));
    CHECK(list(r["consumer3"]) == list("topic1-2"));
    s.verify(r);
  }
}

TEST_CASE("CooperativeStickyAssignorTest.testUniformSubscriptionTransferOwnershipListIsRight") {
  Sticky s(AssignorKind::kCooperativeSticky);
  s.rf = 1;
  s.broker_racks = 2;
  s.consumer_rack = true;
  s.put_topic("topic1", 4);                                                      // partitions on racks a, b, a, b
  s.put(s.v2("c0", {"topic1"}, tps("topic1-0, topic1-1"), s.generation_id, 0));  // rack a
  s.put(s.v2("c1", {"topic1"}, tps("topic1-2, topic1-3"), s.generation_id, 1));  // rack b
  s.assign();
  CHECK(s.transferring() == std::vector<std::string>{"topic1-1->c1", "topic1-2->c0"});
}

TEST_CASE(
    "the cooperative assignor withholds what moves, names who must revoke it, and the follow-up rebalance assigns it") {
  Sticky s(AssignorKind::kCooperativeSticky);
  s.put_topic("topic", 3);
  s.put(s.v2("consumer1", {"topic"}, tps("topic-0, topic-1"), 1, 0));
  s.put(s.v2("consumer2", {"topic"}, tps("topic-0, topic-2"), 1, 1));
  s.put(s.v2("consumer3", {"topic"}, {}, 1, 2));
  auto r = s.assign();
  REQUIRE(r.result.withheld.size() == 1);
  const auto& w = r.result.withheld.front();
  CHECK(w.partition.name() == "topic-0");
  CHECK(w.owners == std::vector<std::string>{"consumer1", "consumer2"});
  CHECK(w.to == "consumer3");
  s.verify(r);
  CHECK(list(r["consumer3"]) == list("topic-0"));
  CHECK(r.result.withheld.empty());
}
