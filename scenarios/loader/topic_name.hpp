#pragma once
// Kafka's rule for topic names, shared by scenario files and the placement commands' inputs
// (reassignment JSON, kafka-topics.sh --describe), so `run` refuses what Kafka refuses.

#include <string>
#include <string_view>

namespace partsim::scenarios {

/// Kafka's Topic.validate (clients/.../internals/Topic.java): 1 to 249 characters of
/// [a-zA-Z0-9._-], and neither "." nor "..". Returns "" for a legal name, else the message
/// ("'a b' is not a legal Kafka topic name (...)", unprintable bytes as \xNN).
std::string topic_name_problem(std::string_view name);

}  // namespace partsim::scenarios
