#include "model/consumer/detail/server_support.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/consumer/java_order.hpp"

namespace partsim::model::consumer::detail {

ServerGroup::ServerGroup(const GroupSpec& s) : spec(s), topics(s.topics), member_ids(iteration_order(s)) {
  const auto n = spec.members.size();
  subscribed.resize(n);
  owned.resize(n);
  std::set<std::string> first;
  for (std::size_t m = 0; m < n; ++m) {
    const auto all = unique_topics(spec.members[m]);
    const std::set<std::string> mine(all.begin(), all.end());
    if (m == 0) first = mine;
    else if (mine != first) homogeneous = false;
    for (const auto& t : all)
      if (topics.find(t) != nullptr) subscribed[m].push_back(t);
  }
  std::set<std::pair<std::string, std::int32_t>> taken;
  for (auto m : member_ids)
    for (const auto& tp : existing_owned(spec.members[m], topics))
      if (taken.insert({tp.topic, tp.partition}).second) owned[m].push_back(tp);
  by_id = std::all_of(spec.topics.begin(), spec.topics.end(), [](const TopicMetadata& t) { return t.id.has_value(); });
}

bool ServerGroup::topic_less(const std::string& a, const std::string& b) const {
  if (by_id) return *topics.find(a)->id < *topics.find(b)->id;
  return java_string_less(a, b);
}

std::vector<std::string> ServerGroup::hash_set_order(const std::vector<std::string>& names) const {
  std::vector<std::string> out;
  if (!by_id) {
    out = names;
    std::sort(out.begin(), out.end(), java_string_less);
    return out;
  }
  auto table = JavaHashTable::for_copy_of(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) table.insert(i, topics.find(names[i])->id->java_hash());
  for (auto i : table.order()) out.push_back(names[i]);
  return out;
}

std::vector<std::pair<std::string, std::vector<std::int32_t>>> ServerGroup::previous_by_topic(
    std::size_t member) const {
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> listed;  // topics in the order they first appear
  std::map<std::string, std::size_t> at;
  for (const auto& tp : owned[member]) {
    const auto [it, fresh] = at.emplace(tp.topic, listed.size());
    if (fresh) listed.push_back({tp.topic, {}});
    listed[it->second].second.push_back(tp.partition);
  }
  if (spec.member_order == MemberOrder::kAsGiven) return listed;
  // Assignment.fromRecord: Collectors.toMap (a new HashMap<>() of topic ids) of new
  // HashSet<>(partitions).
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> out;
  std::vector<std::size_t> topic_order(listed.size());
  if (by_id) {
    JavaHashTable table;
    for (std::size_t i = 0; i < listed.size(); ++i) table.insert(i, topics.find(listed[i].first)->id->java_hash());
    topic_order = table.order();
  } else {
    for (std::size_t i = 0; i < listed.size(); ++i) topic_order[i] = i;
    std::sort(topic_order.begin(), topic_order.end(),
              [&](std::size_t a, std::size_t b) { return java_string_less(listed[a].first, listed[b].first); });
  }
  for (auto i : topic_order) {
    const auto& parts = listed[i].second;
    auto set = JavaHashTable::for_copy_of(parts.size());
    for (std::size_t k = 0; k < parts.size(); ++k) set.insert(k, parts[k]);
    std::vector<std::int32_t> ordered;
    for (auto k : set.order()) ordered.push_back(parts[k]);
    out.push_back({listed[i].first, std::move(ordered)});
  }
  return out;
}

std::vector<std::vector<TopicPartition>> sorted_result(std::vector<std::vector<TopicPartition>> partitions) {
  for (auto& list : partitions) sort_partitions(list);
  return partitions;
}

}  // namespace partsim::model::consumer::detail
