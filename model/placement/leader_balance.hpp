#pragma once
// Preferred-leader balance without moving data: choose each partition's leader among its
// existing replicas so that every broker leads between lo and hi partitions, changing as
// few preferred leaders as possible (a min-cost flow, exact). Optionally reorder the
// followers so that when any single broker fails, the leadership it loses spreads as
// evenly as possible over the others (per failed broker another exact flow; the second
// replica in list order is who takes over).

#include <cstdint>
#include <string>
#include <vector>

#include "model/placement/replica_placement.hpp"

namespace partsim::model {

struct LeaderBounds {
  std::int32_t lo = 0, hi = 0;  ///< preferred leaders per broker
};

/// exact: floor/ceil of the average; band t: [floor(avg (2 - t)), ceil(avg t)].
LeaderBounds leader_bounds_exact(std::int32_t partitions, std::int32_t brokers);
LeaderBounds leader_bounds_band(std::int32_t partitions, std::int32_t brokers, double threshold);

/// Leaders chosen by choose_leaders(), or why there are none.
struct LeaderChoice {
  std::vector<std::int32_t> leader;  ///< per partition; empty when the bounds cannot be met
  bool over = false;                 ///< some broker must lead more than the upper bound
  std::int32_t short_broker = -1;    ///< else a broker that cannot reach the lower bound...
  std::int64_t short_count = 0;      ///< ...leading only this many
};

/// Leaders among each partition's candidate brokers (those not in `brokers` are skipped) as
/// a min-cost flow, exact: every broker leads within `bounds` and, when `group` (per
/// partition, groups 0..) and `group_bounds` are given, each group within its own bounds on
/// every broker; as few leaders as possible differ from `current_leader`.
LeaderChoice choose_leaders(const Assignment& candidates, const std::vector<std::int32_t>& current_leader,
                            const std::vector<std::int32_t>& brokers, LeaderBounds bounds,
                            const std::vector<std::int32_t>& group = {},
                            const std::vector<LeaderBounds>& group_bounds = {});

struct LeaderPlan {
  bool feasible = true;
  std::string infeasible_reason;
  Assignment reordered;               ///< replicas per partition, chosen leader first
  std::int32_t leader_changes = 0;    ///< partitions whose preferred leader changed
  std::int32_t failover_changes = 0;  ///< partitions whose second replica changed
};

/// `brokers`: the brokers that may lead (alive). `failover`: also order the followers.
LeaderPlan balance_leaders(const Assignment& current, const std::vector<std::int32_t>& brokers, LeaderBounds bounds,
                           bool failover);

}  // namespace partsim::model
