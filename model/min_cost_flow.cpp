#include "model/min_cost_flow.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>

namespace partsim::model {

namespace {
using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using Graph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, std::int64_t,
                    boost::property<boost::edge_residual_capacity_t, std::int64_t,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor,
                                                    boost::property<boost::edge_weight_t, double>>>>>;
// Costs are small integers held in double: Boost's shortest paths add path lengths to an
// "infinite" distance, which overflows a signed integer type but not a double.
}  // namespace

std::size_t MinCostFlow::add_arc(std::size_t u, std::size_t v, std::int64_t capacity, std::int64_t cost) {
  arcs_.push_back({u, v, capacity, cost});
  return arcs_.size() - 1;
}

std::int64_t MinCostFlow::solve(std::size_t s, std::size_t t) {
  Graph g(nodes_);
  auto cap = boost::get(boost::edge_capacity, g);
  auto rev = boost::get(boost::edge_reverse, g);
  auto weight = boost::get(boost::edge_weight, g);
  auto residual = boost::get(boost::edge_residual_capacity, g);
  std::vector<Traits::edge_descriptor> forward;
  for (const auto& a : arcs_) {
    auto e = boost::add_edge(a.u, a.v, g).first;
    auto r = boost::add_edge(a.v, a.u, g).first;
    cap[e] = a.capacity;
    cap[r] = 0;
    weight[e] = static_cast<double>(a.cost);
    weight[r] = -static_cast<double>(a.cost);
    rev[e] = r;
    rev[r] = e;
    forward.push_back(e);
  }
  boost::successive_shortest_path_nonnegative_weights(g, s, t);
  cost_ = 0;
  flows_.clear();
  std::int64_t sent = 0;
  for (std::size_t i = 0; i < arcs_.size(); ++i) {
    flows_.push_back(cap[forward[i]] - residual[forward[i]]);
    cost_ += flows_.back() * arcs_[i].cost;
    if (arcs_[i].u == s) sent += flows_.back();
  }
  return sent;
}

}  // namespace partsim::model
