#include "model/consumer/uniform_assignor.hpp"

#include <algorithm>
#include <set>

#include "model/consumer/detail/server_support.hpp"
#include "model/consumer/detail/uniform_heterogeneous.hpp"
#include "sim/check.hpp"

namespace partsim::model::consumer {
namespace {

// UniformHomogeneousAssignmentBuilder.build.
std::vector<std::vector<TopicPartition>> homogeneous(const detail::ServerGroup& g) {
  std::vector<std::vector<TopicPartition>> target(g.spec.members.size());
  const auto subscribed = g.hash_set_order(g.subscribed[g.member_ids.front()]);
  if (subscribed.empty()) return target;
  std::set<std::pair<std::string, std::int32_t>> held;  // groupSpec.isPartitionAssigned
  for (const auto& list : g.owned)
    for (const auto& tp : list) held.insert({tp.topic, tp.partition});
  std::vector<TopicPartition> unassigned;
  std::int32_t total = 0;
  for (const auto& t : subscribed) {
    const auto count = g.topics.find(t)->partitions;
    for (std::int32_t p = 0; p < count; ++p)
      if (held.count({t, p}) == 0) unassigned.push_back({t, p});
    total += count;
  }
  const auto members = static_cast<std::int32_t>(g.spec.members.size());
  const std::int32_t min_quota = total / members;
  std::int32_t extra = total % members;

  // maybeRevokePartitions: each member keeps what it held of the subscribed topics up to its
  // quota; the excess joins the unassigned partitions, after the never-assigned ones.
  std::vector<std::pair<std::size_t, std::int32_t>> unfilled;
  for (auto m : g.member_ids) {
    std::int32_t quota = min_quota;
    if (extra > 0) {
      ++quota;
      --extra;
    }
    for (const auto& [topic, partitions] : g.previous_by_topic(m)) {
      if (std::find(subscribed.begin(), subscribed.end(), topic) == subscribed.end())
        continue;  // the whole topic is dropped
      for (auto p : partitions) {
        if (quota > 0) {
          --quota;
          target[m].push_back({topic, p});
        } else {
          unassigned.push_back({topic, p});
        }
      }
    }
    if (quota > 0) unfilled.emplace_back(m, quota);
  }
  // assignRemainingPartitions: in turn, each member with room takes the next ones.
  std::size_t next = 0;
  for (const auto& [m, room] : unfilled)
    for (std::int32_t i = 0; i < room && next < unassigned.size(); ++i) target[m].push_back(unassigned[next++]);
  PARTSIM_CHECK(next == unassigned.size(), "uniform assignor: partitions were left unassigned");
  return target;
}

}  // namespace

AssignmentResult uniform_assign(const GroupSpec& spec) {
  AssignmentResult result;
  result.partitions.resize(spec.members.size());
  if (spec.members.empty()) return result;
  const detail::ServerGroup g(spec);
  result.partitions = detail::sorted_result(g.homogeneous ? homogeneous(g) : detail::uniform_heterogeneous(g));
  return result;
}

}  // namespace partsim::model::consumer
