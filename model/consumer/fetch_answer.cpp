#include "model/consumer/fetch_answer.hpp"

#include <algorithm>
#include <cmath>

namespace partsim::model::consumer {

std::int64_t high_watermark(const PartitionLog& log, SimTime t) {
  const auto& r = log.records;  // readable is nondecreasing along offsets
  return std::upper_bound(r.begin(), r.end(), t, [](SimTime x, const LogRecord& rec) { return x < rec.readable; }) -
         r.begin();
}

FetchAnswer answer_fetch(const BrokerLogs& logs, const std::vector<double>& record_bytes,
                         const std::vector<FetchRequestPartition>& request, SimTime arrival,
                         const ConsumerConfig& config, const std::vector<std::int64_t>* limits) {
  auto log_of = [&](std::size_t i) -> const PartitionLog& {
    return logs.partitions[static_cast<std::size_t>(request[i].log)];
  };
  // When fetch.min.bytes are readable: walk the records past the positions in readable
  // order (a merge over the partitions) until their bytes reach it, or past the deadline.
  const SimTime deadline = arrival + config.fetch_max_wait;
  FetchAnswer a;
  a.at = deadline;
  std::vector<std::int64_t> next;
  for (const auto& p : request) next.push_back(p.from);
  // The records each partition may return (all of the log, or up to a follower's high watermark).
  const auto end_of = [&](std::size_t i) {
    const auto size = static_cast<std::int64_t>(log_of(i).records.size());
    return limits ? std::min(size, (*limits)[i]) : size;
  };
  double bytes = 0;
  while (true) {
    std::size_t best = request.size();
    SimTime best_t = SimTime::max();
    for (std::size_t i = 0; i < request.size(); ++i) {
      const auto& recs = log_of(i).records;
      if (next[i] < end_of(i) && recs[static_cast<std::size_t>(next[i])].readable < best_t) {
        best_t = recs[static_cast<std::size_t>(next[i])].readable;
        best = i;
      }
    }
    if (best == request.size() || best_t > deadline) break;
    bytes += record_bytes[static_cast<std::size_t>(request[best].log)];
    ++next[best];
    if (bytes >= config.fetch_min_bytes) {
      a.at = std::max(arrival, best_t);
      break;
    }
  }
  // The response, partition by partition in request order.
  double remaining = config.fetch_max_bytes;
  bool any = false;
  for (std::size_t i = 0; i < request.size(); ++i) {
    const std::int64_t avail = std::min(high_watermark(log_of(i), a.at), end_of(i)) - request[i].from;
    std::int64_t n = 0;
    if (avail > 0) {
      const double per = record_bytes[static_cast<std::size_t>(request[i].log)];
      const double budget = std::max(0.0, std::min<double>(config.max_partition_fetch_bytes, remaining));
      n = static_cast<std::int64_t>(std::floor(budget / per));
      if (!any) n = std::max<std::int64_t>(n, 1);
      n = std::min(n, avail);
      remaining -= static_cast<double>(n) * per;
    }
    any = any || n > 0;
    a.counts.push_back(n);
  }
  return a;
}

}  // namespace partsim::model::consumer
