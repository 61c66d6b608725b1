#pragma once
// Results of R replications of one run: every metric of the registry (run_metrics.hpp) as
// mean with its 95% confidence interval (Student t), min, median and max, as tables, CSV
// and JSON. The JSON is written in pieces so that every replication's full result can go
// out while later replications still run: head, one entry per replication, tail.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/replication_summary.hpp"
#include "analysis/summary_stats.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

/// How many replications were asked for and how many finished (fewer when interrupted).
struct ReplicationCount {
  std::size_t requested = 0;
  std::size_t done = 0;
  bool partial() const { return done < requested; }
};

/// Tables: per partition (records), per broker (share of records) and one row per other
/// metric; `first` names the scenario and seed.
std::string replicated_to_text(const ReplicationSummary& s, const model::RunResult& first, ReplicationCount count);
/// metric,mean,ci95_low,ci95_high,min,median,max (an undefined value is an empty cell).
std::string replicated_to_csv(const ReplicationSummary& s);
/// The rows of that CSV, each after `prefix` (CSV cells with their commas, e.g. "300,builtin,").
void append_summary_csv_rows(std::string& out, const ReplicationSummary& s, std::string_view prefix);
/// The "metrics" array: {"name", "mean", "ci95_low", "ci95_high", "min", "median", "max"}
/// per metric, null where undefined.
nlohmann::ordered_json replicated_metrics_json(const ReplicationSummary& s);

/// `{"scenario": ..., "seed": ..., "runs": [` with two-space indents.
std::string replicated_json_head(const model::RunResult& first);
/// One entry of "runs": the run's JSON with "replication", indented, preceded by a comma
/// unless it is the first.
std::string replicated_json_run(const model::RunResult& r, std::size_t replication, bool first);
/// `]`, then "replications" (done), "partial" and "replications_requested" when
/// interrupted, "metrics", then the members of `extra` (e.g. "theory"); closes the object.
std::string replicated_json_tail(const ReplicationSummary& s, ReplicationCount count,
                                 const nlohmann::ordered_json& extra);

/// "12.30 ± 0.45" with `decimals` places; "inf" for an infinite mean, "-" when undefined.
std::string mean_pm(const Summary& s, int decimals);

nlohmann::ordered_json summary_to_json(const std::string& name, const Summary& s);

}  // namespace partsim::analysis
