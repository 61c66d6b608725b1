// MinTree (the accumulator's ready index per node): every query against a plain array
// scanned in full, through random sets and lowers, on sizes around the tree's group and
// level boundaries (8, 64, 512 positions), with many equal times and empty positions.

#include "model/producer/detail/min_tree.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <vector>

using partsim::model::detail::MinTree;
using partsim::sim::SimTime;

namespace {

SimTime scan_min(const std::vector<SimTime>& v, std::size_t end) {
  SimTime m = MinTree::kNone;
  for (std::size_t i = 0; i < end; ++i) m = std::min(m, v[i]);
  return m;
}

std::size_t scan_leftmost(const std::vector<SimTime>& v, SimTime t) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] <= t) return i;
  return MinTree::npos;
}

}  // namespace

TEST_CASE("a min tree answers min, prefix minimum and leftmost-at-most as a scan of its positions does") {
  for (const std::size_t n : {1, 2, 7, 8, 9, 63, 64, 65, 100, 511, 512, 513, 1000}) {
    CAPTURE(n);
    MinTree tree;
    tree.reset(n);
    std::vector<SimTime> v(n, MinTree::kNone);
    std::mt19937_64 rng(n);
    std::uniform_int_distribution<std::size_t> pos(0, n - 1);
    std::uniform_int_distribution<std::int64_t> time(0, 40);  // few distinct times: many ties
    for (int step = 0; step < 4000; ++step) {
      const std::size_t p = pos(rng);
      const auto op = rng() % 8;
      if (op == 0) {
        tree.set(p, MinTree::kNone);  // a partition leaves the index
        v[p] = MinTree::kNone;
      } else if (op < 4 && v[p] != MinTree::kNone) {
        const SimTime lower = SimTime::ns(std::min(v[p].count_ns(), time(rng)));
        tree.lower(p, lower);
        v[p] = lower;
      } else {
        const SimTime t = SimTime::ns(time(rng));
        tree.set(p, t);
        v[p] = t;
      }
      REQUIRE(tree.get(p) == v[p]);
      REQUIRE(tree.min() == scan_min(v, n));
      const SimTime t = SimTime::ns(time(rng));
      REQUIRE(tree.leftmost_at_most(t) == scan_leftmost(v, t));
      const std::size_t end = std::uniform_int_distribution<std::size_t>(0, n)(rng);
      REQUIRE(tree.prefix_min(end) == scan_min(v, end));
    }
  }
}

TEST_CASE("a min tree reset forgets every time") {
  MinTree tree;
  tree.reset(100);
  tree.set(3, SimTime::ns(5));
  tree.set(99, SimTime::ns(1));
  tree.reset(100);
  CHECK(tree.min() == MinTree::kNone);
  CHECK(tree.leftmost_at_most(SimTime::max()) == 0);  // kNone <= max: every position
  CHECK(tree.leftmost_at_most(SimTime::ns(1'000'000)) == MinTree::npos);
  CHECK(tree.prefix_min(100) == MinTree::kNone);
}
