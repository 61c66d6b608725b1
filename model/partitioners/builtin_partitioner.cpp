#include "model/partitioners/builtin_partitioner.hpp"

#include <algorithm>

#include "sim/check.hpp"

namespace partsim::model {

BuiltInPartitioner::BuiltInPartitioner(std::int32_t sticky_batch_size, PartitionDraw draw)
    : sticky_batch_size_(std::max(1, sticky_batch_size)), draw_(std::move(draw)) {}

std::int32_t BuiltInPartitioner::next_partition(std::span<const std::int32_t> available, std::int32_t num_partitions) {
  const std::int32_t r = draw_();  // exactly one draw per call, before anything else (spec §2.1)
  if (cft_.empty()) {
    if (!available.empty()) return available[static_cast<std::size_t>(r) % available.size()];
    return r % num_partitions;  // no leader anywhere: used directly as a partition id
  }
  // Adaptive: w = r % total; the smallest index with cft[i] > w (spec §2.2).
  // Example (spec §2.5): queues 0,3,1 -> weights 4,1,3 -> cft 4,5,8; w in 0..3 -> index 0,
  // w = 4 -> index 1, w in 5..7 -> index 2.
  const std::int32_t w = r % cft_.back();
  const auto it = std::upper_bound(cft_.begin(), cft_.end(), w);
  return cft_partitions_[static_cast<std::size_t>(it - cft_.begin())];
}

std::int32_t BuiltInPartitioner::current_partition(std::span<const std::int32_t> available,
                                                   std::int32_t num_partitions) {
  if (!has_current_) {
    current_ = next_partition(available, num_partitions);
    produced_bytes_ = 0;
    has_current_ = true;
  }
  return current_;
}

bool BuiltInPartitioner::update_partition_info(std::int32_t appended_bytes, bool enable_switch,
                                               std::span<const std::int32_t> available, std::int32_t num_partitions) {
  PARTSIM_CHECK(has_current_, "update_partition_info before a sticky partition exists");
  produced_bytes_ += appended_bytes;
  const std::int64_t batch = sticky_batch_size_;
  if ((produced_bytes_ >= batch && enable_switch) || produced_bytes_ >= 2 * batch) {
    current_ = next_partition(available, num_partitions);
    produced_bytes_ = 0;
    ++switches_;
    return true;
  }
  return false;
}

void BuiltInPartitioner::update_load_stats(std::span<const std::int32_t> queue_sizes,
                                           std::span<const std::int32_t> partition_ids, std::int32_t length) {
  cft_.clear();
  if (queue_sizes.empty() || length < 1 || queue_sizes.size() < 2) return;
  const auto n = static_cast<std::size_t>(length);
  std::int32_t max_size = queue_sizes[0];
  bool all_equal = true;
  for (std::size_t i = 0; i < n; ++i) {
    max_size = std::max(max_size, queue_sizes[i]);
    all_equal = all_equal && queue_sizes[i] == queue_sizes[0];
  }
  if (all_equal && n == queue_sizes.size()) return;  // uniform unless some were excluded
  const std::int32_t m = max_size + 1;               // weight = m - queue size >= 1
  cft_.resize(n);
  cft_partitions_.assign(partition_ids.begin(), partition_ids.begin() + static_cast<std::ptrdiff_t>(n));
  std::int32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    running += m - queue_sizes[i];
    cft_[i] = running;
  }
}

}  // namespace partsim::model
