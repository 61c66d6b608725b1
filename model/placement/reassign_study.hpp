#pragma once
// A reassignment and what it costs, side by side with what Kafka's own tool would do: the
// planner's plan (reassign_planner.hpp), optionally with the followers reordered for
// failover (leader_balance.hpp), how leadership survives a single broker failure before and
// after, the bytes each plan copies (copy_load.hpp), the partitions that have no live
// replica to copy from, and kafka-reassign-partitions --generate (kafka_generate.hpp).
// `partsim reassign` is this plus a reporter (analysis/reassign_report.hpp).

#include <cstdint>
#include <vector>

#include "model/placement/assignment_score.hpp"
#include "model/placement/copy_load.hpp"
#include "model/placement/kafka_generate.hpp"
#include "model/placement/reassign_planner.hpp"
#include "model/topic_partition.hpp"

namespace partsim::model {

struct ReassignStudyRequest {
  ReassignRequest plan;                    ///< the planner's input; plan.current is the assignment now
  std::vector<TopicPartition> partitions;  ///< per partition, as plan.current
  std::vector<RackedBroker> live;          ///< every live broker: copy sources and the "before" failure score
  bool failover = false;                   ///< also order the plan's followers for failover
  std::vector<std::int64_t> sizes_bytes;   ///< per partition (zeros when unknown)
  std::int64_t generate_seed = 0;          ///< java.util.Random seed for --generate's draw
  std::int64_t generate_work = kGenerateWork;
};

struct ReassignStudy {
  ReassignPlan plan;                  ///< when infeasible or timed out, nothing below is set
  Assignment planned;                 ///< plan.plan, followers reordered with failover
  std::int32_t failover_changes = 0;  ///< partitions whose second replica the failover order changed
  AssignmentScore before;             ///< the current assignment on the live brokers
  AssignmentScore after;              ///< the plan on the target brokers
  GenerateResult generate;
  CopyLoad load;                      ///< the plan's copy
  CopyLoad generate_load;             ///< --generate's copy
  std::vector<std::size_t> stranded;  ///< partitions (rows) with no replica on a live broker
  std::vector<std::size_t> changed;   ///< partitions (rows) whose replica list the plan changes
};

/// Plans, then measures. The plan is found only when plan.status is kOptimal or kFeasible.
ReassignStudy study_reassignment(const ReassignStudyRequest& request);

}  // namespace partsim::model
