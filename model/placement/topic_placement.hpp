#pragma once
// One topic placed by the placer a user picks, as Kafka would place it: AdminUtils (the
// admin path and kafka-reassign-partitions --generate; spec §11.1), the KRaft controller's
// StripedReplicaPlacer (§11.2), or plain round-robin (the book's T6). The draws come from
// java.util.Random with the given seed, so a seed gives what Kafka gives.

#include <cstdint>
#include <optional>
#include <vector>

#include "model/placement/replica_placement.hpp"
#include "model/placement/striped_placer.hpp"

namespace partsim::model {

enum class Placer {
  kAdmin,    ///< AdminUtils.assignReplicasToBrokers over the brokers sorted by id
  kStriped,  ///< StripedReplicaPlacer over the brokers sorted by id; the only one that knows fencing
  kSimple,   ///< partition p on brokers[(p + j) % n], the brokers as listed
};

struct TopicPlacementRequest {
  Placer placer = Placer::kAdmin;
  std::vector<UsableBroker> brokers;  ///< as listed; fenced matters to kStriped only
  std::int32_t partitions = 0;
  std::int32_t replication_factor = 0;
  std::optional<std::int32_t> start_index;  ///< kAdmin: Kafka's fixedStartIndex (start and shift); else both drawn
  std::int64_t seed = 0;                    ///< java.util.Random seed for the draws
  std::int32_t start_partition = 0;         ///< kAdmin: startPartitionId, the first partition's id (added partitions)
};

struct TopicPlacement {
  Assignment assignment;
  bool rack_aware = false;         ///< kAdmin: the brokers have racks
  std::int32_t start_index = 0;    ///< kAdmin: as fixed or drawn
  std::int32_t replica_shift = 0;  ///< kAdmin: as fixed or drawn
};

/// Throws PlacementError where Kafka refuses: partitions or replication factor < 1, a
/// replication factor above the broker count, kAdmin with racks on some brokers only
/// (AdminOperationException), kStriped with every broker fenced.
TopicPlacement place_topic(const TopicPlacementRequest& request);

/// Where Kafka puts the partitions a CreatePartitions adds to a topic that has `existing`
/// (its partitions 0.., preferred leader first), as `how.placer`'s controller would, over
/// `how.brokers` (the cluster now) with partition 0's replication factor:
/// - kAdmin, the ZooKeeper-era rule (AdminZkClient.createNewPartitionsAssignment):
///   AdminUtils over the brokers sorted by id (rack-aware when they have racks), its fixed
///   start index (and so its replica shift) the position of the first broker whose id is at
///   least partition 0's preferred leader, the partition ids continuing from existing.size().
///   The old partitions do not move, so brokers added since the topic was made get only new
///   ones. Kafka's AddPartitionsTest: p0 [1,2] on brokers 0-3, to 3 partitions: p1 [2,0],
///   p2 [3,1].
/// - kStriped, the KRaft controller (ReplicationControlManager.createPartitions): a fresh
///   StripedReplicaPlacer placement of the added partitions alone, drawn from `how.seed`;
///   the start partition does not enter it.
/// `how.partitions` is the number added; `how.replication_factor` and `how.start_index` are
/// ignored. Throws PlacementError where Kafka refuses (and kSimple, which no controller has).
TopicPlacement place_added_partitions(const Assignment& existing, TopicPlacementRequest how);

}  // namespace partsim::model
