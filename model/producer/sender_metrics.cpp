#include "model/producer/sender_metrics.hpp"

#include <limits>

namespace partsim::model {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kNsPerMs = 1e6;

double d(std::int64_t v) { return static_cast<double>(v); }
// Avg.measure / Max.measure (kafka-consumer-spec §10.2): NaN when nothing was recorded.
double avg(const SensorSum& s, double unit) { return s.count == 0 ? kNaN : d(s.sum) / d(s.count) / unit; }
double max(const SensorSum& s, double unit) { return s.count == 0 ? kNaN : d(s.max) / unit; }

}  // namespace

ProducerMetrics producer_metrics(std::string name, const SenderMetrics& sender, sim::SimTime buffer_wait,
                                 std::int64_t send_errors, sim::SimTime run_time,
                                 std::span<const std::int32_t> node_ids) {
  ProducerMetrics m;
  m.producer = std::move(name);
  // With a sample window longer than the run, a Rate is its one sample's total over the
  // elapsed time; partsim counts the elapsed time from the run's start (Kafka: from the
  // sensor's first record, padded by a window while metrics.num.samples > 1; §10.2).
  const double seconds = run_time.to_sec();
  auto per_second = [&](double v) { return seconds > 0 ? v / seconds : 0.0; };
  m.record_send_total = sender.records_per_request.sum;
  m.record_send_rate = per_second(d(m.record_send_total));
  m.requests = sender.records_per_request.count;
  m.records_per_request_avg = avg(sender.records_per_request, 1.0);
  m.batches = sender.batch_bytes.count;
  m.batch_size_avg = avg(sender.batch_bytes, 1.0);
  m.batch_size_max = max(sender.batch_bytes, 1.0);
  m.responses = sender.request_latency_ns.count;
  m.request_latency_avg = avg(sender.request_latency_ns, kNsPerMs);
  m.request_latency_max = max(sender.request_latency_ns, kNsPerMs);
  m.record_queue_time_avg = avg(sender.queue_time_ns, kNsPerMs);
  m.record_queue_time_max = max(sender.queue_time_ns, kNsPerMs);
  // bufferpool-wait-ratio: a Meter of the waiting nanoseconds, its rate in ns per ns.
  m.bufferpool_wait_ms = buffer_wait.to_ms();
  m.bufferpool_wait_ratio = per_second(buffer_wait.to_sec());
  m.record_retry_total = sender.record_retry_total;
  m.record_error_total = sender.record_error_total + send_errors;
  for (std::size_t i = 0; i < node_ids.size(); ++i) {
    ProducerNodeMetrics& n = m.nodes.emplace_back();
    n.node = node_ids[i];
    n.request_latency_avg_ms = n.request_latency_max_ms = kNaN;
    if (i >= sender.node_latency_ns.size()) continue;
    const SensorSum& s = sender.node_latency_ns[i];
    n.requests = sender.node_requests[i];
    n.responses = s.count;
    n.request_latency_sum_ms = d(s.sum) / kNsPerMs;
    n.request_latency_avg_ms = avg(s, kNsPerMs);
    n.request_latency_max_ms = max(s, kNsPerMs);
  }
  return m;
}

}  // namespace partsim::model
