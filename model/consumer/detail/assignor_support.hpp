#pragma once
// What the assignors share: the subscribed topics that exist, member orders (Kafka's sorted
// MemberInfo order and Java's HashMap order), the owned partitions an assignor may consider,
// replica rack sets and the KIP-881 switch.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/consumer/group_spec.hpp"

namespace partsim::model::consumer::detail {

/// Topics by name, as the metadata gives them.
class TopicTable {
public:
  explicit TopicTable(const std::vector<TopicMetadata>& topics);
  /// nullptr for a topic without metadata or without partitions (the assignors skip those).
  const TopicMetadata* find(const std::string& name) const;
  /// Racks holding a replica of `tp` ("" dropped, as Node.rack() null is filtered); empty
  /// when the topic has no rack information.
  std::set<std::string> replica_racks(const TopicPartition& tp) const;

private:
  std::map<std::string, const TopicMetadata*> by_name_;
};

/// AbstractPartitionAssignor.MemberInfo.compareTo: static members (group.instance.id) first,
/// by instance id; then the others by member id (String.compareTo).
bool member_info_less(const GroupMember& a, const GroupMember& b);

/// Indices of spec.members in the order the assignor iterates its HashMap of members.
std::vector<std::size_t> iteration_order(const GroupSpec& spec);

/// Indices of members sorted by member id (String.compareTo), for TreeSets and sorted lists.
std::vector<std::size_t> sorted_by_id(const std::vector<GroupMember>& members);

/// The member's subscription with each topic once, in its order.
std::vector<std::string> unique_topics(const GroupMember& m);

/// The member's owned partitions that exist (topic known, partition below its count), each
/// once, in the member's order.
std::vector<TopicPartition> existing_owned(const GroupMember& m, const TopicTable& topics);

/// AbstractPartitionAssignor.useRackAwareAssignment (APA:124-132): some consumer rack is also
/// a replica rack, and (unless `prefer`) the partitions do not all sit on the same racks.
bool use_rack_aware_assignment(const std::set<std::string>& consumer_racks,
                               const std::set<std::string>& partition_racks,
                               const std::vector<std::set<std::string>>& racks_per_partition, bool prefer);

/// Sorts partitions by (topic, partition): Kafka's TopicPartitionComparator.
void sort_partitions(std::vector<TopicPartition>& partitions);

}  // namespace partsim::model::consumer::detail
