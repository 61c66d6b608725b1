#pragma once
// A min tree of times over positions 0..n-1: point updates, the minimum of a prefix, and
// the leftmost position at or below a time, each in O(log n). The accumulator's ready
// index keeps one per node, over the node's partitions in partition order.
//
// Eight-way: each group of eight entries is one cache line, and an entry above is the
// minimum of a group below. An update or a query reads one line per level: three for a
// node with up to 512 partitions, where a binary tree reads one per level of seven to
// nine (the upper ones shared). Trees of a fleet of producers are seldom in cache, so the
// lines read are what an update costs.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <vector>

#include "sim/prefetch.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model::detail {

class MinTree {
public:
  static constexpr sim::SimTime kNone = sim::SimTime::max();
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// `memory`: where the groups live.
  explicit MinTree(std::pmr::memory_resource* memory = std::pmr::new_delete_resource()) : groups_(memory) {}

  /// n positions, all kNone.
  void reset(std::size_t n) {
    size_ = n;
    levels_ = 0;
    std::size_t entries = std::max<std::size_t>(n, 1);
    std::size_t first = 0;
    for (;;) {
      const std::size_t groups = (entries + kArity - 1) / kArity;
      first_[levels_++] = static_cast<std::uint32_t>(first);
      first += groups;
      if (groups == 1) break;
      entries = groups;
    }
    groups_.assign(first, Group{});
    root_ = kNone;
  }
  std::size_t size() const { return size_; }

  void set(std::size_t pos, sim::SimTime value) {
    at(0, pos) = value;
    std::size_t i = pos;
    for (std::size_t k = 1; k < levels_; ++k) {
      const std::size_t g = i / kArity;
      const sim::SimTime m = group_min(k - 1, g);
      sim::SimTime& above = at(k, g);
      if (above == m) return;  // nothing above changes
      above = m;
      i = g;
    }
    root_ = group_min(levels_ - 1, 0);
  }
  /// set() for a value not above the position's current one: only the entries it lowers
  /// are read and written (a sibling's value cannot matter).
  void lower(std::size_t pos, sim::SimTime value) {
    at(0, pos) = value;
    std::size_t i = pos;
    for (std::size_t k = 1; k < levels_; ++k) {
      i /= kArity;
      sim::SimTime& above = at(k, i);
      if (!(value < above)) return;
      above = value;
    }
    root_ = std::min(root_, value);
  }
  /// A hint: `pos` will be set soon.
  void prefetch(std::size_t pos) const {
    if (levels_ != 0) sim::prefetch(&groups_[first_[0] + pos / kArity]);
  }
  sim::SimTime get(std::size_t pos) const { return at(0, pos); }
  sim::SimTime min() const { return root_; }

  /// The leftmost position whose value is <= t, or npos.
  std::size_t leftmost_at_most(sim::SimTime t) const {
    if (root_ > t) return npos;
    std::size_t i = 0;  // the group to look in, on the level below the one it came from
    for (std::size_t k = levels_; k-- > 0;) {
      const Group& g = groups_[first_[k] + i];
      std::size_t j = 0;
      while (g.v[j] > t) ++j;  // some entry is <= t: the minimum above says so
      i = i * kArity + j;
    }
    return i;
  }

  /// The minimum over positions [0, end).
  sim::SimTime prefix_min(std::size_t end) const {
    if (end >= size_) return root_;
    sim::SimTime m = kNone;
    const std::size_t top = levels_ - 1;
    for (std::size_t k = 0; k < top && end > 0; ++k) {
      // Whole groups left of `end` are summed up a level higher; the part of its own group
      // before it is read here.
      if (end % kArity != 0) {
        const Group& g = groups_[first_[k] + end / kArity];
        for (std::size_t j = 0; j < end % kArity; ++j) m = std::min(m, g.v[j]);
      }
      end /= kArity;
    }
    const Group& g = groups_[first_[top]];
    for (std::size_t j = 0; j < end; ++j) m = std::min(m, g.v[j]);
    return m;
  }

private:
  static constexpr std::size_t kArity = 8;
  struct alignas(64) Group {
    sim::SimTime v[kArity] = {kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
  };
  static constexpr std::size_t kMaxLevels = 12;  // 8^11 > 2^32 positions
  sim::SimTime& at(std::size_t level, std::size_t i) { return groups_[first_[level] + i / kArity].v[i % kArity]; }
  const sim::SimTime& at(std::size_t level, std::size_t i) const {
    return groups_[first_[level] + i / kArity].v[i % kArity];
  }
  sim::SimTime group_min(std::size_t level, std::size_t g) const {
    const Group& grp = groups_[first_[level] + g];
    sim::SimTime m = grp.v[0];
    for (std::size_t j = 1; j < kArity; ++j) m = std::min(m, grp.v[j]);
    return m;
  }

  std::size_t size_ = 0;
  // The levels' first groups in groups_, leaves first, the one group on top last; in the
  // tree itself, not behind another pointer to chase.
  std::uint32_t first_[kMaxLevels] = {};
  std::size_t levels_ = 0;
  std::pmr::vector<Group> groups_;
  sim::SimTime root_ = kNone;
};

}  // namespace partsim::model::detail
