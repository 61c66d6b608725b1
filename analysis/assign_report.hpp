#pragma once
// partsim assign's results as people and programs read them: how the placer drew, the
// assignment, replicas and preferred leaders per broker, the score, leaders after each
// single broker failure, and the cost on disk. The JSON carries the same figures under
// stable keys (docs/cli/assign.md).

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "model/placement/assignment_score.hpp"
#include "model/placement/reassign_planner.hpp"
#include "model/placement/topic_placement.hpp"

namespace partsim::analysis {

struct AssignReport {
  model::Placer placer = model::Placer::kAdmin;
  std::int64_t seed = 0;  ///< java.util.Random seed of the draws
  model::TopicPlacement placement;
  model::AssignmentScore score;
  model::PartitionCost cost;
};

/// "admin", "striped" or "simple", as --placer spells it.
const char* placer_name(model::Placer placer);
/// How the placer placed: which one, and its draws (the report's first line).
std::string placement_method(const AssignReport& r);

nlohmann::ordered_json assign_to_json(const AssignReport& r);
std::string assign_to_text(const AssignReport& r);
/// One row per partition: partition,replicas (leader first)
std::string assign_to_csv(const AssignReport& r);

/// partsim assign --add-partitions: where a CreatePartitions puts new partitions, the
/// unevenness it leaves, and the least-move plan that evens it.
struct AddPartitionsReport {
  model::Placer placer = model::Placer::kAdmin;  ///< whose rule placed the new partitions
  std::int64_t seed = 0;
  std::string topic;
  std::string existing_from;                     ///< how the existing partitions came about
  model::Assignment existing;                    ///< partitions 0..
  model::TopicPlacement added;                   ///< the new partitions, ids from existing.size()
  model::AssignmentScore before, after, evened;  ///< the existing alone; with the added; after the plan
  model::ReassignPlan plan;                      ///< the least-move plan over the whole topic
  std::string rack_mode;                         ///< the plan's: "even" or "none"
};

nlohmann::ordered_json add_partitions_to_json(const AddPartitionsReport& r);
std::string add_partitions_to_text(const AddPartitionsReport& r);
/// One row per partition after the partitions are added: partition,replicas (leader first)
std::string add_partitions_to_csv(const AddPartitionsReport& r);

}  // namespace partsim::analysis
