#pragma once
// The order in which the real client lists a topic's partitions (spec §2.2, book T8): the
// values of a java.util.HashMap<TopicPartition, ...> built with new HashMap<>(n) over the
// metadata's n partitions. It decides which partition a random draw or a round-robin
// counter picks, and the drain order per node.

#include <cstdint>
#include <string_view>
#include <vector>

namespace partsim::model {

/// Partitions 0..n-1 in Java HashMap iteration order of their topic_partition_hash: capacity =
/// the smallest power of two >= n, doubled once more if n > 0.75 x capacity; bucket = (h ^ (h >>> 16)) & (cap - 1);
/// ascending bucket, insertion (ascending partition) order within a bucket.
/// Example: topic "t6", n = 6 -> [3, 2, 1, 0, 5, 4].
std::vector<std::int32_t> java_hashmap_partition_order(std::string_view topic, std::int32_t n);

}  // namespace partsim::model
