#pragma once
// A segment tree of times over positions 0..n-1: point updates, the minimum of a prefix,
// and the leftmost position at or below a time, each in O(log n). The accumulator's ready
// index keeps one per node, over the node's partitions in partition order.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::model::detail {

class MinTree {
public:
  static constexpr sim::SimTime kNone = sim::SimTime::max();
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  void reset(std::size_t n) {
    size_ = 1;
    while (size_ < n) size_ *= 2;
    tree_.assign(2 * size_, kNone);
  }
  std::size_t size() const { return size_; }

  void set(std::size_t pos, sim::SimTime value) {
    std::size_t i = pos + size_;
    tree_[i] = value;
    for (i /= 2; i >= 1; i /= 2) {
      const sim::SimTime m = std::min(tree_[2 * i], tree_[2 * i + 1]);
      if (tree_[i] == m) break;  // nothing above changes
      tree_[i] = m;
    }
  }
  /// set() for a value not above the position's current one: only the ancestors it lowers
  /// are read and written (a sibling's value cannot matter).
  void lower(std::size_t pos, sim::SimTime value) {
    std::size_t i = pos + size_;
    tree_[i] = value;
    for (i /= 2; i >= 1 && value < tree_[i]; i /= 2) tree_[i] = value;
  }
  /// A hint: `pos` will be set soon.
  void prefetch(std::size_t pos) const { __builtin_prefetch(&tree_[pos + size_]); }
  sim::SimTime get(std::size_t pos) const { return tree_[pos + size_]; }
  sim::SimTime min() const { return tree_.empty() ? kNone : tree_[1]; }

  /// The leftmost position whose value is <= t, or npos.
  std::size_t leftmost_at_most(sim::SimTime t) const {
    if (tree_.empty() || tree_[1] > t) return npos;
    std::size_t i = 1;
    while (i < size_) i = tree_[2 * i] <= t ? 2 * i : 2 * i + 1;
    return i - size_;
  }

  /// The minimum over positions [0, end).
  sim::SimTime prefix_min(std::size_t end) const {
    sim::SimTime m = kNone;
    std::size_t lo = size_, hi = end + size_;  // half-open [lo, hi) at the leaves
    while (lo < hi) {
      if (lo & 1) m = std::min(m, tree_[lo++]);
      if (hi & 1) m = std::min(m, tree_[--hi]);
      lo /= 2;
      hi /= 2;
    }
    return m;
  }

private:
  std::size_t size_ = 0;
  std::vector<sim::SimTime> tree_;
};

}  // namespace partsim::model::detail
