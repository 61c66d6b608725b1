#pragma once
// A cluster of brokers and one or more producers, run as a discrete-event simulation.
// Each producer follows the 4.x Java client: KafkaProducer.doSend (spec §1), the
// RecordAccumulator (spec §3) with the BuiltInPartitioner (spec §2), the Sender (spec §4);
// each broker serves produce requests from one FIFO queue.

#include <atomic>
#include <cstdint>
#include <memory>

#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model {

/// What to record beyond the summary (costs memory in proportion to the run).
struct RunOptions {
  SimTime timeseries = SimTime::zero();  ///< sample state every this much simulated time (0 = off)
  bool batches = false;                  ///< keep one row per batch
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
};

/// Runs `scenario` with master seed `seed` and replication number `replication` until
/// every record sent has been acknowledged or has failed; returns the results.
RunResult run_scenario(const Scenario& scenario, std::uint64_t seed, std::uint64_t replication = 0,
                       const RunOptions& options = {});

}  // namespace partsim::model
