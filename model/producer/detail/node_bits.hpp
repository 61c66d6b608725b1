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
    sizes_ = sizes;
    // The nodes' (first word, words) head the array, so that a mark touches one block.
    std::uint64_t first = sizes.size();
    words_.assign(sizes.size(), 0);
    for (std::size_t n = 0; n < sizes.size(); ++n) {
      const std::uint64_t words = (sizes[n] + 63) / 64;
      words_[n] = first << 32 | words;
      first += words;
    }
    words_.resize(first, 0);
  }
  std::size_t size(std::size_t node) const { return sizes_[node]; }

  void set(std::size_t node, std::size_t i) { words_[first(node) + i / 64] |= std::uint64_t{1} << (i % 64); }
  void reset(std::size_t node, std::size_t i) { words_[first(node) + i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
  bool test(std::size_t node, std::size_t i) const { return (words_[first(node) + i / 64] >> (i % 64)) & 1; }

  /// The first set position of `node` at or after `from`, or npos.
  std::size_t find_from(std::size_t node, std::size_t from) const {
    const std::size_t first = this->first(node), words = words_[node] & 0xffffffffu;
    std::size_t w = from / 64;
    if (w >= words) return npos;  // (positions past the node's size are never set)
    std::uint64_t bits = words_[first + w] & (~std::uint64_t{0} << (from % 64));
    for (;;) {
      if (bits != 0) return w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
      if (++w == words) return npos;
      bits = words_[first + w];
    }
  }

private:
  std::size_t first(std::size_t node) const { return static_cast<std::size_t>(words_[node] >> 32); }
  std::vector<std::uint64_t> words_;  // per node (first word << 32 | words), then the marks
  std::vector<std::size_t> sizes_;
};

}  // namespace partsim::model::detail
