#pragma once
// Replication with followers and the ISR (cluster.replication: followers;
// kafka-consumer-spec §9). Each follower broker runs one fetcher per leader broker: a
// fetch travels half the follower's replica.rtt.ms, waits at the leader until
// replica.fetch.min.bytes are there or replica.fetch.wait.max.ms passed, and comes back
// with everything up to the leader's log end. The leader sees a follower's log end as the
// offset of its latest fetch; the high watermark is the least of the ISR's, and an acks=all
// produce is answered once it covers the batches (§9.2). The leader drops followers not
// caught up for replica.lag.time.max.ms (checked every half of it, §9.3) and takes them
// back once they reach the high watermark; the controller fences a dead broker
// broker.session.timeout.ms after its last heartbeat, drops it from every ISR and elects
// leaders from the ISR only (§9.4, unclean.leader.election.enable false). While an ISR is
// smaller than min.insync.replicas, acks=all writes are refused (NOT_ENOUGH_REPLICAS) and
// the high watermark stays. Offsets are bytes of the leader's log.
//
// The unit takes the time on every call; the engine owns the events (ReplicationHost).

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/cluster/broker_links.hpp"
#include "model/cluster/leadership.hpp"
#include "model/cluster/log_segments.hpp"
#include "model/cluster/replication_quota.hpp"
#include "model/produce_error.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model {

class ReplicationHost {
public:
  virtual ~ReplicationHost() = default;
  /// A fetcher's step at `at`: call Replication::on_fetch_arrive / on_fetch_return /
  /// on_fetch_expire with (session, fetch). False: the host dropped it (an expiry that would
  /// change nothing once the producers are done; the run ends without it).
  enum class Step { kArrive, kReturn, kExpire, kBackoff };
  virtual bool schedule_fetch(Step step, std::uint32_t session, std::uint64_t fetch, SimTime at) = 0;
  /// The leader answers `request` now (every acks=all batch of it settled).
  virtual void acks_settled(std::uint64_t request) = 0;
  /// A waiting batch of `request` on partition `partition` is answered with `error`.
  virtual void ack_error(std::uint64_t request, std::size_t partition, ProduceError error) = 0;
  virtual std::int64_t records_acked() const = 0;
  /// The high watermark of `partition` moved up to `hw` (bytes of the leader's log): the
  /// records below it are readable now (kafka-consumer-spec §9.2).
  virtual void high_watermark_moved(std::size_t partition, std::int64_t hw) = 0;
  /// A new leader's log ends at `end`, before the old one's: what lay past it is gone
  /// (the followers' truncation, §9.4). Never below the high watermark.
  virtual void log_truncated(std::size_t partition, std::int64_t end) = 0;
  /// Broker `leader` answers broker `follower`'s fetch now with `bytes` of records from
  /// `partitions` partitions of `topics` topics (those with records; node indexes): traffic.
  virtual void fetch_answered(std::int32_t leader, std::int32_t follower, std::int64_t bytes, std::int32_t partitions,
                              std::int32_t topics) = 0;
  /// KIP-392 (replica.selector.class rack-aware): `follower` has learnt a higher high
  /// watermark of `partition` from its leader's answer; it may serve consumers more.
  virtual void follower_high_watermark(std::size_t partition, std::int32_t follower) = 0;
  /// KIP-392: how many of `partition`'s records are below its high watermark now (the
  /// leaders' logs count them; what a follower that learns this high watermark may serve).
  virtual std::int64_t readable_records(std::size_t partition) const = 0;
  /// A reassignment of `partition` completed; `leader_moved`: its leader was a removed
  /// replica and another leads now (the producers learn it as from any election).
  virtual void reassignment_done(std::size_t partition, bool leader_moved) = 0;
  /// A write to `broker`'s disk did not fit: its log directory failed, and the broker halts
  /// (its only one: LogManager.handleLogDirFailure, docs/disks.md).
  virtual void log_dir_failed(std::int32_t broker) = 0;
};

class Replication {
public:
  Replication(const Scenario& s, Leadership& leadership, ReplicationHost& host);

  /// Starts every fetcher and records the first snapshot.
  void start(SimTime now);
  /// Topic `t` grew to `partitions` (a topic schedule; Leadership::add_partitions has placed
  /// them): the new partitions start empty, their ISR the replicas the controller has not
  /// fenced (kafka-consumer-spec §7), and their followers fetch from now on.
  void add_partitions(std::size_t t, std::int32_t partitions, SimTime now);
  /// acks=all on `partition` is refused (NOT_ENOUGH_REPLICAS, before the append): its ISR
  /// is smaller than min(min.insync.replicas, replicas) (§9.2). Counts the refusal.
  bool refuses(std::size_t partition);
  /// Whether `broker` leads `partition` now (a request served by a former leader, or for an
  /// offline partition, is answered NOT_LEADER_OR_FOLLOWER before the append, §9.4).
  bool led_by(std::size_t partition, std::int32_t broker) const {
    const Partition& p = parts_[partition];
    return leadership_.leaders(p.topic)[p.index] == broker;
  }
  /// A batch was refused `error` outside the ISR rules (counted in the result's errors).
  void count_error(ProduceError error) { ++result_.errors[std::string(produce_error_info(error).name)]; }
  /// A write of `bytes` to `partition`'s leader's disk does not fit (disk.bytes): its log
  /// directory fails now (the host is told), and the batch is refused KAFKA_STORAGE_ERROR, as
  /// is every write while the directory is failed. Counts the refusal.
  bool disk_refuses(std::size_t partition, std::int64_t bytes, SimTime now);
  /// The leader appended `bytes` to `partition`. With `request` (acks=all), the batch waits
  /// for the high watermark: returns true if it waits (the request is answered by
  /// ReplicationHost::acks_settled), false if already covered.
  bool append(std::size_t partition, std::int64_t bytes, SimTime now, std::optional<std::uint64_t> request);
  /// Whether `request` still waits for the high watermark.
  bool waiting(std::uint64_t request) const { return waiting_.contains(request); }

  void on_fetch_arrive(std::uint32_t session, std::uint64_t fetch, SimTime now);
  void on_fetch_return(std::uint32_t session, std::uint64_t fetch, SimTime now);
  void on_fetch_expire(std::uint32_t session, std::uint64_t fetch, SimTime now);
  /// A follower whose throttle left every partition out waited replica.fetch.backoff.ms.
  void on_fetch_backoff(std::uint32_t session, std::uint64_t fetch, SimTime now);

  // ---- reassignments (replication_reassign.cpp; docs/reassignment.md) ----
  /// A topic schedule's reassignment step of topic `t` starts now (kafka-reassign-partitions
  /// --execute --throttle): the plan's partitions get their new replicas, which copy the log
  /// by fetching; a step without a plan changes the throttle of the moves under way.
  void reassign(std::size_t t, const ReassignStep& step, SimTime now);
  /// Whether a partition is being reassigned.
  bool reassigning() const { return moving_ > 0; }
  /// A sample of the reassignment's gauges for the time series, with the producers'
  /// latency over the interval since the last.
  void sample_reassignment(SimTime now, const LatencyHistogram& interval_latency);
  // ---- disks and retention (replication_disks.cpp; docs/disks.md) ----
  /// The brokers' retention check (every log.retention.check.interval.ms): each live
  /// replica deletes the segments its topic's retention lets go.
  void check_retention(SimTime now);
  /// A sample of every broker's disk for the time series (every 10 s, or --timeseries).
  void sample_disks(SimTime now);
  bool models_disks() const { return disks_on_; }

  /// The leaders' periodic ISR check (every replica.lag.time.max.ms / 2).
  void check_isr(SimTime now);
  SimTime isr_check_interval() const;

  /// A broker dies: its fetchers stop, the requests waiting on its partitions are lost.
  /// Returns when the controller fences it (the last heartbeat + broker.session.timeout.ms).
  SimTime broker_failed(std::int32_t b, SimTime now);
  /// The controller fences `b`: out of every ISR, leaders re-elected from the ISR.
  /// Returns true if a leader changed.
  bool fence(std::int32_t b, SimTime now);
  /// `b` is back (unfenced): it leads the offline partitions whose ISR it is, and fetches.
  bool broker_recovered(std::int32_t b, SimTime now);
  /// Leaders were moved by a preferred leader election: settle the moved partitions.
  void leaders_moved(SimTime now, const std::string& cause);
  /// Whether `b` may lead (topic t, partition p): it is in the ISR (no unclean election).
  bool eligible(std::size_t t, std::size_t p, std::int32_t b) const;
  void set_replica_rtt(std::int32_t b, SimTime rtt) { replica_rtt_[static_cast<std::size_t>(b)] = rtt; }
  /// The brokers' network links (network.bytes.per.s): a leader's answer passes its
  /// outbound link and the follower's inbound one. None: no limit.
  void set_links(BrokerLinks* links) { links_ = links; }

  /// A snapshot for --timeseries.
  void sample(SimTime now) { snapshot(now, "sample"); }
  /// The run's replication results, the time accounts closed at `end` (or the last change).
  ReplicationResult finish(SimTime end);

  // For tests and reports.
  std::span<const std::int32_t> isr(std::size_t partition) const { return parts_[partition].isr; }

  // KIP-392: fetching from the closest replica (replica.selector.class rack-aware).
  /// The replica the leader of `partition` names to a consumer in `rack` fetching from it:
  /// RackAwareReplicaSelector's choice among the leader and the in-sync followers whose log
  /// covers the fetch offset, or -1 for the leader itself (no selector, no rack, the leader
  /// in the rack, or no in-sync replica there). A node index.
  std::int32_t preferred_read_replica(std::size_t partition, const std::string& rack) const;
  /// When `broker` is a live follower of `partition` under its current leader: how many
  /// records lie below the high watermark it learnt from its leader's last answer (what it
  /// serves consumers). None: it is not (a consumer's fetch there is refused).
  std::optional<std::int64_t> follower_readable_records(std::size_t partition, std::int32_t broker) const;
  /// KIP-392: a live in-sync follower has not learnt its leader's high watermark yet (its
  /// leader's next answer tells it, at the latest when its fetch has waited
  /// replica.fetch.wait.max.ms): consumers reading from it may still get more.
  bool followers_behind() const;
  std::int64_t high_watermark(std::size_t partition) const { return parts_[partition].hw; }
  /// The end of the partition's log (bytes): its leader's, or the last leader's while offline.
  std::int64_t log_end(std::size_t partition) const { return parts_[partition].log_end; }

private:
  struct Follower {
    std::int64_t leo = 0;        // this replica's log end (bytes)
    std::int64_t start = 0;      // ... and its start: it holds [start, leo) on its broker's disk
    std::int64_t log_start = 0;  // the log start offset it knows (a follower: its leader's, from the answers)
    std::int64_t fetched = 0;    // its log end as the leader saw it at its latest fetch
    std::int64_t leo_at_prev_fetch = 0;
    SimTime prev_fetch = SimTime::zero();
    SimTime last_caught_up = SimTime::zero();
    // The high watermark this follower learnt from its leader's last answer, in bytes and in
    // records (KIP-392: what it may serve consumers).
    std::int64_t hw = 0;
    std::int64_t hw_records = 0;
    // The fetcher's isReplicaInSync: its lag (the leader's high watermark less its log end,
    // as of the last answer with records) is 0; unknown (false) before the first answer.
    bool fetcher_in_sync = false;
    bool lag_known = false;
  };
  struct Pending {
    std::int64_t end;
    std::uint64_t request;
  };
  struct Partition {
    std::size_t topic = 0, index = 0;
    // assignment order; during a reassignment the target's replicas, then those it removes
    // (KRaft's PartitionReassignmentReplicas)
    std::vector<std::int32_t> replicas;
    std::vector<std::int32_t> adding, removing;  // a reassignment under way (by broker id order)
    // The brokers the topic's leader/follower.replication.throttled.replicas list for it.
    std::vector<std::int32_t> leader_throttled, follower_throttled;
    std::int32_t min_insync = 1;    // min.insync.replicas as configured
    std::vector<std::int32_t> isr;  // assignment order
    std::vector<Follower> state;    // per replica position
    std::int32_t leader = -1;       // as last settled
    std::int32_t min_isr = 1;       // effective: min(min.insync.replicas, replicas)
    std::int64_t hw = 0;
    std::int64_t log_end = 0;      // the partition's log: its leader's log end, or the last leader's
    LogSegments segments;          // its segments (every replica keeps the leader's boundaries)
    std::vector<Pending> pending;  // end offsets ascending
    // A partition a topic schedule adds exists from its step on: before, it has no replicas.
    bool created() const { return !replicas.empty(); }
    bool moving() const { return !adding.empty() || !removing.empty(); }
    // The replication factor UnderReplicatedPartitions compares the ISR with: the adding
    // replicas do not count (Partition.isUnderReplicated).
    std::size_t factor() const { return replicas.size() - adding.size(); }
  };
  enum class FetchState { kIdle, kInFlight, kParked, kBackoff };
  struct Session {
    std::int32_t follower = 0, leader = 0;
    FetchState state = FetchState::kIdle;
    std::uint64_t fetch = 0;  // the current fetch's id
    struct Carried {
      std::size_t partition;
      std::int64_t from;        // the follower's log end the answer starts at
      std::int64_t leo, hw;     // the follower's log end after the answer, the leader's high watermark
      std::int64_t hw_records;  // KIP-392: the records below that high watermark
      std::int64_t log_start;   // the leader's log start offset
    };
    std::vector<Carried> carried;
    std::size_t rotation = 0;       // where the next answer's budget starts among its partitions
    std::int64_t answer_bytes = 0;  // the answer on its way, for the follower's inbound link
    bool passed_in = true;          // ... which it has passed
    // KIP-392: per partition it fetches (parts_ order), the high watermark (bytes, records)
    // when the fetch arrived: an answer at once carries it, read before the fetch moved it.
    std::vector<std::pair<std::int64_t, std::int64_t>> arrival_hw;  // by parts_ position
    SimTime parked_at = SimTime::zero();
    bool expiry_pending = false;  // its parked fetch's expiry is scheduled (the host may drop it)
    // Per partition (parts_ order), left out of the current fetch by the follower's throttle;
    // empty: none.
    std::vector<char> omitted;
  };

  std::size_t pos(const Partition& p, std::int32_t b) const;
  bool in_isr(const Partition& p, std::int32_t b) const;
  std::int64_t leader_leo(const Partition& p) const { return p.state[pos(p, p.leader)].leo; }
  bool up(std::int32_t b) const { return up_[static_cast<std::size_t>(b)] != 0; }
  void advance_hw(Partition& p, SimTime now);
  void settle(Partition& p, std::int64_t upto, std::optional<ProduceError> error);
  void send_fetch(Session& s, SimTime now);
  void schedule(const Session& s, ReplicationHost::Step step, SimTime at);         // the session's current fetch
  enum Needs : unsigned { kNeedsLeader = 1, kNeedsFollower = 2, kNeedsBoth = 3 };  // brokers that must be up
  Session* current(std::uint32_t session, std::uint64_t fetch, FetchState state, Needs needs);
  /// `at_arrival`: answered as the fetch arrives (its high watermark from before the fetch).
  void respond(Session& s, SimTime now, bool at_arrival = false);
  /// KIP-392: a high watermark moved while the producers may be done: parked fetches of the
  /// leader whose expiry was dropped get one (their followers have something to learn).
  void wake_parked(std::int32_t leader);
  std::int64_t available(const Session& s, SimTime now) const;
  SimTime one_way(const Session& s) const;
  bool fetches(const Session& s, const Partition& p) const;  // the session fetches the partition
  bool carries(const Session& s, std::size_t i) const {      // ... and its current fetch asks for it
    return fetches(s, parts_[i]) && (s.omitted.empty() || !s.omitted[i]);
  }
  // The leader keeps a listed, out-of-sync replica's records back while its quota is over
  // (ReplicaManager.shouldLeaderThrottle); the follower leaves such a partition out of its
  // fetch while its own is (shouldFollowerThrottle, with the fetcher's own view of in sync).
  bool leader_holds_back(const Session& s, const Partition& p, SimTime now) const;
  bool follower_leaves_out(const Session& s, const Partition& p, SimTime now) const;
  /// After an ISR expansion (or at its start): a reassignment whose target replicas are all in
  /// the ISR completes (PartitionReassignmentReplicas.maybeCompleteReassignment).
  /// `started`: the move starts now (one that moves nothing is done at once).
  void maybe_complete(Partition& p, SimTime now, bool started = false);
  void finish_move(Partition& p, std::size_t i, bool leader_moved, SimTime now);
  // The disks: a replica's log grows (or shrinks, by truncation) by `bytes`; deleted bytes
  // stay until file.delete.delay.ms has passed; bytes in use now (what was deleted long
  // enough ago freed first).
  void grow(std::int32_t b, std::int64_t bytes, SimTime now);
  void delete_later(std::int32_t b, std::int64_t bytes, SimTime now);
  std::int64_t used(std::int32_t b, SimTime now);
  bool fits(std::int32_t b, std::int64_t bytes, SimTime now);
  void fail_log_dir(std::int32_t b, SimTime now);
  void finish_disks(SimTime now);
  // What `b`'s copy of the partition lacks of it (a new replica starts at its leader's log start).
  std::int64_t lacks(const Partition& p, std::int32_t b) const;
  // The log start offset the leader of `p` answers with (0 while it is offline).
  std::int64_t leader_log_start(const Partition& p) const;
  // `b` drops `bytes` of a replica's log otherwise than by retention (deleted later as well).
  void remove_log(std::int32_t b, std::int64_t bytes, SimTime now);
  void kick(SimTime now);
  void stop_sessions(std::int32_t b);
  void sync_leaders(SimTime now);
  void account(SimTime now);
  void snapshot(SimTime now, const std::string& cause);
  std::string broker_name(std::int32_t b) const;

  const Scenario& s_;
  Leadership& leadership_;
  ReplicationHost& host_;
  std::vector<Partition> parts_;
  std::vector<Session> sessions_;  // follower * brokers + leader
  std::vector<char> up_, fenced_;
  std::vector<SimTime> replica_rtt_;
  std::unordered_map<std::uint64_t, std::int32_t> waiting_;  // request -> batches waiting
  std::uint64_t next_fetch_ = 1;
  SimTime accounted_ = SimTime::zero();
  ReplicationResult result_;
  bool read_replicas_ = false;  // replica.selector.class rack-aware: followers' high watermarks are told
  BrokerLinks* links_ = nullptr;

  // Reassignments: the brokers' throttles, what they count, and the time series.
  std::vector<ReplicationQuota> leader_quota_, follower_quota_;  // per broker
  std::int32_t moving_ = 0;                                      // partitions being reassigned
  struct BrokerBytes {
    std::int64_t reassign_out = 0, reassign_in = 0;  // ReassignmentBytesOut/InPerSec's counts
    std::int64_t listed_in_sync_out = 0;             // a leader's listed bytes to in-sync followers
    std::int64_t listed_in_sync_in = 0;              // a follower's listed bytes while its fetcher is in sync
  };
  std::vector<BrokerBytes> bytes_;
  std::vector<char> throttled_;                       // per broker: a move's throttle applies to it
  std::vector<std::vector<std::size_t>> step_parts_;  // per reassignment step: the partitions it moves

  // The brokers' disks; what is in use is counted always (the reassignments' gauges), the
  // capacity and retention only when modelled (Scenario::models_disks).
  struct Disk {
    std::int64_t capacity = 0, other = 0;                   // disk.bytes (0: unlimited), disk.used.bytes
    std::int64_t logs = 0;                                  // its replicas' logs
    std::int64_t deleting = 0;                              // deleted, not yet removed
    std::deque<std::pair<SimTime, std::int64_t>> removals;  // when, how many bytes
    bool failed = false;                                    // its log directory failed
  };
  std::vector<Disk> disks_;  // per broker
  bool disks_on_ = false;
  // The counters at the previous sample.
  SimTime last_sample_time_ = SimTime::zero();
  std::int64_t last_out_ = 0, last_in_ = 0, last_shrinks_ = 0, last_expands_ = 0;
  // Since the last throttle change: its time, and per partition its log end then ("never").
  SimTime window_start_ = SimTime::zero();
  std::vector<std::int64_t> window_log_end_;
  std::vector<BrokerBytes> window_bytes_;
  void open_window(SimTime now);
  void judge(SimTime now);  // ReassignmentResult's budgets of the moves left
  void step_done(std::size_t k, SimTime now);
};

}  // namespace partsim::model
