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
  /// False when cooperative-sticky still revoked something in the last rebalance allowed.
  bool settled = true;
  /// cooperative-sticky: what the first rebalance withheld.
  std::vector<WithheldPartition> withheld;
  /// Every (previous claimant, partition) whose claimant does not end with it, by partition
  /// then claimant.
  std::vector<PartitionMove> moved;
  std::vector<std::string> idle;                        ///< members that end with no partition, in spec order
  std::vector<std::string> left;                        ///< the departed members, whose partitions all move
  std::int32_t min_partitions = 0, max_partitions = 0;  ///< per member (0 without members)
  std::int32_t assigned = 0;                            ///< partitions assigned in the end
  std::optional<std::string> kafka_failure;             ///< AssignmentResult::kafka_failure of any rebalance
};

/// A safety bound on cooperative rebalances. Kafka's tests see at most 4 follow-ups on their
/// inputs; with KIP-881 racks and unequal subscriptions Kafka's own code can need more (a
/// group of 11 members on 5 topics with one replica each takes 5, partsim and Kafka alike).
inline constexpr std::int32_t kMaxRebalances = 100;

/// Runs `kind` on `spec` and, for cooperative-sticky, the follow-up rebalances: each member
/// then owns what it was given, at one generation past the group's highest. `departed` are
/// members that left the group (scaling down): what they owned moves as well.
AssignmentPlan plan_assignment(AssignorKind kind, const GroupSpec& spec, const std::vector<GroupMember>& departed = {});

}  // namespace partsim::model::consumer
