#pragma once
// A partition as Kafka names it: its topic and its number, "t-3" in tools and logs, and the
// hash Java gives it. Shared by the domains: the producer's partition order, the consumer
// assignors' hash-map orders, replica placement's reassignment files.

#include <cstdint>
#include <string>
#include <string_view>

namespace partsim::model {

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;

  /// Kafka's TopicPartition.toString(): "topic-partition".
  std::string name() const { return topic + "-" + std::to_string(partition); }
};

/// TopicPartition.hashCode = 31 * (31 + partition) + topic.hashCode() (String.hashCode over
/// the topic's UTF-16 code units).
std::int32_t topic_partition_hash(std::string_view topic, std::int32_t partition);

}  // namespace partsim::model
