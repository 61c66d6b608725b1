#include "model/cluster/producer_state.hpp"

#include <algorithm>
#include <limits>

namespace partsim::model {

namespace {

// The sequence after `s`: sequences wrap to 0 after Int.MAX (PAI:96-147).
std::int32_t next_sequence(std::int32_t s) { return s == std::numeric_limits<std::int32_t>::max() ? 0 : s + 1; }

// The last sequence of a batch of `records` starting at `first`, wrapping as above.
std::int32_t last_of(std::int32_t first, std::int32_t records) {
  const std::int64_t last = std::int64_t{first} + records - 1;
  constexpr std::int64_t kWrap = std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
  return static_cast<std::int32_t>(last % kWrap);
}

}  // namespace

ProducerStateTable::Verdict ProducerStateTable::append(std::size_t partition, std::uint32_t producer, std::int32_t first_sequence,
                                                       std::int32_t records) {
  const std::int32_t last = last_of(first_sequence, records);
  if (producer >= slots_.size()) slots_.resize(producer + 1);
  auto& slots = slots_[producer];
  if (partition >= slots.size()) slots.resize(std::max(partition + 1, slots.size() * 2), 0);
  const bool fresh = slots[partition] == 0;
  if (fresh) {
    std::uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
      states_[index] = State{};
    } else {
      index = static_cast<std::uint32_t>(states_.size());
      states_.emplace_back();
    }
    slots[partition] = index + 1;
  }
  State& s = states_[slots[partition] - 1];
  if (!fresh) {
    // A retry of a batch already appended (its response was lost or an error followed the
    // append): success with the original offsets, nothing written (UnifiedLog.scala:893-898).
    for (const Batch& b : s.recent)
      if (b.first == first_sequence && b.last == last) return Verdict::kDuplicate;
    if (first_sequence != next_sequence(s.last_sequence)) return Verdict::kOutOfOrder;
  }
  s.last_sequence = last;
  s.recent[s.next] = Batch{first_sequence, last};
  s.next = static_cast<std::uint32_t>((s.next + 1) % kRemembered);
  return Verdict::kAppend;
}

void ProducerStateTable::reset(std::size_t partition, std::uint32_t producer) {
  if (producer >= slots_.size() || partition >= slots_[producer].size() || slots_[producer][partition] == 0) return;
  free_.push_back(slots_[producer][partition] - 1);
  slots_[producer][partition] = 0;
}

}  // namespace partsim::model
