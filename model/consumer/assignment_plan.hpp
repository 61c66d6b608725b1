#pragma once
// What an assignor does to a group from its previous assignment to the one it settles on:
// the question "what happens if I scale this group?" (partsim consumers). Eager assignors
// and the KIP-848 ones settle in one assignment. cooperative-sticky may need a follow-up
// rebalance (KIP-429, spec §1.4): a member that lost partitions rejoins, owning what it was
// given, and the partitions withheld in the first rebalance are assigned in the next.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/consumer/assignor.hpp"

namespace partsim::model::consumer {

/// A partition whose owner changes: a previous claimant that does not keep it.
struct PartitionMove {
  TopicPartition partition;
  std::string from;
  std::optional<std::string> to;  ///< nullopt when no member gets it (nobody subscribes its topic)
};

struct AssignmentPlan {
  AssignorKind assignor = AssignorKind::kRange;
  /// Per member of the spec, what it ends with, sorted by (topic, partition).
  std::vector<std::vector<TopicPartition>> partitions;
  std::int32_t rebalances = 1;
  /// cooperative-sticky: what the first rebalance withheld.
  std::vector<WithheldPartition> withheld;
  /// Every (previous claimant, partition) whose claimant does not end with it, by partition
  /// then claimant.
  std::vector<PartitionMove> moved;
  std::vector<std::string> idle;  ///< members that end with no partition, in spec order
  std::int32_t min_partitions = 0, max_partitions = 0;  ///< per member (0 without members)
  std::int32_t assigned = 0;  ///< partitions assigned in the end
};

/// Follow-up rebalances stop here: Kafka's own tests expect at most 4 after the first.
inline constexpr std::int32_t kMaxRebalances = 5;

/// Runs `kind` on `spec` and, for cooperative-sticky, the follow-up rebalances: each member
/// then owns what it was given, at one generation past the group's highest.
AssignmentPlan plan_assignment(AssignorKind kind, const GroupSpec& spec);

}  // namespace partsim::model::consumer
