#pragma once
// What a leader answers to a consumer's fetch (kafka-consumer-spec.md §4.3): it waits until
// fetch.min.bytes are readable past the fetch positions, at most fetch.max.wait.ms, then
// reads the partitions in request (session) order, each up to max.partition.fetch.bytes and
// all together up to fetch.max.bytes, always at least one record of the first partition with
// data (the limits are soft). Reads stop at the high watermark: a record is readable from
// its LogRecord::readable time. Sizes are per record (the partition's mean wire bytes).

#include <cstdint>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/consumer_groups.hpp"

namespace partsim::model::consumer {

/// One partition of a fetch request.
struct FetchRequestPartition {
  std::int32_t log = 0;   ///< index into BrokerLogs::partitions
  std::int64_t from = 0;  ///< the fetch position
};

/// KIP-392, per requested partition of a fetch answer: what it says of the replica to read from.
inline constexpr std::int32_t kSameReplica = -1;  ///< nothing: fetch on where the fetch went
inline constexpr std::int32_t kNotReplica = -2;   ///< the broker holds no replica of it (or a stale
                                                  ///< leader epoch): the member forgets its read replica

struct FetchAnswer {
  SimTime at;  ///< when the leader answers
  /// Per requested partition (same order), the records returned: [from, from + count).
  std::vector<std::int64_t> counts;
};

/// The high watermark of `log` at `t`: how many of its records are readable by then.
std::int64_t high_watermark(const PartitionLog& log, SimTime t);

/// The leader's answer to a fetch that reaches it at `arrival`. `record_bytes` is indexed by
/// log partition. `limits` (KIP-392, a follower's answer): per requested partition, how many
/// records of the log the serving replica may return (a follower's high watermark, which it
/// learns from its leader later than the leader moves it); the records past it count as not
/// readable. Null: the leader's high watermark only.
FetchAnswer answer_fetch(const BrokerLogs& logs, const std::vector<double>& record_bytes,
                         const std::vector<FetchRequestPartition>& request, SimTime arrival,
                         const ConsumerConfig& config, const std::vector<std::int64_t>* limits = nullptr);

}  // namespace partsim::model::consumer
