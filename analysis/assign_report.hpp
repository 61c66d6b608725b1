#pragma once
// partsim assign's results as people and programs read them: how the placer drew, the
// assignment, replicas and preferred leaders per broker, the score, leaders after each
// single broker failure, and the cost on disk. The JSON carries the same figures under
// stable keys (docs/cli/assign.md).

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "model/placement/assignment_score.hpp"
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

nlohmann::ordered_json assign_to_json(const AssignReport& r);
std::string assign_to_text(const AssignReport& r);
/// One row per partition: partition,replicas (leader first)
std::string assign_to_csv(const AssignReport& r);

}  // namespace partsim::analysis
