#pragma once
// The followers' replication of a run (cluster.replication: followers; model/cluster/
// replication.hpp): per partition its ISR at the end, smallest ISR, shrinks, expands,
// time under-replicated / under min ISR / offline and NOT_ENOUGH_REPLICAS refusals; the
// ISR over time (a row per change); the produce errors by code. As text and as JSON.

#include <string>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// The most partitions under-replicated at once (UnderReplicatedPartitions summed over the
/// leaders), over the ISR history.
std::int32_t under_replicated_max(const model::ReplicationResult& rep);

/// "replication (followers): ..." and two tables; "" unless the run modelled followers.
std::string replication_to_text(const model::RunResult& r);

/// {"errors": {"CODE": batches}, "isr_shrinks", "isr_expands", "under_replicated_max",
///  "records_truncated", "records_uncommitted", "partitions": [{"topic", "partition", "isr", "isr_min", "shrinks",
///  "expands", "fenced_removals", "not_enough_replicas", "under_replicated_ms", "under_min_isr_ms", "offline_ms"}],
///  "isr_history": [{"time_ms", "cause", "isr_size", "under_replicated", "under_min_isr", "offline",
///  "not_enough_replicas", "records_acked"}]}; null unless followers.
nlohmann::ordered_json replication_to_json(const model::RunResult& r);

}  // namespace partsim::analysis
