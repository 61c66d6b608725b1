#include "model/consumer/range_assignor.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "model/consumer/detail/assignor_support.hpp"
#include "model/consumer/java_order.hpp"
#include "model/partitioners/key_hash.hpp"

namespace partsim::model::consumer {
namespace {

using detail::TopicTable;

// RangeAssignor.TopicAssignmentState: one topic's subscribers, what is left of it and the
// quotas (n / c each, one more for the first n % c that reach it).
struct TopicState {
  const TopicMetadata* topic = nullptr;
  std::vector<std::size_t> consumers;    // member indices in MemberInfo order
  std::vector<std::int32_t> unassigned;  // ascending, as the LinkedHashSet keeps them
  std::map<std::size_t, std::int32_t> assigned_count;
  std::int32_t per_consumer = 0;
  std::int32_t extra_left = 0;
  std::vector<std::set<std::string>> partition_racks;  // empty unless a subscriber has a rack
  bool needs_rack_aware = false;

  std::int32_t max_assignable(std::size_t consumer) const {
    return std::max(0, per_consumer + (extra_left > 0 ? 1 : 0) - assigned_count.at(consumer));
  }
  // TopicAssignmentState.racksMatch: a consumer without a rack matches every partition.
  bool racks_match(const std::vector<GroupMember>& members, std::size_t consumer, std::int32_t p) const {
    const auto& rack = members[consumer].rack;
    if (rack.empty()) return true;
    return !partition_racks.empty() && partition_racks[static_cast<std::size_t>(p)].count(rack) > 0;
  }
};

class RangeRun {
public:
  RangeRun(const GroupSpec& spec) : spec_(spec), topics_(spec.topics), result_(spec.members.size()) {}

  AssignmentResult run() {
    for (const auto* t : topics_in_map_order()) states_.push_back(make_state(*t));
    const bool rack_aware =
        std::any_of(states_.begin(), states_.end(), [](const TopicState& s) { return s.needs_rack_aware; });
    if (rack_aware) assign_with_rack_matching();
    for (auto& s : states_) assign_ranges(s, [](std::size_t, std::int32_t) { return true; });
    if (rack_aware)
      for (auto& list : result_) detail::sort_partitions(list);
    AssignmentResult out;
    out.partitions = std::move(result_);
    return out;
  }

private:
  // AbstractPartitionAssignor.assign puts the subscribed topics that have metadata into a
  // HashMap in the order of a HashSet filled from the members' subscriptions, walked in the
  // order of the HashMap of members. Only the order of each member's list depends on it.
  std::vector<const TopicMetadata*> topics_in_map_order() const {
    std::vector<std::string> names;
    std::map<std::string, std::size_t> index;
    JavaHashTable subscribed;
    for (auto m : detail::iteration_order(spec_))
      for (const auto& t : spec_.members[m].topics) {
        const auto [it, fresh] = index.emplace(t, names.size());
        if (fresh) names.push_back(t);
        subscribed.insert(it->second, java_string_hash(t));
      }
    JavaHashTable with_metadata;
    for (auto i : subscribed.order())
      if (topics_.find(names[i]) != nullptr) with_metadata.insert(i, java_string_hash(names[i]));
    std::vector<const TopicMetadata*> out;
    for (auto i : with_metadata.order()) out.push_back(topics_.find(names[i]));
    return out;
  }

  TopicState make_state(const TopicMetadata& t) const {
    TopicState s;
    s.topic = &t;
    for (std::size_t m = 0; m < spec_.members.size(); ++m) {
      const auto& topics = spec_.members[m].topics;
      if (std::find(topics.begin(), topics.end(), t.name) != topics.end()) s.consumers.push_back(m);
    }
    std::sort(s.consumers.begin(), s.consumers.end(), [&](std::size_t a, std::size_t b) {
      return detail::member_info_less(spec_.members[a], spec_.members[b]);
    });
    for (std::int32_t p = 0; p < t.partitions; ++p) s.unassigned.push_back(p);
    for (auto c : s.consumers) s.assigned_count[c] = 0;
    const auto c = static_cast<std::int32_t>(s.consumers.size());
    s.per_consumer = c == 0 ? 0 : t.partitions / c;
    s.extra_left = c == 0 ? 0 : t.partitions % c;
    std::set<std::string> consumer_racks, all_partition_racks;
    for (auto m : s.consumers)
      if (!spec_.members[m].rack.empty()) consumer_racks.insert(spec_.members[m].rack);
    if (!consumer_racks.empty())
      for (std::int32_t p = 0; p < t.partitions; ++p) {
        s.partition_racks.push_back(topics_.replica_racks({t.name, p}));
        all_partition_racks.insert(s.partition_racks.back().begin(), s.partition_racks.back().end());
      }
    s.needs_rack_aware = detail::use_rack_aware_assignment(consumer_racks, all_partition_racks, s.partition_racks,
                                                           spec_.prefer_rack_aware);
    return s;
  }

  // RangeAssignor.assign + TopicAssignmentState.onAssigned.
  void give(std::size_t consumer, const std::vector<std::int32_t>& partitions, TopicState& s) {
    for (auto p : partitions) result_[consumer].push_back({s.topic->name, p});
    if ((s.assigned_count[consumer] += static_cast<std::int32_t>(partitions.size())) > s.per_consumer) --s.extra_left;
    // `partitions` is a subsequence of `unassigned` (both ascending): one merging pass, not
    // a search per partition (quadratic: a topic of 10^6 partitions never finished).
    std::size_t next = 0;
    std::erase_if(s.unassigned, [&](std::int32_t p) {
      if (next == partitions.size() || partitions[next] != p) return false;
      ++next;
      return true;
    });
  }

  // RangeAssignor.assignRanges: each subscriber in turn takes, from the partitions still
  // unassigned and allowed to it, as many as its quota leaves.
  void assign_ranges(TopicState& s, const std::function<bool(std::size_t, std::int32_t)>& may_assign) {
    for (auto c : s.consumers) {
      if (s.unassigned.empty()) break;
      std::vector<std::int32_t> take;
      const auto limit = static_cast<std::size_t>(s.max_assignable(c));
      for (auto p : s.unassigned) {
        if (take.size() >= limit) break;
        if (may_assign(c, p)) take.push_back(p);
      }
      if (!take.empty()) give(c, take, s);
    }
  }

  // RangeAssignor.assignWithRackMatching: topics grouped by subscribers, then by partition
  // count (the size of the partition rack map: 0 when no subscriber has a rack). The groups
  // touch disjoint topics, so the order Java's groupingBy walks them in does not matter.
  void assign_with_rack_matching() {
    std::map<std::pair<std::vector<std::size_t>, std::size_t>, std::vector<TopicState*>> groups;
    for (auto& s : states_) groups[{s.consumers, s.partition_racks.size()}].push_back(&s);
    for (auto& [key, group] : groups) {
      if (group.size() > 1) {
        assign_co_partitioned(key.first, static_cast<std::int32_t>(key.second), group);
      } else if (group.front()->needs_rack_aware) {
        TopicState& s = *group.front();
        assign_ranges(s, [&](std::size_t c, std::int32_t p) { return s.racks_match(spec_.members, c, p); });
      }
    }
  }

  // RangeAssignor.assignCoPartitionedWithRackMatching (RGA:186-209).
  void assign_co_partitioned(const std::vector<std::size_t>& consumers, std::int32_t partitions,
                             const std::vector<TopicState*>& group) {
    std::vector<std::size_t> remaining = consumers;
    for (std::int32_t p = 0; p < partitions; ++p) {
      const auto match = std::find_if(remaining.begin(), remaining.end(), [&](std::size_t c) {
        return std::all_of(group.begin(), group.end(), [&](const TopicState* s) {
          return s->racks_match(spec_.members, c, p) && s->max_assignable(c) > 0;
        });
      });
      if (match == remaining.end()) continue;
      const std::size_t c = *match;
      for (auto* s : group) give(c, {p}, *s);
      if (std::none_of(group.begin(), group.end(), [&](const TopicState* s) { return s->max_assignable(c) > 0; })) {
        remaining.erase(std::find(remaining.begin(), remaining.end(), c));
        if (remaining.empty()) break;
      }
    }
  }

  const GroupSpec& spec_;
  TopicTable topics_;
  std::vector<TopicState> states_;
  std::vector<std::vector<TopicPartition>> result_;
};

}  // namespace

AssignmentResult range_assign(const GroupSpec& spec) { return RangeRun(spec).run(); }

}  // namespace partsim::model::consumer
