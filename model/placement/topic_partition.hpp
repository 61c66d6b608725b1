#pragma once
// A partition as Kafka names it: its topic and its number, "t-3" in tools and logs.

#include <cstdint>
#include <string>

namespace partsim::model {

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;

  /// Kafka's TopicPartition.toString(): "topic-partition".
  std::string name() const { return topic + "-" + std::to_string(partition); }
};

}  // namespace partsim::model
