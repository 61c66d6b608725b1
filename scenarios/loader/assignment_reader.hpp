#pragma once
// Current replica assignments and broker lists as operators have them: Kafka's
// reassignment JSON ({"version":1,"partitions":[{"topic","partition","replicas"}]}), the
// text of kafka-topics.sh --describe, and brokers as {"version":1,"brokers":[{"id","rack",
// "alive"}]} or "0:a,1:b,...". Errors name file:line:column.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace partsim::scenarios {

struct PartitionReplicas {
  std::string topic;
  std::int32_t partition = 0;
  std::vector<std::int32_t> replicas;  ///< preferred leader first
};

struct BrokerEntry {
  std::int32_t id = 0;
  std::string rack;
  bool alive = true;
};

std::vector<PartitionReplicas> parse_reassignment_json(const std::string& text, const std::string& source);
std::vector<PartitionReplicas> parse_topics_describe(const std::string& text, const std::string& source);
std::vector<BrokerEntry> parse_brokers_json(const std::string& text, const std::string& source);
/// "0:a,1:b,2" (rack optional); `option` names it in errors.
std::vector<BrokerEntry> parse_brokers_list(const std::string& text, const std::string& option);

/// Partition sizes from kafka-log-dirs.sh --describe (its JSON; lines before it, such as
/// "Querying brokers ...", are skipped): per "topic-partition", the largest size of any
/// replica, future replicas (an ongoing move) ignored.
std::map<std::string, std::int64_t> parse_log_dirs_json(const std::string& text, const std::string& source);

/// Kafka's reassignment JSON for a plan.
std::string write_reassignment_json(const std::vector<PartitionReplicas>& plan);

}  // namespace partsim::scenarios
