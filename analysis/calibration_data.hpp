#pragma once
// The measurements `partsim calibrate` fits a scenario to: a CSV with one row per measured
// configuration (its `--set` assignments) and the values measured there, under the Java
// client's metric names (run_producer_metrics.hpp) or per broker; and the same metric read
// from a simulated run. docs/cli/calibrate.md describes the format ("The measurements CSV").

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::analysis {

/// A bad measurements file: the message starts with "file:line:col: " and says what is allowed.
class MeasurementsError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One measured value: a metric column of one row.
struct MeasuredValue {
  std::string metric;      ///< "request-latency-avg", "node-1.request-latency-avg", "broker-1.records-share"
  double value = 0;        ///< above 0: residuals are relative to it
  std::size_t column = 0;  ///< 1-based character column of the cell (errors, the report)
};

/// One measured configuration: a row of the CSV.
struct MeasuredRow {
  std::size_t line = 0;           ///< 1-based line in the file
  std::size_t set_column = 0;     ///< 1-based column of the `set` cell
  std::string set_text;           ///< the `set` cell as written
  std::vector<std::string> sets;  ///< its assignments, PATH=VALUE, in order
  std::vector<MeasuredValue> values;
};

/// Parses a measurements CSV (a UTF-8 byte order mark is skipped; cells may be quoted with
/// "" for a quote, each ending on its line; lines whose first non-blank character is '#' and
/// blank lines are skipped): a header naming `set` and metric columns, then rows. Throws
/// MeasurementsError.
std::vector<MeasuredRow> parse_measurements(std::string_view text, const std::string& file);

/// The metric columns the file may name, as a sentence for error messages.
std::string allowed_metric_columns();

/// Why scenario `s` cannot give `metric` ("the scenario has no broker 7 (brokers: 1, 2, 3)"),
/// or "" when it can: per-node and per-broker metrics name a broker id of the scenario, the
/// producer's metrics need a producer.
std::string metric_problem(const model::Scenario& s, const std::string& metric);

/// The value of `metric` in run `r`: producer metrics of the scenario's first producer,
/// per-node latency of that producer, per-broker shares and records per batch of the records
/// measured; NaN where the run leaves it undefined. std::nullopt when the run has no such
/// broker (or no producer), with the reason in `*why`.
std::optional<double> simulated_metric(const model::RunResult& r, const std::string& metric,
                                       std::string* why = nullptr);

}  // namespace partsim::analysis
