#pragma once
// Minimum-cost flow on Boost.Graph (primal-dual: Boost's Dijkstra for the distances, then
// Boost's push-relabel max flow along all shortest paths at once; costs non-negative),
// behind a small interface: add arcs with capacity and cost, solve from a source to a
// sink, read each arc's flow.

#include <cstdint>
#include <vector>

namespace partsim::model {

class MinCostFlow {
public:
  explicit MinCostFlow(std::size_t nodes) : nodes_(nodes) {}

  /// Adds an arc u -> v; returns its id for flow().
  std::size_t add_arc(std::size_t u, std::size_t v, std::int64_t capacity, std::int64_t cost);

  /// Sends the maximum flow from s to t at minimum total cost; returns the flow sent.
  std::int64_t solve(std::size_t s, std::size_t t);

  std::int64_t flow(std::size_t arc) const { return flows_[arc]; }
  std::int64_t capacity(std::size_t arc) const { return arcs_[arc].capacity; }
  std::int64_t total_cost() const { return cost_; }

private:
  struct Arc {
    std::size_t u, v;
    std::int64_t capacity, cost;
  };
  std::size_t nodes_;
  std::vector<Arc> arcs_;
  std::vector<std::int64_t> flows_;
  std::int64_t cost_ = 0;
};

}  // namespace partsim::model
