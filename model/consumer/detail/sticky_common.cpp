#include "model/consumer/detail/sticky_common.hpp"

#include <algorithm>

#include "model/consumer/java_order.hpp"

namespace partsim::model::consumer::detail {

StickyContext::StickyContext(const GroupSpec& s) : spec(s), topics(s.topics), order(iteration_order(s)) {
  const auto n = spec.members.size();
  std::set<std::string> names;
  for (std::size_t m = 0; m < n; ++m) {
    topics_of.push_back(unique_topics(spec.members[m]));
    generation.push_back(spec.members[m].generation.value_or(kDefaultGeneration));
    for (const auto& t : topics_of.back())
      if (topics.find(t) != nullptr) names.insert(t);
  }
  for (const auto& name : names) {
    subscribed.push_back(topics.find(name));
    total_partitions += subscribed.back()->partitions;
  }

  // allSubscriptionsEqual: walks the members in HashMap order. The first subscription seeds
  // the comparison set, and an empty set is reseeded by the next member: Kafka's quirk,
  // which makes a member without a subscription "equal" to the others. (A classic consumer
  // without a subscription does not join a group, so real groups never show it.)
  owned.resize(n);
  std::set<std::string> first_topics;
  std::map<PartitionKey, std::size_t> claimed_by;  // allPreviousPartitionsToOwner
  for (auto m : order) {
    const std::set<std::string> mine(topics_of[m].begin(), topics_of[m].end());
    if (first_topics.empty()) first_topics = mine;
    else if (all_subscriptions_equal && mine != first_topics) all_subscriptions_equal = false;
    max_generation = std::max(max_generation, generation[m]);
    for (const auto& tp : existing_owned(spec.members[m], topics)) {
      if (names.count(tp.topic) == 0) continue;  // allTopics: the subscribed topics with metadata
      const auto k = key_of(tp);
      const auto other = claimed_by.find(k);
      if (other == claimed_by.end()) {
        owned[m].push_back(tp);
        claimed_by[k] = m;
        continue;
      }
      const auto erase_from_other = [&] {
        auto& list = owned[other->second];
        const auto it = std::find_if(list.begin(), list.end(), [&](const TopicPartition& x) { return key_of(x) == k; });
        if (it != list.end()) list.erase(it);
      };
      if (generation[m] == generation[other->second]) {  // the same generation: nobody keeps it
        multiply_owned.insert(k);
        erase_from_other();
        other->second = m;
      } else if (generation[m] > generation[other->second]) {
        owned[m].push_back(tp);
        erase_from_other();
        other->second = m;
      }
    }
  }
}

bool StickyContext::subscribes(std::size_t member, const std::string& topic) const {
  const auto& t = topics_of[member];
  return std::find(t.begin(), t.end(), topic) != t.end();
}

std::int32_t StickyContext::partition_count(const std::string& topic) const {
  const auto* t = topics.find(topic);
  return t == nullptr ? 0 : t->partitions;
}

RackInfo::RackInfo(const StickyContext& ctx) {
  std::map<std::string, std::int32_t> consumers_by_rack;
  std::map<std::size_t, std::string> racks_of_members;
  for (auto m : ctx.order) {
    const auto& rack = ctx.spec.members[m].rack;
    if (rack.empty()) continue;
    ++consumers_by_rack[rack];
    racks_of_members[m] = rack;
  }
  if (consumers_by_rack.empty()) return;
  std::map<PartitionKey, std::set<std::string>> partition_racks;
  std::vector<std::set<std::string>> per_partition;
  std::set<std::string> all_racks, member_racks;
  for (const auto* t : ctx.subscribed)
    for (std::int32_t p = 0; p < t->partitions; ++p) {
      auto racks = ctx.topics.replica_racks({t->name, p});
      all_racks.insert(racks.begin(), racks.end());
      per_partition.push_back(racks);
      std::int32_t consumers = 0;
      for (const auto& r : racks)
        if (const auto it = consumers_by_rack.find(r); it != consumers_by_rack.end()) consumers += it->second;
      consumers_by_partition_[{t->name, p}] = consumers;
      partition_racks[{t->name, p}] = std::move(racks);
    }
  for (const auto& [rack, count] : consumers_by_rack) member_racks.insert(rack);
  if (use_rack_aware_assignment(member_racks, all_racks, per_partition, ctx.spec.prefer_rack_aware)) {
    consumer_rack_ = std::move(racks_of_members);
    partition_racks_ = std::move(partition_racks);
  }
}

bool RackInfo::racks_mismatch(std::size_t member, const TopicPartition& tp) const {
  const auto* rack = consumer_rack(member);
  if (rack == nullptr) return false;
  const auto* racks = partition_racks(tp);
  return racks == nullptr || racks->count(*rack) == 0;
}

const std::string* RackInfo::consumer_rack(std::size_t member) const {
  const auto it = consumer_rack_.find(member);
  return it == consumer_rack_.end() ? nullptr : &it->second;
}

const std::set<std::string>* RackInfo::partition_racks(const TopicPartition& tp) const {
  const auto it = partition_racks_.find(key_of(tp));
  return it == partition_racks_.end() ? nullptr : &it->second;
}

std::vector<TopicPartition> RackInfo::sort_by_rack_consumers(std::vector<TopicPartition> partitions) const {
  if (consumers_by_partition_.empty()) return partitions;
  const auto count = [&](const TopicPartition& tp) {
    const auto it = consumers_by_partition_.find(key_of(tp));
    return it == consumers_by_partition_.end() ? 0 : it->second;
  };
  std::stable_sort(partitions.begin(), partitions.end(),
                   [&](const TopicPartition& a, const TopicPartition& b) { return count(a) < count(b); });
  return partitions;
}

std::ptrdiff_t RackInfo::next_rack_consumer(const TopicPartition& tp, const std::vector<std::size_t>& members,
                                            std::size_t first) const {
  const auto* racks = partition_racks(tp);
  if (racks == nullptr || racks->empty()) return -1;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::size_t index = (first + i) % members.size();
    const auto* rack = consumer_rack(members[index]);
    if (rack != nullptr && racks->count(*rack) > 0) return static_cast<std::ptrdiff_t>(index);
  }
  return -1;
}

}  // namespace partsim::model::consumer::detail
