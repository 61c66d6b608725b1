#pragma once
// Counts by non-negative int key, holding only the keys whose count is not zero, in an
// open-addressing table (linear probing, backward-shift deletion: no tombstones). The
// idempotent producer counts the batches in flight of the partitions that wait for them
// (a retry): a handful at a time out of possibly millions.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace partsim::model::detail {

class CountMap {
public:
  /// The key's count (0 when absent).
  std::int32_t get(std::int32_t key) const {
    if (size_ == 0) return 0;
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].count;
      if (slots_[i].key == kEmpty) return 0;
    }
  }
  /// Adds `delta` to the key's count and returns the new count; a count reaching 0 removes
  /// the key. `key` >= 0.
  std::int32_t add(std::int32_t key, std::int32_t delta) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = home(key);
    for (; slots_[i].key != key; i = (i + 1) & mask_) {
      if (slots_[i].key != kEmpty) continue;
      if (delta == 0) return 0;
      slots_[i] = Slot{key, delta};
      ++size_;
      return delta;
    }
    const std::int32_t count = slots_[i].count += delta;
    if (count == 0) erase_at(i);
    return count;
  }
  /// Keys with a non-zero count.
  std::size_t size() const { return size_; }

private:
  static constexpr std::int32_t kEmpty = -1;
  struct Slot {
    std::int32_t key = kEmpty;
    std::int32_t count = 0;
  };
  std::size_t home(std::int32_t key) const {
    return (static_cast<std::uint32_t>(key) * 2654435761u) & mask_;  // Knuth's multiplicative hash
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Slot& s : old)
      if (s.key != kEmpty) {
        std::size_t i = home(s.key);
        while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
        slots_[i] = s;
        ++size_;
      }
  }
  // Backward-shift deletion: entries after the hole that may move into it do, so that every
  // key stays reachable from its home slot without passing an empty one.
  void erase_at(std::size_t hole) {
    --size_;
    for (std::size_t j = (hole + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].key == kEmpty) break;
      const std::size_t h = home(slots_[j].key);
      // j's entry may fill the hole when its home is not cyclically in (hole, j].
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole] = Slot{};
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace partsim::model::detail
