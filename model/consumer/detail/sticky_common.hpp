#pragma once
// What AbstractStickyAssignor's two builders share (spec §2.4, ASA): the claims on owned
// partitions after generations are compared (step 0), and the KIP-881 rack information.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/consumer/detail/assignor_support.hpp"
#include "model/consumer/group_spec.hpp"

namespace partsim::model::consumer::detail {

using PartitionKey = std::pair<std::string, std::int32_t>;
inline PartitionKey key_of(const TopicPartition& tp) { return {tp.topic, tp.partition}; }

constexpr std::int32_t kDefaultGeneration = -1;  // AbstractStickyAssignor.DEFAULT_GENERATION

/// The group as both builders see it.
struct StickyContext {
  StickyContext(const GroupSpec& spec);

  const GroupSpec& spec;
  TopicTable topics;
  /// partitionsPerTopic: the subscribed topics with metadata, by name.
  std::vector<const TopicMetadata*> subscribed;
  std::int32_t total_partitions = 0;
  /// Indices of spec.members in the order of Kafka's HashMap of subscriptions.
  std::vector<std::size_t> order;
  /// Per member, its subscription (each topic once) and its generation or -1.
  std::vector<std::vector<std::string>> topics_of;
  std::vector<std::int32_t> generation;

  // AbstractStickyAssignor.allSubscriptionsEqual (ASA:132-210).
  bool all_subscriptions_equal = true;
  /// consumerToOwnedPartitions: per member, the owned partitions of existing topics it keeps
  /// a claim on: two claims of one generation cancel, a higher generation wins.
  std::vector<std::vector<TopicPartition>> owned;
  /// partitionsWithMultiplePreviousOwners: claimed twice within one generation.
  std::set<PartitionKey> multiply_owned;
  /// maxGeneration over this group's members. Kafka keeps it in the assignor object across
  /// rebalances; within a group generations only grow, so the maximum is the same.
  std::int32_t max_generation = kDefaultGeneration;

  bool subscribes(std::size_t member, const std::string& topic) const;
  std::int32_t partition_count(const std::string& topic) const;
};

/// AbstractStickyAssignor.RackInfo: member and replica racks when KIP-881 matching applies.
class RackInfo {
public:
  explicit RackInfo(const StickyContext& ctx);

  /// Matching applies: some consumer rack holds replicas and the partitions' racks differ.
  bool used() const { return !consumer_rack_.empty(); }
  /// racksMismatch: the member has a rack (matching applies) that holds no replica of tp.
  bool racks_mismatch(std::size_t member, const TopicPartition& tp) const;
  /// The member's rack when matching applies, else nullptr.
  const std::string* consumer_rack(std::size_t member) const;
  /// The partition's replica racks when matching applies, else nullptr.
  const std::set<std::string>* partition_racks(const TopicPartition& tp) const;
  /// sortPartitionsByRackConsumers: stable sort by how many members sit on racks holding the
  /// partition, fewest first (when any member has a rack, even if matching does not apply).
  std::vector<TopicPartition> sort_by_rack_consumers(std::vector<TopicPartition> partitions) const;
  /// nextRackConsumer: from `first`, circularly, the first entry of `members` whose rack holds
  /// a replica of tp; -1 if none.
  std::ptrdiff_t next_rack_consumer(const TopicPartition& tp, const std::vector<std::size_t>& members,
                                    std::size_t first) const;

private:
  std::map<std::size_t, std::string> consumer_rack_;
  std::map<PartitionKey, std::set<std::string>> partition_racks_;
  std::map<PartitionKey, std::int32_t> consumers_by_partition_;
};

/// A builder's outcome: per member its partitions, and for the constrained builder the
/// partitions given to a member other than the one that owned them (the general builder
/// leaves that for the cooperative assignor to compute).
struct StickyOutcome {
  std::vector<std::vector<TopicPartition>> assignment;
  std::optional<std::map<PartitionKey, std::size_t>> transferring;
  std::optional<std::string> kafka_failure;  ///< see AssignmentResult::kafka_failure
};

/// ConstrainedAssignmentBuilder: every member subscribes the same topics (ASA:585-920).
StickyOutcome constrained_assign(const StickyContext& ctx, const RackInfo& racks);
/// GeneralAssignmentBuilder: subscriptions differ (ASA:939-1502).
StickyOutcome general_assign(const StickyContext& ctx, const RackInfo& racks);

}  // namespace partsim::model::consumer::detail
