#pragma once
// Small views of a run that several scenario tests read.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>

#include <doctest/doctest.h>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::testing {

/// Records per partition, in partition order.
inline std::vector<std::int64_t> counts(const model::RunResult& r) {
  std::vector<std::int64_t> c;
  for (const auto& p : r.partitions) c.push_back(p.records);
  return c;
}

/// Lengths of the runs of equal partitions in a trace.
inline std::vector<int> run_lengths(const std::vector<std::int32_t>& trace) {
  std::vector<int> runs;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i == 0 || trace[i] != trace[i - 1]) runs.push_back(0);
    ++runs.back();
  }
  return runs;
}

/// Every scenario file shipped under scenarios/, sorted: tests that cover "every shipped
/// scenario" read the folder, so a new file cannot be left out of them. scenarios/sweeps/
/// holds sweep files (partsim sweep), not scenarios.
inline std::vector<std::filesystem::path> shipped_scenarios() {
  std::vector<std::filesystem::path> files;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(PARTSIM_SOURCE_DIR) / "scenarios"))
    if (e.path().extension() == ".yaml" && e.path().parent_path().filename() != "sweeps") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// The conservation rules every finished run keeps: each record sent is acknowledged or
/// failed exactly once (a record lost or completed twice breaks the count), the record bytes
/// appended to batches all come back in completed batches, and memory stays within
/// buffer.memory.
inline void check_invariants(const model::RunResult& r, const model::Scenario& s) {
  CHECK(r.records_sent == r.records_acked + r.failed.total());
  CHECK(r.bytes_appended == r.bytes_completed);
  for (const auto& p : s.producers) CHECK(r.peak_buffer_bytes <= p.config.buffer_memory_bytes);
}

/// Runs `s` with `seed`, keeping the brokers' logs (RunResult::logs).
inline model::RunResult run_with_logs(const model::Scenario& s, std::uint64_t seed) {
  model::RunOptions options;
  options.keep_logs = true;
  return model::run_scenario(s, seed, 0, options);
}

/// Records in every partition's log.
inline std::int64_t log_records(const model::BrokerLogs& logs) {
  std::int64_t n = 0;
  for (const auto& p : logs.partitions) n += static_cast<std::int64_t>(p.records.size());
  return n;
}

}  // namespace partsim::testing
