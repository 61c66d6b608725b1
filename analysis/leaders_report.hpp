#pragma once
// partsim leaders' results as people and programs read them: the bounds, the preferred
// leader changes, leaders per broker before and after, and the worst single broker failure.
// The JSON carries the same figures under stable keys (docs/cli/leaders.md).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/placement/assignment_score.hpp"
#include "model/placement/leader_balance.hpp"
#include "model/topic_partition.hpp"

namespace partsim::analysis {

struct LeadersReport {
  std::vector<model::TopicPartition> partitions;  ///< per partition of the current assignment
  model::Assignment current;                      ///< per partition: replicas now, preferred leader first
  model::LeaderBounds bounds;                     ///< preferred leaders per live broker
  model::LeaderPlan plan;                         ///< feasible
  model::AssignmentScore before, after;           ///< on the live brokers
  bool failover = false;                          ///< --failover ordered the followers
  std::string plan_json;                          ///< Kafka's reassignment JSON of the new order
  std::string plan_out;                           ///< the file --plan-out wrote it to ("" = none)
};

nlohmann::ordered_json leaders_to_json(const LeadersReport& r);
std::string leaders_to_text(const LeadersReport& r);

}  // namespace partsim::analysis
