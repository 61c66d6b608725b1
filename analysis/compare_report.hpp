#pragma once
// Several runs of one scenario side by side (partsim compare): metrics as rows and runs as
// columns for people; one row per run for CSV; the runs' full JSON for programs.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

struct NamedRun {
  std::string name;        ///< the partitioner or variant
  std::string sweep_value; ///< empty without --sweep
  model::RunResult result;
};

/// One table per sweep value: a row per metric, a column per run.
std::string compare_to_text(const std::vector<NamedRun>& runs, const std::string& sweep_path);
/// One row per run: sweep,name,records_acked,records_failed,b<id>_share,b<id>_bytes_share,...
std::string compare_to_csv(const std::vector<NamedRun>& runs);
/// {"scenario", "seed", "sweep", "runs": [{"name", "sweep_value", ...run fields}]}
nlohmann::ordered_json compare_to_json(const std::vector<NamedRun>& runs, const std::string& sweep_path);

/// A run of the comparison repeated over replications.
struct NamedReplications {
  std::string name;
  std::string sweep_value;
  std::vector<model::RunResult> replications;
};
/// Metric rows (partition rows left out), a column per run: "mean ± 95% half-width".
std::string compare_replicated_to_text(const std::vector<NamedReplications>& runs, const std::string& sweep_path);
/// sweep,name,metric,mean,ci95_low,ci95_high,min,median,max
std::string compare_replicated_to_csv(const std::vector<NamedReplications>& runs);
/// {"scenario", "seed", "replications", "sweep", "runs": [{"name", "sweep_value", "metrics": [...]}]}
nlohmann::ordered_json compare_replicated_to_json(const std::vector<NamedReplications>& runs, const std::string& sweep_path);

}  // namespace partsim::analysis
