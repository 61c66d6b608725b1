#include "model/replica_placement.hpp"

#include <algorithm>

namespace partsim::model {

Assignment admin_rack_unaware(const std::vector<std::int32_t>& brokers, std::int32_t partitions, std::int32_t replication_factor,
                              std::int32_t start_index, std::int32_t initial_shift, std::int32_t start_partition) {
  const auto n = static_cast<std::int32_t>(brokers.size());
  Assignment out;
  std::int32_t shift = initial_shift;
  std::int32_t cur = std::max(0, start_partition);
  for (std::int32_t i = 0; i < partitions; ++i, ++cur) {
    if (cur > 0 && cur % n == 0) ++shift;  // checked before placing cur
    const std::int32_t first = (cur + start_index) % n;
    std::vector<std::int32_t> replicas{brokers[static_cast<std::size_t>(first)]};
    for (std::int32_t j = 0; j < replication_factor - 1; ++j)
      replicas.push_back(brokers[static_cast<std::size_t>(admin_replica_index(first, shift, j, n))]);
    out.push_back(std::move(replicas));
  }
  return out;
}

Assignment round_robin_assignment(const std::vector<std::int32_t>& brokers, std::int32_t partitions, std::int32_t replication_factor) {
  const auto n = static_cast<std::int32_t>(brokers.size());
  Assignment out;
  for (std::int32_t p = 0; p < partitions; ++p) {
    std::vector<std::int32_t> replicas;
    for (std::int32_t j = 0; j < replication_factor; ++j) replicas.push_back(brokers[static_cast<std::size_t>((p + j) % n)]);
    out.push_back(std::move(replicas));
  }
  return out;
}

PartitionCost partition_cost(std::int64_t partitions, std::int64_t replication_factor) {
  PartitionCost c;
  c.directories = partitions * replication_factor;
  c.files = 5 * c.directories;
  c.logs = partitions * replication_factor;
  c.min_segment_files = 3 * c.logs;
  return c;
}

}  // namespace partsim::model
