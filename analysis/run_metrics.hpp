#pragma once
// A run flattened into named numbers, the unit that replications summarize: every count,
// share, latency and statistic of a run, in a stable order.

#include <string>
#include <utility>
#include <vector>

#include "model/run_result.hpp"

namespace partsim::analysis {

using Metric = std::pair<std::string, double>;

/// Names look like "records_acked", "partition.t.3.records", "broker.2.share",
/// "latency_ms.p99", "distribution.max_over_min" (infinite when a partition got nothing).
std::vector<Metric> flatten_metrics(const model::RunResult& r);

}  // namespace partsim::analysis
