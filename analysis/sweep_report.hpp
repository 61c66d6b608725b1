#pragma once
// The report of a sweep's results: per point and metric the mean and its 95% Student t
// interval over the replications done (summary CSV), each metric against a swept
// parameter with a line per partitioner or setting and its confidence band (gnuplot SVG
// charts), and one self-contained HTML page with the tables and the charts inline.
// It reads plain data: cli/ reads the SQLite store and hands it over.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/summary_stats.hpp"

namespace partsim::analysis {

/// One point of the sweep (one arm at one setting of the workload) and its results.
struct SweepPointData {
  std::int64_t point = 0;
  std::string arm;                                          ///< partitioner or variant name
  std::vector<std::pair<std::string, std::string>> params;  ///< the point's workload assignments, path -> value
  std::vector<std::vector<double>>
      values;  ///< per metric (SweepData::metrics order): one value per replication done; NaN = undefined
};

struct SweepData {
  std::string name, scenario, partsim_version, shard, source;  ///< source: the store(s) read
  std::size_t replications = 0, rows_total = 0, rows_done = 0;
  std::vector<std::string> metrics;  ///< machine names, in the store's order
  std::vector<SweepPointData> points;
};

struct SweepReportOptions {
  std::string x;                     ///< the parameter on the charts' x axis ("" = the first one swept)
  std::vector<std::string> metrics;  ///< the metrics reported ("" = all)
};

/// The x axis of the charts: a swept parameter (or the arm when nothing else is swept).
struct SweepAxis {
  std::string name;  ///< the parameter's path, or "arm"
  bool numeric = false, log = false;
  std::vector<std::string> values;  ///< distinct values, in axis order
};

/// A line of a chart: an arm, with the other swept parameters' values when they are few.
struct SweepSeries {
  std::string label;
  std::vector<std::size_t> points;  ///< indexes into SweepData::points
};

/// A report option that the data cannot honour: option() is "x" or "metrics", what() says
/// why and lists what exists.
class SweepReportInputError : public std::invalid_argument {
public:
  SweepReportInputError(std::string option, const std::string& message);
  const std::string& option() const { return option_; }

private:
  std::string option_;
};

class SweepReport {
public:
  /// SweepReportInputError when options.x is not a swept parameter or a metric is unknown;
  /// metrics asked for twice are reported once.
  SweepReport(SweepData data, const SweepReportOptions& options);

  const SweepData& data() const { return data_; }
  const SweepAxis& axis() const { return axis_; }
  const std::vector<SweepSeries>& series() const { return series_; }
  const std::vector<std::size_t>& metrics() const { return metrics_; }  ///< indexes into data().metrics
  bool pooled() const { return pooled_; }

  /// The summary of metric `m` at point `p` (over its defined values; n = their count;
  /// the mean is +-infinity when a value is).
  Summary summary(std::size_t p, std::size_t m) const;

  /// point, arm, one column per swept parameter, metric, n, mean, ci95_low, ci95_high,
  /// min, max: one row per point and reported metric.
  std::string summary_csv() const;

  /// The gnuplot chart (SVG) of metric `m`, or nothing to draw when no value is defined.
  bool has_chart(std::size_t m) const;
  std::string chart_data(std::size_t m) const;
  std::string chart_script(std::size_t m) const;

  /// The page: the sweep, then per metric its chart (`svg` by metric index, inline) and
  /// its table of means and intervals.
  std::string html(const std::map<std::size_t, std::string>& svg) const;

private:
  struct Cell {
    Summary s;
    bool any = false;
  };
  void choose_metrics(const std::vector<std::string>& names);
  void choose_axis(const std::string& x);
  void build_series();
  /// The point's value of `path` on the axis ("(base)" when it does not set it; its arm
  /// when the axis is the arm).
  std::string x_of(const SweepPointData& p, const std::string& path) const;
  std::vector<std::string> distinct_values(const std::string& path) const;
  Cell cell(const SweepSeries& series, const std::string& x, std::size_t m) const;
  bool drawable(const SweepSeries& series, std::size_t m) const;  ///< some finite mean to draw

  SweepData data_;
  SweepAxis axis_;
  std::vector<std::string> params_;  ///< every swept parameter, in first-seen order
  std::vector<SweepSeries> series_;
  std::vector<std::size_t> metrics_;
  bool by_arm_ = false;  ///< the axis is the arm (no swept parameter named "arm")
  bool pooled_ = false;  ///< the series are arms only: the other parameters vary too much to draw a line each
};

/// The terminal line every sweep chart is drawn with.
extern const char* const kSweepChartTerminal;

/// `text` escaped for HTML text and attribute values.
std::string html_escape(const std::string& text);

}  // namespace partsim::analysis
