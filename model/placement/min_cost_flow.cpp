#include "model/placement/min_cost_flow.hpp"

#include <algorithm>
#include <limits>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

namespace partsim::model {

namespace {
// Shortest paths over the residual network, with reduced costs as weights.
using PathGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                        boost::property<boost::edge_weight_t, double>>;
// Max flow over the admissible arcs (reduced cost 0).
using FlowTraits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, std::int64_t,
                    boost::property<boost::edge_residual_capacity_t, std::int64_t,
                                    boost::property<boost::edge_reverse_t, FlowTraits::edge_descriptor>>>>;
}  // namespace

std::size_t MinCostFlow::add_arc(std::size_t u, std::size_t v, std::int64_t capacity, std::int64_t cost) {
  arcs_.push_back({u, v, capacity, cost});
  return arcs_.size() - 1;
}

// Primal-dual: each phase finds shortest distances from s over the residual network
// (Boost's Dijkstra on reduced costs, which stay non-negative), raises the node potentials
// by them, and then pushes a maximum flow (Boost's push-relabel) through the arcs whose
// reduced cost is now 0, i.e. along every shortest path at once. Successive shortest paths
// one augmenting path at a time need one Dijkstra per unit here, where a phase serves all
// the paths of one length. Costs are integers held in double (exact below 2^53).
std::int64_t MinCostFlow::solve(std::size_t s, std::size_t t) {
  const std::size_t n = nodes_, m = arcs_.size();
  flows_.assign(m, 0);
  std::vector<double> potential(n, 0.0), dist(n);
  const double inf = std::numeric_limits<double>::infinity();
  auto reduced = [&](std::size_t a, bool forward) {
    const auto& arc = arcs_[a];
    const double c = static_cast<double>(arc.cost);
    return forward ? c + potential[arc.u] - potential[arc.v] : -c + potential[arc.v] - potential[arc.u];
  };
  for (;;) {
    PathGraph paths(n);
    auto weight = boost::get(boost::edge_weight, paths);
    for (std::size_t a = 0; a < m; ++a) {
      const auto& arc = arcs_[a];
      if (flows_[a] < arc.capacity)
        weight[boost::add_edge(arc.u, arc.v, paths).first] = std::max(0.0, reduced(a, true));
      if (flows_[a] > 0) weight[boost::add_edge(arc.v, arc.u, paths).first] = std::max(0.0, reduced(a, false));
    }
    boost::dijkstra_shortest_paths(paths, s, boost::distance_map(dist.data()).distance_inf(inf));
    if (dist[t] == inf) break;
    for (std::size_t v = 0; v < n; ++v) potential[v] += std::min(dist[v], dist[t]);

    FlowGraph admissible(n);
    auto cap = boost::get(boost::edge_capacity, admissible);
    auto rev = boost::get(boost::edge_reverse, admissible);
    auto residual = boost::get(boost::edge_residual_capacity, admissible);
    std::vector<std::pair<FlowTraits::edge_descriptor, std::ptrdiff_t>>
        used;  // (edge, +arc+1 forward / -arc-1 backward)
    auto add = [&](std::size_t u, std::size_t v, std::int64_t c, std::ptrdiff_t tag) {
      auto e = boost::add_edge(u, v, admissible).first;
      auto r = boost::add_edge(v, u, admissible).first;
      cap[e] = c;
      cap[r] = 0;
      rev[e] = r;
      rev[r] = e;
      used.push_back({e, tag});
    };
    for (std::size_t a = 0; a < m; ++a) {
      const auto& arc = arcs_[a];
      const auto tag = static_cast<std::ptrdiff_t>(a) + 1;
      if (flows_[a] < arc.capacity && reduced(a, true) == 0.0) add(arc.u, arc.v, arc.capacity - flows_[a], tag);
      if (flows_[a] > 0 && reduced(a, false) == 0.0) add(arc.v, arc.u, flows_[a], -tag);
    }
    if (boost::push_relabel_max_flow(admissible, s, t) == 0) break;
    for (const auto& [e, tag] : used) {
      const auto pushed = cap[e] - residual[e];
      if (tag > 0) flows_[static_cast<std::size_t>(tag - 1)] += pushed;
      else flows_[static_cast<std::size_t>(-tag - 1)] -= pushed;
    }
  }
  cost_ = 0;
  std::int64_t sent = 0;
  for (std::size_t i = 0; i < m; ++i) {
    cost_ += flows_[i] * arcs_[i].cost;
    if (arcs_[i].u == s) sent += flows_[i];
  }
  return sent;
}

}  // namespace partsim::model
