#include "model/run_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace partsim::model {
namespace {

// Calibrated against peak RSS of the release build (docs/robustness.md, "Absurd runs are refused").
// Each producer keeps, per partition of its topic, a 40-byte partition state, its leaf in
// its leader's min-tree (2 x next-power-of-two(partitions led by the node) x 8 bytes),
// bits in the ready and drain bitsets, adaptive counters and metadata lists: measured 92
// bytes a partition with 3 brokers (1,000,000 partitions, 1 to 4 producers) and 84 with
// 10 (1,000 partitions, 200 producers).
constexpr double kBytesPerProducerPartition = 100;
constexpr double kBytesPerProducer = 16e3;  // sender, metadata, pool, random streams: measured 10 KB
// The run's own per-partition state (result rows, leadership, broker counters): measured 149.
constexpr double kRunBytesPerPartition = 150;
// The report's rows: the table, its text and the JSON (measured 0.95 to 1.1 KB a
// partition at 100,000 and 1,000,000); they outlive the simulation state but not by much,
// so the two are added.
constexpr double kReportBytesPerPartition = 1000;
constexpr double kBytesPerReplicaSlot = 16;  // replica lists per partition
constexpr double kBytesPerZipfKey = 24;      // cumulative weights and the key text
constexpr double kBytesPerTraceEntry = 4;
constexpr double kBytesPerGroupPartition = 150;  // a consumer group's state per partition
constexpr double kRunResultBytes = 200e3;        // two 58 KB histograms, hot keys, vectors
// A finished run's row per partition (model::PartitionStats: 64 bytes, a topic name past
// 15 characters on the heap besides).
constexpr double kResultBytesPerPartition = 80;
// A sweep's point as it waits for its rows: its loaded Scenario, its label, assignments and
// seed (measured: 2.8 KB a point, peak RSS of `sweep --emit k8s` at 5,000 and 20,000 points
// of slow-broker.yaml: 22.2 and 63.5 MB).
constexpr double kBytesPerSweepPoint = 3000;
constexpr double kProcessBytes = 8e6;          // the program, its libraries and allocator (RSS of a tiny run)
constexpr double kReportBytesPerMetric = 700;  // registry entry, summary, JSON and CSV row
// Batches in memory: a slot in the run's batch arena, which keeps as many slots as batches
// were ever alive at once (a 64-byte ProducerBatch and an 80-byte BatchDetail beside it);
// and per record after the first the send() time it was meant for (8 bytes).
constexpr double kBytesPerBatch = 150;
constexpr double kBytesPerBufferedRecord = 8;
// The smallest v2 record (spec §3.3): attributes, timestamp and offset deltas, key and
// value lengths and header count of one byte each, and its length: 7 bytes with a null
// key and an empty value. A full buffer.memory of 7-byte records holds the most send times.
constexpr double kMinRecordBytes = 7;
// One row kept for batches.csv (a BatchRecord in a growing vector; the CSV is written a
// piece at a time).
constexpr double kBytesPerBatchRow = 150;  // measured 145 a row

// A heap block of n bytes costs n rounded up to 16 with an 8-byte header, at least 32.
double heap_block(double n) { return std::max(32.0, std::ceil((n + 8) / 16) * 16); }

// One time-series sample: its time and buffer use, and four vectors (queue and records per
// partition, in-flight and queue wait per broker). timeseries.csv is written a piece at a
// time and costs nothing that grows.
double bytes_per_sample(double partitions, double brokers) {
  // The outer vectors (a double, an int64 and four vector headers per sample) grow by
  // doubling: right after a growth they hold twice their size, and during it the old copy
  // as well (1.5x on average underestimated short runs: 0.79x at 200,000 samples).
  const double kept = (16 + 4 * 24) * 2.0 + heap_block(4 * partitions) + heap_block(8 * partitions) +
                      heap_block(4 * brokers) + heap_block(8 * brokers);
  return kept;
}

// The fewest bytes a record of this workload takes in a batch: the smallest value and
// headers (keys may be empty, so they count for nothing).
double min_record_bytes(const Workload& w) {
  double value = 0;
  const auto& v = w.values;
  if (!v.null_value) {
    switch (v.kind) {
      case ValueSpec::Kind::kFixed: value = v.size_bytes; break;
      case ValueSpec::Kind::kUniform: value = v.min_bytes; break;
      case ValueSpec::Kind::kTemplate:  // the text without its {i} placeholders, each at least one digit
        for (std::size_t at = 0; at < v.value_template.size(); ++at) {
          if (v.value_template.compare(at, 3, "{i}") == 0) at += 2;
          ++value;
        }
        break;
      case ValueSpec::Kind::kLognormal: value = 0; break;  // draws can be near 0
    }
  }
  return kMinRecordBytes + value +
         static_cast<double>(w.header_count) * (2.0 + w.header_key_bytes + w.header_value_bytes);
}

// What a producer's batches can hold at once: buffer.memory gives each batch at least
// batch.size, and holds at most buffer.memory / (smallest record) records; neither is more
// than the records the producer sends.
double batch_bytes(const ProducerConfig& c, double min_record, double records) {
  const double buffer = static_cast<double>(c.buffer_memory_bytes);
  const double batches = std::min(records, std::max(1.0, buffer / std::max(1, c.batch_size_bytes)));
  const double buffered_records = std::min(records, buffer / min_record);
  return batches * kBytesPerBatch + buffered_records * kBytesPerBufferedRecord;
}

}  // namespace

double replication_metrics(double partitions, double brokers, double producers, double topics) {
  return 30 + 6 * topics + 3 * partitions + 7 * brokers + producers * (12 + 2 * brokers);
}

RunEstimate estimate_run(const Scenario& s, const RunPlan& plan) {
  RunEstimate e;
  const double duration_s = s.run.duration ? s.run.duration->to_sec() : std::numeric_limits<double>::infinity();
  // A closed loop sends at most one record per round trip per outstanding send.
  double min_rtt_s = std::numeric_limits<double>::infinity();
  for (const auto& b : s.brokers) min_rtt_s = std::min(min_rtt_s, std::max(b.rtt.to_sec(), 1e-6));
  if (std::isinf(min_rtt_s)) min_rtt_s = 1e-6;
  double by_producers = 0, total_rate = 0;
  double buffer_bytes = 0, buffered = 0, zipf = 0, zipf_keys = 0, producer_partitions = 0;
  const double run_records = s.run.records ? static_cast<double>(*s.run.records)
                                           : std::numeric_limits<double>::infinity();
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
    // Its topic's partitions (the engine takes the first topic when none has the name).
    double topic_partitions = s.topics.empty() ? 0 : s.topics.front().partitions_before(s.run.duration);
    if (const auto t = s.topic_index(p.workload.topic))
      topic_partitions = s.topics[*t].partitions_before(s.run.duration);
    producer_partitions += topic_partitions;
    buffer_bytes += static_cast<double>(p.config.buffer_memory_bytes);
    buffered += batch_bytes(p.config, min_record_bytes(p.workload), std::min(n, run_records));
    if (p.workload.keys.kind == KeySpec::Kind::kZipf) {
      zipf_keys += static_cast<double>(p.workload.keys.cardinality);
      zipf += static_cast<double>(p.workload.keys.cardinality) * kBytesPerZipfKey;
    }
  }
  e.records = std::min(run_records, by_producers);
  e.simulated_s = total_rate > 0 ? std::min(duration_s, e.records / total_rate) : duration_s;

  double partitions = 0;
  double state = kRunResultBytes + static_cast<double>(s.run.trace) * kBytesPerTraceEntry +
                 static_cast<double>(s.producers.size()) * kBytesPerProducer +
                 producer_partitions * kBytesPerProducerPartition;
  for (const auto& t : s.topics) {
    partitions += t.partitions_before(s.run.duration);  // every partition the topic will have
    state += static_cast<double>(t.partitions_before(s.run.duration)) *
             (kRunBytesPerPartition + kBytesPerReplicaSlot * t.replication_factor);
  }
  const double brokers = static_cast<double>(s.brokers.size());

  // A sweep runs `concurrent` rows at once whatever its replications.
  const double concurrent =
      std::max(1.0, plan.sweep ? static_cast<double>(plan.concurrent)
                               : std::min<double>(plan.concurrent, static_cast<double>(plan.replications)));
  auto add = [&e](std::string what, double count, double bytes, std::string remedy) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", count);
    e.parts.push_back({what.replace(what.find('#'), 1, buf), bytes, std::move(remedy)});
  };
  // Simulation state exists once per run in memory at once.
  const std::string times = concurrent > 1 ? " x " + std::to_string(static_cast<long>(concurrent)) + " runs at once"
                                           : "";
  const std::string or_threads = concurrent > 1 ? ", or lower --threads" : "";
  const std::string producers = s.producers.size() > 1 ? " and " + std::to_string(s.producers.size()) + " producers"
                                                       : "";
  add("simulation state of # partitions" + producers + times, partitions, state * concurrent,
      "lower the partitions" + std::string(producers.empty() ? "" : " or producers") + or_threads);
  add("batches under buffer.memory: # bytes" + times, buffer_bytes, buffered * concurrent,
      "lower buffer.memory" + or_threads);
  if (zipf_keys > 0) add("Zipf keys: #" + times, zipf_keys, zipf * concurrent, "lower keys.cardinality" + or_threads);
  if (plan.sweep) {
    // A sweep's row is its run-wide metrics, written to the store as it comes: no report
    // rows. Finished runs wait, at most two per thread, for an earlier row to be written
    // (sim::replication_window); the points' loaded scenarios are kept for the whole sweep.
    const double waiting = 2 * concurrent;
    add("finished runs waiting their turn to be stored (2 per thread): #", waiting,
        kProcessBytes + waiting * (kRunResultBytes + partitions * kResultBytesPerPartition),
        "lower the partitions, or lower --threads");
    add("the sweep's points: # loaded scenarios", static_cast<double>(plan.sweep_points),
        static_cast<double>(plan.sweep_points) * kBytesPerSweepPoint, "split the sweep into several files");
  } else {
    add("report rows: # partitions", partitions, kProcessBytes + partitions * kReportBytesPerPartition,
        "lower the partitions");
  }
  if (plan.timeseries > SimTime::zero()) {
    const double samples = std::floor(e.simulated_s / plan.timeseries.to_sec()) + 1;
    add("--timeseries: # samples", samples, samples * bytes_per_sample(partitions, brokers),
        "raise --timeseries MS or shorten the run");
  }
  if (!s.consumers.empty()) {
    // Consumer groups keep the brokers' logs (a 40-byte LogRecord per record) and, per
    // group, one 32-byte Processed per record processed; vectors at their doubling peak
    // (x 2). Sizes from the structs, not calibrated against RSS like the parts above.
    const double groups = static_cast<double>(s.consumers.size());
    add("brokers' logs and records processed by # consumer groups" + times, groups,
        e.records * (80.0 + 64.0 * groups) * concurrent, "lower run.records or run.duration.ms" + or_threads);
    // Per partition and group: its state, its name in the lag table, owner and assignment
    // (a 20 s run whose topic grows to 10^6 partitions, read by one group, peaks 78 MB
    // (table) to 292 MB (JSON, the group's rows included) above the same run without it).
    add("consumer groups' partition state: # partitions x groups" + times, partitions * groups,
        partitions * groups * kBytesPerGroupPartition * concurrent, "lower the partitions" + or_threads);
  }
  if (plan.batches)  // at most one batch per record (linger.ms 0 on a fast broker comes close)
    add("batches.csv: up to # rows", e.records, e.records * kBytesPerBatchRow,
        "lower run.records or run.duration.ms, or drop --out");
  if (plan.sweep) {
    // nothing kept per run: each row goes to the store
  } else if (plan.replications > 1) {
    // Per metric: one double per replication, and its name, label and summary in the report.
    const double metrics = static_cast<double>(plan.runs) * replication_metrics(partitions, brokers,
                                                                                static_cast<double>(s.producers.size()),
                                                                                static_cast<double>(s.topics.size()));
    const double values = static_cast<double>(plan.replications) * metrics;
    add("replication summaries: # metric values", values, values * 8 + metrics * kReportBytesPerMetric,
        "lower --replications or the partitions");
  } else if (plan.runs > 1) {
    add("compared results: # runs", static_cast<double>(plan.runs),
        static_cast<double>(plan.runs) * (kRunResultBytes + partitions * kReportBytesPerPartition),
        "compare fewer runs");
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
    std::snprintf(
        buf, sizeof buf,
        "estimated %.3g records, about %.1f hours at 5 million records/s (limit %.0e); lower run.records or run.duration.ms",
        e.records, e.records / 5e6 / 3600, kMaxRecords);
    return buf;
  }
  if (e.memory_bytes > kMaxMemoryBytes) {
    const auto& top = e.parts.front();
    std::snprintf(buf, sizeof buf, "estimated %.1f GiB of memory (limit %.0f GiB), %.1f GiB of it for %s; %s",
                  e.memory_bytes / (1ull << 30), kMaxMemoryBytes / (1ull << 30), top.bytes / (1ull << 30),
                  top.what.c_str(), top.remedy.c_str());
    return buf;
  }
  return "";
}

}  // namespace partsim::model
