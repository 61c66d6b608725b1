#pragma once
// A run's disks (brokers[].disk.bytes, topics' segment and retention configs; docs/disks.md):
// per broker its capacity, the peak and the end of its use, what retention deleted, the
// largest partition on it and when a full disk failed its log directory; its use over time.
// As text and as JSON.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// "disks: ..." with a row per broker and the use over time (at most ~24 rows); "" when the
/// run models no disks.
std::string disks_to_text(const model::RunResult& r);

/// {"retention_checks", "segments_rolled", "log_dir_failures", "brokers": [{"broker",
///  "capacity_bytes", "other_bytes", "peak_bytes", "peak_ms", "end_bytes", "deleted_bytes",
///  "deleted_segments", "removed_bytes", "largest_partition", "largest_partition_bytes",
///  "log_dir_failures_ms": [...]}],
///  "samples": [{"time_ms", "used_bytes": [per broker]}]}; null when the run models no disks.
nlohmann::ordered_json disks_to_json(const model::RunResult& r);

/// The largest peak share of a disk (peak / disk.bytes) over the brokers with a capacity; none without.
std::optional<double> disk_peak_share(const model::DiskResult& d);

}  // namespace partsim::analysis
