#include "model/producer/partition_order.hpp"

#include <algorithm>
#include <numeric>

#include "model/topic_partition.hpp"

namespace partsim::model {

std::vector<std::int32_t> java_hashmap_partition_order(std::string_view topic, std::int32_t n) {
  std::uint64_t capacity = 1;
  while (capacity < static_cast<std::uint64_t>(n)) capacity <<= 1;
  if (static_cast<double>(n) > 0.75 * static_cast<double>(capacity)) capacity <<= 1;
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::uint64_t> bucket(static_cast<std::size_t>(n));
  for (std::int32_t p = 0; p < n; ++p) {
    const auto h = static_cast<std::uint32_t>(topic_partition_hash(topic, p));
    bucket[static_cast<std::size_t>(p)] = (h ^ (h >> 16)) & (capacity - 1);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return bucket[static_cast<std::size_t>(a)] < bucket[static_cast<std::size_t>(b)];
  });
  return order;
}

}  // namespace partsim::model
