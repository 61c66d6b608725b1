#include "model/consumer/assignment_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/consumer/detail/assignor_support.hpp"

namespace partsim::model::consumer {
namespace {

// Some member loses a partition it owned: under KIP-429 it revokes it and rejoins.
bool someone_revokes(const GroupSpec& spec, const std::vector<std::vector<TopicPartition>>& assigned) {
  for (std::size_t m = 0; m < spec.members.size(); ++m)
    for (const auto& tp : spec.members[m].owned)
      if (std::none_of(assigned[m].begin(), assigned[m].end(),
                       [&](const TopicPartition& a) { return a.topic == tp.topic && a.partition == tp.partition; }))
        return true;
  return false;
}

}  // namespace

AssignmentPlan plan_assignment(AssignorKind kind, const GroupSpec& spec, const std::vector<GroupMember>& departed) {
  AssignmentPlan plan;
  plan.assignor = kind;
  auto result = assign(kind, spec);
  plan.withheld = result.withheld;
  plan.kafka_failure = result.kafka_failure;
  if (kind == AssignorKind::kCooperativeSticky) {
    std::int32_t generation = 0;
    for (const auto& m : spec.members) generation = std::max(generation, m.generation.value_or(-1) + 1);
    GroupSpec next = spec;
    while (someone_revokes(next, result.partitions)) {
      if (plan.rebalances == kMaxRebalances) {
        plan.settled = false;
        break;
      }
      for (std::size_t m = 0; m < next.members.size(); ++m) {
        next.members[m].owned = result.partitions[m];
        next.members[m].generation = generation;
      }
      ++generation;
      result = assign(kind, next);
      ++plan.rebalances;
      if (!plan.kafka_failure) plan.kafka_failure = result.kafka_failure;
    }
  }
  plan.partitions = std::move(result.partitions);
  for (auto& list : plan.partitions) detail::sort_partitions(list);

  std::map<std::pair<std::string, std::int32_t>, std::string> owner;
  for (std::size_t m = 0; m < spec.members.size(); ++m)
    for (const auto& tp : plan.partitions[m]) owner[{tp.topic, tp.partition}] = spec.members[m].id;
  std::vector<const GroupMember*> previous;
  for (const auto& m : spec.members) previous.push_back(&m);
  for (const auto& m : departed) {
    previous.push_back(&m);
    plan.left.push_back(m.id);
  }
  for (const auto* m : previous)
    for (const auto& tp : m->owned) {
      const auto it = owner.find({tp.topic, tp.partition});
      if (it != owner.end() && it->second == m->id) continue;
      plan.moved.push_back({tp, m->id, it == owner.end() ? std::nullopt : std::optional<std::string>(it->second)});
    }
  std::stable_sort(plan.moved.begin(), plan.moved.end(), [](const PartitionMove& a, const PartitionMove& b) {
    if (a.partition.topic != b.partition.topic) return a.partition.topic < b.partition.topic;
    if (a.partition.partition != b.partition.partition) return a.partition.partition < b.partition.partition;
    return a.from < b.from;
  });
  plan.moved.erase(std::unique(plan.moved.begin(), plan.moved.end(),
                               [](const PartitionMove& a, const PartitionMove& b) {
                                 return a.partition.topic == b.partition.topic &&
                                        a.partition.partition == b.partition.partition && a.from == b.from;
                               }),
                   plan.moved.end());
  for (std::size_t m = 0; m < spec.members.size(); ++m) {
    const auto n = static_cast<std::int32_t>(plan.partitions[m].size());
    if (n == 0) plan.idle.push_back(spec.members[m].id);
    plan.min_partitions = m == 0 ? n : std::min(plan.min_partitions, n);
    plan.max_partitions = std::max(plan.max_partitions, n);
    plan.assigned += n;
  }
  return plan;
}

}  // namespace partsim::model::consumer
