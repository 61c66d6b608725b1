#pragma once
// A run's producer metrics under the Java client's JMX names (kafka-consumer-spec §10.1):
// the one list of names, units and digits that the run's table, JSON, CSV and the metric
// registry (run_metrics.hpp) share. docs/cli/run.md lists them ("Producer metrics").

#include <cstddef>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// One producer-metrics attribute.
struct ProducerMetricSpec {
  const char* jmx;      ///< the JMX attribute: "record-send-total"
  const char* machine;  ///< the registry's field: "record_send_total", "request_latency_avg_ms"
  const char* unit;     ///< "records", "records/s", "bytes", "ms", "" (a ratio or a pure number)
  int decimals;         ///< 0: an integer
  double (*value)(const model::ProducerMetrics&);  ///< NaN when undefined (an -avg with no sample)
};

/// The producer-metrics attributes, in the order docs/cli/run.md lists them.
std::span<const ProducerMetricSpec> producer_metric_specs();
/// The per-node attributes (producer-node-metrics, node-id=node-<id>): request-latency-avg
/// and -max (their `value` is null: read them with producer_node_value).
std::span<const ProducerMetricSpec> producer_node_metric_specs();
/// Node `n`'s value of per-node attribute `i` (NaN without a response from it).
double producer_node_value(std::size_t i, const model::ProducerNodeMetrics& n);

/// {"<producer>": {"record-send-total": ..., ..., "nodes": {"<id>": {"request-latency-avg": ...,
/// "request-latency-max": ...}}}}; NaN is null; nodes the producer sent no request to are left out.
nlohmann::ordered_json producer_metrics_to_json(const model::RunResult& r);
/// The table of run's text output: a row per attribute, a column per producer (the first
/// kTableMaxProducers), then a row per producer and node-<id> it sent requests to.
std::string producer_metrics_to_text(const model::RunResult& r);
/// producer,node,<every attribute's JMX name>: a row per producer (node empty), then a row
/// per producer and node-<id> it sent requests to with only the per-node attributes.
std::string producer_metrics_to_csv(const model::RunResult& r);

inline constexpr std::size_t kTableMaxProducers = 8;

}  // namespace partsim::analysis
