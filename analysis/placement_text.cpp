#include "analysis/placement_text.hpp"

namespace partsim::analysis {

std::string replica_list(const std::vector<std::int32_t>& replicas) {
  std::string s;
  for (std::size_t i = 0; i < replicas.size(); ++i) s += (i ? "," : "") + std::to_string(replicas[i]);
  return s;
}

}  // namespace partsim::analysis
