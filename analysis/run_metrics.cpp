#include "analysis/run_metrics.hpp"

#include "analysis/distribution.hpp"

namespace partsim::analysis {

std::vector<Metric> flatten_metrics(const model::RunResult& r) {
  std::vector<Metric> m;
  auto add = [&m](std::string name, double v) { m.emplace_back(std::move(name), v); };
  auto d = [](std::int64_t v) { return static_cast<double>(v); };
  add("records_sent", d(r.records_sent));
  add("records_acked", d(r.records_acked));
  add("records_failed", d(r.failed.total()));
  add("failures.buffer_timeout", d(r.failed.buffer_timeout));
  add("failures.buffer_limit", d(r.failed.buffer_limit));
  add("failures.delivery_timeout", d(r.failed.delivery_timeout));
  add("failures.record_too_large", d(r.failed.record_too_large));
  add("failures.retries_exhausted", d(r.failed.retries_exhausted));
  add("failures.invalid_partition", d(r.failed.invalid_partition));
  std::int64_t total = 0, total_bytes = 0;
  for (const auto& b : r.brokers) {
    total += b.records;
    total_bytes += b.bytes;
  }
  std::vector<std::int64_t> counts;
  for (const auto& p : r.partitions) {
    const std::string key = "partition." + p.topic + "." + std::to_string(p.partition);
    add(key + ".records", d(p.records));
    add(key + ".bytes", d(p.bytes));
    add(key + ".batches", d(p.batches));
    counts.push_back(p.records);
  }
  for (const auto& b : r.brokers) {
    const std::string key = "broker." + std::to_string(b.broker);
    add(key + ".records", d(b.records));
    add(key + ".share", total ? d(b.records) / d(total) : 0.0);
    add(key + ".bytes_share", total_bytes ? d(b.bytes) / d(total_bytes) : 0.0);
    add(key + ".batches", d(b.batches));
    add(key + ".requests", d(b.requests));
    add(key + ".records_per_batch", b.batches ? d(b.records) / d(b.batches) : 0.0);
    add(key + ".mean_queue_wait_ms", b.requests ? b.queue_wait_ms_sum / d(b.requests) : 0.0);
  }
  const auto ds = distribution_stats(counts);
  add("distribution.max_over_min", ds.max_over_min);
  add("distribution.cv", ds.cv);
  add("distribution.jain", ds.jain);
  add("distribution.chi_square", ds.chi_square);
  add("distribution.p_value", ds.p_value);
  add("distribution.kl_divergence", ds.kl_divergence);
  add("latency_ms.p50", d(r.latency.quantile(0.5)) / 1e6);
  add("latency_ms.p99", d(r.latency.quantile(0.99)) / 1e6);
  add("latency_ms.p999", d(r.latency.quantile(0.999)) / 1e6);
  add("latency_ms.max", d(r.latency.max()) / 1e6);
  add("latency_ms.mean", r.latency.mean() / 1e6);
  add("batch_bytes.p50", d(r.batch_bytes.quantile(0.5)));
  add("batch_bytes.mean", r.batch_bytes.mean());
  add("buffer_full_ms", r.buffer_full_ms);
  add("retries", d(r.retries));
  add("partitioner_switches", d(r.partitioner_switches));
  add("simulated_ms", r.simulated_ms);
  return m;
}

}  // namespace partsim::analysis
