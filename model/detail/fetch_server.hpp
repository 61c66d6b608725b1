#pragma once
// The brokers' side of consumer groups' fetches (kafka-consumer-spec §4.2-4.3), owned by the
// Consumers (consumers.hpp): a member's fetch travels to its partitions' leader (half the
// broker's rtt.ms) on a connection of its own, waits in the broker's queue and is served
// like a produce request (the Network's serve path: request.ms + batch.ms per partition it
// reads, on the broker's threads and host), then parks in the leader's purgatory until
// fetch.min.bytes are readable or fetch.max.wait.ms passed, and its answer travels back. A
// record is readable once the high watermark passes it (with followers, once they have it).
// A partition the broker does not lead answers NOT_LEADER_OR_FOLLOWER (no records), and a
// broker's failure loses the fetches it holds with their connections.
// KIP-392 (cluster.replica.selector.class rack-aware; docs/traffic.md): a leader answers at once,
// without records, naming an in-sync replica in the member's client.rack, and a live follower
// serves the records below the high watermark it learnt from its leader's last answer (its
// purgatory wakes when it learns a higher one); a partition whose leader moved since the
// fetch was sent is refused there (the fetch's leader epoch is fenced). It keeps the per
// broker figures (RunResult::consumer_fetches). It knows no events: its host schedules
// them, serves the fetch in the broker's queue and hands the answers to the groups.
// Internal to partsim_model.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/consumer/fetch_answer.hpp"
#include "model/consumer_groups.hpp"
#include "model/detail/network.hpp"
#include "model/run_result.hpp"

namespace partsim::model::detail {

/// What the fetch server needs of the part around it (the Consumers, which ask the Network).
class FetchServerHost {
public:
  virtual ~FetchServerHost() = default;
  // The brokers.
  virtual bool broker_up(std::uint32_t broker) const = 0;
  /// Counts the broker's failures: a fetch sent before the last one is lost.
  virtual std::uint64_t broker_epoch(std::uint32_t broker) const = 0;
  virtual SimTime one_way(std::uint32_t broker) const = 0;
  /// When an answer of `bytes` handed to `broker`'s outbound link at `now` has left it
  /// (network.bytes.per.s); by default at once.
  virtual SimTime answer_leaves(std::uint32_t, std::int64_t, SimTime now) { return now; }
  /// The broker leading `log` now (-1: none).
  virtual std::int32_t leader(std::int32_t log) const = 0;
  /// KIP-392: the replica `log`'s leader names a consumer in `rack` to read from (-1: none,
  /// read from the leader).
  virtual std::int32_t read_replica(std::int32_t log, const std::string& rack) const = 0;
  /// KIP-392: when `broker` is a live follower of `log`, how many records it serves (those
  /// below the high watermark it learnt from its leader); none: it is not a follower.
  virtual std::optional<std::int64_t> follower_readable(std::int32_t log, std::uint32_t broker) const = 0;
  /// The fetch joins `broker`'s queue, read on `connection` as a request for `partitions`
  /// partitions; the host calls FetchServer::served once the broker has read it.
  virtual void queue_at_broker(std::uint64_t fetch, std::uint32_t broker, std::uint32_t connection,
                               std::int32_t partitions) = 0;
  /// A threaded broker has sent the answer to a fetch read on `connection` (which unmutes).
  virtual void answer_sent(std::uint32_t broker, std::uint32_t connection) = 0;
  // Timers: call FetchServer::arrived / due back then.
  virtual void schedule_arrival(std::uint64_t fetch, SimTime at) = 0;
  virtual void schedule_due(std::uint64_t fetch, std::uint32_t generation, SimTime at) = 0;
  /// Member `member` of `group` learns at `at` what its fetch from `broker` returned (records
  /// per requested partition), or (none) that it failed. `read_replicas` (empty: nothing to
  /// say): per requested partition, the replica to read from next (KIP-392), or
  /// consumer::kSameReplica, or consumer::kNotReplica.
  virtual void answered(std::uint32_t group, std::int32_t member, std::int32_t broker,
                        std::optional<std::vector<std::int64_t>> counts, std::vector<std::int32_t> read_replicas,
                        SimTime at) = 0;
  /// The answer leaving `broker` for that member carries `bytes` of records from `logs` (the
  /// partitions with records, in the answer's order): traffic on the wire.
  virtual void answer_traffic(std::uint32_t group, std::int32_t member, std::uint32_t broker, std::int64_t bytes,
                              std::span<const std::int32_t> logs) = 0;
};

class FetchServer {
public:
  /// `logs`: the brokers' logs (records readable from LogRecord::readable); `partitions`: the
  /// run's statistics per log, whose mean wire bytes size a record; `groups`: the groups'
  /// specs (their fetch settings); `stats`: one row per broker, filled here.
  FetchServer(const BrokerLogs& logs, const std::vector<PartitionStats>& partitions,
              std::span<const ConsumerGroupSpec> groups, Connections& connections, std::vector<BrokerFetches>& stats,
              FetchServerHost& host);

  /// Member `member` of `group` sends a fetch of `request` to `broker` at `now`.
  void send(std::uint32_t group, std::int32_t member, std::uint32_t broker,
            std::vector<consumer::FetchRequestPartition> request, SimTime now);
  /// The fetch reached its broker.
  void arrived(std::uint64_t id, SimTime now);
  /// The broker took the fetch up after waiting `waited` for a server.
  void started(std::uint64_t id, SimTime waited);
  /// The broker has read the fetch: answered now when fetch.min.bytes are readable (or with
  /// an error), else parked until they are or fetch.max.wait.ms passed.
  void served(std::uint64_t id, SimTime now);
  /// A parked fetch's due time came (`generation`: of the schedule_due that set it).
  void due(std::uint64_t id, std::uint32_t generation, SimTime now);
  /// Records of `log` were appended or became readable: a fetch parked on it may be answered
  /// sooner (the purgatory's check when the high watermark moves).
  void readable_changed(std::size_t log, SimTime now);
  /// Leaders moved: a parked fetch of a partition its broker no longer leads is answered now.
  void leaders_changed(SimTime now);
  /// `broker` failed: the fetches it holds (queued, in service or parked) are lost with every
  /// member's connection to it; their members notice half a round trip later.
  void broker_failed(std::uint32_t broker, SimTime now);
  /// Whether the fetch still counts (a broker's queue skips those gone).
  bool holds(std::uint64_t id) const { return fetches_.count(id) > 0; }

private:
  struct Fetch {
    std::uint32_t group = 0;
    std::int32_t member = 0;
    std::uint32_t broker = 0;
    std::uint32_t connection = 0;
    std::vector<consumer::FetchRequestPartition> request;
    std::vector<std::int32_t> leaders;  // per partition: its leader when the fetch was sent (its leader epoch)
    const std::string* rack = nullptr;  // the member's client.rack
    SimTime served = SimTime::max();    // when the broker read it (its wait starts); max: not yet
    SimTime due = SimTime::max();       // parked: when it is answered, as known now
    std::uint32_t generation = 0;       // of its schedule_due
    bool at_broker = false;             // arrived: queued, in service or parked
    std::uint64_t epoch = 0;            // the broker's when it was sent (a failure since loses it)
    SimTime waited = SimTime::zero();   // for a server
  };
  /// The answer the broker would give now, records sized as the run has them so far.
  consumer::FetchAnswer evaluate(const Fetch& f);
  /// How the fetch's broker holds its partition i: leading it, following it (KIP-392), neither.
  enum class Role { kLeader, kFollower, kNone };
  Role role(const Fetch& f, std::size_t i) const;
  /// Every partition served where it was sent (else the answer, with an error, is at once).
  bool serves_all(const Fetch& f) const;
  /// Whether the leader names a read replica for some partition (the answer is then at once).
  bool redirects(const Fetch& f) const;
  void answer(std::uint64_t id, SimTime now);
  void fail(std::uint64_t id, SimTime noticed);
  void unpark(std::uint64_t id);

  const BrokerLogs& logs_;
  const std::vector<PartitionStats>& partitions_;
  std::span<const ConsumerGroupSpec> groups_;
  Connections& connections_;
  std::vector<BrokerFetches>& stats_;
  FetchServerHost& host_;
  std::map<std::uint64_t, Fetch> fetches_;  // ordered: a broker's failure fails them in order
  std::uint64_t next_ = 0;
  std::vector<std::vector<std::uint64_t>> parked_on_;  // per log: parked fetches reading it
  std::vector<double> record_bytes_;                   // per log, as evaluate() last sized them
  std::vector<std::int64_t> limits_;                   // evaluate()'s per request partition (a follower's)
};

}  // namespace partsim::model::detail
