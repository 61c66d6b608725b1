#include "model/host_cores.hpp"

#include <algorithm>

namespace partsim::model {

HostCores::HostCores(std::int32_t cores)
    : free_at_(static_cast<std::size_t>(std::max(cores, 1)), sim::SimTime::zero()) {}

sim::SimTime HostCores::run(sim::SimTime now, sim::SimTime length) {
  if (length <= sim::SimTime::zero()) return now;
  // The core free first (the lowest index among ties): deterministic.
  const auto core = std::min_element(free_at_.begin(), free_at_.end());
  const sim::SimTime start = std::max(now, *core);
  *core = start + length;
  return *core;
}

}  // namespace partsim::model
