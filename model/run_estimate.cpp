#include "model/run_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace partsim::model {
namespace {

// Calibrated against peak RSS of the release build (README, "Absurd runs are refused").
// Per partition: the producer's deque (libstdc++ allocates a 512-byte node up front), the
// accumulator's flags and counters, the partitioner's lists, the result's row, and the
// row's JSON and table text when the report is written.
constexpr double kStateBytesPerPartition = 900;
constexpr double kReportBytesPerPartition = 600;
constexpr double kBytesPerReplicaSlot = 16;       // replica lists per partition
constexpr double kBytesPerZipfKey = 24;           // cumulative weights and the key text
constexpr double kBytesPerTraceEntry = 4;
constexpr double kRunResultBytes = 200e3;         // two 58 KB histograms, hot keys, vectors
constexpr double kProcessBytes = 8e6;             // the program, its libraries and allocator (RSS of a tiny run)
constexpr double kReportBytesPerMetric = 700;    // registry entry, summary, JSON and CSV row
// One row kept for batches.csv (a BatchRecord in a growing vector; the CSV is written a
// piece at a time).
constexpr double kBytesPerBatchRow = 150;  // measured 143 a row

// A heap block of n bytes costs n rounded up to 16 with an 8-byte header, at least 32.
double heap_block(double n) { return std::max(32.0, std::ceil((n + 8) / 16) * 16); }

// One time-series sample: its time and buffer use, and four vectors (queue and records per
// partition, in-flight and queue wait per broker). timeseries.csv is written a piece at a
// time and costs nothing that grows.
double bytes_per_sample(double partitions, double brokers) {
  // The outer vectors (a double, an int64 and four vector headers per sample) grow by
  // doubling: 1.5x on average.
  const double kept = (16 + 4 * 24) * 1.5 + heap_block(4 * partitions) + heap_block(8 * partitions) + heap_block(4 * brokers) +
                      heap_block(8 * brokers);
  return kept;
}

}  // namespace

double replication_metrics(double partitions, double brokers) { return 31 + 3 * partitions + 7 * brokers; }

RunEstimate estimate_run(const Scenario& s, const RunPlan& plan) {
  RunEstimate e;
  const double duration_s = s.run.duration ? s.run.duration->to_sec() : std::numeric_limits<double>::infinity();
  // A closed loop sends at most one record per round trip per outstanding send.
  double min_rtt_s = std::numeric_limits<double>::infinity();
  for (const auto& b : s.brokers) min_rtt_s = std::min(min_rtt_s, std::max(b.rtt.to_sec(), 1e-6));
  if (std::isinf(min_rtt_s)) min_rtt_s = 1e-6;
  double by_producers = 0, total_rate = 0;
  double buffered = 0, zipf = 0, zipf_keys = 0;
  for (const auto& p : s.producers) {
    const auto& a = p.workload.arrivals;
    double rate = 0;  // records per simulated second
    switch (a.kind) {
      case Arrivals::Kind::kConstant:
      case Arrivals::Kind::kPoisson:
      case Arrivals::Kind::kOnOff: rate = a.records_per_second; break;
      case Arrivals::Kind::kFlatOut: rate = 1e6 / std::max(a.send_cost.to_ms() * 1000, 1e-3); break;
      case Arrivals::Kind::kClosedLoop: rate = a.concurrency / min_rtt_s; break;
    }
    total_rate += rate;
    double n = rate * duration_s;
    if (p.workload.records) n = std::min(n, static_cast<double>(*p.workload.records));
    by_producers += n;
    // Buffered records: their send times and batch slots.
    buffered += static_cast<double>(p.config.buffer_memory_bytes) / 4;
    if (p.workload.keys.kind == KeySpec::Kind::kZipf) {
      zipf_keys += static_cast<double>(p.workload.keys.cardinality);
      zipf += static_cast<double>(p.workload.keys.cardinality) * kBytesPerZipfKey;
    }
  }
  e.records = s.run.records ? std::min(static_cast<double>(*s.run.records), by_producers) : by_producers;
  e.simulated_s = total_rate > 0 ? std::min(duration_s, e.records / total_rate) : duration_s;

  double partitions = 0, per_partition = kRunResultBytes + static_cast<double>(s.run.trace) * kBytesPerTraceEntry;
  for (const auto& t : s.topics) {
    partitions += t.partitions;
    per_partition += static_cast<double>(t.partitions) * (kStateBytesPerPartition + kBytesPerReplicaSlot * t.replication_factor);
  }
  const double brokers = static_cast<double>(s.brokers.size());

  const double concurrent = std::max(1.0, std::min<double>(plan.concurrent, static_cast<double>(plan.replications)));
  auto add = [&e](std::string what, double count, double bytes, std::string remedy) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", count);
    e.parts.push_back({what.replace(what.find('#'), 1, buf), bytes, std::move(remedy)});
  };
  // Simulation state exists once per run in memory at once.
  const std::string times = concurrent > 1 ? " x " + std::to_string(static_cast<long>(concurrent)) + " runs at once" : "";
  const std::string or_threads = concurrent > 1 ? ", or lower --threads" : "";
  add("simulation state of # partitions" + times, partitions, per_partition * concurrent, "lower the partitions" + or_threads);
  add("records buffered under buffer.memory: # bytes" + times, buffered * 4, buffered * concurrent,
      "lower buffer.memory" + or_threads);
  if (zipf_keys > 0) add("Zipf keys: #" + times, zipf_keys, zipf * concurrent, "lower keys.cardinality" + or_threads);
  add("report rows: # partitions", partitions, kProcessBytes + partitions * kReportBytesPerPartition, "lower the partitions");
  if (plan.timeseries > SimTime::zero()) {
    const double samples = std::floor(e.simulated_s / plan.timeseries.to_sec()) + 1;
    add("--timeseries: # samples", samples, samples * bytes_per_sample(partitions, brokers), "raise --timeseries MS or shorten the run");
  }
  if (plan.batches)  // at most one batch per record (linger.ms 0 on a fast broker comes close)
    add("batches.csv: up to # rows", e.records, e.records * kBytesPerBatchRow, "lower run.records or run.duration.ms, or drop --out");
  if (plan.replications > 1) {
    // Per metric: one double per replication, and its name, label and summary in the report.
    const double metrics = static_cast<double>(plan.runs) * replication_metrics(partitions, brokers);
    const double values = static_cast<double>(plan.replications) * metrics;
    add("replication summaries: # metric values", values, values * 8 + metrics * kReportBytesPerMetric,
        "lower --replications or the partitions");
  } else if (plan.runs > 1) {
    add("compared results: # runs", static_cast<double>(plan.runs),
        static_cast<double>(plan.runs) * (kRunResultBytes + partitions * kReportBytesPerPartition), "compare fewer runs");
  }
  std::sort(e.parts.begin(), e.parts.end(), [](const MemoryPart& a, const MemoryPart& b) { return a.bytes > b.bytes; });
  for (const auto& part : e.parts) e.memory_bytes += part.bytes;
  return e;
}

std::string check_run_limits(const Scenario& s, const RunPlan& plan) {
  const auto e = estimate_run(s, plan);
  char buf[512];
  if (!(e.records <= kMaxRecords)) {
    if (std::isinf(e.records))
      return "the run has no bound on the records it sends; set run.records or run.duration.ms";
    std::snprintf(buf, sizeof buf,
                  "estimated %.3g records, about %.1f hours at 5 million records/s (limit %.0e); lower run.records or run.duration.ms",
                  e.records, e.records / 5e6 / 3600, kMaxRecords);
    return buf;
  }
  if (e.memory_bytes > kMaxMemoryBytes) {
    const auto& top = e.parts.front();
    std::snprintf(buf, sizeof buf, "estimated %.1f GiB of memory (limit %.0f GiB), %.1f GiB of it for %s; %s",
                  e.memory_bytes / (1ull << 30), kMaxMemoryBytes / (1ull << 30), top.bytes / (1ull << 30), top.what.c_str(),
                  top.remedy.c_str());
    return buf;
  }
  return "";
}

}  // namespace partsim::model
