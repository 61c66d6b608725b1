#pragma once
// What the KIP-848 server assignors share: memberIds() order, the homogeneous/heterogeneous
// split, the previous target assignment, and topic order by id (or by name without ids).

#include <cstddef>
#include <string>
#include <vector>

#include "model/consumer/detail/assignor_support.hpp"
#include "model/consumer/group_spec.hpp"

namespace partsim::model::consumer::detail {

/// The group as a server assignor sees it.
struct ServerGroup {
  explicit ServerGroup(const GroupSpec& spec);

  const GroupSpec& spec;
  TopicTable topics;
  /// groupSpec.memberIds(): the members' indices in the coordinator's HashMap order.
  std::vector<std::size_t> member_ids;
  /// Per member, its subscribed topics that exist, each once, in its order.
  std::vector<std::vector<std::string>> subscribed;
  /// Per member, its previous target assignment: existing partitions, each held by one member
  /// (a partition listed by two members stays with the first in member_ids order, since a
  /// KIP-848 target assignment never gives one partition twice).
  std::vector<std::vector<TopicPartition>> owned;
  /// ModernGroup.subscriptionType: HOMOGENEOUS when every member subscribes the same topics.
  bool homogeneous = true;
  /// Every topic has an id: order topics by id (Kafka), else by name (partsim).
  bool by_id = true;

  /// Uuid.compareTo of the topics' ids, or name order without ids.
  bool topic_less(const std::string& a, const std::string& b) const;
  /// Topics in the iteration order of a `new HashSet<>(topics)` of their ids, or by name.
  std::vector<std::string> hash_set_order(const std::vector<std::string>& topics) const;
  /// The member's previous assignment as the builder iterates it: per topic (a HashMap of
  /// topic ids built in the order the topics first appear, or by name), its partitions (a
  /// HashSet of partition numbers); with MemberOrder::kAsGiven, both in the order listed.
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> previous_by_topic(std::size_t member) const;
};

/// Per member, its partitions sorted by (topic, partition): the server assignors' result,
/// whose sets have no order of their own.
std::vector<std::vector<TopicPartition>> sorted_result(std::vector<std::vector<TopicPartition>> partitions);

}  // namespace partsim::model::consumer::detail
