#pragma once
// What the Java Sender's SenderMetrics records (kafka-consumer-spec §10.1), kept as exact
// integer sums over the whole run: the producer's own metrics (record-send-total,
// batch-size-avg, request-latency-max, ...) are formed from these when the run ends
// (ProducerMetrics in model/run_result.hpp). Recording is a few additions per request and
// per batch, on paths that already touch the batch.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/run_result.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model {

/// One sensor's Avg and Max over every recorded value (kafka-consumer-spec §10.2, with a
/// sample window longer than the run): the count, the sum and the largest value.
struct SensorSum {
  std::int64_t count = 0;
  std::int64_t sum = 0;
  std::int64_t max = 0;  ///< 0 while count is 0
  void record(std::int64_t v) {
    max = count == 0 || v > max ? v : max;
    ++count;
    sum += v;
  }
};

struct SenderMetrics {
  /// records-per-request: one sample per node drained (Σ recordCount of its batches), the
  /// Meter behind record-send-rate/-total records the same values (SND:975-977).
  SensorSum records_per_request;
  SensorSum batch_bytes;         ///< batch-size: estimatedSizeInBytes of each drained batch (SND:960-962)
  SensorSum queue_time_ns;       ///< record-queue-time: drained - created per drained batch (SND:967-969)
  SensorSum request_latency_ns;  ///< request-latency: response - send per produce response (SND:971-973)
  /// Per node (index into the producer's nodes): its request latencies and the produce
  /// requests sent to it (a node with none has no producer-node-metrics).
  std::vector<SensorSum> node_latency_ns;
  std::vector<std::int64_t> node_requests;
  std::int64_t record_retry_total = 0;  ///< recordCount of each re-enqueued batch (SND:979-980, 746)
  std::int64_t record_error_total = 0;  ///< recordCount of each failed batch (SND:982-983, 828)
};

/// The producer's metrics at the end of a run of `run_time`: `sender`'s sums, the time its
/// send() calls waited for buffer.memory, the records send() failed with an ApiException
/// (they count in record-error-total) and each node's broker id.
ProducerMetrics producer_metrics(std::string name, const SenderMetrics& sender, sim::SimTime buffer_wait,
                                 std::int64_t send_errors, sim::SimTime run_time,
                                 std::span<const std::int32_t> node_ids);

}  // namespace partsim::model
