#pragma once
// A host's cores (cluster.hosts), shared by the brokers and producers placed on it: a core
// pool. A piece of work (a broker's service of one request, a producer's send() or
// sender pass) runs whole on the core that comes free first, in the order it is asked for,
// without preemption; with every core busy it waits. Work of zero length takes no core.

#include <cstdint>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::model {

class HostCores {
public:
  explicit HostCores(std::int32_t cores);

  /// Work of `length` asked for at `now`: returns when it ends (now + length when a core is
  /// free, later when it waits for one).
  sim::SimTime run(sim::SimTime now, sim::SimTime length);
  std::int32_t cores() const { return static_cast<std::int32_t>(free_at_.size()); }

private:
  std::vector<sim::SimTime> free_at_;  // per core: when its last piece of work ends
};

}  // namespace partsim::model
