#include "model/placement/copy_load.hpp"

#include <algorithm>

namespace partsim::model {

std::int64_t CopyLoad::busiest_bytes() const {
  std::int64_t m = 0;
  for (const auto& [b, v] : in_bytes) m = std::max(m, v);
  for (const auto& [b, v] : out_bytes) m = std::max(m, v);
  return m;
}

CopyLoad copy_load(const Assignment& before, const Assignment& after, const std::vector<std::int64_t>& sizes_bytes,
                   const std::set<std::int32_t>& alive) {
  CopyLoad load;
  for (std::size_t p = 0; p < after.size(); ++p) {
    const auto source =
        std::find_if(before[p].begin(), before[p].end(), [&](std::int32_t b) { return alive.count(b) > 0; });
    for (auto b : after[p])
      if (std::find(before[p].begin(), before[p].end(), b) == before[p].end()) {
        load.total_bytes += sizes_bytes[p];
        load.in_bytes[b] += sizes_bytes[p];
        if (source != before[p].end()) load.out_bytes[*source] += sizes_bytes[p];
      }
  }
  return load;
}

double copy_seconds(const CopyLoad& load, std::int64_t throttle_bytes_per_s) {
  return static_cast<double>(load.busiest_bytes()) / static_cast<double>(throttle_bytes_per_s);
}

}  // namespace partsim::model
