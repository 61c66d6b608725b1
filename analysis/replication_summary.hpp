#pragma once
// The replications of one run, added one at a time as they finish and summarized at the
// end: for every metric of the registry its R values (the median and the range need them),
// never R whole RunResults with their histograms and per-partition vectors. Memory is
// R x metrics x 8 bytes.

#include <cstddef>
#include <vector>

#include "analysis/run_metrics.hpp"
#include "analysis/summary_stats.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

class ReplicationSummary {
public:
  /// The registry is shaped by the first replication (every replication has its shape);
  /// `expected` replications are reserved for.
  explicit ReplicationSummary(const model::RunResult& first, std::size_t expected = 0);

  /// Adds one replication's metrics (in replication order, for byte-identical output).
  void add(const model::RunResult& r);

  const MetricRegistry& registry() const { return registry_; }
  std::size_t replications() const { return replications_; }
  /// Replications that measured no records (their statistics are undefined and left out).
  std::size_t unmeasured() const { return unmeasured_; }

  /// Metric i over the replications where it is defined: mean, 95% CI, min, median, max;
  /// every field NaN when no replication defines it.
  Summary summary(std::size_t metric) const;
  std::vector<Summary> summaries() const;

private:
  MetricRegistry registry_;
  std::vector<std::vector<double>> values_;  // [metric][replication], NaN = undefined
  std::size_t replications_ = 0;
  std::size_t unmeasured_ = 0;
};

}  // namespace partsim::analysis
