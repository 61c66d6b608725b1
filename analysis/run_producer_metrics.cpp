#include "analysis/run_producer_metrics.hpp"

#include <cmath>
#include <vector>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

// kafka-consumer-spec §10.1; the definitions are model/producer/sender_metrics.cpp's.
const ProducerMetricSpec kSpecs[] = {
    {"record-send-total", "record_send_total", "records", 0,
     [](const model::ProducerMetrics& m) { return static_cast<double>(m.record_send_total); }},
    {"record-send-rate", "record_send_rate", "records/s", 3,
     [](const model::ProducerMetrics& m) { return m.record_send_rate; }},
    {"batch-size-avg", "batch_size_avg_bytes", "bytes", 3,
     [](const model::ProducerMetrics& m) { return m.batch_size_avg; }},
    {"batch-size-max", "batch_size_max_bytes", "bytes", 0,
     [](const model::ProducerMetrics& m) { return m.batch_size_max; }},
    {"records-per-request-avg", "records_per_request_avg", "records", 3,
     [](const model::ProducerMetrics& m) { return m.records_per_request_avg; }},
    {"request-latency-avg", "request_latency_avg_ms", "ms", 3,
     [](const model::ProducerMetrics& m) { return m.request_latency_avg; }},
    {"request-latency-max", "request_latency_max_ms", "ms", 3,
     [](const model::ProducerMetrics& m) { return m.request_latency_max; }},
    {"record-queue-time-avg", "record_queue_time_avg_ms", "ms", 3,
     [](const model::ProducerMetrics& m) { return m.record_queue_time_avg; }},
    {"record-queue-time-max", "record_queue_time_max_ms", "ms", 3,
     [](const model::ProducerMetrics& m) { return m.record_queue_time_max; }},
    {"bufferpool-wait-ratio", "bufferpool_wait_ratio", "", 6,
     [](const model::ProducerMetrics& m) { return m.bufferpool_wait_ratio; }},
    {"record-retry-total", "record_retry_total", "records", 0,
     [](const model::ProducerMetrics& m) { return static_cast<double>(m.record_retry_total); }},
    {"record-error-total", "record_error_total", "records", 0,
     [](const model::ProducerMetrics& m) { return static_cast<double>(m.record_error_total); }},
};

const ProducerMetricSpec kNodeSpecs[] = {
    {"request-latency-avg", "request_latency_avg_ms", "ms", 3, nullptr},
    {"request-latency-max", "request_latency_max_ms", "ms", 3, nullptr},
};

using Json = nlohmann::ordered_json;

Json metric_json(double v, int decimals) {
  if (std::isnan(v)) return Json(nullptr);
  if (decimals == 0) return Json(static_cast<std::int64_t>(v));
  return Json(round_to(v, decimals));
}

std::string text_value(double v, int decimals) { return std::isnan(v) ? "-" : fixed(v, decimals); }

std::string node_name(const model::ProducerNodeMetrics& n) { return "node-" + std::to_string(n.node); }

}  // namespace

std::span<const ProducerMetricSpec> producer_metric_specs() { return kSpecs; }
std::span<const ProducerMetricSpec> producer_node_metric_specs() { return kNodeSpecs; }

double producer_node_value(std::size_t i, const model::ProducerNodeMetrics& n) {
  return i == 0 ? n.request_latency_avg_ms : n.request_latency_max_ms;
}

nlohmann::ordered_json producer_metrics_to_json(const model::RunResult& r) {
  Json out = Json::object();
  for (const auto& m : r.producer_metrics) {
    Json& p = out[m.producer];
    for (const auto& s : kSpecs) p[s.jmx] = metric_json(s.value(m), s.decimals);
    Json& nodes = p["nodes"] = Json::object();
    for (const auto& n : m.nodes) {
      if (n.requests == 0) continue;
      Json& j = nodes[std::to_string(n.node)];
      for (std::size_t i = 0; i < std::size(kNodeSpecs); ++i)
        j[kNodeSpecs[i].jmx] = metric_json(producer_node_value(i, n), kNodeSpecs[i].decimals);
    }
  }
  return out;
}

std::string producer_metrics_to_text(const model::RunResult& r) {
  if (r.producer_metrics.empty()) return "";
  const std::size_t shown = std::min(r.producer_metrics.size(), kTableMaxProducers);
  std::vector<Column> cols{{"producer metric", Align::kLeft}};
  for (std::size_t p = 0; p < shown; ++p) cols.push_back({escape_controls(r.producer_metrics[p].producer)});
  Table t(std::move(cols));
  for (const auto& s : kSpecs) {
    std::vector<std::string> row{s.jmx};
    for (std::size_t p = 0; p < shown; ++p) row.push_back(text_value(s.value(r.producer_metrics[p]), s.decimals));
    t.add_row(std::move(row));
  }
  std::vector<Column> node_cols{{"producer", Align::kLeft}, {"node", Align::kLeft}, {"requests"}};
  for (const auto& s : kNodeSpecs) node_cols.push_back({s.jmx});
  Table nodes(std::move(node_cols));
  for (std::size_t p = 0; p < shown; ++p) {
    const auto& m = r.producer_metrics[p];
    for (const auto& n : m.nodes) {
      if (n.requests == 0) continue;
      std::vector<std::string> row{escape_controls(m.producer), node_name(n), std::to_string(n.requests)};
      for (std::size_t i = 0; i < std::size(kNodeSpecs); ++i)
        row.push_back(text_value(producer_node_value(i, n), kNodeSpecs[i].decimals));
      nodes.add_row(std::move(row));
    }
  }
  std::string out = "\nproducer metrics (the Java client's JMX names, over the whole run):\n" + t.to_text();
  if (!nodes.rows().empty()) out += "\n" + nodes.to_text();
  if (shown < r.producer_metrics.size())
    out += "(the first " + std::to_string(shown) + " of " + std::to_string(r.producer_metrics.size()) +
           " producers; every producer: --format json, or producer_metrics.csv with --out)\n";
  return out;
}

std::string producer_metrics_to_csv(const model::RunResult& r) {
  std::string out = "producer,node";
  for (const auto& s : kSpecs) (out += ',') += s.jmx;
  out += '\n';
  auto cell = [&](double v, int decimals) {
    out += ',';
    if (!std::isnan(v)) out += fixed(v, decimals);
  };
  for (const auto& m : r.producer_metrics) {
    append_csv_cell(out, m.producer);
    out += ',';
    for (const auto& s : kSpecs) cell(s.value(m), s.decimals);
    out += '\n';
  }
  for (const auto& m : r.producer_metrics)
    for (const auto& n : m.nodes) {
      if (n.requests == 0) continue;
      append_csv_cell(out, m.producer);
      out += ',' + node_name(n);
      for (const auto& s : kSpecs) {
        std::size_t i = 0;
        while (i < std::size(kNodeSpecs) && std::string_view(kNodeSpecs[i].jmx) != s.jmx) ++i;
        if (i < std::size(kNodeSpecs)) cell(producer_node_value(i, n), kNodeSpecs[i].decimals);
        else out += ',';
      }
      out += '\n';
    }
  return out;
}

}  // namespace partsim::analysis
