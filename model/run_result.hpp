#pragma once
// What a run produces: plain data, formatted elsewhere (analysis/ and cli/).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/latency_histogram.hpp"

namespace partsim::model {

struct PartitionStats {
  std::string topic;
  std::int32_t partition = 0;
  std::int32_t leader = -1;       ///< broker id at the end of the run (-1 = none)
  std::int64_t records = 0;       ///< records acknowledged
  std::int64_t bytes = 0;         ///< batch bytes on the wire (headers included)
  std::int64_t batches = 0;
};

struct BrokerStats {
  std::int32_t broker = 0;
  std::int64_t records = 0;
  std::int64_t bytes = 0;
  std::int64_t batches = 0;
  std::int64_t requests = 0;
  double queue_wait_ms_sum = 0;   ///< time requests waited in the broker's queue
};

/// Why records failed (each failed record is counted under exactly one reason).
struct FailureCounts {
  std::int64_t buffer_timeout = 0;    ///< send() blocked longer than max.block.ms
  std::int64_t delivery_timeout = 0;  ///< not acknowledged within delivery.timeout.ms
  std::int64_t record_too_large = 0;  ///< larger than max.request.size or buffer.memory
  std::int64_t retries_exhausted = 0; ///< a retriable error after `retries` attempts
  std::int64_t invalid_partition = 0; ///< a partitioner answered a negative partition
  std::int64_t total() const {
    return buffer_timeout + delivery_timeout + record_too_large + retries_exhausted + invalid_partition;
  }
};

struct RunResult {
  std::string scenario;
  std::uint64_t seed = 0;
  double simulated_ms = 0;           ///< simulated time when the last record completed
  std::uint64_t events = 0;
  std::int64_t records_sent = 0;     ///< send() calls (all, warm-up included)
  std::int64_t records_acked = 0;
  FailureCounts failed;
  std::int64_t records_measured = 0; ///< acked records after the warm-up (in the statistics)
  std::int64_t bytes_appended = 0;   ///< record bytes appended to batches (conservation check)
  std::int64_t bytes_completed = 0;  ///< record bytes of batches acked or failed
  std::int64_t retries = 0;          ///< batches re-enqueued after a retriable error
  double buffer_full_ms = 0;         ///< time some application thread was blocked on buffer.memory
  std::int64_t peak_buffer_bytes = 0;
  std::vector<PartitionStats> partitions;
  std::vector<BrokerStats> brokers;
  LatencyHistogram latency;          ///< send() to acknowledgement, measured records
  LatencyHistogram batch_bytes;      ///< bytes of each measured batch on the wire (same log-linear bins)
  std::vector<std::int32_t> trace;   ///< the first N partition choices, in send order
  double window_ms = 0;              ///< width of the windows below (0 = none kept)
  /// windows[w][b]: records sent in window w (by send time) and acknowledged by broker b.
  std::vector<std::vector<std::int64_t>> windows;
  std::int64_t partitioner_switches = 0;
};

}  // namespace partsim::model
