#pragma once
// A run's results as people and programs read them: aligned tables, JSON, CSV. The JSON
// fields are documented in docs/cli/run.md ("Output").

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// Partitions beyond which the table shows only the busiest (and counts the idle ones).
inline constexpr std::size_t kTableMaxPartitions = 50;
inline constexpr std::size_t kTablePartitionsShown = 20;

/// True when the run measured records (acknowledged, sent after run.warmup.ms). A run that
/// measured none has no shares, batching, latency or distribution: null in JSON, empty in
/// CSV, "-" and "no records measured" in tables.
bool measured_anything(const model::RunResult& r);
/// Why a run measured nothing ("every acknowledged record was sent before run.warmup.ms");
/// "" when it measured records.
std::string unmeasured_reason(const model::RunResult& r);

/// Indexes of the `n` partitions with the most records (ties: lower index first).
std::vector<std::size_t> busiest_partitions(const model::RunResult& r, std::size_t n);

nlohmann::ordered_json run_to_json(const model::RunResult& r);
/// nlohmann's dump with two-space indents and a final newline; invalid UTF-8 (a binary
/// key) is replaced rather than thrown.
std::string dump_json(const nlohmann::ordered_json& j);
std::string run_to_text(const model::RunResult& r);
/// One row per partition: topic,partition,leader,records,bytes,batches,records_per_batch,bytes_per_batch
std::string partitions_to_csv(const model::RunResult& r);

}  // namespace partsim::analysis
