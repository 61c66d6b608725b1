#include "analysis/placement_text.hpp"

namespace partsim::analysis {

std::string replica_list(const std::vector<std::int32_t>& replicas) {
  std::string s;
  for (std::size_t i = 0; i < replicas.size(); ++i) s += (i ? "," : "") + std::to_string(replicas[i]);
  return s;
}

std::string count_of(std::int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace partsim::analysis
