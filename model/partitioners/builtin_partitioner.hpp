#pragma once
// Kafka's BuiltInPartitioner (KIP-794, spec §2): one per topic. Unkeyed records stick to
// a partition until the bytes appended to it reach batch.size at a batch boundary (or
// 2 x batch.size regardless), then a random partition is drawn: uniformly over the
// available partitions, or, with adaptive partitioning, weighted by inverse queue size.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace partsim::model {

/// A uniform int in [0, 2^31): Utils.toPositive(ThreadLocalRandom.nextInt()) (spec §2.1).
using PartitionDraw = std::function<std::int32_t()>;

class BuiltInPartitioner {
public:
  /// sticky_batch_size = max(1, batch.size) (spec §1.1).
  BuiltInPartitioner(std::int32_t sticky_batch_size, PartitionDraw draw);

  /// peekCurrentPartitionInfo: the current sticky partition, drawn on first use.
  /// `available` = partitions with a leader, in the client's list order; `num_partitions`
  /// = all partitions of the topic.
  std::int32_t current_partition(std::span<const std::int32_t> available, std::int32_t num_partitions);

  /// updatePartitionInfo (spec §2.4): adds appended_bytes to the bytes produced on the
  /// current partition and switches iff (produced >= batch.size && enable_switch) or
  /// produced >= 2 x batch.size. Returns true if it switched.
  bool update_partition_info(std::int32_t appended_bytes, bool enable_switch, std::span<const std::int32_t> available,
                             std::int32_t num_partitions);

  /// updatePartitionLoadStats (spec §2.5). queue_sizes has one entry per deque of the
  /// topic (num_deques); the first `length` entries and partition_ids are the candidates.
  /// Null (uniform) when queue_sizes is empty, length < 1, num_deques < 2, or all sizes
  /// are equal and nothing was excluded.
  void update_load_stats(std::span<const std::int32_t> queue_sizes, std::span<const std::int32_t> partition_ids,
                         std::int32_t length);
  void clear_load_stats() {
    cft_.clear();
    rack_cft_.clear();
  }

  /// KIP-1123 (4.4, partitioner.rack.aware): `in_rack[p]` says whether partition p's leader
  /// is in the producer's client.rack; empty = not rack-aware. Draws then prefer those
  /// partitions: uniform over the available ones in the rack, or the load table over the
  /// in-rack ones (weights against the largest in-rack queue); all partitions when none is.
  void set_rack(std::vector<char> in_rack) { in_rack_ = std::move(in_rack); }

  /// nextPartition (spec §2.2): one draw, then uniform or cumulative-frequency choice.
  std::int32_t next_partition(std::span<const std::int32_t> available, std::int32_t num_partitions);

  /// True when the next draw is weighted (a load table is in place), false when uniform.
  bool adaptive_active() const { return !cft_.empty(); }
  /// A sticky partition has been drawn (peekCurrentPartitionInfo has something to peek).
  bool has_current() const { return has_current_; }
  /// The current sticky partition; requires has_current().
  std::int32_t current() const { return current_; }
  /// Whether update_partition_info(appended_bytes, enable_switch) would switch, and so draw.
  bool would_switch(std::int32_t appended_bytes, bool enable_switch) const {
    const std::int64_t produced = produced_bytes_ + appended_bytes;
    return has_current_ &&
           ((produced >= sticky_batch_size_ && enable_switch) || produced >= 2 * std::int64_t{sticky_batch_size_});
  }
  std::int64_t produced_bytes() const { return produced_bytes_; }
  std::int64_t switches() const { return switches_; }

private:
  std::int32_t sticky_batch_size_;
  PartitionDraw draw_;
  bool has_current_ = false;
  std::int32_t current_ = -1;
  std::int64_t produced_bytes_ = 0;
  std::int64_t switches_ = 0;
  // Cumulative frequency table and its partition ids; empty = uniform mode.
  std::vector<std::int32_t> cft_;
  std::vector<std::int32_t> cft_partitions_;
  // KIP-1123: the partitions led in the producer's rack, and the load table over them.
  std::vector<char> in_rack_;
  std::vector<std::int32_t> rack_cft_;
  std::vector<std::int32_t> rack_cft_partitions_;
  std::vector<std::int32_t> rack_available_;  // scratch of the uniform draw
};

}  // namespace partsim::model
