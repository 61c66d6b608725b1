#include "model/placement/leader_balance.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/placement/min_cost_flow.hpp"

namespace partsim::model {

LeaderBounds leader_bounds_exact(std::int32_t partitions, std::int32_t brokers) {
  return {partitions / brokers, (partitions + brokers - 1) / brokers};
}

LeaderBounds leader_bounds_band(std::int32_t partitions, std::int32_t brokers, double t) {
  const double avg = static_cast<double>(partitions) / brokers;
  return {static_cast<std::int32_t>(std::floor(avg * (2 - t))), static_cast<std::int32_t>(std::ceil(avg * t))};
}

LeaderChoice choose_leaders(const Assignment& candidates, const std::vector<std::int32_t>& current_leader,
                            const std::vector<std::int32_t>& brokers, LeaderBounds bounds,
                            const std::vector<std::int32_t>& group, const std::vector<LeaderBounds>& group_bounds) {
  // source -> partition (1) -> [group, broker] -> broker -> sink; cost 1 unless the current
  // leader; bounds as bounded arcs. Without groups the middle layer is one group, unbounded.
  const auto P = candidates.size(), B = brokers.size();
  const std::size_t G = group_bounds.empty() ? 1 : group_bounds.size();
  std::map<std::int32_t, std::size_t> index;
  for (std::size_t i = 0; i < B; ++i) index[brokers[i]] = i;
  const std::int64_t K = static_cast<std::int64_t>(P) + 1;
  const std::size_t s = 0, layer0 = 1 + P, broker0 = layer0 + G * B, t = broker0 + B;
  MinCostFlow flow(t + 1);
  std::vector<std::vector<std::pair<std::size_t, std::int32_t>>> arcs(P);  // (arc, broker)
  for (std::size_t p = 0; p < P; ++p) {
    flow.add_arc(s, 1 + p, 1, 0);
    const std::size_t g = group_bounds.empty() ? 0 : static_cast<std::size_t>(group[p]);
    for (auto b : candidates[p]) {
      auto it = index.find(b);
      if (it != index.end())
        arcs[p].push_back({flow.add_arc(1 + p, layer0 + g * B + it->second, 1, b == current_leader[p] ? 0 : 1), b});
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> lower;  // (lower arc, broker index)
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t b = 0; b < B; ++b) {
      if (group_bounds.empty()) flow.add_arc(layer0 + b, broker0 + b, static_cast<std::int64_t>(P), 0);
      else
        lower.push_back(
            {flow.add_bounded_arc(layer0 + g * B + b, broker0 + b, group_bounds[g].lo, group_bounds[g].hi, K), b});
    }
  std::vector<std::size_t> broker_lower(B);
  for (std::size_t b = 0; b < B; ++b)
    lower.push_back({broker_lower[b] = flow.add_bounded_arc(broker0 + b, t, bounds.lo, bounds.hi, K), b});
  LeaderChoice out;
  if (flow.solve(s, t) < static_cast<std::int64_t>(P)) {
    out.over = true;
    return out;
  }
  for (const auto& [arc, b] : lower)
    if (!flow.met(arc)) {
      out.short_broker = brokers[b];
      out.short_count = broker_lower[b] == MinCostFlow::npos ? 0 : flow.flow(broker_lower[b]);
      return out;
    }
  out.leader.assign(P, -1);
  for (std::size_t p = 0; p < P; ++p)
    for (const auto& [arc, b] : arcs[p])
      if (flow.flow(arc) > 0) out.leader[p] = b;
  return out;
}

LeaderPlan balance_leaders(const Assignment& current, const std::vector<std::int32_t>& brokers, LeaderBounds bounds,
                           bool failover) {
  LeaderPlan plan;
  const auto P = current.size();
  if (P == 0) return plan;  // nothing to lead (choose_leaders' empty answer would read as infeasible)
  const auto B = brokers.size();
  std::map<std::int32_t, std::size_t> index;
  for (std::size_t i = 0; i < B; ++i) index[brokers[i]] = i;

  std::vector<std::int32_t> fronts;
  for (std::size_t p = 0; p < P; ++p) {
    fronts.push_back(current[p].front());
    if (std::none_of(current[p].begin(), current[p].end(), [&](std::int32_t b) { return index.count(b) > 0; })) {
      plan.feasible = false;
      plan.infeasible_reason = "partition " + std::to_string(p) + " has no replica on the given brokers";
      return plan;
    }
  }
  const auto chosen = choose_leaders(current, fronts, brokers, bounds);
  if (chosen.leader.empty()) {
    plan.feasible = false;
    plan.infeasible_reason = chosen.over ? "no choice of leaders among the replicas keeps every broker at most " +
                                               std::to_string(bounds.hi) + " preferred leaders"
                                         : "broker " + std::to_string(chosen.short_broker) + " can lead only " +
                                               std::to_string(chosen.short_count) +
                                               " partitions among its replicas, below the lower bound " +
                                               std::to_string(bounds.lo);
    return plan;
  }
  const auto& leader = chosen.leader;
  plan.reordered = current;
  for (std::size_t p = 0; p < P; ++p) {
    auto& r = plan.reordered[p];
    if (r.front() != leader[p]) ++plan.leader_changes;
    r.erase(std::find(r.begin(), r.end(), leader[p]));
    r.insert(r.begin(), leader[p]);
  }
  if (!failover) return plan;

  // Second replicas: for each leader f, the partitions it leads go, when f fails, to their
  // second replica. Spread them with the smallest possible maximum per broker, keeping the
  // current second replica where that costs nothing.
  for (std::size_t f = 0; f < B; ++f) {
    std::vector<std::size_t> led;
    for (std::size_t p = 0; p < P; ++p)
      if (leader[p] == brokers[f] && plan.reordered[p].size() > 1) led.push_back(p);
    if (led.empty()) continue;
    const std::size_t others = B > 1 ? B - 1 : 1;
    for (auto cap = static_cast<std::int64_t>((led.size() + others - 1) / others);; ++cap) {
      const std::size_t n = led.size(), src = 0, sink = 1 + n + B;
      MinCostFlow second(sink + 1);
      std::vector<std::vector<std::pair<std::size_t, std::int32_t>>> choice(n);
      for (std::size_t i = 0; i < n; ++i) {
        second.add_arc(src, 1 + i, 1, 0);
        const auto& r = plan.reordered[led[i]];
        for (std::size_t j = 1; j < r.size(); ++j) {
          auto it = index.find(r[j]);
          if (it == index.end()) continue;  // a dead broker cannot take over
          choice[i].push_back({second.add_arc(1 + i, 1 + n + it->second, 1, j == 1 ? 0 : 1), r[j]});
        }
      }
      for (std::size_t b = 0; b < B; ++b) second.add_arc(1 + n + b, sink, cap, 0);
      const auto sent = second.solve(src, sink);
      bool all_have_choice = true;
      for (const auto& c : choice) all_have_choice = all_have_choice && !c.empty();
      if (sent < static_cast<std::int64_t>(n) && all_have_choice) continue;  // raise the cap
      for (std::size_t i = 0; i < n; ++i)
        for (const auto& [arc, b] : choice[i])
          if (second.flow(arc) > 0) {
            auto& r = plan.reordered[led[i]];
            if (r[1] != b) ++plan.failover_changes;
            r.erase(std::find(r.begin() + 1, r.end(), b));
            r.insert(r.begin() + 1, b);
          }
      break;
    }
  }
  return plan;
}

}  // namespace partsim::model
