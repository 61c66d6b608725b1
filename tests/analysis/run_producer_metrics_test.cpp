// The producer metrics' outputs: run's JSON shape ({"<producer>": {JMX name: value, ...,
// "nodes": {"<id>": {...}}}}), the CSV with node-<id> rows, the table, and the registry's
// machine names.

#include "analysis/run_producer_metrics.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "analysis/run_metrics.hpp"
#include "analysis/run_report.hpp"
#include "model/run_estimate.hpp"

using namespace partsim::analysis;
using partsim::model::ProducerMetrics;
using partsim::model::ProducerNodeMetrics;
using partsim::model::RunResult;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Producer "p" sent to brokers 1 and 4 (not 2); producer "q" sent nothing.
RunResult run_with_producers() {
  RunResult r;
  r.brokers = {{1}, {2}, {4}};
  ProducerMetrics p;
  p.producer = "p";
  p.record_send_total = 12;
  p.record_send_rate = 120.0;
  p.batches = 4;
  p.batch_size_avg = 250.5;
  p.batch_size_max = 400;
  p.requests = 3;
  p.records_per_request_avg = 4.0;
  p.responses = 3;
  p.request_latency_avg = 3.25;
  p.request_latency_max = 5.5;
  p.record_queue_time_avg = 1.5;
  p.record_queue_time_max = 2.0;
  p.bufferpool_wait_ratio = 0.125;
  p.record_retry_total = 2;
  p.record_error_total = 1;
  p.nodes = {ProducerNodeMetrics{1, 2, 2, 4.25, 2.125, 2.25}, ProducerNodeMetrics{2, 0, 0, 0, kNaN, kNaN},
             ProducerNodeMetrics{4, 1, 1, 5.5, 5.5, 5.5}};
  ProducerMetrics q;
  q.producer = "q";
  for (double* v : {&q.batch_size_avg, &q.batch_size_max, &q.records_per_request_avg, &q.request_latency_avg,
                    &q.request_latency_max, &q.record_queue_time_avg, &q.record_queue_time_max})
    *v = kNaN;
  q.nodes = {ProducerNodeMetrics{1, 0, 0, 0, kNaN, kNaN}, ProducerNodeMetrics{2, 0, 0, 0, kNaN, kNaN},
             ProducerNodeMetrics{4, 0, 0, 0, kNaN, kNaN}};
  r.producer_metrics = {p, q};
  return r;
}

}  // namespace

TEST_CASE("run's JSON names each producer's metrics as the Java client does, nodes by id") {
  const auto j = run_to_json(run_with_producers());
  REQUIRE(j.contains("producer_metrics"));
  const auto& pm = j["producer_metrics"];
  REQUIRE(pm.is_object());
  CHECK(pm.size() == 2);
  const auto& p = pm["p"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : p.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"record-send-total", "record-send-rate", "batch-size-avg", "batch-size-max",
                                         "records-per-request-avg", "request-latency-avg", "request-latency-max",
                                         "record-queue-time-avg", "record-queue-time-max", "bufferpool-wait-ratio",
                                         "record-retry-total", "record-error-total", "nodes"});
  CHECK(p["record-send-total"].is_number_integer());
  CHECK(p["record-send-total"] == 12);
  CHECK(p["batch-size-max"].is_number_integer());
  CHECK(p["batch-size-avg"] == 250.5);
  CHECK(p["request-latency-avg"] == 3.25);
  CHECK(p["bufferpool-wait-ratio"] == 0.125);
  CHECK(p["record-error-total"] == 1);
  // Only the nodes it sent requests to, by broker id.
  const auto& nodes = p["nodes"];
  CHECK(nodes.size() == 2);
  CHECK(nodes["1"]["request-latency-avg"] == 2.125);
  CHECK(nodes["1"]["request-latency-max"] == 2.25);
  CHECK(nodes["4"]["request-latency-max"] == 5.5);
  CHECK_FALSE(nodes.contains("2"));
  // Nothing recorded: Kafka's NaN is null; totals are 0.
  const auto& q = pm["q"];
  CHECK(q["batch-size-avg"].is_null());
  CHECK(q["request-latency-max"].is_null());
  CHECK(q["record-send-total"] == 0);
  CHECK(q["nodes"].empty());
}

TEST_CASE("the CSV has a row per producer and one per producer and node-<id>") {
  const auto csv = producer_metrics_to_csv(run_with_producers());
  const std::string header =
      "producer,node,record-send-total,record-send-rate,batch-size-avg,batch-size-max,records-per-request-avg,"
      "request-latency-avg,request-latency-max,record-queue-time-avg,record-queue-time-max,bufferpool-wait-ratio,"
      "record-retry-total,record-error-total\n";
  CHECK(csv == header + "p,,12,120.000,250.500,400,4.000,3.250,5.500,1.500,2.000,0.125000,2,1\n"
                        "q,,0,0.000,,,,,,,,0.000000,0,0\n"
                        "p,node-1,,,,,,2.125,2.250,,,,,\n"
                        "p,node-4,,,,,,5.500,5.500,,,,,\n");
}

TEST_CASE("the run's table shows the JMX names and node-<id>") {
  const auto text = run_to_text(run_with_producers());
  CHECK(text.find("producer metrics (the Java client's JMX names, over the whole run)") != std::string::npos);
  CHECK(text.find("records-per-request-avg") != std::string::npos);
  CHECK(text.find("node-4") != std::string::npos);
  CHECK(text.find("node-2") == std::string::npos);
}

TEST_CASE("the registry names producer metrics by producer and node, with every broker as a node") {
  const RunResult r = run_with_producers();
  const MetricRegistry reg(r);
  const auto v = reg.values(r);
  REQUIRE(v.size() == reg.size());
  CHECK(v[reg.find("producer.p.record_send_total")] == 12);
  CHECK(v[reg.find("producer.p.batch_size_avg_bytes")] == 250.5);
  CHECK(v[reg.find("producer.p.request_latency_max_ms")] == 5.5);
  CHECK(v[reg.find("producer.p.bufferpool_wait_ratio")] == 0.125);
  CHECK(v[reg.find("producer.p.node.4.request_latency_avg_ms")] == 5.5);
  CHECK(std::isnan(v[reg.find("producer.p.node.2.request_latency_avg_ms")]));
  CHECK(std::isnan(v[reg.find("producer.q.record_queue_time_avg_ms")]));
  CHECK(reg[reg.find("producer.p.record_send_rate")].label == "producer p record-send-rate");
  // The memory estimate of a replicated run counts them too.
  CHECK(partsim::model::replication_metrics(0, 3, 2) == static_cast<double>(reg.size()));
}
