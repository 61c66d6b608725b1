#pragma once
// Several runs of one scenario side by side (partsim compare): metrics as rows and runs as
// columns for people; one row per run for CSV; the runs' full JSON for programs. Metrics
// carry the registry's machine names (run_metrics.hpp) with and without replications.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/replication_summary.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

struct NamedRun {
  std::string name;         ///< the partitioner or variant
  std::string sweep_value;  ///< empty without --sweep
  model::RunResult result;
};

/// One table per sweep value: a row per headline metric (machine name and label), a column
/// per run; "-" where a run measured nothing.
std::string compare_to_text(const std::vector<NamedRun>& runs, const std::string& sweep_path);
/// One row per run: sweep,name, then every metric but the per-partition ones, by machine
/// name (records_acked, broker.2.records_share, latency.p99_ms, ...); empty where undefined.
std::string compare_to_csv(const std::vector<NamedRun>& runs);
/// {"scenario", "seed", "sweep", "runs": [{"name", "sweep_value", ...run fields,
/// "metrics": {machine name: value or null}}]}
nlohmann::ordered_json compare_to_json(const std::vector<NamedRun>& runs, const std::string& sweep_path);

/// A run of the comparison repeated over replications, summarized as they finished.
struct NamedReplications {
  std::string name;
  std::string sweep_value;
  ReplicationSummary summary;
};
/// Headline metric rows, a column per run: "mean ± 95% half-width".
std::string compare_replicated_to_text(const std::vector<NamedReplications>& runs, const std::string& sweep_path);
/// sweep,name,metric,mean,ci95_low,ci95_high,min,median,max
std::string compare_replicated_to_csv(const std::vector<NamedReplications>& runs);
/// {"scenario", "seed", "replications", "sweep", "runs": [{"name", "sweep_value", "metrics": [...]}]}
nlohmann::ordered_json compare_replicated_to_json(const std::vector<NamedReplications>& runs,
                                                  const std::string& sweep_path, const std::string& scenario,
                                                  std::uint64_t seed);

}  // namespace partsim::analysis
