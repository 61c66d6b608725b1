#include "scenarios/loader/scenario_fields.hpp"

#include <limits>
#include <regex>

#include "model/partitioners/partitioner.hpp"
#include "scenarios/loader/consumer_fields.hpp"
#include "scenarios/loader/scenario_checks.hpp"
#include "scenarios/loader/topic_name.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

constexpr double kMaxMs = kMaxSimulatedMs;
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxRecords = std::int64_t{1} << 50;
constexpr auto kMs = TimeUnit::kMillis;
constexpr auto kUs = TimeUnit::kMicros;

// ---- cluster ----------------------------------------------------------------------------

/// A text or list field written only when it holds something (absent by default).
template <class S>
Field<S> written_when_set(Field<S> f) {
  f.write = [write = f.write](const S& s) {
    YAML::Node n = write(s);
    const bool empty = (n.IsScalar() && n.Scalar().empty()) || (n.IsSequence() && n.size() == 0);
    return empty ? YAML::Node(YAML::NodeType::Undefined) : n;
  };
  f.has_default = false;
  return f;
}

// An empty host name would be the name of "no host" (a broker or producer without host:).
std::string host_name_problem(std::string_view name) {
  return name.empty() ? "is empty; a host needs a name (brokers and producers without host: have cores of their own)" : "";
}

const Table<HostConfig>& host_table() {
  using F = Fields<HostConfig>;
  static const Table<HostConfig> table("host", {
      F::text("name", &HostConfig::name, 200, "the host's name, non-empty and unique; brokers and producers name it as host",
              host_name_problem)
          .required().example("h1"),
      F::integer("cores", &HostConfig::cores, 1, 100000, "", "cores its brokers' and producers' work shares (one piece of work per core at a time)"),
  });
  return table;
}

const Table<Jitter>& jitter_table() {
  using F = Fields<Jitter>;
  static const Table<Jitter> table("jitter", {
      F::choice("kind", &Jitter::kind, {"none", "exponential", "uniform", "lognormal"},
                "the distribution: exponential (mean.ms), uniform (max.ms), lognormal (mean.ms = median, sigma)"),
      F::number("mean.ms", &Jitter::mean_ms, 0, kMaxMs, "ms", "exponential: the mean; lognormal: the median"),
      F::number("max.ms", &Jitter::max_ms, 0, kMaxMs, "ms", "uniform: the upper bound (the lower bound is 0)"),
      F::number("sigma", &Jitter::sigma, 0, 10, "", "lognormal: sigma of the underlying normal"),
  }, check_jitter);
  return table;
}

std::vector<std::string> error_code_names() {
  std::vector<std::string> names;
  for (const auto& e : kInjectableErrors) names.emplace_back(e.name);
  return names;
}

// fail / recover: a step that names the event; only `true` means something.
Field<BrokerChange> event_flag(const std::string& key, const std::string& doc) {
  FieldInfo info = field_info(FieldInfo::Shape::kValue, key, "bool", "", "true", doc);
  return Fields<BrokerChange>::custom(
      info,
      [key](MapReader& m, BrokerChange&) {
        bool v = true;
        const std::size_t before = m.context()->errors.size();
        m.read(key, v);
        if (m.context()->errors.size() == before && !v) m.error(key, "must be true (a step with " + key + ": false does nothing; remove it)");
      },
      [](const BrokerChange&) { return YAML::Node("true"); });
}

const Table<BrokerChange>& step_table() {
  using F = Fields<BrokerChange>;
  using K = BrokerChange::Kind;
  const auto kind = &BrokerChange::kind;
  static const Table<BrokerChange> table("schedule step", {
      F::duration("at.ms", &BrokerChange::at, kMs, 0, kMaxMs, "when the change happens (simulated time)")
          .required("(when the change happens, in ms of simulated time)")
          .example("5000"),
      F::selects(F::duration("set.rtt.ms", &BrokerChange::duration, kMs, 0, kMaxMs, "action: the broker's new rtt.ms"), kind, K::kSetRtt)
          .example("50"),
      F::selects(F::duration("set.request.ms", &BrokerChange::duration, kMs, 0, kMaxMs, "action: the broker's new request.ms"), kind,
                 K::kSetRequestTime)
          .example("2"),
      F::selects(F::number("set.byte.rate", &BrokerChange::bytes_per_second, 0, 1e15, "bytes/s", "action: the broker's new byte.rate"),
                 kind, K::kSetByteRate)
          .example("1e6"),
      F::selects(F::number("set.error.rate", &BrokerChange::error_rate, 0, 1, "share", "action: the broker's new error.rate"), kind,
                 K::kSetErrorRate)
          .example("0.05"),
      F::selects(F::duration("set.replica.rtt.ms", &BrokerChange::duration, kMs, 0, kMaxMs,
                             "action: the broker's new replica.rtt.ms (cluster.replication: followers)"),
                 kind, K::kSetReplicaRtt)
          .example("60000"),
      F::selects(event_flag("fail", "action: the broker fails (replication fixed: its partitions' leadership moves at once to the next "
                                    "live replica; followers: to an in-sync replica when the controller fences it)"),
                 kind,
                 K::kFail)
          .example("true"),
      F::selects(event_flag("recover", "action: the broker comes back (its preferred leadership returns only by election)"), kind,
                 K::kRecover)
          .example("true"),
  }, check_step);
  return table;
}

const Table<BrokerConfig>& broker_table() {
  using F = Fields<BrokerConfig>;
  static const Table<BrokerConfig> table("broker", {
      F::integer("id", &BrokerConfig::id, 0, kInt32Max, "", "the broker id, unique").required("(a broker id >= 0)"),
      F::text("rack", &BrokerConfig::rack, 255, "free text (used by placement studies)"),
      F::duration("rtt.ms", &BrokerConfig::rtt, kMs, 0, kMaxMs, "producer <-> broker network round trip"),
      F::duration("request.ms", &BrokerConfig::request_time, kMs, 0, kMaxMs, "broker service time per produce request"),
      F::duration("batch.ms", &BrokerConfig::batch_time, kMs, 0, kMaxMs, "broker service time per batch (partition) in a request"),
      F::number("byte.rate", &BrokerConfig::bytes_per_second, 0, 1e15, "bytes/s", "broker service throughput (0 = unlimited)"),
      F::duration("replication.ms", &BrokerConfig::replication, kMs, 0, kMaxMs,
                  "added to acks=all responses: the slowest in-sync follower (cluster.replication: fixed)"),
      F::duration("replica.rtt.ms", &BrokerConfig::replica_rtt, kMs, 0, kMaxMs,
                  "round trip of this broker's follower fetches to the leaders (cluster.replication: followers)"),
      F::section("jitter", &BrokerConfig::jitter, jitter_table(), "a random extra service time per request"),
      F::number("error.rate", &BrokerConfig::error_rate, 0, 1, "share",
                "share of produce requests answered with error.code (drawn per request from the run's seed)"),
      F::choice("error.code", error_code_names(),
                [](const BrokerConfig& b) -> std::size_t {
                  for (std::size_t i = 0; i < kInjectableErrors.size(); ++i)
                    if (kInjectableErrors[i].error == b.error_code) return i;
                  return 0;
                },
                [](BrokerConfig& b, std::size_t i) { b.error_code = kInjectableErrors[i].error; },
                "the retriable error of error.rate: NOT_LEADER_OR_FOLLOWER and UNKNOWN_TOPIC_OR_PARTITION refuse the append and "
                "make the producer refresh its metadata; NOT_ENOUGH_REPLICAS refuses the append; REQUEST_TIMED_OUT and "
                "NOT_ENOUGH_REPLICAS_AFTER_APPEND come after the append (a retry writes the records again unless idempotent)"),
      F::list("schedule", &BrokerConfig::schedule, step_table(), ListRules<BrokerChange>("schedule step"),
              "changes over simulated time, one action per step, e.g. [{at.ms: 5000, set.rtt.ms: 50}, {at.ms: 9000, fail: true}]"),
      F::integer("num.network.threads", &BrokerConfig::network_threads, 1, 10000, "",
                 "network threads (Kafka default 3); each reads a connection's requests one at a time; any of the three keys "
                 "makes the broker Kafka-shaped, absent all three it is one FIFO server")
          .example("3"),
      F::integer("num.io.threads", &BrokerConfig::io_threads, 1, 10000, "",
                 "request handler threads serving the request queue in parallel (Kafka default 8)")
          .example("8"),
      F::integer("queued.max.requests", &BrokerConfig::queued_max_requests, 1, 1'000'000, "",
                 "the request queue's bound: network threads block when it is full (Kafka default 500)")
          .example("500"),
      written_when_set(F::text("host", &BrokerConfig::host, 200, "the host (cluster.hosts) whose cores the broker's service shares "
                                                                  "(absent: cores of its own)"))
          .example("h1"),
  });
  return table;
}

std::vector<Field<Scenario>> with_coordinator(std::vector<Field<Scenario>> rows) {
  for (auto& f : coordinator_fields()) rows.push_back(std::move(f));
  return rows;
}

const Table<Scenario>& cluster_table() {
  using F = Fields<Scenario>;
  static const Table<Scenario> table("cluster", with_coordinator({
      F::list("brokers", &Scenario::brokers, broker_table(),
              ListRules<BrokerConfig>("broker").at_least(1).at_most(10000).unique("id", "broker id").defaults([](BrokerConfig& b, std::size_t i) {
                b.id = static_cast<std::int32_t>(i);
              }),
              "the brokers, at least one"),
      written_when_set(F::list("hosts", &Scenario::hosts, host_table(),
                               ListRules<HostConfig>("host").at_most(10000).unique("name", "host name"),
                               "machines whose cores the brokers and producers placed on them share (none by default), "
                               "e.g. [{name: h1, cores: 1}]")),
      F::flag("auto.leader.rebalance.enable", [](auto& s) -> auto& { return s.controller.auto_leader_rebalance; },
              "whether the controller moves leadership back to preferred leaders (a recovered broker gets its partitions back)"),
      F::duration("leader.imbalance.check.interval.seconds", [](auto& s) -> auto& { return s.controller.imbalance_check_interval; },
                  TimeUnit::kSeconds, 0.001, 1e9, "how often the controller checks the leader imbalance"),
      F::number("leader.imbalance.per.broker.percentage", [](auto& s) -> auto& { return s.controller.imbalance_per_broker_percent; }, 0,
                100, "%", "a broker's share of non-preferred leaders above which the controller rebalances"),
      F::choice("replication", [](auto& s) -> auto& { return s.replication.mode; }, {"fixed", "followers"},
                "how acks=all waits: fixed (each broker's replication.ms) or followers (followers fetch from the leaders; "
                "ISR, high watermark, fencing, min.insync.replicas; kafka-consumer-spec section 9)"),
      F::duration("replica.fetch.wait.max.ms", [](auto& s) -> auto& { return s.replication.fetch_wait_max; }, kMs, 0, kMaxMs,
                  "followers: how long a follower fetch waits at the leader for replica.fetch.min.bytes"),
      F::integer("replica.fetch.min.bytes", [](auto& s) -> auto& { return s.replication.fetch_min_bytes; }, 1, kInt32Max, "bytes",
                 "followers: the bytes a follower fetch waits for"),
      F::duration("replica.lag.time.max.ms", [](auto& s) -> auto& { return s.replication.lag_time_max; }, kMs, 1, kMaxMs,
                  "followers: a follower not caught up for longer leaves the ISR (checked every half of it)"),
      F::duration("broker.heartbeat.interval.ms", [](auto& s) -> auto& { return s.replication.heartbeat_interval; }, kMs, 1, kMaxMs,
                  "followers: brokers heartbeat the controller this often"),
      F::duration("broker.session.timeout.ms", [](auto& s) -> auto& { return s.replication.session_timeout; }, kMs, 1, kMaxMs,
                  "followers: the controller fences a broker this long after its last heartbeat (it leaves every ISR)"),
      F::integer("min.insync.replicas", [](auto& s) -> auto& { return s.replication.min_insync; }, 1, 1000, "",
                 "followers: the brokers' default; acks=all writes fail with NOT_ENOUGH_REPLICAS while the ISR is smaller"),
  }));
  return table;
}

const Table<TopicChange>& topic_step_table() {
  using F = Fields<TopicChange>;
  static const Table<TopicChange> table("topic schedule step", {
      F::duration("at.ms", &TopicChange::at, kMs, 0, kMaxMs, "when the partitions are added (simulated time)")
          .required("(when the partitions are added, in ms of simulated time)")
          .example("5000"),
      F::integer("set.partitions", &TopicChange::partitions, 1, 1'000'000, "",
                 "the topic's new partition count, more than before (Kafka refuses a decrease or the same count)")
          .required("(the new partition count)")
          .example("8"),
  });
  return table;
}

const Table<TopicConfig>& topic_table() {
  using F = Fields<TopicConfig>;
  static const Table<TopicConfig> table("topic", {
      F::text("name", &TopicConfig::name, 249, "the topic name, unique (Kafka's rule: letters, digits, '.', '_', '-')", topic_name_problem)
          .required(),
      F::integer("partitions", &TopicConfig::partitions, 1, 1'000'000, "", "number of partitions"),
      F::integer("replication.factor", &TopicConfig::replication_factor, 1, 1000, "",
                 "<= number of brokers; replicas round-robin (p -> brokers p, p+1, ... mod n), leader first"),
      F::integer("min.insync.replicas", &TopicConfig::min_insync, 0, 1000, "",
                 "cluster.replication followers: the topic's min.insync.replicas (0: cluster.min.insync.replicas)"),
      F::list("schedule", &TopicConfig::schedule, topic_step_table(), ListRules<TopicChange>("topic schedule step"),
              "partition increases over simulated time, e.g. [{at.ms: 5000, set.partitions: 8}]: new partitions continue the "
              "replica rule; producers and classic consumer groups see them at their next metadata refresh"),
  }, check_topic);
  return table;
}

// ---- producer config --------------------------------------------------------------------

std::string regex_problem(std::string_view text) {
  try {
    std::regex check{std::string(text), std::regex::ECMAScript};
  } catch (const std::regex_error& e) {
    return std::string("is not a valid ECMAScript regular expression: ") + e.what();
  }
  return "";
}

const Table<PartitionRule>& rule_table() {
  using F = Fields<PartitionRule>;
  using M = PartitionRule::Match;
  const auto match = &PartitionRule::match;
  static const Table<PartitionRule> table("partitioner rule", {
      F::selects(F::text("prefix", &PartitionRule::text, 10000, "match: keys that start with this text"), match, M::kPrefix).example("\"vip-\""),
      F::selects(F::text("key", &PartitionRule::text, 10000, "match: exactly this key"), match, M::kExact).example("\"checkout\""),
      F::selects(F::text("regex", &PartitionRule::text, 10000, "match: keys an ECMAScript regular expression matches in full", regex_problem),
                 match, M::kRegex)
          .example("\"user-[0-9]+\""),
      F::integer("partition", &PartitionRule::partition, 0, kInt32Max, "", "where matching keys go (< the topic's partitions)")
          .required("(the partition this rule sends to)")
          .example("0"),
  }, check_rule);
  return table;
}

const Table<RuleFallback>& fallback_table() {
  using F = Fields<RuleFallback>;
  static const Table<RuleFallback> table("partitioner fallback", {
      F::choice("hash", &RuleFallback::hash, {"murmur2", "java-string"},
                "keys no rule matches: Kafka's murmur2 or Java's String.hashCode over the range"),
      F::integer("from", &RuleFallback::first, 0, kInt32Max, "", "first partition of the fallback range"),
      F::integer("count", &RuleFallback::count, 0, kInt32Max, "", "partitions in the range (0 = all from `from` on)"),
  });
  return table;
}

const Table<ProducerConfig>& config_table() {
  using F = Fields<ProducerConfig>;
  const std::vector<std::string> partitioners = partitioner_names();
  FieldInfo idempotence = field_info(FieldInfo::Shape::kValue, "enable.idempotence", "bool", "", "true | false",
                        "the idempotent producer: sequence numbers per partition, the broker refusing out-of-sequence batches, so "
                        "retries keep order; requires acks=all, retries > 0 and max.in.flight.requests.per.connection <= 5 (an error "
                        "when set true, quietly off when left at its default)");
  idempotence.default_text = "true";
  static const Table<ProducerConfig> table("producer config", {
      F::integer("batch.size", &ProducerConfig::batch_size_bytes, 1, kInt32Max, "bytes", "upper bound of one batch; the sticky partitioner switches after about this many bytes"),
      F::duration("linger.ms", &ProducerConfig::linger, kMs, 0, kMaxMs, "how long a batch waits for more records (KIP-1030: 5 since 4.0)")
          .kafka3_default([](ProducerConfig& c) { c.linger = SimTime::zero(); }),
      F::integer("buffer.memory", &ProducerConfig::buffer_memory_bytes, 1, std::int64_t{1} << 40, "bytes", "memory for batches; send() blocks when it is used up"),
      F::duration("max.block.ms", &ProducerConfig::max_block, kMs, 0, kMaxMs, "how long send() may block for buffer.memory before it fails"),
      F::integer("max.request.size", &ProducerConfig::max_request_size_bytes, 1, kInt32Max, "bytes", "upper bound of one produce request (and of one record)"),
      F::integer("max.in.flight.requests.per.connection", &ProducerConfig::max_in_flight, 1, 1000, "", "unacknowledged requests per broker"),
      F::duration("request.timeout.ms", &ProducerConfig::request_timeout, kMs, 0, kMaxMs, "how long the producer waits for a response"),
      F::duration("delivery.timeout.ms", &ProducerConfig::delivery_timeout, kMs, 0, kMaxMs,
                  "upper bound from send() to success or failure; >= linger.ms + request.timeout.ms (raised to that when not set)"),
      F::integer("retries", &ProducerConfig::retries, 0, kInt32Max, "", "how often a failed batch is retried"),
      F::duration("retry.backoff.ms", &ProducerConfig::retry_backoff, kMs, 0, kMaxMs, "first backoff before a retry (exponential, jittered)"),
      F::duration("retry.backoff.max.ms", &ProducerConfig::retry_backoff_max, kMs, 0, kMaxMs, "upper bound of the retry backoff"),
      F::duration("metadata.max.age.ms", &ProducerConfig::metadata_max_age, kMs, 0, kMaxMs,
                  "the producer refreshes its metadata this long after its last refresh (it sees added partitions then)"),
      F::choice(
          "acks", {"0", "1", "all", "-1"},
          [](const ProducerConfig& c) -> std::size_t { return c.acks == Acks::kNone ? 0 : c.acks == Acks::kLeader ? 1 : 2; },
          [](ProducerConfig& c, std::size_t i) { c.acks = i == 0 ? Acks::kNone : i == 1 ? Acks::kLeader : Acks::kAll; },
          "acknowledgement the producer waits for (-1 = all)"),
      F::custom(
          idempotence, [](MapReader& m, ProducerConfig& c) { m.read("enable.idempotence", c.idempotence); },
          [](const ProducerConfig& c) { return c.idempotence ? YAML::Node(YAML::NodeType::Undefined) : YAML::Node("false"); }),
      F::choice("compression.type", &ProducerConfig::compression, {"none", "gzip", "snappy", "lz4", "zstd"}, "batch compression"),
      F::number("partsim.compression.ratio", &ProducerConfig::compression_ratio, 0.01, 10, "", "partsim: compressed / uncompressed bytes when compressed"),
      F::flag("partitioner.ignore.keys", &ProducerConfig::ignore_keys, "the built-in partitioner ignores keys (KIP-794)"),
      F::flag("partitioner.adaptive.partitioning.enable", &ProducerConfig::adaptive, "sticky partitions drawn by inverse queue size (KIP-794)"),
      F::duration("partitioner.availability.timeout.ms", &ProducerConfig::availability_timeout, kMs, 0, kMaxMs,
                  "a partition whose broker has not drained it this long is avoided (0 = off)"),
      F::choice(
          "partitioner", partitioners, [](const ProducerConfig& c) { return static_cast<std::size_t>(c.partitioner.kind); },
          [](ProducerConfig& c, std::size_t i) { c.partitioner.kind = static_cast<PartitionerKind>(i); },
          "partitioner.class: builtin (KIP-794 uniform sticky, adaptive) or one of Kafka's earlier ones, or rules"),
      F::flag("partsim.sticky.align-batches", &ProducerConfig::align_batches,
              "partsim: the sticky partitioner switches only at a batch boundary (KAFKA-14156)"),
      F::list("partsim.partitioner.rules", [](auto& c) -> auto& { return c.partitioner.rules; }, rule_table(),
              ListRules<PartitionRule>("rule"), "partitioner: rules: ordered rules, the first that matches the key decides"),
      F::section("partsim.partitioner.fallback", [](auto& c) -> auto& { return c.partitioner.fallback; }, fallback_table(),
                 "partitioner: rules: where keys no rule matches go"),
  }, check_config);
  return table;
}

// ---- workload ---------------------------------------------------------------------------

const Table<Arrivals>& arrivals_table() {
  using F = Fields<Arrivals>;
  static const Table<Arrivals> table("arrivals", {
      F::choice("kind", &Arrivals::kind, {"constant", "poisson", "on-off", "closed-loop", "flat-out"}, "when the application calls send()"),
      F::number("rate", &Arrivals::records_per_second, 1e-6, 1e10, "records/s", "constant, poisson, and on-off while on"),
      F::duration("on.ms", &Arrivals::on, kMs, 1e-3, kMaxMs, "on-off: Poisson bursts this long ..."),
      F::duration("off.ms", &Arrivals::off, kMs, 0, kMaxMs, "... then this long of silence"),
      F::integer("concurrency", &Arrivals::concurrency, 1, 1'000'000, "", "closed-loop: sends outstanding (1 = send().get())"),
      F::duration("send.cost.us", &Arrivals::send_cost, kUs, 0, 1e9, "application time per send() (flat-out needs > 0)"),
      F::integer("threads", &Arrivals::threads, 1, 10000, "", "application threads sharing the producer (and its partitioner)"),
      F::duration("partition.gap.us", &Arrivals::partition_gap, kUs, 0, 1e9,
                  "with a partitioner object: time between a send's first and second partition() call"),
  }, check_arrivals);
  return table;
}

const Table<KeySpec>& keys_table() {
  using F = Fields<KeySpec>;
  static const Table<KeySpec> table("keys", {
      F::choice("kind", &KeySpec::kind, {"none", "template", "zipf", "hot", "list"}, "none = null keys"),
      F::text("template", &KeySpec::key_template, 10000, "{i} = record index (or index mod cardinality; zipf: the drawn rank - 1)"),
      F::strings("templates", &KeySpec::templates, "template: several templates, record i uses templates[i mod n]"),
      F::integer("cardinality", &KeySpec::cardinality, 0, 100'000'000, "keys", "0 = unbounded; zipf: the number of keys"),
      F::number("s", &KeySpec::zipf_s, 0, 100, "", "zipf exponent"),
      F::text("hot.key", &KeySpec::hot_key, 10000, "hot: this key with probability hot.share, else the template"),
      F::number("hot.share", &KeySpec::hot_share, 0, 1, "", "hot: the hot key's share of records"),
      F::strings("list", &KeySpec::list, "list: keys cycled in order"),
  }, check_keys);
  return table;
}

const Table<ValueSpec>& values_table() {
  using F = Fields<ValueSpec>;
  static const Table<ValueSpec> table("values", {
      F::choice(
          "kind", {"fixed", "template", "uniform", "lognormal", "null"},
          [](const ValueSpec& v) { return v.null_value ? std::size_t{4} : static_cast<std::size_t>(v.kind); },
          [](ValueSpec& v, std::size_t i) {
            v.null_value = i == 4;
            v.kind = i == 4 ? ValueSpec::Kind::kFixed : static_cast<ValueSpec::Kind>(i);
          },
          "record values (null = a null value)"),
      F::integer("size", &ValueSpec::size_bytes, 0, 100'000'000, "bytes", "fixed: the value size"),
      F::text("template", &ValueSpec::value_template, 100'000, "template: the exact text, {i} = record index, e.g. \"value-{i}\""),
      F::integer("min", &ValueSpec::min_bytes, 0, 100'000'000, "bytes", "uniform: sizes in [min, max]"),
      F::integer("max", &ValueSpec::max_bytes, 0, 100'000'000, "bytes", "uniform: the largest size"),
      F::number("median", &ValueSpec::median_bytes, 0, 1e8, "bytes", "lognormal: the median size (> 0)"),
      F::number("sigma", &ValueSpec::sigma, 0, 10, "", "lognormal: sigma of the underlying normal"),
  }, check_values);
  return table;
}

const Table<Workload>& headers_table() {
  using F = Fields<Workload>;
  static const Table<Workload> table("headers", {
      F::integer("count", &Workload::header_count, 0, 10000, "", "headers per record"),
      F::integer("key.bytes", &Workload::header_key_bytes, 0, 1'000'000, "bytes", "each header's key size"),
      F::integer("value.bytes", &Workload::header_value_bytes, 0, 1'000'000, "bytes", "each header's value size"),
  });
  return table;
}

const Table<Workload>& workload_table() {
  using F = Fields<Workload>;
  static const Table<Workload> table("workload", {
      F::text("topic", &Workload::topic, 249, "the topic this producer sends to (default: the only topic)").no_default(),
      F::section("arrivals", &Workload::arrivals, arrivals_table(), "when send() is called"),
      F::section("keys", &Workload::keys, keys_table(), "record keys"),
      F::section("values", &Workload::values, values_table(), "record values"),
      F::integer("partition", &Workload::partition, 0, kInt32Max, "", "an explicit partition for every record (< the topic's partitions)")
          .example("0"),
      F::section("headers", [](auto& w) -> auto& { return w; }, headers_table(), "record headers"),
      F::integer("records", &Workload::records, 1, kMaxRecords, "", "stop this producer after this many records").example("1000"),
  });
  return table;
}

const Table<SenderCpu>& cpu_table() {
  using F = Fields<SenderCpu>;
  static const Table<SenderCpu> table("producer cpu", {
      F::duration("sender.request.us", &SenderCpu::per_request, kUs, 0, 1e9,
                  "the sender thread's time per produce request it sends (0 = free); its next pass waits for it"),
      F::duration("sender.batch.us", &SenderCpu::per_batch, kUs, 0, 1e9, "the sender thread's time per batch in a request (0 = free)"),
      F::number("sender.byte.ns", &SenderCpu::per_byte_ns, 0, 1e6, "ns",
                "the sender thread's time per byte of the requests it sends (closing batches, writing them; 0 = free)"),
  });
  return table;
}

const Table<ProducerSpec>& producer_table() {
  using F = Fields<ProducerSpec>;
  static const Table<ProducerSpec> table("producer", {
      F::text("name", &ProducerSpec::name, 200, "unique (default p0, p1, ...); names the producer's random streams").no_default(),
      F::section("config", &ProducerSpec::config, config_table(), "Kafka producer config under Kafka's names; defaults are Kafka 4.x's"),
      F::section("workload", &ProducerSpec::workload, workload_table(), "what the application sends"),
      F::section("cpu", &ProducerSpec::cpu, cpu_table(), "the client's own CPU time (send.cost.us is the application thread's)"),
      written_when_set(F::text("host", &ProducerSpec::host, 200, "the host (cluster.hosts) whose cores its application and sender "
                                                                  "threads share (absent: cores of its own)"))
          .example("h1"),
  });
  return table;
}

// ---- run and the whole file -------------------------------------------------------------

const Table<RunSpec>& run_table() {
  using F = Fields<RunSpec>;
  static const Table<RunSpec> table("run", {
      F::integer("seed", &RunSpec::seed, 0, std::numeric_limits<std::int64_t>::max(), "", "master seed; --seed overrides it"),
      F::integer("records", &RunSpec::records, 1, kMaxRecords, "", "stop after this many send() calls over all producers ...").example("10000"),
      F::duration("duration.ms", &RunSpec::duration, kMs, 1e-6, kMaxMs, "... and/or stop sending after this simulated time").example("10000"),
      F::duration("warmup.ms", &RunSpec::warmup, kMs, 0, kMaxMs, "records sent before this are left out of the statistics"),
      F::integer("trace", &RunSpec::trace, 0, 1'000'000, "", "how many first partition choices to keep"),
      F::duration("window.ms", &RunSpec::window, kMs, 0, kMaxMs, "records per broker per window of send time (0 = off)"),
      F::choice("check", &RunSpec::check, {"none", "poisson-batching", "broker-queue"},
                "a closed-form check printed beside the results"),
      F::choice(
          "partition.order", {"hashmap", "sorted"}, [](const RunSpec& r) { return std::size_t{r.sorted_partition_order ? 1u : 0u}; },
          [](RunSpec& r, std::size_t i) { r.sorted_partition_order = i == 1; },
          "the client's partition list: Java HashMap order (book T8) or sorted"),
  });
  return table;
}

// ---- migration (book ch. 10.3, book-tables T10) ------------------------------------------

const Table<BridgeSpec>& bridge_table() {
  using F = Fields<BridgeSpec>;
  static const Table<BridgeSpec> table("bridge", {
      F::integer("threads", &BridgeSpec::threads, 1, 1000, "", "writer threads; each sends a record and waits for its acknowledgement"),
      F::choice("route", &BridgeSpec::route, {"by-key", "round-robin"},
                "which thread writes a record: by-key keeps a key's records on one thread (order kept), round-robin does not"),
      F::number("rate", &BridgeSpec::records_per_second, 0, 1e10, "records/s", "the bridge's records per second over all threads: 0 = unlimited, else at least " + number_text(kMinBridgeRate) +
                    " (and slow enough only "
                "that the run's records, when bounded, fit in simulated time)"),
  });
  return table;
}

const Table<MigrationSpec>& dual_write_table() {
  using F = Fields<MigrationSpec>;
  static const Table<MigrationSpec> table("dual write", {
      F::number("failure.rate", &MigrationSpec::dual_write_failure_rate, 0, 1, "share",
                "share of the second sends (to the new topic) that fail; nothing repairs them"),
  });
  return table;
}

const Table<MigrationSpec>& migration_table() {
  using F = Fields<MigrationSpec>;
  static const Table<MigrationSpec> table("migration", {
      F::choice("strategy", &MigrationSpec::strategy, {"stop-replay", "dual-write", "bridge"},
                "stop-replay: the producers of from stop at at.ms, the bridge replays, then verify; dual-write: from at.ms every record goes to "
                "both topics; bridge: producers go on while the bridge copies, then switch"),
      F::text("from", &MigrationSpec::from, 249, "the old topic (declared under topics:, a producer sends to it)").required().example("events"),
      F::text("to", &MigrationSpec::to, 249, "the new topic (declared under topics:, no producer sends to it)").required().example("events-v2"),
      F::duration("at.ms", &MigrationSpec::at, kMs, 0, kMaxMs, "when the producers of from stop, the dual writes begin or the bridge starts"),
      F::section("bridge", &MigrationSpec::bridge, bridge_table(), "stop-replay and bridge: the copier of the old topic"),
      F::section("dual.write", [](auto& m) -> auto& { return m; }, dual_write_table(), "dual-write: the second send"),
      F::duration("verify.ms", &MigrationSpec::verify, kMs, 0, kMaxMs, "verification before the switch-over (stop-replay: part of the downtime)"),
  });
  return table;
}

/// `migration:` is optional: absent, the scenario has none (and writes none).
Field<Scenario> migration_field() {
  FieldInfo info = field_info(FieldInfo::Shape::kMapping, "migration", "mapping", "", "",
                              "a migration of the producers' topic to a new one, run on the logs (none by default)");
  info.sub = &migration_table().schema();
  return Fields<Scenario>::custom(
      info,
      [](MapReader& m, Scenario& s) {
        if (!m.has("migration")) return;
        MigrationSpec spec;
        MapReader sub = m.map("migration");
        migration_table().read(sub, spec);
        s.migration = std::move(spec);
      },
      [](const Scenario& s) { return s.migration ? migration_table().write(*s.migration) : YAML::Node(YAML::NodeType::Undefined); });
}

}  // namespace

const Table<Scenario>& scenario_table() {
  using F = Fields<Scenario>;
  FieldInfo client = field_info(FieldInfo::Shape::kValue, "client", "choice", "", "kafka-4.x | kafka-3.x",
                   "whose defaults apply: kafka-4.x, or kafka-3.x (linger.ms 0)");
  client.default_text = "kafka-4.x";
  static const Table<Scenario> table("scenario", {
      F::text("name", &Scenario::name, 200, "shown in results (default: the file name)").no_default(),
      F::custom(
          client,
          [](MapReader& m, Scenario&) {
            std::size_t c = 0;
            m.read_choice("client", c, {"kafka-4.x", "kafka-3.x"});
            m.context()->kafka3_defaults = c == 1;
          },
          [](const Scenario&) { return YAML::Node(YAML::NodeType::Undefined); }),
      F::section("run", &Scenario::run, run_table(), "the run: seed, stop rule, statistics"),
      F::section("cluster", [](auto& s) -> auto& { return s; }, cluster_table(), "brokers and the controller"),
      F::list("topics", &Scenario::topics, topic_table(), ListRules<TopicConfig>("topic").at_least(1).unique("name", "topic"),
              "the topics, at least one"),
      F::list("producers", &Scenario::producers, producer_table(),
              ListRules<ProducerSpec>("producer").at_least(1).unique("name", "producer name").defaults([](ProducerSpec& p, std::size_t i) {
                p.name = "p" + std::to_string(i);
              }),
              "the producers, at least one"),
      F::list("consumers", &Scenario::consumers, consumer_group_table(),
              ListRules<ConsumerGroupSpec>("consumer group").unique("group", "group"),
              "consumer groups reading the topics after the producers' run (none by default)"),
      migration_field(),
  }, [](MapReader& top, Scenario& s) {
    check_scenario(top, s);
    check_consumers(top, s);
    check_migration(top, s);
  });
  return table;
}

}  // namespace partsim::scenarios
