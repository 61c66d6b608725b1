#pragma once
// partsim reassign's results as people and programs read them: the plan and its cost, the
// changed partitions, replicas and leaders per broker and per topic before and after, the
// worst single broker failure, and what kafka-reassign-partitions --generate would do.
// The JSON carries the same figures under stable keys (docs/cli/reassign.md).

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "model/placement/reassign_study.hpp"

namespace partsim::analysis {

/// What --balance-scope asked to balance: the partitions given, each topic, or both.
enum class BalanceScope { kCluster, kTopic, kBoth };

struct ReassignReport {
  model::ReassignStudyRequest request;
  model::ReassignStudy study;                 ///< a plan was found (optimal or feasible)
  std::map<std::int32_t, std::string> racks;  ///< the rack of every broker in --brokers ("" = none)
  std::string balance;                        ///< --balance as given, e.g. "band:1.10"
  bool explicit_bounds = false;               ///< both --replicas-per-broker and --leaders-per-broker given
  BalanceScope scope = BalanceScope::kCluster;
  bool have_sizes = false;                ///< partition sizes were given: show bytes
  std::int64_t throttle_bytes_per_s = 0;  ///< > 0: show the least copy time
  std::string plan_json;                  ///< Kafka's reassignment JSON of the changed partitions
  std::string plan_out;                   ///< the file --plan-out wrote it to ("" = none)
};

nlohmann::ordered_json reassign_to_json(const ReassignReport& r);
std::string reassign_to_text(const ReassignReport& r);

}  // namespace partsim::analysis
