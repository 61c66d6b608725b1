#include "model/consumer/sticky_assignor.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/consumer/detail/sticky_common.hpp"

namespace partsim::model::consumer {
namespace {

using detail::key_of;
using detail::PartitionKey;

// CooperativeStickyAssignor.computePartitionsTransferringOwnership (the general builder):
// the partitions some member gains that some member owned and loses. Kafka compares with
// the owned partitions as the members reported them, before step 0.
std::map<PartitionKey, std::size_t> added_and_revoked(const GroupSpec& spec,
                                                      const std::vector<std::vector<TopicPartition>>& assignment) {
  std::map<PartitionKey, std::size_t> added;
  std::set<PartitionKey> revoked;
  for (std::size_t m = 0; m < spec.members.size(); ++m) {
    std::set<PartitionKey> owned, assigned;
    for (const auto& tp : spec.members[m].owned) owned.insert(key_of(tp));
    for (const auto& tp : assignment[m]) assigned.insert(key_of(tp));
    for (const auto& k : assigned)
      if (owned.count(k) == 0) added[k] = m;
    for (const auto& k : owned)
      if (assigned.count(k) == 0) revoked.insert(k);
  }
  std::erase_if(added, [&](const auto& entry) { return revoked.count(entry.first) == 0; });
  return added;
}

}  // namespace

AssignmentResult sticky_assign(const GroupSpec& spec, bool cooperative) {
  const detail::StickyContext ctx(spec);
  const detail::RackInfo racks(ctx);
  auto outcome = ctx.all_subscriptions_equal ? detail::constrained_assign(ctx, racks)
                                             : detail::general_assign(ctx, racks);
  AssignmentResult result;
  result.partitions = std::move(outcome.assignment);
  result.partitions.resize(spec.members.size());
  result.kafka_failure = std::move(outcome.kafka_failure);
  if (!cooperative) return result;
  // adjustAssignment: the new owner does not get it yet.
  const auto transferring = outcome.transferring ? *outcome.transferring : added_and_revoked(spec, result.partitions);
  for (const auto& [k, to] : transferring) {
    auto& list = result.partitions[to];
    list.erase(std::find_if(list.begin(), list.end(), [&](const TopicPartition& tp) { return key_of(tp) == k; }));
    WithheldPartition w{{k.first, k.second}, {}, spec.members[to].id};
    for (const auto& m : spec.members)
      if (std::any_of(m.owned.begin(), m.owned.end(), [&](const TopicPartition& tp) { return key_of(tp) == k; }))
        w.owners.push_back(m.id);
    result.withheld.push_back(std::move(w));
  }
  return result;
}

}  // namespace partsim::model::consumer
