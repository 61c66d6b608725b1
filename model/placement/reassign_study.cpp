#include "model/placement/reassign_study.hpp"

#include <algorithm>
#include <set>

#include "model/placement/leader_balance.hpp"

namespace partsim::model {

ReassignStudy study_reassignment(const ReassignStudyRequest& r) {
  ReassignStudy s;
  s.plan = plan_reassignment(r.plan);
  if (s.plan.status != PlanStatus::kOptimal && s.plan.status != PlanStatus::kFeasible) return s;
  const auto& current = r.plan.current;
  // Followers ordered for failover: the leaders stay (bounds 0..P keep every first replica,
  // at no cost), then each leader's partitions get second replicas spread evenly.
  s.planned = s.plan.plan;
  if (r.failover) {
    std::vector<std::int32_t> ids;
    for (const auto& t : r.plan.targets) ids.push_back(t.id);
    const auto ordered = balance_leaders(s.planned, ids, {0, static_cast<std::int32_t>(current.size())}, true);
    s.planned = ordered.reordered;
    s.failover_changes = ordered.failover_changes;
  }
  s.before = score_assignment(current, r.live);
  s.after = score_assignment(s.planned, r.plan.targets);
  s.generate = kafka_generate({r.partitions, current, r.plan.rf, r.plan.targets, r.generate_seed, r.generate_work});
  std::set<std::int32_t> alive;
  for (const auto& b : r.live) alive.insert(b.id);
  s.load = copy_load(current, s.planned, r.sizes_bytes, alive);
  s.generate_load = copy_load(current, s.generate.seeded, r.sizes_bytes, alive);
  // Partitions without a live replica have nothing to copy from: Kafka cannot move them
  // until one of their brokers returns.
  for (std::size_t p = 0; p < current.size(); ++p) {
    if (std::none_of(current[p].begin(), current[p].end(), [&](std::int32_t b) { return alive.count(b) > 0; }))
      s.stranded.push_back(p);
    if (s.planned[p] != current[p]) s.changed.push_back(p);
  }
  return s;
}

}  // namespace partsim::model
