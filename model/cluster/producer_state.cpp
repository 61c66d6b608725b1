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

ProducerStateTable::Verdict ProducerStateTable::append(std::size_t partition, std::uint32_t producer,
                                                       std::int32_t first_sequence, std::int32_t records) {
  const std::int32_t last = last_of(first_sequence, records);
  while (producer >= states_.size()) states_.emplace_back(memory_);
  auto& states = states_[producer];
  if (partition >= states.size()) states.resize(std::max(partition + 1, states.size() * 2));
  State& s = states[partition];
  const State before = s;
  const bool fresh = !s.used;
  if (fresh) {
    s = State{};
    s.used = true;
  }
  const std::int32_t after = next_sequence(last);
  if (!fresh) {
    // A retry of a batch already appended (its response was lost or an error followed the
    // append): success with the original offsets, nothing written (UnifiedLog.scala:893-898).
    // Batch i spans starts[i] up to the sequence before the next one's start.
    for (std::size_t i = 0; i < s.count; ++i) {
      const std::int32_t next_start = i + 1 < s.count ? s.starts[i + 1] : s.end;
      if (s.starts[i] == first_sequence && next_start == after) return Verdict::kDuplicate;
    }
    if (first_sequence != s.end) return Verdict::kOutOfOrder;
  }
  if (s.count == kRemembered) {  // the oldest is forgotten (PSE:36)
    std::copy(s.starts.begin() + 1, s.starts.end(), s.starts.begin());
    --s.count;
  }
  s.starts[s.count++] = first_sequence;
  s.end = after;
  undo_state_ = before;
  undo_partition_ = partition;
  undo_producer_ = producer;
  undo_ = true;
  return Verdict::kAppend;
}

void ProducerStateTable::undo_last_append() {
  if (!undo_) return;
  states_[undo_producer_][undo_partition_] = undo_state_;
  undo_ = false;
}

void ProducerStateTable::reset(std::size_t partition, std::uint32_t producer) {
  if (producer >= states_.size() || partition >= states_[producer].size()) return;
  states_[producer][partition].used = false;
}

void ProducerStateTable::truncate(std::size_t partition, std::uint32_t producer, std::int32_t first_sequence) {
  if (producer >= states_.size() || partition >= states_[producer].size()) return;
  State& s = states_[producer][partition];
  if (!s.used) return;
  // The remembered batches from the lost one on go; if it is older than all five, all do.
  std::uint8_t keep = 0;
  while (keep < s.count && s.starts[keep] != first_sequence) ++keep;
  s.count = keep == s.count ? 0 : keep;
  s.end = first_sequence;
}

}  // namespace partsim::model
