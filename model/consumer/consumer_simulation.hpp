#pragma once
// A consumer group consuming the brokers' logs after the producers' run, as a discrete-event
// simulation of its own (consumers do not slow the producers in this model: the logs are
// complete before it starts, and a record becomes fetchable at its `readable` time).
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
// Approximations, stated: a record's bytes are its partition's mean wire bytes per record
// (the logs carry no sizes); fetches go to the leader each partition had at the end of the
// producers' run; the network between consumer and broker is the broker's rtt.ms.

#include <atomic>
#include <cstdint>
#include <vector>

#include "model/cluster/partition_log.hpp"
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
  std::vector<std::int32_t> leader;           ///< per log partition: index of its leader broker
  std::vector<double> record_bytes;           ///< per log partition: wire bytes per record (>= 1)
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
