#include "model/consumer/processed_latency.hpp"

#include <algorithm>
#include <limits>

namespace partsim::model::consumer {

LatencyHistogram first_processing_latency(const std::vector<Processed>& processed, const BrokerLogs& logs) {
  LatencyHistogram h;
  for (const Processed& p : processed)
    if (!p.duplicate) h.record(processed_latency(p, logs).count_ns());
  return h;
}

IntervalLatency latency_by_interval(const std::vector<Processed>& processed, const BrokerLogs& logs,
                                    const std::vector<double>& times_ms) {
  const std::size_t n = times_ms.size();
  IntervalLatency out;
  out.mean_ms.assign(n, 0.0);
  out.max_ms.assign(n, 0.0);
  if (n == 0) return out;
  std::vector<std::int64_t> count(n, 0);
  for (const Processed& p : processed) {
    if (p.duplicate) continue;
    const auto later = std::upper_bound(times_ms.begin(), times_ms.end(), p.at.to_ms());
    const std::size_t i = later == times_ms.begin() ? 0 : static_cast<std::size_t>(later - times_ms.begin() - 1);
    const double ms = processed_latency(p, logs).to_ms();
    ++count[i];
    out.mean_ms[i] += ms;
    out.max_ms[i] = std::max(out.max_ms[i], ms);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (count[i] > 0) {
      out.mean_ms[i] /= static_cast<double>(count[i]);
    } else {  // nothing processed: no latency (JSON null, a gap in the chart)
      out.mean_ms[i] = std::numeric_limits<double>::quiet_NaN();
      out.max_ms[i] = std::numeric_limits<double>::quiet_NaN();
    }
  }
  return out;
}

}  // namespace partsim::model::consumer
