#pragma once
// Small views of a run that several scenario tests read.

#include <cstdint>
#include <vector>

#include "model/run_result.hpp"

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

}  // namespace partsim::testing
