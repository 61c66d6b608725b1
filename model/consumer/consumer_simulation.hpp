#pragma once
// A consumer group consuming the brokers' logs, as a discrete-event part with a queue of its
// own that a driver steps (GroupRunner): the cluster's event loop, interleaving it with the
// producers and brokers (the group's fetches are requests the brokers serve, through a
// FetchPath), or simulate_group, which replays logs complete before it starts (a record
// becomes fetchable at its `readable` time) and answers each fetch at once by looking ahead.
//
// Each member runs Kafka's poll loop (kafka-consumer-spec.md §4.2-4.5): at most one fetch in
// flight per broker, carrying its owned partitions led by that broker with no buffered data;
// the broker answers once fetch.min.bytes are readable or fetch.max.wait.ms passed, filling
// max.partition.fetch.bytes per partition and fetch.max.bytes in all (always at least one
// record of the first partition with data), the partitions that returned data moving to the
// end of the session's order (KIP-227); poll() returns at most max.poll.records, the
// partially drained partition first, and the member processes them processing.us each.
// Auto commit runs in poll() every auto.commit.interval.ms (§5.1); a partition assigned
// starts from its committed offset, else from auto.offset.reset (§5.2). Group membership is
// model/consumer/consumer_group.hpp.
//
// A partition's fetches go to its leader, or to the read replica the leader named (KIP-392:
// until metadata.max.age.ms after the naming answer, an error from that replica, or a failed
// fetch of its session; kafka-consumer-spec §4.2, docs/traffic.md).
//
// Approximations, stated: a record's bytes are its partition's mean wire bytes per record
// (the logs carry no sizes); a fetch goes to the leader the FetchPath names when it is sent
// (replayed: the leader each partition had at the end of the producers' run); the network
// between consumer and broker is the broker's rtt.ms.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/consumer/fetch_answer.hpp"
#include "model/consumer/group_spec.hpp"
#include "model/consumer_groups.hpp"
#include "model/group_result.hpp"

namespace partsim::model::consumer {

/// A topic's partition increase (CreatePartitions) during the producers' run.
struct PartitionsAdded {
  SimTime at;
  std::size_t topic = 0;        ///< index into ConsumeInputs::topics
  std::int32_t partitions = 0;  ///< the new count
};

/// What the consumers need to know of the cluster and its logs.
struct ConsumeInputs {
  const BrokerLogs* logs = nullptr;
  /// Every topic, with its replicas' racks, at the count it ends with (see partitions_added).
  std::vector<TopicMetadata> topics;
  /// Partition increases in time order: a topic starts with the count before its first
  /// one. A KIP-848 group learns of one at once (kafka-consumer-spec §3.5), a classic group
  /// at its leader's next metadata refresh (§6.3: every metadata.max.age.ms from the start).
  std::vector<PartitionsAdded> partitions_added;
  /// Per topic, the count at the start (empty: every topic's count in `topics`).
  std::vector<std::int32_t> start_partitions;
  std::vector<std::int32_t> topic_first_log;  ///< per topic: index of its partition 0 in logs->partitions
  /// Replayed (simulate_group): per log partition, the index of its leader broker and its
  /// wire bytes per record (>= 1). Unused in the cluster's event loop, whose FetchPath knows.
  std::vector<std::int32_t> leader;
  std::vector<double> record_bytes;
  std::vector<SimTime> broker_rtt;            ///< per broker: consumer <-> broker round trip
  SimTime sample_interval = SimTime::zero();  ///< lag sampled this often (0 = not kept)
  /// When the producers' run ends (run.duration.ms; 0 for a run that stops by records).
  /// After it and the last record's readable time, once every record has been processed
  /// (or skipped by a reset), the group plays no more schedule steps and takes no more lag
  /// samples: nothing more can be consumed. What is under way (a rebalance, a crashed
  /// member's session expiry) still completes.
  SimTime run_end = SimTime::zero();
  std::int32_t trace = 0;  ///< records processed kept in the trace
  /// Set (Ctrl-C): the group stops within a few thousand events, its result so far kept.
  const std::atomic<bool>* cancel = nullptr;
};

struct GroupRun {
  GroupResult result;
  std::vector<ConsumeTraceRow> trace;  ///< the first `trace` records processed
  std::uint64_t events = 0;
  bool cancelled = false;  ///< stopped by ConsumeInputs::cancel: the result is partial
};

/// A consumer's metadata refresh after a fetch failed (the connection lost) or a partition
/// had no leader comes no sooner than retry.backoff.ms (kafka-consumer-spec §6.2); it then
/// fetches from the leader the refresh names.
inline constexpr SimTime kMetadataRetry = SimTime::ms(100);

/// How a group's fetches reach the leaders and come back: the cluster's event loop (the
/// brokers serve them) or a replay's look-ahead. The answer comes back through
/// GroupRunner::fetch_answered.
class FetchPath {
public:
  virtual ~FetchPath() = default;
  /// Member `member` of group `group` sends a fetch of `request` (its partitions in session
  /// order) to broker `broker` at `now`.
  virtual void send_fetch(std::uint32_t group, std::int32_t member, std::int32_t broker,
                          std::vector<FetchRequestPartition> request, SimTime now) = 0;
  /// The broker leading log partition `log` now, as the member's metadata has it (-1: none).
  virtual std::int32_t leader(std::int32_t log) const = 0;
  /// Whether records may still be appended to the logs or become readable (the producers
  /// or the followers run on): a member then fetches its partitions even when it has read
  /// everything there is, waiting for more.
  virtual bool logs_growing() const = 0;
  /// KIP-392: when `broker` is a follower of `log` that serves consumers, how many records
  /// it serves (those below the high watermark it learnt; none: it serves as the leader, or
  /// not at all).
  virtual std::optional<std::int64_t> replica_readable(std::int32_t, std::int32_t) const { return std::nullopt; }
};

namespace group_sim {
class GroupSimulation;
}

/// One group as a part of an event loop: start() it, then step() while next_time() is the
/// earliest event of the loop, feeding it fetch answers and partition increases; finish()
/// gives its results.
class GroupRunner {
public:
  GroupRunner(std::uint32_t group, const ConsumerGroupSpec& spec, const GroupCoordinatorConfig& coordinator,
              const ConsumeInputs& in, FetchPath& fetches);
  ~GroupRunner();
  GroupRunner(const GroupRunner&) = delete;
  GroupRunner& operator=(const GroupRunner&) = delete;

  void start();
  /// Time of its next event; SimTime::max() when it has none or has stopped.
  SimTime next_time();
  /// Runs its next event.
  void step();
  /// The answer to `member`'s fetch to `broker`: per requested partition the records
  /// returned, or none (an error: the connection failed); it reaches the member at `at`.
  /// `read_replicas` (KIP-392; empty: nothing said): per requested partition, the replica the
  /// leader names to read from until metadata.max.age.ms from now, or kSameReplica, or
  /// kNotReplica (the broker serves it no more: the member reads from the leader again).
  void fetch_answered(std::int32_t member, std::int32_t broker, std::optional<std::vector<std::int64_t>> counts,
                      SimTime at, std::vector<std::int32_t> read_replicas = {});
  /// Records of log partition `log` were appended or became readable at `at` (or will be, at
  /// a time already known): an idle member that owns it and has no fetch at its leader
  /// fetches. True when the group took an event from it.
  bool records_arrived(std::int32_t log, SimTime at);
  /// Topic `topic` (index into ConsumeInputs::topics) grew to `partitions` at `at`.
  void partitions_added(std::size_t topic, std::int32_t partitions, SimTime at);
  GroupRun finish();

private:
  std::unique_ptr<group_sim::GroupSimulation> sim_;
};

/// Runs one group over the logs until every record of its partitions has been processed by
/// a live owner, or nothing more can happen (no owner left). The application's commits
/// (ConsumerGroupSpec::commit) go to the group coordinator, the leader of the group's
/// __consumer_offsets partition (abs(group.id.hashCode()) % 50), taken as the broker that
/// partition's index picks in broker order (p mod brokers, as partitions are striped): a
/// commit takes effect half that broker's rtt.ms after it is sent, a synchronous one
/// blocks the member a whole rtt.ms.
GroupRun simulate_group(const ConsumerGroupSpec& spec, const GroupCoordinatorConfig& coordinator,
                        const ConsumeInputs& in);

}  // namespace partsim::model::consumer
