#include "scenarios/loader/topic_name.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace partsim::scenarios;

TEST_CASE("topic names follow Kafka's Topic.validate") {
  CHECK(topic_name_problem("orders").empty());
  CHECK(topic_name_problem("Orders.v2_eu-1").empty());
  CHECK(topic_name_problem(std::string(249, 'a')).empty());
  CHECK(topic_name_problem(std::string(250, 'a')).find("is not a legal Kafka topic name") != std::string::npos);
  CHECK(topic_name_problem("") == "'' is not a legal Kafka topic name (1 to 249 of letters, digits, '.', '_' and '-')");
  CHECK(topic_name_problem("a b") ==
        "'a b' is not a legal Kafka topic name (1 to 249 of letters, digits, '.', '_' and '-')");
  CHECK(topic_name_problem("t\xff") ==
        "'t\\xFF' is not a legal Kafka topic name (1 to 249 of letters, digits, '.', '_' and '-')");
  CHECK(topic_name_problem("caf\xc3\xa9") != "");  // letters beyond ASCII are not Kafka's
  CHECK(topic_name_problem(".") == "'.' is not a legal Kafka topic name ('.' and '..' are reserved)");
  CHECK(topic_name_problem("..") == "'..' is not a legal Kafka topic name ('.' and '..' are reserved)");
  CHECK(topic_name_problem("...").empty());
}
