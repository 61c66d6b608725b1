#pragma once
// AbstractStickyAssignor.PartitionMovements: the general sticky builder's record of which
// partitions moved from which member to which during one assignment, per topic. When a
// partition is to move from A to B while another partition of its topic already moved from
// B to A, the builder moves that one back instead (getTheActualPartitionToBeMoved): the
// first element of a java.util.HashSet of TopicPartitions, so Java's iteration order decides
// which one, and partsim keeps the same HashSets (java_order.hpp).

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "model/consumer/java_order.hpp"

namespace partsim::model::consumer::detail {

class PartitionMovements {
public:
  /// `topic_of` and `hash_of`, indexed by partition handle: its topic's index and Java's
  /// TopicPartition.hashCode.
  PartitionMovements(std::vector<std::size_t> topic_of, std::vector<std::int32_t> hash_of)
      : topic_of_(std::move(topic_of)), hash_of_(std::move(hash_of)) {}

  /// getTheActualPartitionToBeMoved: `partition` itself, or a partition of the same topic
  /// that earlier moved from `to` to (the original owner of) `from`.
  std::size_t actual_partition_to_move(std::size_t partition, std::size_t from, std::size_t to) const;
  /// movePartition: records `partition` moving from `from` to `to`, folding a move back to
  /// where it came from into no move at all.
  void move(std::size_t partition, std::size_t from, std::size_t to);

private:
  using Pair = std::pair<std::size_t, std::size_t>;  // ConsumerPair: src, dst member
  void remove_record(std::size_t partition);
  void add_record(std::size_t partition, Pair pair);

  std::vector<std::size_t> topic_of_;
  std::vector<std::int32_t> hash_of_;
  std::map<std::size_t, std::map<Pair, JavaHashTable>> by_topic_;  // partitionMovementsByTopic
  std::map<std::size_t, Pair> moves_;                              // partitionMovements
};

}  // namespace partsim::model::consumer::detail
