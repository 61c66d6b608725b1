// NodeBits (the accumulator's per-node marks of partitions with batches): sets, resets and
// searches against a std::vector<bool> per node, with node sizes around word boundaries
// (0, 1, 63, 64, 65, 130) so that a node's words never spill into its neighbour's.

#include "model/producer/detail/node_bits.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <vector>

using partsim::model::detail::NodeBits;

TEST_CASE("node bits agree with a plain bitset per node through sets, resets and searches") {
  const std::vector<std::size_t> sizes{0, 1, 63, 64, 65, 130, 7};
  NodeBits bits;
  bits.reset(sizes);
  std::vector<std::vector<bool>> want;
  for (const std::size_t n : sizes) want.emplace_back(n, false);
  std::mt19937_64 rng(5);
  for (int step = 0; step < 20000; ++step) {
    const std::size_t node = rng() % sizes.size();
    if (sizes[node] == 0) {
      CHECK(bits.find_from(node, 0) == NodeBits::npos);
      continue;
    }
    const std::size_t i = rng() % sizes[node];
    if (rng() % 2) {
      bits.set(node, i);
      want[node][i] = true;
    } else {
      bits.reset(node, i);
      want[node][i] = false;
    }
    for (std::size_t n = 0; n < sizes.size(); ++n) {
      REQUIRE(bits.size(n) == sizes[n]);
      const std::size_t from = sizes[n] == 0 ? 0 : rng() % (sizes[n] + 1);
      std::size_t expected = NodeBits::npos;
      for (std::size_t k = from; k < sizes[n]; ++k)
        if (want[n][k]) {
          expected = k;
          break;
        }
      REQUIRE(bits.find_from(n, from) == expected);
      if (sizes[n] > 0) REQUIRE(bits.test(n, i % sizes[n]) == want[n][i % sizes[n]]);
    }
  }
}

TEST_CASE("node bits reset clears every mark") {
  NodeBits bits;
  bits.reset({70, 3});
  bits.set(0, 69);
  bits.set(1, 2);
  bits.reset({70, 3});
  CHECK(bits.find_from(0, 0) == NodeBits::npos);
  CHECK(bits.find_from(1, 0) == NodeBits::npos);
}
