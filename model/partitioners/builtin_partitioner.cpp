#include "model/partitioners/builtin_partitioner.hpp"

#include <algorithm>

#include "sim/check.hpp"

namespace partsim::model {

BuiltInPartitioner::BuiltInPartitioner(std::int32_t sticky_batch_size, PartitionDraw draw)
    : sticky_batch_size_(std::max(1, sticky_batch_size)), draw_(std::move(draw)) {}

std::int32_t BuiltInPartitioner::next_partition(std::span<const std::int32_t> available, std::int32_t num_partitions) {
  const std::int32_t r = draw_();  // exactly one draw per call, before anything else (spec §2.1)
  if (cft_.empty()) {
    if (!in_rack_.empty() && !available.empty()) {
      // KIP-1123 (BuiltInPartitioner.nextPartition on 4.4): the available partitions led in
      // the producer's rack, in the same order; all of them when none is.
      rack_available_.clear();
      for (const std::int32_t p : available)
        if (in_rack_[static_cast<std::size_t>(p)]) rack_available_.push_back(p);
      if (!rack_available_.empty()) return rack_available_[static_cast<std::size_t>(r) % rack_available_.size()];
    }
    if (!available.empty()) return available[static_cast<std::size_t>(r) % available.size()];
    return r % num_partitions;  // no leader anywhere: used directly as a partition id
  }
  // KIP-1123: the in-rack table when rack-aware and some partition is led in the rack.
  const bool rack = !in_rack_.empty() && !rack_cft_.empty();
  const std::vector<std::int32_t>& cft = rack ? rack_cft_ : cft_;
  const std::vector<std::int32_t>& ids = rack ? rack_cft_partitions_ : cft_partitions_;
  // Adaptive: w = r % total; the smallest index with cft[i] > w (spec §2.2).
  // Example (spec §2.5): queues 0,3,1 -> weights 4,1,3 -> cft 4,5,8; w in 0..3 -> index 0,
  // w = 4 -> index 1, w in 5..7 -> index 2.
  const std::int32_t w = r % cft.back();
  const auto it = std::upper_bound(cft.begin(), cft.end(), w);
  return ids[static_cast<std::size_t>(it - cft.begin())];
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
  rack_cft_.clear();
  if (queue_sizes.empty() || length < 1 || queue_sizes.size() < 2) return;
  const auto n = static_cast<std::size_t>(length);
  std::int32_t max_size = queue_sizes[0];
  bool all_equal = true;
  for (std::size_t i = 0; i < n; ++i) {
    max_size = std::max(max_size, queue_sizes[i]);
    all_equal = all_equal && queue_sizes[i] == queue_sizes[0];
  }
  if (all_equal && n == queue_sizes.size()) return;  // uniform unless some were excluded
  if (!in_rack_.empty()) {
    // KIP-1123 (createPartitionLoadStatsForThisRackIfNeeded on 4.4): the candidates led in
    // the rack, weighted against the largest queue among them.
    rack_cft_partitions_.clear();
    std::int32_t rack_max = -1;
    for (std::size_t i = 0; i < n; ++i)
      if (in_rack_[static_cast<std::size_t>(partition_ids[i])]) {
        rack_cft_partitions_.push_back(partition_ids[i]);
        rack_max = std::max(rack_max, queue_sizes[i]);
      }
    std::int32_t running = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (in_rack_[static_cast<std::size_t>(partition_ids[i])]) {
        running += rack_max + 1 - queue_sizes[i];
        rack_cft_.push_back(running);
      }
  }
  const std::int32_t m = max_size + 1;  // weight = m - queue size >= 1
  cft_.resize(n);
  cft_partitions_.assign(partition_ids.begin(), partition_ids.begin() + static_cast<std::ptrdiff_t>(n));
  std::int32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) {
    running += m - queue_sizes[i];
    cft_[i] = running;
  }
}

}  // namespace partsim::model
