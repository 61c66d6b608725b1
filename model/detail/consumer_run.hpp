#pragma once
// Consumer groups around the engine's event loop, where they run: what the groups know of
// the cluster (consume_inputs) and how a group's results join the RunResult
// (model/consumer/consumer_simulation.hpp). Internal to partsim_model.

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

}  // namespace partsim::model::detail
