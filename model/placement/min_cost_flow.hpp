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

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// Adds u -> v carrying between lo and hi units: the first lo at cost 0, the rest at
  /// `penalty`, above every other total, so that lower bounds fill whenever the network
  /// allows. Returns the lower arc (npos when lo == 0), for met().
  std::size_t add_bounded_arc(std::size_t u, std::size_t v, std::int64_t lo, std::int64_t hi, std::int64_t penalty) {
    const std::size_t lower = lo > 0 ? add_arc(u, v, lo, 0) : npos;
    if (hi > lo) add_arc(u, v, hi - lo, penalty);
    return lower;
  }
  /// After solve(): did the lower part of a bounded arc fill?
  bool met(std::size_t lower_arc) const { return lower_arc == npos || flows_[lower_arc] == arcs_[lower_arc].capacity; }

  /// Sends the maximum flow from s to t at minimum total cost; returns the flow sent.
  std::int64_t solve(std::size_t s, std::size_t t);

  std::int64_t flow(std::size_t arc) const { return flows_[arc]; }
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
