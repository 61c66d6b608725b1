#include "model/leader_balance.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/min_cost_flow.hpp"

namespace partsim::model {

LeaderBounds leader_bounds_exact(std::int32_t partitions, std::int32_t brokers) {
  return {partitions / brokers, (partitions + brokers - 1) / brokers};
}

LeaderBounds leader_bounds_band(std::int32_t partitions, std::int32_t brokers, double t) {
  const double avg = static_cast<double>(partitions) / brokers;
  return {static_cast<std::int32_t>(std::floor(avg * (2 - t))), static_cast<std::int32_t>(std::ceil(avg * t))};
}

LeaderPlan balance_leaders(const Assignment& current, const std::vector<std::int32_t>& brokers, LeaderBounds bounds, bool failover) {
  LeaderPlan plan;
  const auto P = current.size();
  const auto B = brokers.size();
  std::map<std::int32_t, std::size_t> index;
  for (std::size_t i = 0; i < B; ++i) index[brokers[i]] = i;

  // Leaders: source -> partition (1) -> a replica broker (cost 1 unless it is the current
  // preferred leader) -> sink. A broker's first lo units cost 0 and the rest K, so the
  // lower bounds fill first whenever they can.
  const std::size_t s = 0, t = 1 + P + B;
  MinCostFlow flow(t + 1);
  const std::int64_t K = static_cast<std::int64_t>(P) + 1;
  std::vector<std::vector<std::pair<std::size_t, std::int32_t>>> arcs(P);  // (arc, broker)
  for (std::size_t p = 0; p < P; ++p) {
    flow.add_arc(s, 1 + p, 1, 0);
    for (std::size_t j = 0; j < current[p].size(); ++j) {
      auto it = index.find(current[p][j]);
      if (it == index.end()) continue;
      arcs[p].push_back({flow.add_arc(1 + p, 1 + P + it->second, 1, j == 0 ? 0 : 1), current[p][j]});
    }
    if (arcs[p].empty()) {
      plan.feasible = false;
      plan.infeasible_reason = "partition " + std::to_string(p) + " has no replica on the given brokers";
      return plan;
    }
  }
  std::vector<std::size_t> low(B), high(B);
  for (std::size_t b = 0; b < B; ++b) {
    low[b] = flow.add_arc(1 + P + b, t, std::min(bounds.lo, bounds.hi), 0);
    high[b] = flow.add_arc(1 + P + b, t, std::max(0, bounds.hi - bounds.lo), K);
  }
  if (flow.solve(s, t) < static_cast<std::int64_t>(P)) {
    plan.feasible = false;
    plan.infeasible_reason = "no choice of leaders among the replicas keeps every broker at most " + std::to_string(bounds.hi) +
                             " preferred leaders";
    return plan;
  }
  for (std::size_t b = 0; b < B; ++b)
    if (flow.flow(low[b]) < bounds.lo) {
      plan.feasible = false;
      plan.infeasible_reason = "broker " + std::to_string(brokers[b]) + " can lead only " + std::to_string(flow.flow(low[b])) +
                               " partitions among its replicas, below the lower bound " + std::to_string(bounds.lo);
      return plan;
    }
  std::vector<std::int32_t> leader(P);
  for (std::size_t p = 0; p < P; ++p)
    for (const auto& [arc, b] : arcs[p])
      if (flow.flow(arc) > 0) leader[p] = b;
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
