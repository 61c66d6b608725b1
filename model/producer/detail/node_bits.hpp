#pragma once
// One bitset per node, all in one array of words: the accumulator marks, per node, the
// positions of its partitions that have batches (drain visits only those). A bitset object
// per node kept its words in a block of their own, one more cache line to fetch for every
// new or emptied deque; here a producer's marks for every node share a few lines.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace partsim::model::detail {

class NodeBits {
public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// sizes[node] positions per node, all clear.
  void reset(const std::vector<std::size_t>& sizes) {
    nodes_.assign(sizes.size(), Node{});
    std::uint32_t first = 0;
    for (std::size_t n = 0; n < sizes.size(); ++n) {
      nodes_[n] = Node{first, static_cast<std::uint32_t>((sizes[n] + 63) / 64), sizes[n]};
      first += nodes_[n].words;
    }
    words_.assign(first, 0);
  }
  std::size_t size(std::size_t node) const { return nodes_[node].bits; }

  void set(std::size_t node, std::size_t i) { words_[nodes_[node].first + i / 64] |= std::uint64_t{1} << (i % 64); }
  void reset(std::size_t node, std::size_t i) { words_[nodes_[node].first + i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
  bool test(std::size_t node, std::size_t i) const { return (words_[nodes_[node].first + i / 64] >> (i % 64)) & 1; }

  /// The first set position of `node` at or after `from`, or npos.
  std::size_t find_from(std::size_t node, std::size_t from) const {
    const Node& n = nodes_[node];
    if (from >= n.bits) return npos;
    std::size_t w = from / 64;
    std::uint64_t bits = words_[n.first + w] & (~std::uint64_t{0} << (from % 64));
    for (;;) {
      if (bits != 0) return w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
      if (++w == n.words) return npos;
      bits = words_[n.first + w];
    }
  }

private:
  struct Node {
    std::uint32_t first = 0;  // its first word
    std::uint32_t words = 0;
    std::size_t bits = 0;
  };
  std::vector<std::uint64_t> words_;
  std::vector<Node> nodes_;
};

}  // namespace partsim::model::detail
