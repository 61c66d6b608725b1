#include <doctest/doctest.h>

#include "model/consumer/topic_id.hpp"

using partsim::model::consumer::TopicId;

TEST_CASE("a topic id parses as Kafka's Uuid.fromString and hashes as Uuid.hashCode") {
  // Values printed by Java for the topic ids of Kafka's group-coordinator assignor tests.
  const auto t1 = TopicId::parse("T1-A4s3VTwiI5CTbEp6POw");
  REQUIRE(t1.has_value());
  CHECK(t1->most == 5719431763388092168LL);
  CHECK(t1->least == -8582694466532503749LL);
  CHECK(t1->java_hash() == 418407434);
  const auto t4 = TopicId::parse("T4-Tw9fVTLCz5HbPp6YQsa");
  REQUIRE(t4.has_value());
  CHECK(t4->java_hash() == -1944536819);
  CHECK(*t1 < *t4);
  CHECK(t1->to_string() == "T1-A4s3VTwiI5CTbEp6POw");
  CHECK(TopicId::parse("T1-A4s3VTwiI5CTbEp6POw==") == t1);
}

TEST_CASE("anything but 16 bytes of base64url is not a topic id") {
  CHECK_FALSE(TopicId::parse("").has_value());
  CHECK_FALSE(TopicId::parse("T1-A4s3VTwiI5CTbEp6PO").has_value());    // 21 characters
  CHECK_FALSE(TopicId::parse("T1-A4s3VTwiI5CTbEp6POwA").has_value());  // 23
  CHECK_FALSE(TopicId::parse("T1+A4s3VTwiI5CTbEp6POw").has_value());   // '+' is not base64url
  CHECK_FALSE(TopicId::parse("T1-A4s3VTwiI5CTbEp6POw=").has_value());
}
