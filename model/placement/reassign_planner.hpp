#pragma once
// The minimal-movement reassignment planner: given the current replicas of every partition
// and the brokers that may hold them, find the assignment that meets the rack and balance
// constraints with the fewest replica moves (a replica copied to a broker that did not
// hold the partition), then the fewest preferred-leader changes.
//
// How it is solved. Replicas alone are a min-cost flow (partition -> rack -> broker, with
// the rack mode's per-partition ranges and the per-broker bounds), and so are leaders among
// fixed replicas. Jointly they are not: a leader must sit on one of the partition's replicas
// (y <= x per partition and broker) while the broker side counts leaders and replicas under
// separate bounds, so a unit would have to remember at the broker whether it entered as a
// leader or a follower: two commodities sharing the capacity-1 arc (partition, broker).
// Choosing replicas first and leaders second is not optimal in general either. So:
//   1. a relaxed leader flow (any target broker may lead) gives the fewest leader changes
//      any plan needs, and a leader per partition that attains it;
//   2. the replica flow gives the fewest moves any plan needs, and among those prefers the
//      placements that keep step 1's leaders on a replica;
//   3. the leader flow over those replicas; if it meets the leader bounds with step 1's
//      number of changes, both lower bounds are attained and the plan is optimal;
//   4. otherwise the joint 0-1 program (GLPK branch and cut), first with the moves fixed
//      at step 2's minimum, seeded with step 3's plan; within the time limit it proves the
//      optimum, or the better plan found so far is returned with both lower bounds.
// On random small cases the flows certify about 19 in 20 feasible plans (tests).

#include <cstdint>
#include <string>
#include <vector>

#include "model/placement/leader_balance.hpp"
#include "model/placement/replica_placement.hpp"

namespace partsim::model {

enum class RackMode {
  kStrict,  ///< at most one replica of a partition per rack
  kEven,    ///< per partition, every rack holds floor or ceil of rf / #racks replicas
  kNone,
};

using CountBounds = LeaderBounds;  ///< [lo, hi] per broker; leader_bounds_exact/_band compute them

struct ReassignRequest {
  Assignment current;                 ///< per partition: replicas, preferred leader first
  std::vector<std::int32_t> rf;       ///< per partition: replicas wanted
  std::vector<RackedBroker> targets;  ///< brokers that may hold replicas
  RackMode rack_mode = RackMode::kNone;
  CountBounds replicas, leaders;    ///< per target broker
  std::vector<std::int32_t> topic;  ///< per partition: its topic's index 0.. (empty: all one topic)
  std::vector<CountBounds> topic_replicas, topic_leaders;  ///< per topic, per target broker (empty: none)
  double time_limit_s = 60;                                ///< for the solver's search
  std::vector<std::string> names;                          ///< per partition, for messages ("t-3"); optional
  // Disks (all three empty: none). A broker's bytes are the sizes of the partitions it holds,
  // those moving in counted `move_in_reserve` times (the ops guidance's 1.2x free space
  // before a move); they must stay within disk_limit. With disk_band, each broker's bytes
  // (plain sizes) also lie within [lo, hi]: Cruise Control's DiskUsageDistributionGoal.
  std::vector<std::int64_t> sizes;                               ///< per partition, bytes
  std::vector<std::int64_t> disk_limit;                          ///< per target broker, bytes (the fill cap x capacity)
  std::vector<std::pair<std::int64_t, std::int64_t>> disk_band;  ///< per target broker, bytes (empty: none)
  double move_in_reserve = 1.2;
  // For reports: what the bounds came from.
  std::vector<std::int64_t> disk_capacity;  ///< per target broker, bytes
  double max_disk = 0;                      ///< the fill cap (disk_limit = it x capacity)
  double disk_balance = 0;                  ///< the band's threshold T (0: no band)
  bool disks() const { return !sizes.empty() && (!disk_limit.empty() || !disk_band.empty()); }
};

/// A broker's bytes under `a`: its partitions' sizes (`reserve`: those it did not hold in
/// `before`, i.e. moving in, times move_in_reserve).
double broker_bytes(const ReassignRequest& r, const Assignment& a, std::int32_t broker, bool reserve);

enum class PlanStatus {
  kOptimal,     ///< proven fewest moves, then fewest leader changes
  kFeasible,    ///< the time limit stopped the search first: valid, not proven minimal
  kInfeasible,  ///< `reason` names the constraint
  kTimedOut,    ///< the time limit stopped the search before any plan was found
};

struct ReassignPlan {
  PlanStatus status = PlanStatus::kInfeasible;
  std::string reason;
  Assignment plan;  ///< per partition: preferred leader first, kept replicas in their old order
  std::int32_t moves = 0;
  std::int32_t leader_changes = 0;
  std::string method;                           ///< "flow" (certified by the bounds) or "0-1 program"
  std::int64_t lower_bound_moves = 0;           ///< the fewest moves any plan needs (the replica flow)
  std::int64_t lower_bound_leader_changes = 0;  ///< the fewest leader changes any plan needs
};

ReassignPlan plan_reassignment(const ReassignRequest& request);

/// Replicas in `after` on a broker that did not hold the partition in `before`.
std::int32_t count_moves(const Assignment& before, const Assignment& after);
/// Partitions whose first replica (preferred leader) differs.
std::int32_t count_leader_changes(const Assignment& before, const Assignment& after);

/// Does `a` meet the request's constraints (rf, distinct brokers on targets, racks, bounds)?
/// Returns "" or the first violation; the tests' brute force and the planner's own check.
std::string check_plan(const ReassignRequest& request, const Assignment& a);

}  // namespace partsim::model
