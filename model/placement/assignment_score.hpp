#pragma once
// How good a replica assignment is: replicas and preferred leaders per broker, racks per
// partition, and where leadership goes when any single broker fails (the new leader is
// the first live replica in list order, as the controller elects it).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/placement/replica_placement.hpp"

namespace partsim::model {

struct BrokerLoad {
  std::int32_t broker = 0;
  std::string rack;
  std::int32_t replicas = 0;
  std::int32_t leaders = 0;
};

struct FailureLoad {
  std::int32_t failed = 0;
  std::int32_t max_leaders = 0;  ///< the most leaders any live broker then has
  std::int32_t min_leaders = 0;
  std::int32_t offline = 0;  ///< partitions left without a live replica
};

struct AssignmentScore {
  std::vector<BrokerLoad> brokers;
  std::int32_t replica_min = 0, replica_max = 0;
  std::int32_t leader_min = 0, leader_max = 0;
  std::int32_t partitions_rack_ok = 0;  ///< partitions spread over min(rf, #racks) racks
  std::int32_t partitions = 0;
  std::vector<FailureLoad> failures;
  std::int32_t worst_failure_max_leaders = 0;
};

AssignmentScore score_assignment(const Assignment& a, const std::vector<RackedBroker>& brokers);

}  // namespace partsim::model
