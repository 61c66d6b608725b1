#include "model/partitioners/sticky_kip480_partitioner.hpp"

#include "model/partitioners/key_hash.hpp"

namespace partsim::model {

std::int32_t StickyKip480Partitioner::partition(std::optional<std::string_view> key, const PartitionerView& view) {
  if (key && !uniform_) return partition_for_key(*key, view.num_partitions);
  if (cached_) return *cached_;
  return next_partition(std::nullopt, view);
}

void StickyKip480Partitioner::on_new_batch(std::int32_t previous, const PartitionerView& view) {
  next_partition(previous, view);
}

std::int32_t StickyKip480Partitioner::next_partition(std::optional<std::int32_t> previous,
                                                     const PartitionerView& view) {
  // Only the caller that still sees the cache at `previous` (or an empty cache) switches.
  if (cached_ && previous && *cached_ != *previous) return *cached_;
  if (cached_ && !previous) return *cached_;
  std::int32_t next;
  if (view.available.empty()) {
    next = draw_() % view.num_partitions;
  } else if (view.available.size() == 1) {
    next = view.available[0];
  } else {
    // Draw until the choice differs from the old one: a switch always moves.
    do {
      next = view.available[static_cast<std::size_t>(draw_()) % view.available.size()];
    } while (cached_ && next == *cached_);
  }
  cached_ = next;
  return next;
}

}  // namespace partsim::model
