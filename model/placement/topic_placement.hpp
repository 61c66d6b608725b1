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

}  // namespace partsim::model
