#pragma once
// partsim consumers' results as people and programs read them: each member's partitions,
// the spread, the idle members, what moves from the previous assignment, and for
// cooperative-sticky what the first rebalance holds back. The JSON carries the same under
// stable keys (docs/cli/consumers.md).

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/consumer/assignment_plan.hpp"

namespace partsim::analysis {

struct ConsumersReport {
  model::consumer::AssignmentPlan plan;
  std::vector<std::string> members;  ///< member ids, in the plan's order
  std::vector<std::string> racks;    ///< per member, its client.rack ("" = none)
  std::int32_t topics = 0;
  std::int32_t partitions = 0;       ///< of all the topics
  bool previous_assignment = false;  ///< some member owned partitions
};

nlohmann::ordered_json consumers_to_json(const ConsumersReport& r);
std::string consumers_to_text(const ConsumersReport& r);

/// A member's partitions compactly, topic by topic, runs of three or more as ranges:
/// orders-0, orders-1, orders-2, orders-7, payments-4 -> "orders[0-2,7] payments[4]".
std::string compact_partitions(const std::vector<model::TopicPartition>& sorted);

}  // namespace partsim::analysis
