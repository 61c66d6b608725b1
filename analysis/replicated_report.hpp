#pragma once
// Results of R replications of one run (or of each run of a comparison): every metric as
// mean with its 95% confidence interval (Student t), min, median and max.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/summary_stats.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

using MetricSummary = std::pair<std::string, Summary>;

/// Summarizes each flattened metric over the replications (all of one scenario).
std::vector<MetricSummary> summarize_replications(const std::vector<model::RunResult>& reps);

std::string replicated_to_text(const std::vector<model::RunResult>& reps);
nlohmann::ordered_json replicated_to_json(const std::vector<model::RunResult>& reps);
/// metric,mean,ci95_low,ci95_high,min,median,max
std::string replicated_to_csv(const std::vector<model::RunResult>& reps);

/// "12.30 ± 0.45" with `decimals` places.
std::string mean_pm(const Summary& s, int decimals);

nlohmann::ordered_json summary_to_json(const std::string& name, const Summary& s);

}  // namespace partsim::analysis
