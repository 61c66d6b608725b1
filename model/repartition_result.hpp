#pragma once
// What a live partition increase cost a run (book ch. 10, issue 14): when each producer saw
// the new count, the records it still partitioned by the old count meanwhile, the keys
// whose records now span partitions, the keys a consumer saw out of order and the records
// auto.offset.reset=latest skipped on new partitions. Kept when a topic has a schedule.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace partsim::model {

struct PartitionIncrease {
  std::string topic;
  double at_ms = 0;
  std::int32_t from = 0;
  std::int32_t to = 0;
};

struct ProducerSawCount {
  std::string producer;
  /// When its metadata last grew to a larger count (nothing: it never saw a change).
  std::optional<double> saw_new_count_at_ms;
};

struct RepartitionResult {
  std::vector<PartitionIncrease> changes;
  std::vector<ProducerSawCount> producers;  ///< producers of a topic with a schedule
  /// Records a producer partitioned by a smaller count than its topic had at the time.
  std::int64_t records_old_rule_after_change = 0;
  std::int64_t keys_split = 0;  ///< keys of such a topic whose records went to more than one partition
  /// The most keys any consumer group saw out of order (consumer/order_check.hpp); nothing
  /// without consumer groups.
  std::optional<std::int64_t> keys_out_of_order;
  /// Records auto.offset.reset=latest skipped, summed over the groups (the high watermark
  /// when a group's member was assigned a partition without a committed offset).
  std::int64_t records_skipped_latest = 0;
};

}  // namespace partsim::model
