// The tables of `cluster:` (brokers, their jitter and schedule, hosts, the controller and
// replication keys; the group coordinator's rows come from consumer_fields) and of `topics:`.
#include "model/produce_error.hpp"
#include "scenarios/loader/consumer_fields.hpp"
#include "scenarios/loader/scenario_checks.hpp"
#include "scenarios/loader/scenario_fields_parts.hpp"
#include "scenarios/loader/topic_name.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

// An empty host name would be the name of "no host" (a broker or producer without host:).
std::string host_name_problem(std::string_view name) {
  return name.empty() ? "is empty; a host needs a name (brokers and producers without host: have cores of their own)"
                      : "";
}

const Table<HostConfig>& host_table() {
  using F = Fields<HostConfig>;
  static const Table<HostConfig> table(
      "host",
      {
          F::text("name", &HostConfig::name, 200,
                  "the host's name, non-empty and unique; brokers and producers name it as host", host_name_problem)
              .required()
              .example("h1"),
          F::integer("cores", &HostConfig::cores, 1, 100000, "",
                     "cores its brokers' and producers' work shares (one piece of work per core at a time)"),
      });
  return table;
}

const Table<Jitter>& jitter_table() {
  using F = Fields<Jitter>;
  static const Table<Jitter> table(
      "jitter",
      {
          F::choice("kind", &Jitter::kind, {"none", "exponential", "uniform", "lognormal"},
                    "the distribution: exponential (mean.ms), uniform (max.ms), lognormal (mean.ms = median, sigma)"),
          F::number("mean.ms", &Jitter::mean_ms, 0, kMaxMs, "ms", "exponential: the mean; lognormal: the median"),
          F::number("max.ms", &Jitter::max_ms, 0, kMaxMs, "ms", "uniform: the upper bound (the lower bound is 0)"),
          F::number("sigma", &Jitter::sigma, 0, 10, "", "lognormal: sigma of the underlying normal"),
      },
      check_jitter);
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
        if (m.context()->errors.size() == before && !v)
          m.error(key, "must be true (a step with " + key + ": false does nothing; remove it)");
      },
      [](const BrokerChange&) { return YAML::Node("true"); });
}

const Table<BrokerChange>& step_table() {
  using F = Fields<BrokerChange>;
  using K = BrokerChange::Kind;
  const auto kind = &BrokerChange::kind;
  static const Table<BrokerChange> table(
      "schedule step",
      {
          F::duration("at.ms", &BrokerChange::at, kMs, 0, kMaxMs, "when the change happens (simulated time)")
              .required("(when the change happens, in ms of simulated time)")
              .example("5000"),
          F::selects(F::duration("set.rtt.ms", &BrokerChange::duration, kMs, 0, kMaxMs,
                                 "action: the broker's new rtt.ms"),
                     kind, K::kSetRtt)
              .example("50"),
          F::selects(F::duration("set.request.ms", &BrokerChange::duration, kMs, 0, kMaxMs,
                                 "action: the broker's new request.ms"),
                     kind, K::kSetRequestTime)
              .example("2"),
          F::selects(F::number("set.byte.rate", &BrokerChange::bytes_per_second, 0, 1e15, "bytes/s",
                               "action: the broker's new byte.rate"),
                     kind, K::kSetByteRate)
              .example("1e6"),
          F::selects(F::number("set.error.rate", &BrokerChange::error_rate, 0, 1, "share",
                               "action: the broker's new error.rate"),
                     kind, K::kSetErrorRate)
              .example("0.05"),
          F::selects(F::duration("set.replica.rtt.ms", &BrokerChange::duration, kMs, 0, kMaxMs,
                                 "action: the broker's new replica.rtt.ms (cluster.replication: followers)"),
                     kind, K::kSetReplicaRtt)
              .example("60000"),
          F::selects(
              event_flag(
                  "fail",
                  "action: the broker fails (replication fixed: its partitions' leadership moves at once to the next "
                  "live replica; followers: to an in-sync replica when the controller fences it)"),
              kind, K::kFail)
              .example("true"),
          F::selects(event_flag("recover",
                                "action: the broker comes back (its preferred leadership returns only by election)"),
                     kind, K::kRecover)
              .example("true"),
      },
      check_step);
  return table;
}

const Table<BrokerConfig>& broker_table() {
  using F = Fields<BrokerConfig>;
  static const Table<BrokerConfig> table(
      "broker",
      {
          F::integer("id", &BrokerConfig::id, 0, kInt32Max, "", "the broker id, unique").required("(a broker id >= 0)"),
          F::text("rack", &BrokerConfig::rack, 255, "free text (used by placement studies)"),
          F::duration("rtt.ms", &BrokerConfig::rtt, kMs, 0, kMaxMs, "producer <-> broker network round trip"),
          F::duration("request.ms", &BrokerConfig::request_time, kMs, 0, kMaxMs,
                      "broker service time per produce request"),
          F::duration("batch.ms", &BrokerConfig::batch_time, kMs, 0, kMaxMs,
                      "broker service time per batch (partition) in a request"),
          F::number("byte.rate", &BrokerConfig::bytes_per_second, 0, 1e15, "bytes/s",
                    "broker service throughput (0 = unlimited)"),
          F::number("network.bytes.per.s", &BrokerConfig::network_bytes_per_second, 0, 1e15, "bytes/s",
                    "the broker's network link, each way (0 = unlimited): produce requests in, responses out, follower "
                    "copies out of the leader and into the follower, consumer fetch answers out, one message at a "
                    "time (docs/reassignment.md)"),
          F::integer("disk.bytes", &BrokerConfig::disk_bytes, 0, kMaxBytes, "bytes",
                     "followers: the disk of the broker's log directory (0 = unlimited); a write that does not fit "
                     "fails the directory and the broker halts, as Kafka's does with its only log directory "
                     "(docs/disks.md)"),
          F::integer("disk.used.bytes", &BrokerConfig::disk_used_bytes, 0, kMaxBytes, "bytes",
                     "followers: other data on that disk for the whole run (topics the scenario leaves out)"),
          F::duration("replication.ms", &BrokerConfig::replication, kMs, 0, kMaxMs,
                      "added to acks=all responses: the slowest in-sync follower (cluster.replication: fixed)"),
          F::duration("replica.rtt.ms", &BrokerConfig::replica_rtt, kMs, 0, kMaxMs,
                      "round trip of this broker's follower fetches to the leaders (cluster.replication: followers)"),
          F::section("jitter", &BrokerConfig::jitter, jitter_table(), "a random extra service time per request"),
          F::number("error.rate", &BrokerConfig::error_rate, 0, 1, "share",
                    "share of produce requests answered with error.code (drawn per request from the run's seed)"),
          F::choice(
              "error.code", error_code_names(),
              [](const BrokerConfig& b) -> std::size_t {
                for (std::size_t i = 0; i < kInjectableErrors.size(); ++i)
                  if (kInjectableErrors[i].error == b.error_code) return i;
                return 0;
              },
              [](BrokerConfig& b, std::size_t i) { b.error_code = kInjectableErrors[i].error; },
              "the retriable error of error.rate: NOT_LEADER_OR_FOLLOWER and UNKNOWN_TOPIC_OR_PARTITION refuse the append and "
              "make the producer refresh its metadata; NOT_ENOUGH_REPLICAS refuses the append; REQUEST_TIMED_OUT and "
              "NOT_ENOUGH_REPLICAS_AFTER_APPEND come after the append (a retry writes the records again unless idempotent)"),
          F::list(
              "schedule", &BrokerConfig::schedule, step_table(), ListRules<BrokerChange>("schedule step"),
              "changes over simulated time, one action per step, e.g. [{at.ms: 5000, set.rtt.ms: 50}, {at.ms: 9000, fail: true}]"),
          F::integer(
              "num.network.threads", &BrokerConfig::network_threads, 1, 10000, "",
              "network threads (Kafka default 3); each reads a connection's requests one at a time; any of the three keys "
              "makes the broker Kafka-shaped, absent all three it is one FIFO server")
              .example("3"),
          F::integer("num.io.threads", &BrokerConfig::io_threads, 1, 10000, "",
                     "request handler threads serving the request queue in parallel (Kafka default 8)")
              .example("8"),
          F::integer("queued.max.requests", &BrokerConfig::queued_max_requests, 1, 1'000'000, "",
                     "the request queue's bound: network threads block when it is full (Kafka default 500)")
              .example("500"),
          written_when_set(F::text("host", &BrokerConfig::host, 200,
                                   "the host (cluster.hosts) whose cores the broker's service shares "
                                   "(absent: cores of its own)"))
              .example("h1"),
      });
  return table;
}

std::vector<Field<Scenario>> with_coordinator(std::vector<Field<Scenario>> rows) {
  for (auto& f : coordinator_fields()) rows.push_back(std::move(f));
  return rows;
}

// set.partitions is written for the steps that add partitions only.
Field<TopicChange> only_growth(Field<TopicChange> f) {
  f.write = [write = f.write](const TopicChange& c) {
    return c.adds_partitions() ? write(c) : YAML::Node(YAML::NodeType::Undefined);
  };
  f.has_default = false;
  return f;
}

const Table<TopicChange>& topic_step_table() {
  using F = Fields<TopicChange>;
  static const Table<TopicChange> table(
      "topic schedule step",
      {
          F::duration("at.ms", &TopicChange::at, kMs, 0, kMaxMs, "when the change happens (simulated time)")
              .required("(when the change happens, in ms of simulated time)")
              .example("5000"),
          only_growth(F::integer("set.partitions", &TopicChange::partitions, 1, 1'000'000, "",
                                 "action: the topic's new partition count, more than before (Kafka refuses a decrease "
                                 "or the same count)")
                          .example("8")),
          reassign_field(),
      },
      check_topic_step);
  return table;
}

}  // namespace

const Table<Scenario>& cluster_table() {
  using F = Fields<Scenario>;
  static const Table<Scenario> table(
      "cluster",
      with_coordinator({
          F::list("brokers", &Scenario::brokers, broker_table(),
                  ListRules<BrokerConfig>("broker")
                      .at_least(1)
                      .at_most(10000)
                      .unique("id", "broker id")
                      .defaults([](BrokerConfig& b, std::size_t i) { b.id = static_cast<std::int32_t>(i); }),
                  "the brokers, at least one"),
          written_when_set(
              F::list("hosts", &Scenario::hosts, host_table(),
                      ListRules<HostConfig>("host").at_most(10000).unique("name", "host name"),
                      "machines whose cores the brokers and producers placed on them share (none by default), "
                      "e.g. [{name: h1, cores: 1}]")),
          F::flag(
              "auto.leader.rebalance.enable", [](auto& s) -> auto& { return s.controller.auto_leader_rebalance; },
              "whether the controller moves leadership back to preferred leaders (a recovered broker gets its partitions back)"),
          F::duration(
              "leader.imbalance.check.interval.seconds",
              [](auto& s) -> auto& { return s.controller.imbalance_check_interval; }, TimeUnit::kSeconds, 0.001, 1e9,
              "how often the controller checks the leader imbalance"),
          F::number(
              "leader.imbalance.per.broker.percentage",
              [](auto& s) -> auto& { return s.controller.imbalance_per_broker_percent; }, 0, 100, "%",
              "a broker's share of non-preferred leaders above which the controller rebalances"),
          F::number(
              "cost.cross.rack.per.gb", [](auto& s) -> auto& { return s.cost_cross_rack_per_gb; }, 0, 1e6, "per GB",
              "the price of a GB (10^9 bytes) crossing between racks, counted once per byte (a provider that charges "
              "the sending and the receiving side: their sum); the traffic table's cost per hour and month (0: bytes "
              "only)"),
          F::choice(
              "replication", [](auto& s) -> auto& { return s.replication.mode; }, {"fixed", "followers"},
              "how acks=all waits: fixed (each broker's replication.ms) or followers (followers fetch from the leaders; "
              "ISR, high watermark, fencing, min.insync.replicas; kafka-consumer-spec section 9)"),
          F::duration(
              "replica.fetch.wait.max.ms", [](auto& s) -> auto& { return s.replication.fetch_wait_max; }, kMs, 0,
              kMaxMs, "followers: how long a follower fetch waits at the leader for replica.fetch.min.bytes"),
          F::integer(
              "replica.fetch.min.bytes", [](auto& s) -> auto& { return s.replication.fetch_min_bytes; }, 1, kInt32Max,
              "bytes", "followers: the bytes a follower fetch waits for"),
          F::integer(
              "replica.fetch.max.bytes", [](auto& s) -> auto& { return s.replication.fetch_max_bytes; }, 1, kInt32Max,
              "bytes", "followers: the most bytes of one partition a leader's answer carries"),
          F::integer(
              "replica.fetch.response.max.bytes", [](auto& s) -> auto& { return s.replication.response_max_bytes; }, 1,
              kInt32Max, "bytes", "followers: the most bytes a leader's answer carries over all partitions"),
          F::duration(
              "replica.fetch.backoff.ms", [](auto& s) -> auto& { return s.replication.fetch_backoff; }, kMs, 1, kMaxMs,
              "followers: how long a follower waits when its throttle leaves every partition out of its fetch"),
          F::duration(
              "replica.lag.time.max.ms", [](auto& s) -> auto& { return s.replication.lag_time_max; }, kMs, 1, kMaxMs,
              "followers: a follower not caught up for longer leaves the ISR (checked every half of it)"),
          F::duration(
              "broker.heartbeat.interval.ms", [](auto& s) -> auto& { return s.replication.heartbeat_interval; }, kMs, 1,
              kMaxMs, "followers: brokers heartbeat the controller this often"),
          F::duration(
              "broker.session.timeout.ms", [](auto& s) -> auto& { return s.replication.session_timeout; }, kMs, 1,
              kMaxMs,
              "followers: the controller fences a broker this long after its last heartbeat (it leaves every ISR)"),
          F::choice(
              "replica.selector.class", [](auto& s) -> auto& { return s.replication.rack_aware_selector; },
              {"none", "rack-aware"},
              "followers: rack-aware is Kafka's org.apache.kafka.common.replica.RackAwareReplicaSelector (KIP-392): a "
              "leader names a consumer with a client.rack an in-sync replica in its rack to fetch from, which serves "
              "it up to the high watermark it has learnt; none: consumers fetch from the leaders (Kafka's default)"),
          F::duration(
              "log.retention.check.interval.ms", [](auto& s) -> auto& { return s.replication.retention_check; }, kMs, 1,
              kMaxMs, "followers: how often each broker deletes the segments retention lets go (docs/disks.md)"),
          F::duration(
              "log.initial.task.delay.ms", [](auto& s) -> auto& { return s.replication.initial_task_delay; }, kMs, 0,
              kMaxMs, "followers: when the first retention check runs"),
          F::duration(
              "file.delete.delay.ms", [](auto& s) -> auto& { return s.replication.file_delete_delay; }, kMs, 0, kMaxMs,
              "followers: a deleted segment's bytes stay on the disk this long"),
          F::integer(
              "min.insync.replicas", [](auto& s) -> auto& { return s.replication.min_insync; }, 1, 1000, "",
              "the brokers' default; acks=all writes fail with NOT_ENOUGH_REPLICAS while the ISR is smaller (fixed: the replicas "
              "on live brokers; only this refusal: fixed has no high watermark, acks 0/1 records are readable at once)"),
      }));
  return table;
}

// topics[].assignment: Kafka's reassignment JSON's replica lists, partition by partition.
Field<TopicConfig> assignment_field() {
  FieldInfo info = field_info(
      FieldInfo::Shape::kList, "assignment", "list of lists of integers", "", "broker ids",
      "where the replicas are: per partition, in order, its replicas' broker ids, preferred leader first, "
      "replication.factor of them, for every partition the topic will have (its schedule's too); none: partition p "
      "on brokers p, p+1, ... mod n in the brokers' order");
  info.example = "[[0], [0], [0], [0], [0], [0]]";  // the reference's topic: 6 partitions, RF 1, broker 0
  return Fields<TopicConfig>::custom(
      std::move(info), [](MapReader& m, TopicConfig& t) { m.read_int_lists("assignment", t.assignment, 0, kInt32Max); },
      [](const TopicConfig& t) {
        // A placer's assignment is written as the placer that makes it.
        if (t.assignment.empty() || t.placer != TopicConfig::Placer::kNone)
          return YAML::Node(YAML::NodeType::Undefined);
        YAML::Node list(YAML::NodeType::Sequence);
        for (const auto& replicas : t.assignment) {
          YAML::Node row(YAML::NodeType::Sequence);
          for (const std::int32_t id : replicas) row.push_back(id);
          row.SetStyle(YAML::EmitterStyle::Flow);
          list.push_back(row);
        }
        list.SetStyle(YAML::EmitterStyle::Flow);
        return list;
      });
}

const Table<TopicConfig>& topic_table() {
  using F = Fields<TopicConfig>;
  static const Table<TopicConfig> table(
      "topic",
      {
          F::text("name", &TopicConfig::name, 249,
                  "the topic name, unique (Kafka's rule: letters, digits, '.', '_', '-')", topic_name_problem)
              .required(),
          F::integer("partitions", &TopicConfig::partitions, 1, 1'000'000, "", "number of partitions"),
          F::integer("replication.factor", &TopicConfig::replication_factor, 1, 1000, "",
                     "<= number of brokers; replicas round-robin (p -> brokers p, p+1, ... mod n), leader first, "
                     "unless the topic's assignment places them"),
          F::integer("min.insync.replicas", &TopicConfig::min_insync, 0, 1000, "",
                     "the topic's min.insync.replicas (0: cluster.min.insync.replicas)"),
          assignment_field(),
          F::integer("segment.bytes", &TopicConfig::segment_bytes, 14, kInt32Max, "bytes",
                     "followers: a segment of the log rolls before it would pass this (docs/disks.md)"),
          F::integer("segment.ms", &TopicConfig::segment_ms, 1, kMaxIntMs, "ms",
                     "followers: ... or when its first batch is older than this"),
          F::integer("retention.ms", &TopicConfig::retention_ms, -1, kMaxIntMs, "ms",
                     "followers: a retention check deletes the segments whose newest record is older (-1: never)"),
          F::integer("retention.bytes", &TopicConfig::retention_bytes, -1, kMaxBytes, "bytes",
                     "followers: ... and the oldest segments while a replica's log passes this by a whole segment "
                     "(per partition; -1: no limit)"),
          written_when_set(F::choice(
              "placer", {"admin", "striped", "simple"},
              [](const TopicConfig& t) {
                return t.placer == TopicConfig::Placer::kNone ? std::size_t{3} : static_cast<std::size_t>(t.placer) - 1;
              },
              [](TopicConfig& t, std::size_t i) { t.placer = static_cast<TopicConfig::Placer>(i + 1); },
              "where the replicas are, as one of Kafka's placers puts them (partsim assign): admin (AdminUtils, "
              "rack-aware when the brokers have racks), striped (the KRaft controller's StripedReplicaPlacer) or simple "
              "(partition p on the brokers p, p+1, ... as listed); absent: the assignment, or that rule")),
          written_when_set(F::integer("placer.seed", &TopicConfig::placer_seed, 0, kInt32Max, "",
                                      "the placer's java.util.Random seed (its start index and shift are drawn)")),
          F::list(
              "schedule", &TopicConfig::schedule, topic_step_table(), ListRules<TopicChange>("topic schedule step"),
              "partition increases and reassignments over simulated time, e.g. [{at.ms: 5000, set.partitions: 8}]: new "
              "partitions are where the assignment puts them, or continue the replica rule; producers and classic "
              "consumer groups see them at their next metadata refresh"),
      },
      check_topic);
  return table;
}

}  // namespace partsim::scenarios
