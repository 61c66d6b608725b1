#pragma once
// The typed, validated description of a run: cluster, topics, producers (Kafka config under
// its own names and defaults, plus a workload) and the run itself. The scenarios loader
// fills it from YAML; the model never sees YAML.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/client_version.hpp"
#include "model/consumer_groups.hpp"
#include "model/partitioners/partitioner.hpp"
#include "model/produce_error.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model {

using sim::SimTime;

/// A random extra delay drawn per request from a named distribution (milliseconds).
struct Jitter {
  enum class Kind { kNone, kExponential, kUniform, kLognormal } kind = Kind::kNone;
  double mean_ms = 0;  ///< exponential: mean; lognormal: median (a distribution parameter, ms)
  double max_ms = 0;   ///< uniform: upper bound (lower bound 0)
  double sigma = 0.5;  ///< lognormal: sigma of the underlying normal
};

/// A change to a broker at a simulated time (the broker's schedule).
struct BrokerChange {
  SimTime at;
  enum class Kind {
    kSetRtt,
    kSetRequestTime,
    kSetByteRate,
    kFail,
    kRecover,
    kSetErrorRate,
    kSetReplicaRtt
  } kind = Kind::kSetRtt;
  SimTime duration;             ///< kSetRtt, kSetRequestTime, kSetReplicaRtt: the new value
  double bytes_per_second = 0;  ///< kSetByteRate: the new value
  double error_rate = 0;        ///< kSetErrorRate: the new value
};

struct BrokerConfig {
  std::int32_t id = 0;
  std::string rack;
  SimTime rtt = SimTime::ms(1);             ///< rtt.ms: producer <-> broker round trip (network only)
  SimTime request_time = SimTime::us(100);  ///< request.ms: service time per produce request
  SimTime batch_time = SimTime::zero();     ///< batch.ms: service time per batch (partition) in a request
  double bytes_per_second = 0;              ///< byte.rate: service throughput (0 = unlimited)
  /// network.bytes.per.s: its network link each way (model/cluster/broker_links.hpp; 0 = unlimited).
  double network_bytes_per_second = 0;
  /// disk.bytes: the disk of its log directory (cluster.replication: followers; docs/disks.md;
  /// 0 = unlimited). A write that does not fit fails the directory, and the broker halts.
  std::int64_t disk_bytes = 0;
  std::int64_t disk_used_bytes = 0;      ///< disk.used.bytes: other data on that disk, for the whole run
  SimTime replication = SimTime::ms(1);  ///< replication.ms: added for acks=all (the slowest in-sync follower)
  /// replica.rtt.ms: round trip of this broker's follower fetches to its leaders
  /// (cluster.replication: followers only).
  SimTime replica_rtt = SimTime::ms(1);
  Jitter jitter;
  /// error.rate: share of produce requests answered with error_code (0..1), drawn per request.
  double error_rate = 0;
  ProduceError error_code = ProduceError::kNotLeaderOrFollower;  ///< error.code
  std::vector<BrokerChange> schedule;
  /// Kafka's request path (broker configs of Kafka's documentation; not in the spec): num.network.threads,
  /// num.io.threads, queued.max.requests. Absent (the default), the broker is one FIFO
  /// server as before; any of them given, the others take Kafka's defaults (3, 8, 500).
  std::optional<std::int32_t> network_threads;
  std::optional<std::int32_t> io_threads;
  std::optional<std::int32_t> queued_max_requests;
  std::string host;  ///< the host whose cores the broker's work runs on ("": cores of its own)

  bool threaded() const { return network_threads || io_threads || queued_max_requests; }
};

/// A machine with `cores` that brokers and producers placed on it share (cluster.hosts).
struct HostConfig {
  std::string name;
  std::int32_t cores = 1;
};

/// One partition's new replicas in a reassignment (Kafka's reassignment JSON).
struct ReassignTarget {
  std::string topic;  ///< as the plan names it ("": inline, this topic)
  std::int32_t partition = 0;
  std::vector<std::int32_t> replicas;  ///< broker ids, preferred leader first
};

/// A reassignment started by a topic's schedule (kafka-reassign-partitions --execute
/// --throttle; docs/reassignment.md): the plan's partitions get their new replicas, copied
/// under the throttle. A step with no plan changes the throttle of the moves under way.
struct ReassignStep {
  std::vector<ReassignTarget> plan;  ///< this topic's partitions; empty: a throttle change
  /// leader/follower.replication.throttled.rate on the brokers of the move, bytes/s (0: none).
  double throttle = 0;
  std::string plan_file;  ///< where the plan was read from ("": inline)
};

/// A change to a topic at a simulated time (the topic's schedule): its partition count
/// grows (CreatePartitions, kafka-consumer-spec §7; a decrease is refused at load), or a
/// reassignment starts or changes its throttle.
struct TopicChange {
  SimTime at;
  std::int32_t partitions = 0;  ///< set.partitions: the new count (0: a reassignment step)
  std::optional<ReassignStep> reassign;
  bool adds_partitions() const { return !reassign; }
};

struct TopicConfig {
  std::string name = "t";
  std::int32_t partitions = 6;  ///< the count at the start
  std::int32_t replication_factor = 1;
  std::vector<TopicChange> schedule;  ///< partition increases over simulated time
  std::int32_t min_insync = 0;        ///< min.insync.replicas (topic config); 0: the brokers' default
  /// Where the replicas are: per partition (every partition the topic will have, in order),
  /// its replicas' broker ids, preferred leader first, replication_factor of them. Empty:
  /// partition p on brokers p, p+1, ... mod n (the brokers' order in the scenario).
  std::vector<std::vector<std::int32_t>> assignment{};
  /// topics[].placer: one of Kafka's placers makes the assignment (the loader fills
  /// `assignment` from it, model/placement/topic_placement.hpp), with java.util.Random
  /// seeded `placer_seed`; none: the assignment as given, or the rule above.
  enum class Placer { kNone, kAdmin, kStriped, kSimple } placer = Placer::kNone;
  std::int64_t placer_seed = 0;
  // The log's segments and retention (topic configs; cluster.replication: followers;
  // model/cluster/log_segments.hpp).
  std::int64_t segment_bytes = std::int64_t{1} << 30;  ///< segment.bytes
  std::int64_t segment_ms = 604'800'000;               ///< segment.ms
  std::int64_t retention_ms = 604'800'000;             ///< retention.ms (-1: kept for ever)
  std::int64_t retention_bytes = -1;                   ///< retention.bytes per partition (-1: no limit)
  /// Whether a segment or retention config differs from Kafka's default.
  bool sets_retention() const {
    return segment_bytes != (std::int64_t{1} << 30) || segment_ms != 604'800'000 || retention_ms != 604'800'000 ||
           retention_bytes != -1;
  }

  /// The count after every change (the loader refuses decreases, so the largest).
  std::int32_t final_partitions() const { return partitions_before(std::nullopt); }
  /// The count after the changes before `end` (the run's end, run.duration.ms): a step at
  /// or after it is never made (the loader warns).
  std::int32_t partitions_before(std::optional<SimTime> end) const {
    std::int32_t n = partitions;
    for (const auto& c : schedule)
      if (c.adds_partitions() && (!end || c.at < *end)) n = std::max(n, c.partitions);
    return n;
  }
  /// Whether a step before `end` adds partitions.
  bool grows_before(std::optional<SimTime> end) const {
    return std::any_of(schedule.begin(), schedule.end(),
                       [&](const TopicChange& c) { return c.adds_partitions() && (!end || c.at < *end); });
  }
  /// Whether a step moves replicas.
  bool reassigns() const {
    return std::any_of(schedule.begin(), schedule.end(), [](const TopicChange& c) { return c.reassign.has_value(); });
  }
};

enum class Acks { kNone = 0, kLeader = 1, kAll = -1 };
enum class Compression { kNone, kGzip, kSnappy, kLz4, kZstd };

/// What a profile of another client (`client: librdkafka-2.x`, ...) sets beyond the Java
/// producer's config (model/client_profiles.hpp; kafka-clients.md). Java's leaves it as is.
struct ClientProfileConfig {
  std::string partitioner;  ///< the client's partitioner by its own name (client_partitioner.hpp)
  /// librdkafka sticky.partitioning.linger.ms; unset: 2 x linger.ms, at most 900000 ms.
  std::optional<SimTime> sticky_linger;
  std::int64_t sticky_bytes = 65536;  ///< franz-go UniformBytesPartitioner: bytes per sticky partition
  bool sticky_adaptive = true;        ///< franz-go UniformBytesPartitioner: weighs by buffered records
  bool sticky_keys = true;            ///< franz-go UniformBytesPartitioner: keys hashed (false: ignored)
  /// Records per batch at most (0: no limit): librdkafka batch.num.messages, kafka-go
  /// BatchSize, kafkajs' one record per send().
  std::int32_t batch_records = 0;
  /// One partition's batch per produce request (librdkafka, kafka-go, kafkajs).
  bool one_partition_per_request = false;
  /// One request in flight to a broker until its first response (franz-go).
  bool first_request_alone = false;
  /// Every retry waits retry.backoff.ms (sarama's Retry.Backoff); else Java's exponential backoff.
  bool flat_backoff = false;
};

/// ProducerConfig with Kafka's names in comments and the defaults of the book's client,
/// kafka-4.3 (spec §6; linger.ms 5 per KIP-1030). The loader sets the defaults of the
/// producer's `client` (model/client_version.hpp) before it reads the keys.
struct ProducerConfig {
  ClientVersion client;                            ///< the Java client's release (`client:`)
  std::int32_t batch_size_bytes = 16384;           ///< batch.size
  SimTime linger = SimTime::ms(5);                 ///< linger.ms
  std::int64_t buffer_memory_bytes = 33554432;     ///< buffer.memory
  SimTime max_block = SimTime::ms(60000);          ///< max.block.ms
  std::int32_t max_request_size_bytes = 1048576;   ///< max.request.size
  std::int32_t max_in_flight = 5;                  ///< max.in.flight.requests.per.connection
  SimTime request_timeout = SimTime::ms(30000);    ///< request.timeout.ms
  SimTime delivery_timeout = SimTime::ms(120000);  ///< delivery.timeout.ms
  std::int64_t retries = 2147483647;               ///< retries
  SimTime retry_backoff = SimTime::ms(100);        ///< retry.backoff.ms
  SimTime retry_backoff_max = SimTime::ms(1000);   ///< retry.backoff.max.ms
  /// metadata.max.age.ms: the producer refreshes its metadata this long after the last
  /// refresh (kafka-consumer-spec §6.1-6.2); it learns of new partitions only then.
  SimTime metadata_max_age = SimTime::ms(300000);
  Acks acks = Acks::kAll;  ///< acks
  /// enable.idempotence as in effect: Kafka's default true, quietly off when not set and
  /// acks, retries or max.in.flight forbid it (kafka-consumer-spec §8).
  bool idempotence = true;
  Compression compression = Compression::kNone;  ///< compression.type
  double compression_ratio = 0.5;                ///< partsim: compressed / uncompressed bytes
  bool ignore_keys = false;                      ///< partitioner.ignore.keys
  /// partitioner.rack.aware (KIP-1123, 4.4): the built-in partitioner prefers partitions
  /// whose leader is in client_rack.
  bool rack_aware = false;
  std::string client_rack;                         ///< client.rack (the producer's, 4.4)
  bool adaptive = true;                            ///< partitioner.adaptive.partitioning.enable
  SimTime availability_timeout = SimTime::zero();  ///< partitioner.availability.timeout.ms
  PartitionerSpec partitioner;                     ///< partitioner (partitioner.class)
  bool align_batches = true;                       ///< partsim.sticky.align-batches: the KAFKA-14156 rule
  ClientProfileConfig profile;                     ///< another client's profile (client: sarama, ...)
};

/// When the application calls send().
struct Arrivals {
  enum class Kind { kConstant, kPoisson, kOnOff, kClosedLoop, kFlatOut } kind = Kind::kConstant;
  double records_per_second = 1000;     ///< rate: constant, poisson, and while "on"
  SimTime on = SimTime::ms(100);        ///< on.ms: on/off bursts
  SimTime off = SimTime::ms(100);       ///< off.ms
  std::int32_t concurrency = 1;         ///< closed loop: outstanding sends
  SimTime send_cost = SimTime::zero();  ///< send.cost.us: application time per send() call
  /// Application threads sharing the producer. With a partitioner object, a send whose
  /// first partition() found no open batch makes its second call partition_gap later,
  /// and other threads' calls may come in between (they share the partitioner's state).
  std::int32_t threads = 1;
  SimTime partition_gap = SimTime::zero();  ///< partition.gap.us
};

struct KeySpec {
  enum class Kind { kNone, kTemplate, kZipf, kHot, kList } kind = Kind::kNone;
  std::string key_template = "key-{i}";  ///< {i} = record index, or index mod cardinality
  std::vector<std::string> templates;    ///< template keys: record i uses templates[i mod n]
  std::int64_t cardinality = 0;          ///< 0 = unbounded (template); zipf: number of keys
  double zipf_s = 1.0;
  std::string hot_key;
  double hot_share = 0;
  std::vector<std::string> list;  ///< cycled in order
};

struct ValueSpec {
  enum class Kind { kFixed, kTemplate, kUniform, kLognormal } kind = Kind::kFixed;
  std::int32_t size_bytes = 100;              ///< fixed
  std::string value_template;                 ///< exact text, {i} = record index
  std::int32_t min_bytes = 0, max_bytes = 0;  ///< uniform sizes
  double median_bytes = 100, sigma = 0.5;     ///< lognormal sizes: median and the underlying normal's sigma
  bool null_value = false;
};

struct Workload {
  std::string topic;
  Arrivals arrivals;
  KeySpec keys;
  ValueSpec values;
  std::optional<std::int32_t> partition;  ///< explicit partition for every record
  std::int32_t header_count = 0;
  std::int32_t header_key_bytes = 0;
  std::int32_t header_value_bytes = 0;
  std::optional<std::int64_t> records;  ///< stop this producer after N records
};

/// The producer's sender thread's CPU time (partsim keys; 0 = free, as before).
struct SenderCpu {
  SimTime per_request = SimTime::zero();  ///< sender.request.us: per produce request it builds and answers
  SimTime per_batch = SimTime::zero();    ///< sender.batch.us: per batch drained into a request
  double per_byte_ns = 0;                 ///< sender.byte.ns: per byte of the requests it sends
};

struct ProducerSpec {
  std::string name;
  std::string host;  ///< the host whose cores its application and sender threads use ("": its own)
  std::string rack;  ///< the rack (zone) it runs in, where its traffic starts and ends ("": its client.rack)
  SenderCpu cpu;
  ProducerConfig config;
  Workload workload;
};

struct RunSpec {
  std::uint64_t seed = 1;
  std::optional<std::int64_t> records;  ///< total records over all producers
  std::optional<SimTime> duration;      ///< stop sending after this simulated time
  SimTime warmup = SimTime::zero();     ///< records sent before this are left out of statistics
  std::int32_t trace = 40;              ///< how many first partition choices to keep
  SimTime window = SimTime::zero();     ///< records per broker per window of send time (0 = off)
  bool sorted_partition_order = false;  ///< list partitions sorted instead of HashMap order
  /// A closed-form check printed beside the results (the loader checks its assumptions).
  enum class Check { kNone, kPoissonBatching, kBrokerQueue } check = Check::kNone;
};

/// Controller settings that move leaders (Kafka's broker configs and defaults).
struct ControllerConfig {
  bool auto_leader_rebalance = true;                     ///< auto.leader.rebalance.enable
  SimTime imbalance_check_interval = SimTime::sec(300);  ///< leader.imbalance.check.interval.seconds
  double imbalance_per_broker_percent = 10;              ///< leader.imbalance.per.broker.percentage
};

/// How acks=all waits for the followers (cluster.replication): a fixed replication.ms per
/// broker, or followers that fetch from the leaders, with the ISR, the high watermark,
/// fencing and min.insync.replicas (kafka-consumer-spec §9). Defaults: §9.1.
struct ReplicationConfig {
  enum class Mode { kFixed, kFollowers } mode = Mode::kFixed;
  SimTime fetch_wait_max = SimTime::ms(500);       ///< replica.fetch.wait.max.ms
  std::int64_t fetch_min_bytes = 1;                ///< replica.fetch.min.bytes
  std::int64_t fetch_max_bytes = 1 << 20;          ///< replica.fetch.max.bytes: per partition in an answer
  std::int64_t response_max_bytes = 10 << 20;      ///< replica.fetch.response.max.bytes: per answer
  SimTime fetch_backoff = SimTime::ms(1000);       ///< replica.fetch.backoff.ms: every partition throttled
  SimTime lag_time_max = SimTime::ms(30000);       ///< replica.lag.time.max.ms
  SimTime heartbeat_interval = SimTime::ms(2000);  ///< broker.heartbeat.interval.ms
  SimTime session_timeout = SimTime::ms(9000);     ///< broker.session.timeout.ms
  std::int32_t min_insync = 1;                     ///< min.insync.replicas (the brokers' default)
  /// replica.selector.class: org.apache.kafka.common.replica.RackAwareReplicaSelector (KIP-392):
  /// a leader names consumers an in-sync replica in their client.rack to fetch from.
  bool rack_aware_selector = false;
  // The brokers' log manager (docs/disks.md).
  SimTime retention_check = SimTime::ms(300'000);    ///< log.retention.check.interval.ms
  SimTime initial_task_delay = SimTime::ms(30'000);  ///< log.initial.task.delay.ms: the first check
  SimTime file_delete_delay = SimTime::ms(60'000);   ///< file.delete.delay.ms: a deleted segment's bytes stay
  bool followers() const { return mode == Mode::kFollowers; }
};

/// The bridge of a migration: a consumer of the old topic handing records to `threads`
/// producer threads that write them to the new topic.
struct BridgeSpec {
  std::int32_t threads = 1;                                        ///< threads: writer threads
  enum class Route { kByKey, kRoundRobin } route = Route::kByKey;  ///< route: which thread writes a record
  double records_per_second = 0;                                   ///< rate: records/s over all threads (0 = unlimited)
  std::string rack;  ///< where the bridge runs (traffic: its reads and writes); "": none
};

/// Moving a topic's records to a new topic (book ch. 10.3, book-tables T10): stop, replay
/// and switch; dual write; or a bridge that follows the live topic, then switch.
struct MigrationSpec {
  enum class Strategy { kStopReplay, kDualWrite, kBridge } strategy = Strategy::kBridge;
  std::string from;              ///< the old topic (the producers' topic)
  std::string to;                ///< the new topic, declared under topics:
  SimTime at = SimTime::zero();  ///< at.ms: producers stop / dual writes begin / the bridge starts
  BridgeSpec bridge;
  double dual_write_failure_rate = 0;  ///< dual.write.failure.rate: share of second sends that fail
  SimTime verify = SimTime::zero();    ///< verify.ms: verification before the switch-over
};

struct Scenario {
  std::string name;
  ClientVersion client;  ///< `client:` at the top: every producer's and group's unless it names its own
  std::vector<BrokerConfig> brokers;
  std::vector<HostConfig> hosts;  ///< cluster.hosts: shared machines (none by default)
  ControllerConfig controller;
  ReplicationConfig replication;
  std::vector<TopicConfig> topics;
  std::vector<ProducerSpec> producers;
  GroupCoordinatorConfig group_coordinator;
  std::vector<ConsumerGroupSpec> consumers;  ///< consumer groups reading the logs as they are written
  std::optional<MigrationSpec> migration;    ///< a migration to a new topic, run on the producers' logs
  RunSpec run;
  /// cluster.cost.cross.rack.per.gb: the price of a GB (10^9 bytes) crossing between racks (0: bytes only).
  double cost_cross_rack_per_gb = 0;

  /// The position in `topics` of the topic named `topic` (names are unique), if there is one.
  std::optional<std::size_t> topic_index(std::string_view topic) const {
    for (std::size_t t = 0; t < topics.size(); ++t)
      if (topics[t].name == topic) return t;
    return std::nullopt;
  }
  /// Whether the run models the brokers' disks (docs/disks.md): followers, and a disk, or a
  /// topic's or the log manager's retention config other than Kafka's default.
  bool models_disks() const {
    if (!replication.followers()) return false;
    const ReplicationConfig defaults;
    return std::any_of(brokers.begin(), brokers.end(),
                       [](const BrokerConfig& b) { return b.disk_bytes > 0 || b.disk_used_bytes > 0; }) ||
           std::any_of(topics.begin(), topics.end(), [](const TopicConfig& t) { return t.sets_retention(); }) ||
           replication.retention_check != defaults.retention_check ||
           replication.initial_task_delay != defaults.initial_task_delay ||
           replication.file_delete_delay != defaults.file_delete_delay;
  }
};

}  // namespace partsim::model
