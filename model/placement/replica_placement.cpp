#include "model/placement/replica_placement.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace partsim::model {

Assignment admin_rack_unaware(const std::vector<std::int32_t>& brokers, std::int32_t partitions,
                              std::int32_t replication_factor, std::int32_t start_index, std::int32_t initial_shift,
                              std::int32_t start_partition) {
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

std::vector<std::int32_t> rack_alternated_list(const std::vector<RackedBroker>& brokers) {
  std::map<std::string, std::vector<std::int32_t>> by_rack;  // sorted rack names
  for (const auto& b : brokers) by_rack[b.rack].push_back(b.id);
  for (auto& [rack, ids] : by_rack) std::sort(ids.begin(), ids.end());
  std::vector<std::int32_t> out;
  for (std::size_t round = 0; out.size() < brokers.size(); ++round)
    for (const auto& [rack, ids] : by_rack)
      if (round < ids.size()) out.push_back(ids[round]);
  return out;
}

Assignment admin_rack_aware(const std::vector<RackedBroker>& brokers, std::int32_t partitions,
                            std::int32_t replication_factor, std::int32_t start_index, std::int32_t initial_shift,
                            std::int32_t start_partition) {
  std::map<std::int32_t, std::string> rack_of;
  std::set<std::string> racks;
  for (const auto& b : brokers) {
    rack_of[b.id] = b.rack;
    racks.insert(b.rack);
  }
  const auto list = rack_alternated_list(brokers);
  const auto n = static_cast<std::int32_t>(list.size());
  const auto num_racks = static_cast<std::int32_t>(racks.size());
  Assignment out;
  std::int32_t shift = initial_shift;
  std::int32_t cur = std::max(0, start_partition);
  for (std::int32_t i = 0; i < partitions; ++i, ++cur) {
    if (cur > 0 && cur % n == 0) ++shift;
    const std::int32_t first = (cur + start_index) % n;
    const std::int32_t leader = list[static_cast<std::size_t>(first)];
    std::vector<std::int32_t> replicas{leader};
    std::set<std::string> racks_used{rack_of[leader]};
    std::set<std::int32_t> brokers_used{leader};
    std::int32_t k = 0;  // one probe counter shared by this partition's followers
    for (std::int32_t j = 0; j < replication_factor - 1; ++j) {
      for (;;) {
        const std::int32_t b = list[static_cast<std::size_t>(admin_replica_index(first, shift * num_racks, k++, n))];
        const auto& rack = rack_of[b];
        if ((!racks_used.count(rack) || static_cast<std::int32_t>(racks_used.size()) == num_racks) &&
            (!brokers_used.count(b) || static_cast<std::int32_t>(brokers_used.size()) == n)) {
          replicas.push_back(b);
          racks_used.insert(rack);
          brokers_used.insert(b);
          break;
        }
      }
    }
    out.push_back(std::move(replicas));
  }
  return out;
}

Assignment round_robin_assignment(const std::vector<std::int32_t>& brokers, std::int32_t partitions,
                                  std::int32_t replication_factor) {
  const auto n = static_cast<std::int32_t>(brokers.size());
  Assignment out;
  for (std::int32_t p = 0; p < partitions; ++p) {
    std::vector<std::int32_t> replicas;
    for (std::int32_t j = 0; j < replication_factor; ++j)
      replicas.push_back(brokers[static_cast<std::size_t>((p + j) % n)]);
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
