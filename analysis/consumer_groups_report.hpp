#pragma once
// The consumer groups of a run: per group its members and their partitions, records
// consumed, duplicates, order violations, lag, end-to-end latency, rebalances and idle
// members, as a table, as JSON (`consumer_groups`, `consume_trace`) and as CSV.

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/run_tables.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

/// [{"group", "protocol", "assignor", "members": [{"member", "partitions", "records"}],
/// "records_consumed", "duplicates", "order_violations", "keys_out_of_order", "lag_max",
/// "e2e_latency_ms": {"p50", "p99", "max"}, "rebalances": [{"at_ms", "kind", "pause_max_ms",
/// "pause_sum_ms", ...}], "idle_members", ..., with --timeseries "lag_timeseries": {"partitions",
/// "time_ms", "lag": [[per partition] per sample], "latency_mean_ms", "latency_max_ms": [per
/// sample interval]}}]; null without consumer groups.
nlohmann::ordered_json consumer_groups_to_json(const model::RunResult& r);
/// Per broker, the groups' fetches it served: [{"broker", "fetches", "records", "empty",
/// "failed", "queue_wait_ms_mean", "parked_ms_mean"}]; null when no group ran in the event
/// loop (none, or a migration's).
nlohmann::ordered_json consumer_fetches_to_json(const model::RunResult& r);
/// [{"group", "member", "partition", "offset", "key"}] (key null for a null key); null
/// without consumer groups.
nlohmann::ordered_json consume_trace_to_json(const model::RunResult& r);
/// "consumer group ..." blocks; "" without consumer groups.
std::string consumer_groups_to_text(const model::RunResult& r);
/// One row per group: group,protocol,assignor,members,records_consumed,duplicates,...
std::string consumer_groups_to_csv(const model::RunResult& r);
/// With --timeseries: group,time_ms,partition,lag, one row per sample and partition.
void write_consumer_lag_csv(const model::RunResult& r, const TextSink& sink);

}  // namespace partsim::analysis
