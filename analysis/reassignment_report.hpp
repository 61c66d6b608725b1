#pragma once
// A run's reassignments (topics[].schedule[].reassign; docs/reassignment.md): each step and
// when it completed, or why it never will at its throttle; the brokers' gauges over time
// (bytes left, ReassigningPartitions, UnderReplicatedPartitions, ReassignmentBytesIn/Out,
// ISR shrinks and expands, leaders and disk per broker) and the producers' latency beside
// them. As text and as JSON.

#include <string>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// "reassignment: ..." with the steps, the budgets of moves left, and the time table (at
/// most ~24 rows: every k-th sample and the last); "" without a reassignment.
std::string reassignment_to_text(const model::RunResult& r);

/// {"steps": [{"topic", "at_ms", "partitions", "throttle_bytes_per_s", "bytes_to_copy",
///  "completed_ms"}], "completed_ms", "bytes_left", "partitions_left", "never", "window_ms",
///  "budgets": [{"broker", "side", "throttle_bytes_per_s", "listed_in_sync_bytes_per_s",
///  "written_into_copies_bytes_per_s", "spare_bytes_per_s", "bytes_left"}], "samples": [{"time_ms",
///  "bytes_left", "reassigning", "under_replicated", "bytes_in_per_s", "bytes_out_per_s",
///  "isr_shrinks_per_s", "isr_expands_per_s", "leaders", "disk_bytes", "records", "p50_ms",
///  "p99_ms"}]}; null without a reassignment.
nlohmann::ordered_json reassignment_to_json(const model::RunResult& r);

/// The largest per-interval producer p99 from the first step to the end (ms), 0 without samples.
double reassignment_p99_max(const model::ReassignmentResult& r);

}  // namespace partsim::analysis
