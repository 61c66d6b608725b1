#pragma once
// What a scenario will cost before it runs: records to simulate and memory to hold. Used
// to refuse absurd runs (10^15 records without a time limit, a time series sampled every
// microsecond for an hour, 100,000 replications of a million partitions) with the
// estimate, rather than run for days or run out of memory.
//
// The memory estimate adds the parts that grow with the input: per partition (the run's
// results and the report's rows), per producer and partition of its topic (the
// accumulator's state), per batch and record that buffer.memory can hold, per Zipf key,
// per time-series sample, per batch row kept for batches.csv, per record for consumer
// groups (the logs and what each group processed), and per metric and
// replication kept for the replicated summary, times the runs in memory at once. The
// constants are calibrated against peak RSS (/usr/bin/time -v) of the release build; the
// docs/robustness.md states the measured ratio.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/scenario.hpp"

namespace partsim::model {

/// What the command keeps besides one simulation's state.
struct RunPlan {
  SimTime timeseries = SimTime::zero();  ///< sampling interval (0 = none)
  bool batches = false;                  ///< one row per batch kept (batches.csv)
  std::size_t replications = 1;
  unsigned concurrent = 1;  ///< simulations in memory at once (threads)
  std::size_t runs = 1;     ///< compare: runs whose results are kept side by side
  /// A sweep: `concurrent` runs at once whatever `replications`, each run's row written to
  /// its store as it comes (nothing kept per run), and `sweep_points` loaded scenarios held.
  bool sweep = false;
  std::size_t sweep_points = 0;
};

/// One part of the memory estimate.
struct MemoryPart {
  std::string what;  ///< "--timeseries: 1.4e+06 samples"
  double bytes = 0;
  std::string remedy;  ///< "raise --timeseries MS"
};

struct RunEstimate {
  double records = 0;             ///< records the run will send (an upper estimate)
  double simulated_s = 0;         ///< simulated seconds (an estimate; infinite without a bound)
  double memory_bytes = 0;        ///< peak memory
  std::vector<MemoryPart> parts;  ///< the parts of memory_bytes, largest first
};

RunEstimate estimate_run(const Scenario& s, const RunPlan& plan = {});

/// The limits past which a run is refused unless the user insists (--allow-large).
inline constexpr double kMaxRecords = 1e11;  // about 6 hours at 5 million records/s
inline constexpr double kMaxMemoryBytes = 8.0 * (1ull << 30);

/// Empty when the run is within the limits, else why not (with the estimate and its
/// largest part).
std::string check_run_limits(const Scenario& s, const RunPlan& plan = {});

/// Metrics of a run of `partitions`, `brokers`, `producers` and `topics` (analysis/run_metrics.hpp:
/// 30 run-wide and 6 of the distribution per topic, 3 per partition, 7 per broker, per producer
/// 12 and 2 per broker); a replicated run keeps one double per metric and replication.
double replication_metrics(double partitions, double brokers, double producers = 0, double topics = 1);

}  // namespace partsim::model
