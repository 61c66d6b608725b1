#include "scenarios/loader/members_reader.hpp"

#include <doctest/doctest.h>

#include "scenarios/error_of.hpp"

using namespace partsim::scenarios;
using partsim::testing::error_of;

namespace {

const std::map<std::string, std::int32_t> kTopics{{"orders", 12}, {"payments", 6}};

std::string members_error(const std::string& json) {
  return error_of([&] { parse_members_json(json, "m.json", kTopics); });
}

}  // namespace

TEST_CASE("--topics reads TOPIC:PARTITIONS pairs") {
  const auto t = parse_topic_counts("orders:12,payments:6", "--topics", 1000);
  REQUIRE(t.size() == 2);
  CHECK(t[0] == std::pair<std::string, std::int32_t>{"orders", 12});
  CHECK(t[1] == std::pair<std::string, std::int32_t>{"payments", 6});
  CHECK(error_of([] { parse_topic_counts("orders", "--topics", 1000); }) ==
        "--topics: must be TOPIC:PARTITIONS,... such as orders:12,payments:6, got 'orders'");
  CHECK(error_of([] { parse_topic_counts("orders:0", "--topics", 1000); }) ==
        "--topics: orders: the partition count must be an integer in [1, 1000], got '0'");
  CHECK(error_of([] { parse_topic_counts("orders:1001", "--topics", 1000); }) ==
        "--topics: orders: the partition count must be an integer in [1, 1000], got '1001'");
  CHECK(error_of([] { parse_topic_counts("orders:3x", "--topics", 1000); }) ==
        "--topics: orders: the partition count must be an integer in [1, 1000], got '3x'");
  CHECK(error_of([] { parse_topic_counts("a:1,a:2", "--topics", 1000); }) == "--topics: topic a is listed twice");
  CHECK(error_of([] { parse_topic_counts("a b:1", "--topics", 1000); }).find("'a b' is not a legal Kafka topic name") !=
        std::string::npos);
  CHECK(error_of([] { parse_topic_counts("orders:1,", "--topics", 1000); }) ==
        "--topics: must be TOPIC:PARTITIONS,... such as orders:12,payments:6, got ''");
}

TEST_CASE("a members file: subscriptions, racks, static ids, owned partitions and generations; null is absent") {
  const auto f = parse_members_json(R"({"members": [
      {"member": "c0", "topics": ["orders"], "rack": "a", "owned": ["orders-0", "orders-11"], "generation": 3},
      {"member": "c1", "topics": null, "rack": null, "instance": "i1", "owned": null, "generation": null},
      {"member": "c2"}]})",
                                    "m.json", kTopics);
  REQUIRE(f.members.size() == 3);
  CHECK(f.members[0].topics == std::vector<std::string>{"orders"});
  CHECK(f.members[0].rack == "a");
  REQUIRE(f.members[0].owned.size() == 2);
  CHECK(f.members[0].owned[1].name() == "orders-11");
  CHECK(f.members[0].generation == 3);
  CHECK(f.members[1].topics == std::vector<std::string>{"orders", "payments"});  // every topic
  CHECK(f.members[1].rack.empty());
  CHECK(f.members[1].instance_id == "i1");
  CHECK_FALSE(f.members[1].generation.has_value());
  CHECK_FALSE(f.members[2].instance_id.has_value());
  CHECK(f.topic_ids.empty());
}

TEST_CASE("topic ids: every topic's or none, as kafka-topics.sh prints them") {
  const auto f = parse_members_json(
      R"({"members": [{"member": "c0"}], "topic_ids": {"orders": "T1-A4s3VTwiI5CTbEp6POw", "payments": "T2-B4s3VTwiI5YHbPp6YUe"}})",
      "m.json", kTopics);
  REQUIRE(f.topic_ids.size() == 2);
  CHECK(f.topic_ids.at("orders").to_string() == "T1-A4s3VTwiI5CTbEp6POw");
  CHECK(members_error(R"({"members": [{"member": "c0"}], "topic_ids": {"orders": "T1-A4s3VTwiI5CTbEp6POw"}})") ==
        "m.json: topic_ids: give the id of every topic or of none; payments has none");
  CHECK(
      members_error(
          R"({"members": [{"member": "c0"}], "topic_ids": {"orders": "nope", "payments": "T2-B4s3VTwiI5YHbPp6YUe"}})") ==
      "m.json: topic_ids.orders: must be a topic id as kafka-topics.sh --describe prints it (22 characters of base64url), got \"nope\"");
  CHECK(members_error(R"({"members": [{"member": "c0"}], "topic_ids": {"order": "T1-A4s3VTwiI5CTbEp6POw"}})") ==
        "m.json: topic_ids.order: unknown topic 'order' (did you mean 'orders'?); --topics has orders, payments");
  CHECK(members_error(R"({"members": [{"member": "c0"}], "topic_ids": [1]})") ==
        "m.json: topic_ids: must map topic names to topic ids, got [1]");
}

TEST_CASE("bad members files are refused with the file and the JSON path") {
  CHECK(members_error("{\"members\": [\n  {\"member\": \"c0\",}]}").rfind("m.json:2:19: invalid JSON", 0) == 0);
  CHECK(
      members_error(R"({"member": []})") ==
      "m.json: must be {\"members\": [{\"member\": \"c0\", \"topics\": [...], \"rack\": ..., \"owned\": [...], \"generation\": ...}, ...]}");
  CHECK(members_error(R"({"members": []})") == "m.json: members: must list at least one member");
  CHECK(members_error(R"({"members": [{"member": "c0"}], "version": 1})") ==
        "m.json: unknown key 'version'; allowed: members, topic_ids");
  CHECK(members_error(R"({"members": [3]})") ==
        "m.json: members[0]: must be an object such as {\"member\": \"c0\"}, got 3");
  CHECK(
      members_error(R"({"members": [{"member": "c0", "rak": "a"}]})") ==
      "m.json: members[0]: unknown key 'rak' (did you mean 'rack'?); allowed: generation, instance, member, owned, rack, topics");
  CHECK(members_error(R"({"members": [{"topics": ["orders"]}]})") ==
        "m.json: members[0].member: every member needs an id (a non-empty string)");
  CHECK(members_error(R"({"members": [{"member": 7}]})") ==
        "m.json: members[0].member: must be a string or null, got 7");
  CHECK(members_error(R"({"members": [{"member": "c\u0001"}]})") ==
        "m.json: members[0].member: must not contain control characters, got \"c\\u0001\"");
  CHECK(members_error(R"({"members": [{"member": "c0"}, {"member": "c1"}, {"member": "c0"}]})") ==
        "m.json: members[2].member: 'c0' is listed twice (also members[0])");
  CHECK(
      members_error(R"({"members": [{"member": "c0", "topics": ["orders", "payment"]}]})") ==
      "m.json: members[0].topics[1]: unknown topic 'payment' (did you mean 'payments'?); --topics has orders, payments");
  CHECK(members_error(R"({"members": [{"member": "c0", "topics": ["orders", "orders"]}]})") ==
        "m.json: members[0].topics[1]: 'orders' is listed twice");
  CHECK(members_error(R"({"members": [{"member": "c0", "topics": "orders"}]})") ==
        "m.json: members[0].topics: must be a list of topic names or null (every topic), got \"orders\"");
  CHECK(members_error(R"({"members": [{"member": "c0", "owned": ["orders-12"]}]})") ==
        "m.json: members[0].owned[0]: orders-12 does not exist: orders has 12 partitions (--topics)");
  CHECK(members_error(R"({"members": [{"member": "c0", "owned": ["orders"]}]})") ==
        "m.json: members[0].owned[0]: must be a partition such as \"orders-0\", got \"orders\"");
  CHECK(members_error(R"({"members": [{"member": "c0", "owned": ["orders--1"]}]})") ==
        "m.json: members[0].owned[0]: unknown topic 'orders-' (did you mean 'orders'?); --topics has orders, payments");
  CHECK(members_error(R"({"members": [{"member": "c0", "owned": ["orders-+1"]}]})") ==
        "m.json: members[0].owned[0]: must be a partition such as \"orders-0\", got \"orders-+1\"");
  CHECK(members_error(R"({"members": [{"member": "c0", "owned": ["refunds-1"]}]})") ==
        "m.json: members[0].owned[0]: unknown topic 'refunds'; --topics has orders, payments");
  CHECK(members_error(R"({"members": [{"member": "c0", "owned": ["orders-1", "orders-1"]}]})") ==
        "m.json: members[0].owned[1]: orders-1 is listed twice");
  CHECK(members_error(R"({"members": [{"member": "c0", "generation": -1}]})") ==
        "m.json: members[0].generation: must be an integer >= 0, got -1");
  CHECK(members_error(R"({"members": [{"member": "c0", "generation": 1.5}]})") ==
        "m.json: members[0].generation: must be an integer >= 0, got 1.5");
  CHECK(members_error(R"({"members": [{"member": "c0", "instance": "i"}, {"member": "c1", "instance": "i"}]})") ==
        "m.json: members[1].instance: 'i' is also members[0]'s; a group.instance.id belongs to one member");
  CHECK(members_error(R"({"members": [{"member": "c0", "instance": ""}]})") ==
        "m.json: members[0].instance: must not be empty (null for a dynamic member)");
}
