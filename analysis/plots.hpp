#pragma once
// PNG charts drawn by gnuplot: the data and the script go to a scratch folder, gnuplot
// draws into a temporary file, which is renamed into place (a chart is whole or absent).
// Every chart has a title, axis labels with units and a legend.

#include <string>
#include <vector>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// One gnuplot chart: the terminal line ("set terminal svg ..."), the output's extension,
/// the data (read by the script as `datafile`) and the plotting script.
struct GnuplotChart {
  std::string terminal, extension, data, script;
};

/// Draws `chart` into DIR/NAME.EXT through temporary files (whole or absent) and returns
/// that path; std::runtime_error naming the chart and gnuplot's first error line.
std::string draw_gnuplot(const GnuplotChart& chart, const std::string& dir, const std::string& name);

/// `s` as a double-quoted gnuplot string.
std::string gnuplot_quoted(const std::string& s);

struct PartitionBar {
  std::string label;
  double value = 0, low = 0, high = 0;  ///< low/high draw a whisker when they differ
};

struct LatencyCurve {
  std::string name;
  const model::LatencyHistogram* histogram = nullptr;
};

class Plotter {
public:
  /// Charts go to `dir` (created if missing); throws std::runtime_error if gnuplot fails.
  explicit Plotter(std::string dir);

  void records_per_partition(const std::string& title, const std::vector<PartitionBar>& bars);
  void partition_strip(const std::string& title, const std::vector<std::int32_t>& trace);
  void broker_queues(const std::string& title, const model::RunResult& r);
  void latency_cdf(const std::string& title, const std::vector<LatencyCurve>& curves);
  void batch_size_histogram(const std::string& title, const std::vector<std::int64_t>& records_per_batch);
  /// Each consumer group's lag (records readable, not yet processed, over its partitions)
  /// against simulated time, with the run's broker and topic changes marked; groups without
  /// lag samples are left out, and nothing is drawn when none has any.
  void consumer_lag(const std::string& title, const model::RunResult& r);
  /// Bytes crossing racks per hour, a bar per sending rack stacked by kind (produce requests,
  /// responses, follower copies, consumer fetches, a migration's copy).
  void cross_rack_traffic(const std::string& title, const model::TrafficResult& t);
  /// The same by run (compare --plot): a bar per run, its bytes crossing racks per hour stacked
  /// by kind; nothing is drawn when no run shows traffic.
  void cross_rack_traffic_by_run(const std::string& title,
                                 const std::vector<std::pair<std::string, const model::TrafficResult*>>& runs);

  /// A reassignment by run (reassignment_plot.cpp): bytes left to copy, the partitions
  /// reassigning and under-replicated, and the producers' p99 per interval, against simulated
  /// time, a line per run; nothing is drawn when no run reassigns.
  void reassignment_by_run(const std::string& title,
                           const std::vector<std::pair<std::string, const model::ReassignmentResult*>>& runs);

  /// The brokers' disks by run (disk_plot.cpp): each broker's bytes in use against simulated
  /// time, a colour per run and a dash per broker, the disks' sizes dashed in grey; nothing is
  /// drawn when no run models disks.
  /// `until_ms` > 0: the time axis ends there (the runs' duration; what follows is their drain).
  void disks_by_run(const std::string& title, const std::vector<std::pair<std::string, const model::DiskResult*>>& runs,
                    double until_ms = 0);

  const std::vector<std::string>& written() const { return written_; }

private:
  /// Draws NAME.png; `terminal` sets its size ("": 1000 x 600).
  void draw(const std::string& name, const std::string& data, const std::string& script,
            const std::string& terminal = "");

  std::string dir_;
  std::vector<std::string> written_;
};

}  // namespace partsim::analysis
