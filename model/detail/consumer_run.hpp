#pragma once
// Consumer groups and the migration around the engine's run: what the groups know of the
// cluster (consume_inputs), how a group's results join the RunResult, and the replay of a
// scenario with a migration, whose copier runs after the producers' run and whose groups then
// read the logs it leaves (model/consumer/consumer_simulation.hpp). Without a migration the
// groups run in the engine's event loop. Internal to partsim_model.

#include <atomic>
#include <cstdint>
#include <optional>

#include "model/consumer/consumer_simulation.hpp"
#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::detail {

/// What every group knows of the scenario's cluster: its topics (at the count they end with,
/// and the count they start with when a topic grows), brokers' round trips, sampling,
/// tracing and cancel. Not the logs, the partition increases, leaders nor record sizes.
consumer::ConsumeInputs consume_inputs(const Scenario& s, const RunOptions& options);

/// A group's results join the run's (and a partition increase's figures).
void add_group_run(RunResult& result, consumer::GroupRun run);

/// Replays every group of `s.consumers` over `result.logs` (which must be kept) and fills
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
