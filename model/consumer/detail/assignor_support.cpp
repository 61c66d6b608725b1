#include "model/consumer/detail/assignor_support.hpp"

#include <algorithm>
#include <numeric>

#include "model/consumer/java_order.hpp"
#include "model/partitioners/key_hash.hpp"

namespace partsim::model::consumer::detail {

TopicTable::TopicTable(const std::vector<TopicMetadata>& topics) {
  for (const auto& t : topics)
    if (t.partitions > 0) by_name_.emplace(t.name, &t);
}

const TopicMetadata* TopicTable::find(const std::string& name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::set<std::string> TopicTable::replica_racks(const TopicPartition& tp) const {
  std::set<std::string> racks;
  const auto* t = find(tp.topic);
  if (t == nullptr || static_cast<std::size_t>(tp.partition) >= t->replica_racks.size()) return racks;
  for (const auto& r : t->replica_racks[static_cast<std::size_t>(tp.partition)])
    if (!r.empty()) racks.insert(r);
  return racks;
}

bool member_info_less(const GroupMember& a, const GroupMember& b) {
  if (a.instance_id && b.instance_id) return java_string_less(*a.instance_id, *b.instance_id);
  if (a.instance_id || b.instance_id) return a.instance_id.has_value();
  return java_string_less(a.id, b.id);
}

std::vector<std::size_t> iteration_order(const GroupSpec& spec) {
  if (spec.member_order == MemberOrder::kAsGiven) {
    std::vector<std::size_t> order(spec.members.size());
    std::iota(order.begin(), order.end(), 0);
    return order;
  }
  std::vector<std::int32_t> hashes;
  hashes.reserve(spec.members.size());
  for (const auto& m : spec.members) hashes.push_back(java_string_hash(m.id));
  return java_hash_map_order(hashes);
}

std::vector<std::size_t> sorted_by_id(const std::vector<GroupMember>& members) {
  std::vector<std::size_t> order(members.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return java_string_less(members[a].id, members[b].id); });
  return order;
}

std::vector<std::string> unique_topics(const GroupMember& m) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& t : m.topics)
    if (seen.insert(t).second) out.push_back(t);
  return out;
}

std::vector<TopicPartition> existing_owned(const GroupMember& m, const TopicTable& topics) {
  std::vector<TopicPartition> out;
  std::set<std::pair<std::string, std::int32_t>> seen;
  for (const auto& tp : m.owned) {
    const auto* t = topics.find(tp.topic);
    if (t == nullptr || tp.partition < 0 || tp.partition >= t->partitions) continue;
    if (seen.insert({tp.topic, tp.partition}).second) out.push_back(tp);
  }
  return out;
}

bool use_rack_aware_assignment(const std::set<std::string>& consumer_racks,
                               const std::set<std::string>& partition_racks,
                               const std::vector<std::set<std::string>>& racks_per_partition, bool prefer) {
  const bool disjoint = std::none_of(consumer_racks.begin(), consumer_racks.end(),
                                     [&](const std::string& r) { return partition_racks.count(r) > 0; });
  if (consumer_racks.empty() || disjoint) return false;
  if (prefer) return true;
  return !std::all_of(racks_per_partition.begin(), racks_per_partition.end(),
                      [&](const std::set<std::string>& racks) { return racks == partition_racks; });
}

void sort_partitions(std::vector<TopicPartition>& partitions) {
  std::sort(partitions.begin(), partitions.end(), [](const TopicPartition& a, const TopicPartition& b) {
    return a.topic != b.topic ? java_string_less(a.topic, b.topic) : a.partition < b.partition;
  });
}

}  // namespace partsim::model::consumer::detail
