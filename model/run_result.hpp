#pragma once
// What a run produces: plain data, formatted elsewhere (analysis/ and cli/).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/disk_result.hpp"
#include "model/group_result.hpp"
#include "model/latency_histogram.hpp"
#include "model/migration_result.hpp"
#include "model/reassignment_result.hpp"
#include "model/repartition_result.hpp"
#include "model/traffic_result.hpp"

namespace partsim::model {

struct BrokerLogs;  // model/cluster/partition_log.hpp (a domain header: not included at root)

struct PartitionStats {
  std::string topic;
  std::int32_t partition = 0;
  std::int32_t leader = -1;  ///< broker id at the end of the run (-1 = none)
  std::int64_t records = 0;  ///< records acknowledged
  std::int64_t bytes = 0;    ///< batch bytes on the wire (headers included)
  std::int64_t batches = 0;
  /// How long the partition existed while the records counted here were sent (from the
  /// warm-up or its creation, whichever is later, to the run's last send), in ms: the same
  /// for every partition of a topic without a schedule; 0 for one a step never made.
  double existed_ms = 0;
};

struct BrokerStats {
  std::int32_t broker = 0;
  std::int64_t records = 0;
  std::int64_t bytes = 0;
  std::int64_t batches = 0;
  std::int64_t requests = 0;
  double queue_wait_ms_sum = 0;  ///< time requests waited in the broker's queue
};

/// Why a record failed.
enum class FailureReason {
  kBufferTimeout,
  kBufferLimit,
  kDeliveryTimeout,
  kRecordTooLarge,
  kRetriesExhausted,
  kInvalidPartition
};

/// Why records failed (each failed record is counted under exactly one reason).
struct FailureCounts {
  std::int64_t buffer_timeout = 0;     ///< send() blocked longer than max.block.ms
  std::int64_t buffer_limit = 0;       ///< a new batch larger than buffer.memory (BufferPool's hard limit)
  std::int64_t delivery_timeout = 0;   ///< not acknowledged within delivery.timeout.ms
  std::int64_t record_too_large = 0;   ///< larger than max.request.size or buffer.memory
  std::int64_t retries_exhausted = 0;  ///< a retriable error after `retries` attempts
  std::int64_t invalid_partition = 0;  ///< a partitioner answered a negative partition
  std::int64_t& operator[](FailureReason r) {
    switch (r) {
      case FailureReason::kBufferTimeout: return buffer_timeout;
      case FailureReason::kBufferLimit: return buffer_limit;
      case FailureReason::kDeliveryTimeout: return delivery_timeout;
      case FailureReason::kRecordTooLarge: return record_too_large;
      case FailureReason::kRetriesExhausted: return retries_exhausted;
      case FailureReason::kInvalidPartition: break;
    }
    return invalid_partition;
  }
  std::int64_t total() const {
    return buffer_timeout + buffer_limit + delivery_timeout + record_too_large + retries_exhausted + invalid_partition;
  }
};

/// One batch's life (kept with RunOptions::batches).
struct BatchRecord {
  std::string topic;
  std::int32_t partition = 0;
  std::int32_t broker = -1;  ///< broker id that acknowledged it (-1 if it failed)
  std::int32_t records = 0;
  std::int32_t bytes = 0;  ///< on the wire
  double created_ms = 0, sent_ms = 0, done_ms = 0;
  bool acked = false;
};

/// State sampled at regular simulated times (kept with RunOptions::timeseries).
struct TimeSeries {
  double interval_ms = 0;
  std::vector<double> time_ms;
  std::vector<std::vector<std::int32_t>> partition_queue;  ///< [sample][partition]: undrained batches
  std::vector<std::vector<std::int64_t>>
      partition_records;  ///< [sample][partition]: records appended since the last sample
  std::vector<std::vector<std::int32_t>> broker_in_flight;  ///< [sample][broker]: requests in flight (all producers)
  std::vector<std::vector<double>>
      broker_queue_wait_ms;                ///< [sample][broker]: mean wait of requests served since the last sample
  std::vector<std::int64_t> buffer_bytes;  ///< [sample]: buffer memory in use (all producers)
};

/// Leaders per broker after a leadership change (a failure, a return, a rebalance).
struct LeaderSnapshot {
  double time_ms = 0;
  std::string cause;                  ///< "start", "broker 2 failed", "broker 2 back", "preferred leader election"
  std::vector<std::int32_t> leaders;  ///< per broker, in the order of RunResult::brokers
};

/// A key sent often to one partition (after the warm-up), as counted by HotKeys
/// (model/producer/hot_keys.hpp): the true count lies in [records - error, records].
struct HotKey {
  std::size_t partition = 0;  ///< index into RunResult::partitions
  std::string key;
  std::int64_t records = 0;
  std::int64_t error = 0;  ///< the most `records` may overcount
};

struct HotKeyCounts {
  std::vector<HotKey> keys;   ///< highest count first; empty without keyed records
  std::int64_t counted = 0;   ///< keyed records counted (N); a pair seen more than N / capacity times is held
  std::int64_t capacity = 0;  ///< counters kept
  /// Keyed records counted per partition (exact; index into RunResult::partitions, may be
  /// shorter than it: partitions past the end got none).
  std::vector<std::int64_t> partition_counted;
};

/// Produce requests' batches answered with an error, and the idempotent producer's broker
/// checks (kafka-consumer-spec §8), counted in batches.
struct ProduceErrorCounts {
  std::int64_t injected = 0;      ///< answered with a broker's error.code (error.rate)
  std::int64_t out_of_order = 0;  ///< refused with OUT_OF_ORDER_SEQUENCE_NUMBER
  std::int64_t duplicates = 0;    ///< recognised as a retry of an appended batch: not appended again
  /// cluster.replication fixed: refused NOT_ENOUGH_REPLICAS (acks=all, fewer replicas on live
  /// brokers than min.insync.replicas); followers count theirs in ReplicationResult::errors
  std::int64_t not_enough_replicas = 0;
  std::int64_t total() const { return injected + out_of_order + duplicates + not_enough_replicas; }
};

/// cluster.replication: followers (kafka-consumer-spec §9): per partition, what its ISR did.
struct PartitionReplication {
  std::vector<std::int32_t> isr;         ///< broker ids at the end, assignment order
  std::int32_t isr_min = 0;              ///< smallest ISR size during the run
  std::int64_t shrinks = 0;              ///< leader-driven ISR shrinks (IsrShrinksPerSec's count)
  std::int64_t expands = 0;              ///< ISR expansions (IsrExpandsPerSec's count)
  std::int64_t fenced_removals = 0;      ///< removals by the controller's fencing (not IsrShrinks)
  std::int64_t not_enough_replicas = 0;  ///< acks=all batches refused with NOT_ENOUGH_REPLICAS
  double under_replicated_ms = 0;        ///< time with a live leader and ISR < replicas
  double under_min_isr_ms = 0;           ///< time with ISR < effective min.insync.replicas
  double offline_ms = 0;                 ///< time without a live leader
};

/// The ISR state after a change (or a --timeseries sample).
struct IsrSnapshot {
  double time_ms = 0;
  std::string cause;                     ///< "start", "broker 1 failed", "broker 1 fenced", "isr shrink", ...
  std::vector<std::int32_t> isr_size;    ///< per partition (RunResult::partitions order; 0: not created yet)
  std::int32_t under_replicated = 0;     ///< UnderReplicatedPartitions summed over the leaders
  std::int32_t under_min_isr = 0;        ///< partitions refusing acks=all writes
  std::int32_t offline = 0;              ///< partitions without a live leader
  std::int64_t not_enough_replicas = 0;  ///< NOT_ENOUGH_REPLICAS batches so far
  std::int64_t records_acked = 0;        ///< records acknowledged so far
};

struct ReplicationResult {
  bool enabled = false;                          ///< cluster.replication: followers
  std::vector<PartitionReplication> partitions;  ///< RunResult::partitions order
  std::vector<IsrSnapshot> history;
  std::map<std::string, std::int64_t> errors;  ///< batches answered with each error code by the replication model
  std::int64_t records_truncated = 0;    ///< appended by a leader, gone when a follower that lacked them took over
  std::int64_t records_uncommitted = 0;  ///< above the high watermark when the run ended: never readable
  ReassignmentResult reassignment;       ///< topics' reassignment steps (none: not enabled)
  DiskResult disks;                      ///< the brokers' disks (none: not modelled)
  std::int64_t shrinks() const {
    std::int64_t n = 0;
    for (const auto& p : partitions) n += p.shrinks;
    return n;
  }
  std::int64_t expands() const {
    std::int64_t n = 0;
    for (const auto& p : partitions) n += p.expands;
    return n;
  }
};

/// Consumer groups' fetches as one broker served them (groups in the engine's event loop).
struct BrokerFetches {
  std::int32_t broker = 0;       ///< its id
  std::int64_t fetches = 0;      ///< answered (served, then parked or not)
  std::int64_t records = 0;      ///< records they returned
  std::int64_t bytes = 0;        ///< those records' bytes (each its partition's mean wire bytes)
  std::int64_t empty = 0;        ///< answered without a record (fetch.max.wait.ms passed, or not the leader)
  std::int64_t failed = 0;       ///< lost with the broker, or sent to it while it was down
  double queue_wait_ms_sum = 0;  ///< of the answered: waited for a server (the queue, a core)
  double parked_ms_sum = 0;      ///< of the answered: waited at the leader for fetch.min.bytes
  // KIP-392 (cluster.replica.selector.class rack-aware):
  std::int64_t as_follower = 0;  ///< answered as a follower of some partition (a member's read replica)
  std::int64_t redirected = 0;   ///< partitions it led that it named a member a read replica for
};

/// Per-key order in the brokers' logs, as the leaders appended the records (checked when the
/// run keeps logs or a broker injects errors).
/// Keyed records, and those placed where Java's rule puts them (toPositive(murmur2(key)) mod
/// the partitions the producer knew): how far another client's keyed partitioner agrees.
struct KeyAgreement {
  std::int64_t records = 0;
  std::int64_t as_java = 0;
};

struct LogOrder {
  bool checked = false;
  /// Records appended after a record of the same key from the same producer that was sent
  /// later (a retried batch landing behind its successors).
  std::int64_t reordered_records = 0;
  std::int64_t reordered_keys = 0;      ///< keys with at least one such record
  std::int64_t duplicated_records = 0;  ///< records appended a second time (a retry of an appended batch)
};

/// One node's request latency as a producer's producer-node-metrics (node-id=node-<id>)
/// report it (kafka-consumer-spec §10.1).
struct ProducerNodeMetrics {
  std::int32_t node = 0;       ///< the broker's id
  std::int64_t requests = 0;   ///< produce requests sent to it
  std::int64_t responses = 0;  ///< produce responses from it: the latency samples
  double request_latency_sum_ms = 0;
  double request_latency_avg_ms = 0;  ///< NaN without a response
  double request_latency_max_ms = 0;  ///< NaN without a response
};

/// A producer's own metrics (JMX kafka.producer:type=producer-metrics; kafka-consumer-spec
/// §10.1) over the whole run, warm-up included: totals since the start, -avg and -max over
/// every recorded value, -rate and the wait ratio per second of the run (RunResult::
/// simulated_ms). An -avg or -max with nothing recorded is NaN, as Kafka reports it.
struct ProducerMetrics {
  std::string producer;
  std::int64_t record_send_total = 0;  ///< records drained into produce requests (a retried batch counts again)
  double record_send_rate = 0;         ///< records/s
  std::int64_t batches = 0;            ///< batches drained: the batch-size and record-queue-time samples
  double batch_size_avg = 0;           ///< bytes
  double batch_size_max = 0;           ///< bytes
  std::int64_t requests = 0;           ///< records-per-request samples (one per node drained)
  double records_per_request_avg = 0;
  std::int64_t responses = 0;        ///< request-latency samples
  double request_latency_avg = 0;    ///< ms
  double request_latency_max = 0;    ///< ms
  double record_queue_time_avg = 0;  ///< ms
  double record_queue_time_max = 0;  ///< ms
  double bufferpool_wait_ms = 0;     ///< time a send() waited for buffer.memory
  double bufferpool_wait_ratio = 0;  ///< that time over the run's
  std::int64_t record_retry_total = 0;
  std::int64_t record_error_total = 0;
  std::vector<ProducerNodeMetrics> nodes;  ///< every broker, in RunResult::brokers order
};

/// Which Java client a producer or consumer group ran (model/client_version.hpp), and for a
/// producer the partitioner it ran and the line that partitioner's code came from.
struct ClientRun {
  std::string name;                  ///< the producer or the group
  bool group = false;                ///< a consumer group (no partitioner)
  std::string client;                ///< "kafka-4.3"
  std::string configured;            ///< the scenario's `partitioner`
  std::string partitioner;           ///< as run: "builtin", "sticky-kip480" (builtin below 3.3), ...
  std::string runs_as;               ///< the line the partitioner runs as ("kafka-3.9"; = client for most)
  std::string rack;                  ///< a producer's client.rack ("" = none)
  bool rack_aware = false;           ///< partitioner.rack.aware (KIP-1123)
  std::int64_t records = 0;          ///< records the producer appended (with a rack)
  std::int64_t records_in_rack = 0;  ///< of them, to a partition led in its rack
};

struct RunResult {
  std::string scenario;
  std::uint64_t seed = 0;
  std::string client;              ///< the scenario's client (`client:`)
  std::vector<ClientRun> clients;  ///< every producer's, then every group's
  bool partial = false;            ///< stopped early (interrupted): records may still be in flight
  double simulated_ms = 0;         ///< simulated time when the last record completed
  std::uint64_t events = 0;
  std::int64_t records_sent = 0;  ///< send() calls (all, warm-up included)
  std::int64_t records_acked = 0;
  FailureCounts failed;
  std::int64_t records_measured = 0;  ///< acked records after the warm-up (in the statistics)
  std::int64_t bytes_appended = 0;    ///< record bytes appended to batches (conservation check)
  std::int64_t bytes_completed = 0;   ///< record bytes of batches acked or failed
  std::int64_t retries = 0;           ///< batches re-enqueued after a retriable error
  ProduceErrorCounts produce_errors;
  LogOrder log_order;
  std::optional<KeyAgreement> key_agreement;  ///< RunOptions::key_agreement, or another client's producer
  double buffer_full_ms = 0;                  ///< time some application thread was blocked on buffer.memory
  std::int64_t peak_buffer_bytes = 0;
  std::vector<PartitionStats> partitions;
  std::vector<BrokerStats> brokers;
  LatencyHistogram latency;         ///< send() to acknowledgement, measured records
  LatencyHistogram batch_bytes;     ///< bytes of each measured batch on the wire (same log-linear bins)
  std::vector<std::int32_t> trace;  ///< the first N partition choices, in send order
  double window_ms = 0;             ///< width of the windows below (0 = none kept)
  /// windows[w][b]: records sent in window w (by send time) and acknowledged by broker b.
  std::vector<std::vector<std::int64_t>> windows;
  std::int64_t partitioner_switches = 0;
  /// Records per batch (index = records, the last bin holds all larger), measured batches.
  std::vector<std::int64_t> batch_records;
  /// Adaptive partitioning cross-check: per partition, the choices made in adaptive mode
  /// and the sum of their probabilities under the queue-size weights (spec §2.5).
  std::vector<std::int64_t> adaptive_choices;
  std::vector<double> adaptive_expected;
  TimeSeries timeseries;
  std::vector<LeaderSnapshot> leader_history;  ///< kept when the scenario fails brokers
  ReplicationResult replication;               ///< cluster.replication: followers only
  std::vector<BatchRecord> batches;
  std::vector<ProducerMetrics> producer_metrics;  ///< per producer, in the scenario's order
  HotKeyCounts hot_keys;                          ///< keyed records sent after the warm-up, per (partition, key)
  /// The brokers' logs record by record (kept with RunOptions::keep_logs; null otherwise).
  /// Include model/cluster/partition_log.hpp to read them.
  std::shared_ptr<const BrokerLogs> logs;
  /// The scenario's consumer groups, consuming the logs as the producers (and a migration's
  /// bridge) write them.
  std::vector<GroupResult> consumer_groups;
  /// The first run.trace records each group processed, group by group.
  std::vector<ConsumeTraceRow> consume_trace;
  /// Per broker, the groups' fetches it served; empty without groups.
  std::vector<BrokerFetches> consumer_fetches;
  /// The scenario's migration to a new topic, run in the same simulation (figures from its logs).
  std::optional<migration::MigrationResult> migration;
  /// Partition increases during the run (a topic with a schedule); nothing without.
  std::optional<RepartitionResult> repartition;
  /// The bytes on the wire by kind and by (from rack, to rack) (model/cluster/traffic.hpp).
  TrafficResult traffic;
};

}  // namespace partsim::model
