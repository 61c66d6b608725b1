#pragma once
// What kafka-reassign-partitions --generate proposes, and how much it moves. For each topic
// (in name order here) it calls AdminUtils.assignReplicasToBrokers (spec §11.1) over the
// target brokers sorted by id, for the topic's partition count and the replication factor
// of its first partition: rack-aware when every target has a rack, else rack-unaware (with
// only some racked Kafka refuses, unless --disable-rack-aware: that is what is modelled).
// With no fixed start index, AdminUtils draws the start index, then the replica shift, as
// nextInt(#brokers) from one java.util.Random; partsim seeds it so that a run repeats.
//
// One draw says little, so the statistics also place the topic for every (start, shift)
// pair, n^2 of them, while that costs at most `max_work` partition placements, and for a
// fixed sample of pairs (java.util.Random seeded seed + 1) beyond.

#include <cstdint>
#include <string>
#include <vector>

#include "model/placement/replica_placement.hpp"
#include "model/topic_partition.hpp"

namespace partsim::model {

/// Partition placements --generate's statistics may make (draws x partitions), about 1 s.
inline constexpr std::int64_t kGenerateWork = 20'000'000;

struct GenerateRequest {
  std::vector<TopicPartition> partitions;  ///< per partition of the current assignment
  Assignment current;                      ///< per partition: replicas now, preferred leader first
  std::vector<std::int32_t> rf;            ///< per partition: the replication factor wanted, <= #targets
  std::vector<RackedBroker> targets;       ///< the brokers it may use (--broker-list), any order
  std::int64_t seed = 0;                   ///< java.util.Random seed for the draw
  std::int64_t max_work = kGenerateWork;
};

struct GenerateResult {
  Assignment seeded;                          ///< per input partition: what the seeded draw proposes
  bool rack_aware = false;                    ///< every target has a rack
  std::int32_t moves = 0;                     ///< of the seeded draw (count_moves)
  std::int32_t leader_changes = 0;            ///< of the seeded draw
  std::int64_t draws = 0;                     ///< (start, shift) pairs evaluated per topic (the most of any topic)
  std::int64_t possible = 0;                  ///< n^2 pairs per topic
  bool sampled = false;                       ///< some topic was sampled rather than enumerated
  std::int64_t min_moves = 0, max_moves = 0;  ///< summed over topics of each topic's fewest / most
  double mean_moves = 0;                      ///< summed over topics of each topic's mean over its draws
};

GenerateResult kafka_generate(const GenerateRequest& request);

}  // namespace partsim::model
