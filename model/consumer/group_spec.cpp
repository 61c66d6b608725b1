#include "model/consumer/group_spec.hpp"

namespace partsim::model::consumer {

std::string member_id(const std::string& prefix, std::int32_t index, std::int32_t count) {
  const auto width = std::to_string(count).size();
  std::string digits = std::to_string(index);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return prefix + digits;
}

std::vector<std::vector<std::string>> striped_replica_racks(std::int32_t partitions,
                                                            const std::vector<std::string>& broker_racks,
                                                            std::int32_t replication_factor) {
  std::vector<std::vector<std::string>> racks(static_cast<std::size_t>(partitions));
  if (broker_racks.empty()) return racks;
  const auto n = static_cast<std::int64_t>(broker_racks.size());
  for (std::int32_t p = 0; p < partitions; ++p)
    for (std::int32_t r = 0; r < replication_factor; ++r)
      racks[static_cast<std::size_t>(p)].push_back(
          broker_racks[static_cast<std::size_t>((static_cast<std::int64_t>(p) + r) % n)]);
  return racks;
}

}  // namespace partsim::model::consumer
