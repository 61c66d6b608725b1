#pragma once
// How long the records a group processed waited: from send() to the end of their first
// processing, over the whole run and per sample interval. Duplicates (an offset processed
// again, a record's second copy) are not counted.

#include <cstdint>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/consumer/order_check.hpp"
#include "model/latency_histogram.hpp"

namespace partsim::model::consumer {

/// send() to the end of processing of `p`, whose record is in `logs`.
inline SimTime processed_latency(const Processed& p, const BrokerLogs& logs) {
  return p.at - logs.partitions[static_cast<std::size_t>(p.log)].records[static_cast<std::size_t>(p.offset)].sent;
}

/// The latency of every first processing.
LatencyHistogram first_processing_latency(const std::vector<Processed>& processed, const BrokerLogs& logs);

/// Per interval [times[i], times[i + 1]) (the last one open: a record processed after the
/// last sample counts in it), the mean and the largest latency of the first processings
/// that ended in it, in ms; NaN for an interval without any.
struct IntervalLatency {
  std::vector<double> mean_ms, max_ms;
};
IntervalLatency latency_by_interval(const std::vector<Processed>& processed, const BrokerLogs& logs,
                                    const std::vector<double>& times_ms);

}  // namespace partsim::model::consumer
