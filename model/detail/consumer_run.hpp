#pragma once
// The engine's consumer phase: after the producers' run, each consumer group of the scenario
// consumes the brokers' logs (model/consumer/consumer_simulation.hpp) and its results join
// the RunResult. Internal to partsim_model.

#include <atomic>
#include <cstdint>
#include <optional>

#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::detail {

/// Runs every group of `s.consumers` over `result.logs` (which must be kept) and fills
/// result.consumer_groups and result.consume_trace.
void run_consumers(const Scenario& s, const RunOptions& options, RunResult& result);

/// Runs `s.migration` over `result.logs` (which must be kept) into result.migration, and
/// puts the new topic's log into result.logs (before the consumer groups read them).
/// `record_bytes`: the size of the bridge's writes (by default the old topic's average record).
/// Interrupted through `cancel`, it leaves result.migration empty and marks the result partial.
/// `resume`: stop-replay's resume as the run made it (see migration::migrate).
void run_migration(const Scenario& s, std::uint64_t seed, std::uint64_t replication, RunResult& result,
                   const std::atomic<bool>* cancel, std::optional<double> record_bytes = std::nullopt,
                   std::optional<SimTime> resume = std::nullopt);

}  // namespace partsim::model::detail
