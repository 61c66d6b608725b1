#pragma once
// What a run reports of the brokers' disks (brokers[].disk.bytes, topics' segment and
// retention configs; docs/disks.md): per broker its use over time, what retention deleted,
// and when a full disk failed its log directory.

#include <cstdint>
#include <string>
#include <vector>

namespace partsim::model {

struct BrokerDisk {
  std::int32_t broker = 0;            ///< its id
  std::int64_t capacity = 0;          ///< disk.bytes (0: unlimited)
  std::int64_t other = 0;             ///< disk.used.bytes
  std::int64_t peak = 0;              ///< the most bytes in use
  double peak_ms = 0;                 ///< when
  std::int64_t end = 0;               ///< in use at the run's end
  std::int64_t deleted_bytes = 0;     ///< the bytes retention deleted
  std::int64_t deleted_segments = 0;  ///< the segments it deleted
  /// Logs deleted otherwise: replicas a reassignment removed, a follower's log dropped as out
  /// of range, the tail a follower truncated when a new leader's log ended before it.
  std::int64_t removed_bytes = 0;
  /// Each time a write did not fit: the log directory failed and the broker halted (again
  /// after a scheduled recover, while the disk is still full).
  std::vector<double> failures_ms;
  std::string largest;  ///< the largest partition replica on it at the end ("topic-p")
  std::int64_t largest_bytes = 0;
};

/// Every broker's bytes in use (logs, segments deleted but not yet removed, other data), every
/// 10 s of simulated time (or --timeseries), at a log directory's failure and at the run's end.
struct DiskSample {
  double time_ms = 0;
  std::vector<std::int64_t> used;  ///< RunResult::brokers order
};

struct DiskResult {
  std::vector<BrokerDisk> brokers;
  std::vector<DiskSample> samples;
  std::int64_t segments_rolled = 0;   ///< over every partition's log
  std::int32_t retention_checks = 0;  ///< checks that some live broker ran
  bool enabled() const { return !brokers.empty(); }
  std::int32_t failures() const {
    std::size_t n = 0;
    for (const auto& b : brokers) n += b.failures_ms.size();
    return static_cast<std::int32_t>(n);
  }
};

}  // namespace partsim::model
