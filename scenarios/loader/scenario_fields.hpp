#pragma once
// The field tables of a scenario file, one per mapping (run, cluster, broker, topic,
// producer, producer config, workload, ...): every key the loader reads, the resolved
// scenario writes and the reference documents, with Kafka's own names.

#include "model/scenario.hpp"
#include "scenarios/loader/field_table.hpp"

namespace partsim::scenarios {

/// The top-level mapping of a scenario file; every other table hangs below it.
const Table<model::Scenario>& scenario_table();

}  // namespace partsim::scenarios
