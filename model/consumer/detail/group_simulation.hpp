#pragma once
// The consumer group simulation's internals (model/consumer/consumer_simulation.hpp): its
// events, the state it keeps per partition and per member, and GroupSimulation, whose poll
// loop, fetching and results are in consumer_simulation.cpp and whose membership changes
// (joins, leaves, crashes, restarts, assignments and revocations) in group_membership.cpp.
// Internal to partsim_model.

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <deque>
#include <limits>
#include <optional>
#include <utility>
#include <variant>

#include "model/consumer/consumer_group.hpp"
#include "model/consumer/consumer_simulation.hpp"
#include "model/consumer/fetch_answer.hpp"
#include "model/consumer/order_check.hpp"
#include "model/consumer/processed_latency.hpp"
#include "model/partitioners/key_hash.hpp"
#include "sim/check.hpp"
#include "sim/event_queue.hpp"

namespace partsim::model::consumer {
namespace group_sim {

struct PollAt {
  std::int32_t member;
};
struct FetchDone {
  std::int32_t member;
  std::int32_t broker;
};
struct GroupDue {
  std::int32_t member;
};
struct Expiry {};
struct Step {
  std::size_t index;
};
struct Sample {};
struct PollTimeout {
  std::int32_t member;
  std::uint64_t poll;
};
struct Grow {
  std::size_t index;
};  ///< the group learns of ConsumeInputs::partitions_added[index]
/// An application's OffsetCommit of one partition reaches the coordinator.
struct CommitArrives {
  std::int32_t member;
  std::int32_t part;
  std::int64_t offset;
  std::uint32_t assigned;
};
/// A member that had partitions without a leader asks its metadata again (retry.backoff.ms);
/// an idle one whose partition got records fetches (GroupRunner::records_arrived).
struct LeaderRetry {
  std::int32_t member;
};
struct Arrival {
  std::int32_t member;
};
using Event = std::variant<PollAt, FetchDone, GroupDue, Expiry, Step, Sample, PollTimeout, Grow, CommitArrives,
                           LeaderRetry, Arrival>;

/// Per partition of the group (one owner at a time).
struct PartState {
  std::int32_t log = 0;       ///< index into BrokerLogs::partitions
  std::int64_t position = 0;  ///< next offset poll() returns
  std::int64_t fetched = 0;   ///< next offset to fetch; [position, fetched) is buffered
  std::optional<std::int64_t> committed;
  std::int64_t processed_high = 0;   ///< one past the highest offset ever processed (duplicates below it)
  std::int64_t processed_first = 0;  ///< records processed for the first time (skipped ones are not)
  std::int64_t skipped_high = 0;     ///< one past the last record a reset to latest jumped over
  std::int64_t replayed_high = 0;    ///< one past the highest offset processed again (the stall check's)
  std::uint32_t epoch = 0;           ///< bumped at every assign and revoke: stale responses are dropped
  std::uint32_t assigned = 0;        ///< bumped at every assign: a commit sent before is of an older generation
  std::int32_t read_replica = -1;    ///< KIP-392: the broker the leader named to read from (-1: the leader)
  SimTime read_replica_until;        ///< ... while the time is at most this
};

struct FetchedRange {
  std::int32_t part;
  std::uint32_t epoch;
  std::int64_t from, to;
};

/// KIP-392: what an answer says of a partition's read replica, applied when it reaches the member.
struct ReadReplicaNote {
  std::int32_t part;
  std::uint32_t epoch;
  std::int32_t replica;  ///< a broker, or kNotReplica (back to the leader)
};

struct MemberState {
  SimTime busy_until;
  bool idle = true;                                                 ///< blocked in poll() waiting for data
  std::vector<std::optional<std::vector<FetchedRange>>> in_flight;  ///< per broker
  std::vector<std::vector<std::int32_t>> session;                   ///< per broker: the fetch session's partition order
  std::vector<std::vector<ReadReplicaNote>> notes;                  ///< per broker: of the answer on its way
  std::deque<std::int32_t> ready;                                   ///< partitions with buffered data, in arrival order
  SimTime next_commit;
  std::optional<SimTime> crash_at;
  bool leave_pending = false;
  std::optional<std::size_t> restart_after_close;  ///< a static member's restart step that came before its close()
  bool expelled = false;                           ///< left the group for a late poll(); rejoins at its next
  bool leader_retry = false;                       ///< a LeaderRetry is pending
  bool arrival = false;                            ///< an Arrival is pending
  /// Per broker: when its last fetch was sent, and when one came back empty the instant it
  /// was sent (no network or service time, fetch.max.wait.ms 0): asking again then would be
  /// answered the same, for ever.
  std::vector<SimTime> sent_at, spun_at;
  std::uint64_t polls = 0;  ///< poll() calls that returned records
  std::int64_t records = 0;
};

class GroupSimulation {
public:
  GroupSimulation(std::uint32_t id, const ConsumerGroupSpec& spec, const GroupCoordinatorConfig& coordinator,
                  const ConsumeInputs& in, FetchPath& fetches)
      : spec_(spec),
        in_(in),
        logs_(*in.logs),
        fetches_(fetches),
        id_(id),
        group_(group_settings(spec.config, coordinator), in.topics, spec.topics),
        added_(in.partitions_added) {
    for (const auto& tp : group_.partitions()) {
      std::int32_t log = 0;
      for (std::size_t t = 0; t < in.topics.size(); ++t)
        if (in.topics[t].name == tp.topic) log = in.topic_first_log[t] + tp.partition;
      PartState s;
      s.log = log;
      if (part_of_log_.size() <= static_cast<std::size_t>(log))
        part_of_log_.resize(static_cast<std::size_t>(log) + 1, -1);
      part_of_log_[static_cast<std::size_t>(log)] = static_cast<std::int32_t>(parts_.size());
      parts_.push_back(s);
    }
    std::int32_t total = spec.members;
    for (const auto& c : spec.schedule)
      if (c.kind == MemberChange::Kind::kJoin) total += c.count;
    total_members_ = total;
    queue_.resize_timers(static_cast<std::size_t>(total) + 1);
    // The coordinator: leader of __consumer_offsets partition abs(hashCode) % 50 (Utils.abs
    // maps MIN_VALUE to 0), partition p on broker p mod n.
    if (!in.broker_rtt.empty()) {
      const std::int32_t h = java_string_hash(spec.group);
      const std::int64_t offsets_partition =
          (h == std::numeric_limits<std::int32_t>::min() ? 0 : std::abs(static_cast<std::int64_t>(h))) % 50;
      coordinator_rtt_ =
          in.broker_rtt[static_cast<std::size_t>(offsets_partition % static_cast<std::int64_t>(in.broker_rtt.size()))];
    }
    // A topic that grows starts with the count it had before its first increase.
    std::vector<OwnershipChange> none;
    for (std::size_t t = 0; t < in.start_partitions.size(); ++t)
      group_.set_partition_count(in.topics[t].name, in.start_partitions[t], SimTime::zero(), none);
  }

  void start();
  SimTime next_time() { return stopped_ || queue_.empty() ? SimTime::max() : queue_.next_time(); }
  void step();
  void fetch_answered(std::int32_t member, std::int32_t broker, std::optional<std::vector<std::int64_t>> counts,
                      SimTime at, const std::vector<std::int32_t>& read_replicas = {});
  bool records_arrived(std::int32_t log, SimTime at) {
    if (log < 0 || static_cast<std::size_t>(log) >= part_of_log_.size()) return false;
    const std::int32_t part = part_of_log_[static_cast<std::size_t>(log)];
    if (part < 0) return false;
    const std::int32_t m = group_.owner(part);
    if (m < 0 || !alive(m)) return false;
    auto& ms = members_[static_cast<std::size_t>(m)];
    const std::int32_t to = target(part, at);
    if (!ms.idle || ms.arrival || (to >= 0 && ms.in_flight[static_cast<std::size_t>(to)])) return false;
    ms.arrival = true;
    queue_.schedule(at, Arrival{m});
    return true;
  }
  void partitions_added(std::size_t topic, std::int32_t partitions, SimTime at) {
    added_.push_back({at, topic, partitions});
    schedule_grow(added_.size() - 1);
  }
  GroupRun finish();

private:
  /// How many records of `log` the group may still read: all of them while the logs grow,
  /// else those ever readable (followers: what the high watermark never passed is not).
  std::int64_t log_end(std::int32_t log, bool growing) const {
    const PartitionLog& l = logs_.partitions[static_cast<std::size_t>(log)];
    if (growing || l.records.empty() || l.records.back().readable != SimTime::max())
      return static_cast<std::int64_t>(l.records.size());
    return consumer::high_watermark(l, SimTime::ns(SimTime::max().count_ns() - 1));
  }
  /// When the last record the group may read became readable (0: none).
  SimTime last_readable(bool growing) const {
    SimTime last = SimTime::zero();
    for (const auto& s : parts_)
      if (const std::int64_t end = log_end(s.log, growing); end > 0)
        last = std::max(
            last,
            logs_.partitions[static_cast<std::size_t>(s.log)].records[static_cast<std::size_t>(end - 1)].readable);
    return last;
  }
  void schedule_grow(std::size_t i) {
    // New partitions: a KIP-848 coordinator learns of them at once (§3.5); a classic group at
    // its leader's next metadata refresh, every metadata.max.age.ms from the start (§6.3).
    const SimTime at = added_[i].at;
    const std::int64_t age = spec_.config.metadata_max_age.count_ns();
    const bool classic = spec_.config.protocol == ConsumerConfig::Protocol::kClassic;
    queue_.schedule(classic && age > 0 ? SimTime::ns((at.count_ns() + age - 1) / age * age) : at, Grow{i});
  }
  std::int64_t high_watermark(std::int32_t log, SimTime t) const {
    return consumer::high_watermark(logs_.partitions[static_cast<std::size_t>(log)], t);
  }
  /// The broker `part`'s next fetch goes to: the read replica the leader named while it is
  /// valid (SubscriptionState.preferredReadReplica), else the leader (-1: none).
  std::int32_t target(std::int32_t part, SimTime now) const {
    const PartState& s = parts_[static_cast<std::size_t>(part)];
    const std::int32_t leader = fetches_.leader(s.log);
    return leader >= 0 && s.read_replica >= 0 && now <= s.read_replica_until ? s.read_replica : leader;
  }
  /// How many records of `log` broker `broker` serves at `t` (a follower: up to the high
  /// watermark it learnt, KIP-392).
  std::int64_t readable_at(std::int32_t log, std::int32_t broker, SimTime t) const {
    const std::int64_t hw = high_watermark(log, t);
    const auto served = fetches_.replica_readable(log, broker);
    return served ? std::min(hw, *served) : hw;
  }
  /// The broker whose fetch session takes `part` (its leader; broker 0 while it has none).
  std::int32_t broker_of(std::int32_t part) const {
    return std::max(0, fetches_.leader(parts_[static_cast<std::size_t>(part)].log));
  }

  void add_members(std::int32_t count, SimTime now);
  void apply(const std::vector<OwnershipChange>& changes, SimTime now);
  void commit(std::int32_t part) {
    if (spec_.config.enable_auto_commit)
      parts_[static_cast<std::size_t>(part)].committed = parts_[static_cast<std::size_t>(part)].position;
  }
  void drop(std::int32_t member, std::int32_t part);
  void restart(std::int32_t member, SimTime now, std::size_t step);
  void flush_drops();
  void reschedule_group();
  void poll(std::int32_t member, SimTime now);
  void send_fetches(std::int32_t member, SimTime now);
  void fetch_done(std::int32_t member, std::int32_t broker, SimTime now);
  void sample(SimTime now);
  void note_lag(std::int32_t part, SimTime now) {
    const auto& s = parts_[static_cast<std::size_t>(part)];
    result_.lag_max = std::max(result_.lag_max, high_watermark(s.log, now) - s.position);
  }
  bool alive(std::int32_t m) const { return group_.in_group(m) && !group_.crashed(m); }
  /// The first crash of member `id` in the schedule at or after `from` (the steps at `from`
  /// from index `first` on, as the queue runs equal times in schedule order).
  std::optional<SimTime> next_crash(const std::string& id, SimTime from, std::size_t first) const;
  /// The member closes (close(): auto commit, then LeaveGroup; a static member sends none).
  void close_member(std::int32_t member, SimTime now);
  /// The application commits `part` at `offset` at `now`: it takes effect at the coordinator
  /// half a round trip later.
  void send_commit(std::int32_t member, std::int32_t part, std::int64_t offset, SimTime now) {
    queue_.schedule(now + SimTime::ns(coordinator_rtt_.count_ns() / 2),
                    CommitArrives{member, part, offset, parts_[static_cast<std::size_t>(part)].assigned});
  }
  /// Every record of every partition processed, or jumped over by a reset: nothing more to consume.
  bool all_consumed(bool growing) const {
    for (const auto& s : parts_)
      if (std::max(s.processed_high, s.skipped_high) < log_end(s.log, growing)) return false;
    return true;
  }

  const ConsumerGroupSpec& spec_;
  const ConsumeInputs& in_;
  const BrokerLogs& logs_;
  FetchPath& fetches_;
  const std::uint32_t id_;  ///< the group's index in the scenario (FetchPath::send_fetch)
  ConsumerGroup group_;
  std::vector<PartitionsAdded> added_;     ///< the partition increases known so far, in time order
  std::vector<std::int32_t> part_of_log_;  ///< per log partition: the group's index of it, or -1
  std::vector<PartState> parts_;
  std::vector<std::pair<std::int32_t, std::int32_t>> dropping_;  // (member, partition) dropped, not yet flushed
  std::vector<char> marked_;                                     // per partition, within flush_drops
  std::vector<MemberState> members_;
  std::int32_t total_members_ = 0;
  std::int32_t joined_ = 0;
  SimTime coordinator_rtt_ = SimTime::zero();
  bool ended_ = false;  ///< the run has ended and nothing more can be consumed
  // The event loop: progress (first processings) and when it last grew, for the stall check.
  SimTime stall_window_ = SimTime::zero();
  std::int64_t progress_ = 0;
  SimTime progress_at_ = SimTime::zero();
  bool stopped_ = false;                ///< stalled or cancelled: no more events
  bool cancelled_ = false;              ///< by ConsumeInputs::cancel
  std::int32_t fetches_in_flight_ = 0;  ///< sent, their answers not given yet (FetchPath)
  std::int64_t replayed_ = 0;           ///< duplicates past PartState::replayed_high: progress
  sim::EventQueue<Event> queue_;
  std::vector<Processed> processed_;
  GroupResult result_;
  std::uint64_t events_ = 0;
};

}  // namespace group_sim
}  // namespace partsim::model::consumer
