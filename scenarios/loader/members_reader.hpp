#pragma once
// The inputs of partsim consumers: the topics as "orders:12,payments:6" and the group's
// members as JSON:
//   {"members": [{"member": "c0", "topics": ["orders"], "rack": "a", "instance": "i0",
//                 "owned": ["orders-0"], "generation": 3}, ...],
//    "topic_ids": {"orders": "T1-A4s3VTwiI5CTbEp6POw", ...}}
// Only "member" is required. "topics" defaults to every topic; "rack" is client.rack,
// "instance" group.instance.id, "owned" the member's previous assignment and "generation"
// the generation it dates from. "topic_ids" (every topic's or none) are Kafka's topic ids,
// which the KIP-848 uniform assignor orders topics by. null is the same as absent. Errors
// name the file and the JSON path ("members[2].owned[0]: ...").

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/consumer/group_spec.hpp"

namespace partsim::scenarios {

/// "orders:12,payments:6": Kafka topic names, each once, with partition counts in
/// [1, `max_partitions`]; `option` names the option in errors.
std::vector<std::pair<std::string, std::int32_t>> parse_topic_counts(const std::string& text, const std::string& option,
                                                                     std::int32_t max_partitions);

struct MembersFile {
  std::vector<model::consumer::GroupMember> members;          ///< in file order
  std::map<std::string, model::consumer::TopicId> topic_ids;  ///< empty, or one per topic
};

/// Reads a members file. `topics` are the topics and partition counts (from --topics): every
/// topic the file names must be one of them, every owned partition below its count.
MembersFile parse_members_json(const std::string& text, const std::string& source,
                               const std::map<std::string, std::int32_t>& topics);

}  // namespace partsim::scenarios
