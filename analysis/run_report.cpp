#include "analysis/run_report.hpp"

#include <cmath>
#include <vector>

#include "analysis/distribution.hpp"
#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

double per(std::int64_t a, std::int64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }
double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

std::vector<std::int64_t> partition_counts(const model::RunResult& r) {
  std::vector<std::int64_t> c;
  for (const auto& p : r.partitions) c.push_back(p.records);
  return c;
}

}  // namespace

nlohmann::ordered_json run_to_json(const model::RunResult& r) {
  nlohmann::ordered_json j;
  j["scenario"] = r.scenario;
  j["seed"] = r.seed;
  if (r.partial) j["partial"] = true;
  j["records_sent"] = r.records_sent;
  j["records_acked"] = r.records_acked;
  j["records_failed"] = r.failed.total();
  j["failures"] = {{"buffer_timeout", r.failed.buffer_timeout},
                   {"buffer_limit", r.failed.buffer_limit},
                   {"delivery_timeout", r.failed.delivery_timeout},
                   {"record_too_large", r.failed.record_too_large},
                   {"retries_exhausted", r.failed.retries_exhausted},
                   {"invalid_partition", r.failed.invalid_partition}};
  j["records_measured"] = r.records_measured;
  auto& parts = j["partitions"] = nlohmann::ordered_json::array();
  for (const auto& p : r.partitions) {
    parts.push_back({{"topic", p.topic}, {"partition", p.partition}, {"leader", p.leader}, {"records", p.records},
                     {"bytes", p.bytes}, {"batches", p.batches},
                     {"records_per_batch", round_to(per(p.records, p.batches), 3)},
                     {"bytes_per_batch", round_to(per(p.bytes, p.batches), 1)}});
  }
  auto& brokers = j["brokers"] = nlohmann::ordered_json::array();
  std::int64_t total_records = 0;
  for (const auto& b : r.brokers) total_records += b.records;
  for (const auto& b : r.brokers) {
    brokers.push_back({{"broker", b.broker}, {"records", b.records}, {"share", round_to(per(b.records, total_records), 4)},
                       {"bytes", b.bytes}, {"batches", b.batches}, {"requests", b.requests},
                       {"records_per_batch", round_to(per(b.records, b.batches), 3)},
                       {"mean_queue_wait_ms", round_to(b.requests ? b.queue_wait_ms_sum / static_cast<double>(b.requests) : 0.0, 4)}});
  }
  const auto counts = partition_counts(r);
  const auto d = distribution_stats(counts);
  j["distribution"] = {{"max_over_min", d.has_empty_bin ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(round_to(d.max_over_min, 4))},
                       {"cv", round_to(d.cv, 4)},
                       {"jain", round_to(d.jain, 4)},
                       {"kl_divergence", round_to(d.kl_divergence, 6)},
                       {"chi_square", round_to(d.chi_square, 4)},
                       {"p_value", round_to(d.p_value, 6)}};
  j["latency_ms"] = {{"p50", round_to(ms(r.latency.quantile(0.5)), 3)},
                     {"p99", round_to(ms(r.latency.quantile(0.99)), 3)},
                     {"p999", round_to(ms(r.latency.quantile(0.999)), 3)},
                     {"max", round_to(ms(r.latency.max()), 3)},
                     {"mean", round_to(r.latency.mean() / 1e6, 3)}};
  j["batch_bytes"] = {{"p10", r.batch_bytes.quantile(0.1)}, {"p50", r.batch_bytes.quantile(0.5)},
                      {"p90", r.batch_bytes.quantile(0.9)}, {"max", r.batch_bytes.max()},
                      {"mean", round_to(r.batch_bytes.mean(), 1)}};
  j["buffer_full_ms"] = round_to(r.buffer_full_ms, 3);
  j["peak_buffer_bytes"] = r.peak_buffer_bytes;
  j["retries"] = r.retries;
  j["partitioner_switches"] = r.partitioner_switches;
  j["simulated_ms"] = round_to(r.simulated_ms, 3);
  j["events"] = r.events;
  j["trace"] = r.trace;
  if (!r.adaptive_choices.empty()) {
    // Adaptive partitioning's choices against what the queue-size weights promised.
    const auto a = distribution_stats(r.adaptive_choices, r.adaptive_expected);
    std::int64_t draws = 0;
    for (auto c : r.adaptive_choices) draws += c;
    auto& check = j["adaptive_check"];
    check["draws"] = draws;
    check["chi_square"] = round_to(a.chi_square, 4);
    check["p_value"] = round_to(a.p_value, 6);
    auto& choices = check["partitions"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.adaptive_choices.size(); ++i)
      choices.push_back({{"partition", r.partitions[i].partition}, {"choices", r.adaptive_choices[i]},
                       {"expected", round_to(r.adaptive_expected[i], 3)}});
  }
  if (!r.leader_history.empty()) {
    auto& h = j["leader_history"] = nlohmann::ordered_json::array();
    for (const auto& snap : r.leader_history)
      h.push_back({{"time_ms", round_to(snap.time_ms, 3)}, {"cause", snap.cause}, {"leaders", snap.leaders}});
  }
  if (r.window_ms > 0) {
    auto& w = j["windows"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.windows.size(); ++i)
      w.push_back({{"start_ms", round_to(static_cast<double>(i) * r.window_ms, 3)}, {"records", r.windows[i]}});
  }
  return j;
}

std::string run_to_text(const model::RunResult& r) {
  std::string out;
  out += "scenario " + r.scenario + "  seed " + std::to_string(r.seed) + "  simulated " + fixed(r.simulated_ms, 1) + " ms\n";
  if (r.partial) out += "PARTIAL RESULT: the run was interrupted; records still in flight are neither acked nor failed\n";
  out += "records sent " + std::to_string(r.records_sent) + ", acked " + std::to_string(r.records_acked) + ", failed " +
         std::to_string(r.failed.total());
  if (r.failed.total() > 0)
    out += " (buffer timeout " + std::to_string(r.failed.buffer_timeout) + ", buffer limit " +
           std::to_string(r.failed.buffer_limit) + ", delivery timeout " +
           std::to_string(r.failed.delivery_timeout) + ", too large " + std::to_string(r.failed.record_too_large) +
           ", retries exhausted " + std::to_string(r.failed.retries_exhausted) + ", invalid partition " +
           std::to_string(r.failed.invalid_partition) + ")";
  out += "; measured (after warm-up) " + std::to_string(r.records_measured) + "\n\n";

  Table parts({{"topic", Align::kLeft}, {"partition"}, {"leader"}, {"records"}, {"share"}, {"bytes"}, {"batches"}, {"rec/batch"}, {"bytes/batch"}});
  std::int64_t total = 0;
  for (const auto& p : r.partitions) total += p.records;
  for (const auto& p : r.partitions)
    parts.add_row({p.topic, std::to_string(p.partition), std::to_string(p.leader), std::to_string(p.records),
                   fixed(per(p.records, total), 4), std::to_string(p.bytes), std::to_string(p.batches),
                   fixed(per(p.records, p.batches), 1), fixed(per(p.bytes, p.batches), 0)});
  out += parts.to_text() + "\n";

  Table brokers({{"broker"}, {"records"}, {"share"}, {"bytes"}, {"batches"}, {"requests"}, {"rec/batch"}, {"queue wait ms"}});
  for (const auto& b : r.brokers)
    brokers.add_row({std::to_string(b.broker), std::to_string(b.records), fixed(per(b.records, total), 4), std::to_string(b.bytes),
                     std::to_string(b.batches), std::to_string(b.requests), fixed(per(b.records, b.batches), 1),
                     fixed(b.requests ? b.queue_wait_ms_sum / static_cast<double>(b.requests) : 0.0, 3)});
  out += brokers.to_text() + "\n";

  const auto d = distribution_stats(partition_counts(r));
  out += "records per partition: max/min " + (d.has_empty_bin ? std::string("inf (an idle partition)") : fixed(d.max_over_min, 3)) +
         ", cv " + fixed(d.cv, 4) + ", Jain " + fixed(d.jain, 4) + ", chi-square " + fixed(d.chi_square, 2) + " (p = " + fixed(d.p_value, 4) + " vs uniform)\n";
  out += "latency send->ack ms: p50 " + fixed(ms(r.latency.quantile(0.5)), 3) + ", p99 " + fixed(ms(r.latency.quantile(0.99)), 3) +
         ", p99.9 " + fixed(ms(r.latency.quantile(0.999)), 3) + ", max " + fixed(ms(r.latency.max()), 3) + "\n";
  out += "batch bytes: p10 " + std::to_string(r.batch_bytes.quantile(0.1)) + ", p50 " + std::to_string(r.batch_bytes.quantile(0.5)) +
         ", p90 " + std::to_string(r.batch_bytes.quantile(0.9)) + ", max " + std::to_string(r.batch_bytes.max()) + "\n";
  out += "buffer full " + fixed(r.buffer_full_ms, 1) + " ms (peak " + std::to_string(r.peak_buffer_bytes) + " bytes), retries " +
         std::to_string(r.retries) + ", built-in partitioner switches " + std::to_string(r.partitioner_switches) + "\n";
  if (!r.adaptive_choices.empty()) {
    const auto a = distribution_stats(r.adaptive_choices, r.adaptive_expected);
    std::int64_t draws = 0;
    for (auto c : r.adaptive_choices) draws += c;
    out += "adaptive partitioning: " + std::to_string(draws) + " weighted draws; choices vs queue-size weights: chi-square " +
           fixed(a.chi_square, 2) + ", p = " + fixed(a.p_value, 4) + "\n";
  }
  if (!r.leader_history.empty()) {
    std::vector<Column> cols{{"time ms"}, {"cause", Align::kLeft}};
    for (const auto& b : r.brokers) cols.push_back({"broker " + std::to_string(b.broker) + " leaders"});
    Table h(std::move(cols));
    for (const auto& snap : r.leader_history) {
      std::vector<std::string> row{fixed(snap.time_ms, 1), snap.cause};
      for (auto n : snap.leaders) row.push_back(std::to_string(n));
      h.add_row(std::move(row));
    }
    out += "\nleaders per broker over time:\n" + h.to_text();
  }
  if (r.window_ms > 0 && !r.windows.empty()) {
    std::vector<Column> cols{{"window start ms"}};
    for (const auto& b : r.brokers) cols.push_back({"broker " + std::to_string(b.broker) + " share"});
    cols.push_back({"records"});
    Table w(std::move(cols));
    for (std::size_t i = 0; i < r.windows.size(); ++i) {
      std::int64_t sum = 0;
      for (auto c : r.windows[i]) sum += c;
      std::vector<std::string> row{fixed(static_cast<double>(i) * r.window_ms, 0)};
      for (auto c : r.windows[i]) row.push_back(fixed(per(c, sum), 4));
      row.push_back(std::to_string(sum));
      w.add_row(std::move(row));
    }
    out += "\nrecords per broker by send time:\n" + w.to_text();
  }
  if (!r.trace.empty()) {
    out += "first " + std::to_string(r.trace.size()) + " partitions:";
    for (auto p : r.trace) out += " " + std::to_string(p);
    out += "\n";
  }
  return out;
}

std::string partitions_to_csv(const model::RunResult& r) {
  Table t({{"topic"}, {"partition"}, {"leader"}, {"records"}, {"bytes"}, {"batches"}, {"records_per_batch"}, {"bytes_per_batch"}});
  for (const auto& p : r.partitions)
    t.add_row({p.topic, std::to_string(p.partition), std::to_string(p.leader), std::to_string(p.records), std::to_string(p.bytes),
               std::to_string(p.batches), fixed(per(p.records, p.batches), 3), fixed(per(p.bytes, p.batches), 1)});
  return t.to_csv();
}

}  // namespace partsim::analysis
