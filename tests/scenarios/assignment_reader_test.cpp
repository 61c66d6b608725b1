#include "scenarios/loader/assignment_reader.hpp"

#include <doctest/doctest.h>

#include "scenarios/error_of.hpp"

using namespace partsim::scenarios;
using partsim::testing::error_of;

TEST_CASE("null means absent in a brokers file, as Kafka's tools write an unset rack") {
  const auto b = parse_brokers_json(
      R"({"version":1,"brokers":[{"id":0,"rack":null},{"id":1,"rack":"b","alive":null},{"id":2,"alive":false}]})",
      "b.json");
  REQUIRE(b.size() == 3);
  CHECK(b[0].rack.empty());
  CHECK(b[0].alive);
  CHECK(b[1].rack == "b");
  CHECK(b[1].alive);
  CHECK_FALSE(b[2].alive);
  CHECK(error_of([] { parse_brokers_json(R"({"brokers":[{"id":0,"rack":3}]})", "b.json"); }) ==
        "b.json: brokers[0].rack: must be a string or null, got 3");
  CHECK(error_of([] { parse_brokers_json(R"({"brokers":[{"id":null}]})", "b.json"); }) ==
        "b.json: brokers[0].id: must be an integer >= 0, got null");
}

TEST_CASE("a reassignment's log_dirs may be absent or null; given, it has one entry per replica") {
  const auto p = parse_reassignment_json(
      R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],"log_dirs":null},)"
      R"({"topic":"t","partition":1,"replicas":[2,3],"log_dirs":["any","/data/k"]}]})",
      "r.json");
  CHECK(p.size() == 2);
  CHECK(
      error_of([] {
        parse_reassignment_json(R"({"partitions":[{"topic":"t","partition":0,"replicas":[1,2],"log_dirs":["any"]}]})",
                                "r.json");
      }) ==
      "r.json: partitions[0].log_dirs: must be null or a list of 2 strings (one per replica, \"any\" for no preference), got [\"any\"]");
}

TEST_CASE("kafka-log-dirs' isFuture may be null; anything else but a bool is refused") {
  const auto sizes = parse_log_dirs_json(
      R"({"brokers":[{"broker":0,"logDirs":[{"partitions":[{"partition":"t-0","size":5,"isFuture":null},{"partition":"t-1","size":9,"isFuture":true}]}]}]})",
      "d.json");
  CHECK(sizes.at("t-0") == 5);
  CHECK(sizes.count("t-1") == 0);
  CHECK(error_of([] {
          parse_log_dirs_json(
              R"({"brokers":[{"broker":0,"logDirs":[{"partitions":[{"partition":"t-0","size":5,"isFuture":"no"}]}]}]})",
              "d.json");
        }) == "d.json: brokers[0].logDirs[0].partitions[0].isFuture: must be true, false or null, got \"no\"");
}

TEST_CASE("a --brokers list refuses a rack that is not UTF-8 text") {
  CHECK(parse_brokers_list("0:a,1", "--brokers")[0].rack == "a");
  CHECK(error_of([] { parse_brokers_list("0:a\xff", "--brokers"); }) ==
        "--brokers: rack 'a\\xFF' of broker 0 is not valid UTF-8");
}
