#pragma once
// What a run records beyond its summary, and how it may be stopped: the options of
// run_scenario (model/cluster_simulation.hpp), which the engine (model/detail/) reads too.

#include <atomic>

#include "sim/sim_time.hpp"

namespace partsim::model {

/// What to record beyond the summary (costs memory in proportion to the run).
struct RunOptions {
  sim::SimTime timeseries = sim::SimTime::zero();  ///< sample state every this much simulated time (0 = off)
  bool batches = false;                            ///< keep one row per batch
  /// Keep the brokers' logs record by record (RunResult::logs), as consumers read them.
  /// Off, the producers carry no per-record tags and the run costs what it did.
  bool keep_logs = false;
  /// When set (e.g. by Ctrl-C), the run stops within a few thousand events and returns
  /// what it has, marked partial.
  const std::atomic<bool>* cancel = nullptr;
  /// Leave out the producers' idle sender passes (the same run, fewer events). Off, every
  /// pass runs and each one the skip would have left out is checked to be idle and to set
  /// the wake-up the skip sets (an internal error otherwise): tests run both ways.
  bool skip_idle_passes = true;
  /// Count the keyed records placed where Java's rule (murmur2, mask) puts them
  /// (RunResult::key_agreement); always on when a producer runs another client's profile.
  bool key_agreement = false;
};

}  // namespace partsim::model
