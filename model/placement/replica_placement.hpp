#pragma once
// Replica placement as Kafka's admin path does it (spec §11.1, AdminUtils): a start index
// and a replica shift that grows after every full round of brokers, so followers do not
// always sit on the next broker; and the plain round-robin the book prints (T6).

#include <cstdint>
#include <string>
#include <vector>

namespace partsim::model {

using Assignment = std::vector<std::vector<std::int32_t>>;  ///< per partition: replicas, leader first

/// replicaIndex (AU:250-253): (first + 1 + (shift + j) % (n - 1)) % n, never the leader's slot.
constexpr std::int32_t admin_replica_index(std::int32_t first, std::int32_t shift, std::int32_t j, std::int32_t n) {
  return (first + 1 + (shift + j) % (n - 1)) % n;
}

/// AdminUtils.assignReplicasToBrokers without racks (AU:138-159) over `brokers` in list
/// order, with start index and initial shift given (Kafka draws both when no fixed start
/// index is passed; with fixedStartIndex both equal it).
/// Example (5 brokers, rf 3, start 0): p0 0,1,2 ... p4 4,0,1, then shift 1: p5 0,2,3.
Assignment admin_rack_unaware(const std::vector<std::int32_t>& brokers, std::int32_t partitions,
                              std::int32_t replication_factor, std::int32_t start_index, std::int32_t initial_shift,
                              std::int32_t start_partition = 0);

/// A broker as the admin placer sees it.
struct RackedBroker {
  std::int32_t id = 0;
  std::string rack;  ///< "" = no rack
};

/// The rack-alternated broker list (AU:227-241): brokers grouped by rack, ids sorted within
/// a rack, racks sorted by name, then one broker from each rack in turn.
/// Example: {0:r1, 1:r3, 2:r3, 3:r2, 4:r2, 5:r1} -> 0, 3, 1, 5, 4, 2.
std::vector<std::int32_t> rack_alternated_list(const std::vector<RackedBroker>& brokers);

/// AdminUtils.assignReplicasToBrokers with racks (AU:161-210): the rack-unaware start and
/// shift over the rack-alternated list (shift scaled by the rack count), followers accepted
/// only on a rack and a broker without a replica yet, unless every rack (broker) has one.
Assignment admin_rack_aware(const std::vector<RackedBroker>& brokers, std::int32_t partitions,
                            std::int32_t replication_factor, std::int32_t start_index, std::int32_t initial_shift,
                            std::int32_t start_partition = 0);

/// Plain round-robin: partition p gets brokers[(p + j) % n] for j < rf (book T6 as printed).
Assignment round_robin_assignment(const std::vector<std::int32_t>& brokers, std::int32_t partitions,
                                  std::int32_t replication_factor);

/// What partitions cost on disk (book T7): files in a new partition directory (.log,
/// .index, .timeindex, leader-epoch-checkpoint, partition.metadata) and the segment files
/// of every replica's log (at least .log, .index, .timeindex each).
struct PartitionCost {
  std::int64_t directories = 0;        ///< one per partition replica
  std::int64_t files = 0;              ///< 5 per directory
  std::int64_t logs = 0;               ///< partitions x replicas
  std::int64_t min_segment_files = 0;  ///< 3 per log
};
PartitionCost partition_cost(std::int64_t partitions, std::int64_t replication_factor);

}  // namespace partsim::model
