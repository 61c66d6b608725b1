#pragma once
// The classic protocol's StickyAssignor (eager) and CooperativeStickyAssignor (KIP-429), on
// AbstractStickyAssignor (spec §2.4): as balanced as possible, then as sticky as possible.
// Step 0 settles the claims on owned partitions: a topic that no longer exists drops its
// claims, two claims of one generation cancel each other, a higher generation beats a lower.
// Then, if every member subscribes the same topics, the constrained builder (quotas P / N
// and ceil(P / N)); otherwise the general builder (greedy fill, then moves that improve
// balance, undone if they do not). KIP-881: with member and replica racks, owned partitions
// on another rack are given up and new ones go to members on a rack that holds a replica,
// as far as balance allows.
// CooperativeSticky then holds back every partition that moves from one member to another:
// its owner revokes it in this rebalance and the follow-up rebalance assigns it (§1.4).

#include "model/consumer/assignor.hpp"

namespace partsim::model::consumer {

/// StickyAssignor.assignPartitions (cooperative = false) or
/// CooperativeStickyAssignor.assignPartitions (cooperative = true).
AssignmentResult sticky_assign(const GroupSpec& spec, bool cooperative);

}  // namespace partsim::model::consumer
