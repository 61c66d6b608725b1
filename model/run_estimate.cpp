#include "model/run_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace partsim::model {

RunEstimate estimate_run(const Scenario& s) {
  RunEstimate e;
  const double duration_s = s.run.duration ? s.run.duration->to_sec() : std::numeric_limits<double>::infinity();
  // A closed loop sends at most one record per round trip per outstanding send.
  double min_rtt_s = std::numeric_limits<double>::infinity();
  for (const auto& b : s.brokers) min_rtt_s = std::min(min_rtt_s, std::max(b.rtt.to_sec(), 1e-6));
  if (std::isinf(min_rtt_s)) min_rtt_s = 1e-6;
  double by_producers = 0;
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
    double n = rate * duration_s;
    if (p.workload.records) n = std::min(n, static_cast<double>(*p.workload.records));
    by_producers += n;
    // Per partition: deques and counters; buffered records: their send times and batch slots.
    const double partitions = [&] {
      for (const auto& t : s.topics)
        if (t.name == p.workload.topic) return static_cast<double>(t.partitions);
      return 0.0;
    }();
    e.memory_bytes += partitions * 256 + static_cast<double>(p.config.buffer_memory_bytes) / 4;
    if (p.workload.keys.kind == KeySpec::Kind::kZipf) e.memory_bytes += static_cast<double>(p.workload.keys.cardinality) * 24;
  }
  e.records = s.run.records ? std::min(static_cast<double>(*s.run.records), by_producers) : by_producers;
  for (const auto& t : s.topics) e.memory_bytes += static_cast<double>(t.partitions) * (64.0 + 16.0 * t.replication_factor);
  e.memory_bytes += static_cast<double>(s.run.trace) * 4;
  return e;
}

std::string check_run_limits(const Scenario& s) {
  const auto e = estimate_run(s);
  char buf[256];
  if (!(e.records <= kMaxRecords)) {
    if (std::isinf(e.records))
      return "the run has no bound on the records it sends; set run.records or run.duration.ms";
    std::snprintf(buf, sizeof buf,
                  "estimated %.3g records, about %.1f hours at 5 million records/s (limit %.0e); lower run.records or run.duration.ms",
                  e.records, e.records / 5e6 / 3600, kMaxRecords);
    return buf;
  }
  if (e.memory_bytes > kMaxMemoryBytes) {
    std::snprintf(buf, sizeof buf, "estimated %.1f GiB of simulation state (limit %.0f GiB); lower the partitions, producers or buffer.memory",
                  e.memory_bytes / (1ull << 30), kMaxMemoryBytes / (1ull << 30));
    return buf;
  }
  return "";
}

}  // namespace partsim::model
