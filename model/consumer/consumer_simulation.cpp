#include "model/consumer/consumer_simulation.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <deque>
#include <limits>
#include <optional>
#include <utility>
#include <variant>

#include "model/consumer/consumer_group.hpp"
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

/// A consumer's metadata refresh after a partition had no leader comes no sooner than
/// retry.backoff.ms (kafka-consumer-spec §6.2).
constexpr SimTime kMetadataRetry = SimTime::ms(100);

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
};

struct FetchedRange {
  std::int32_t part;
  std::uint32_t epoch;
  std::int64_t from, to;
};

struct MemberState {
  SimTime busy_until;
  bool idle = true;                                                 ///< blocked in poll() waiting for data
  std::vector<std::optional<std::vector<FetchedRange>>> in_flight;  ///< per broker
  std::vector<std::vector<std::int32_t>> session;                   ///< per broker: the fetch session's partition order
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
                      SimTime at);
  bool records_arrived(std::int32_t log, SimTime at) {
    if (log < 0 || static_cast<std::size_t>(log) >= part_of_log_.size()) return false;
    const std::int32_t part = part_of_log_[static_cast<std::size_t>(log)];
    if (part < 0) return false;
    const std::int32_t m = group_.owner(part);
    if (m < 0 || !alive(m)) return false;
    auto& ms = members_[static_cast<std::size_t>(m)];
    const std::int32_t leader = fetches_.leader(log);
    if (!ms.idle || ms.arrival || (leader >= 0 && ms.in_flight[static_cast<std::size_t>(leader)])) return false;
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

void GroupSimulation::add_members(std::int32_t count, SimTime now) {
  if (count == 0) return;  // a group that starts empty forms at its first join
  std::vector<NewMember> joining;
  for (std::int32_t i = 0; i < count; ++i, ++joined_) {
    NewMember m;
    m.id = member_id(spec_.member_prefix, joined_, total_members_);
    if (!spec_.config.group_instance_id.empty())
      m.instance_id = member_id(spec_.config.group_instance_id, joined_, total_members_);
    m.rack = spec_.racks.empty() ? spec_.config.client_rack
                                 : spec_.racks[static_cast<std::size_t>(joined_) % spec_.racks.size()];
    // Members that join together heartbeat out of step: spread evenly over the interval.
    m.heartbeat_offset = SimTime::ns(group_.settings().heartbeat_interval.count_ns() * i / count);
    joining.push_back(m);
    MemberState s;
    s.in_flight.resize(in_.broker_rtt.size());
    s.session.resize(in_.broker_rtt.size());
    s.sent_at.assign(in_.broker_rtt.size(), SimTime::max());
    s.spun_at.assign(in_.broker_rtt.size(), SimTime::max());
    s.next_commit = now + spec_.config.auto_commit_interval;
    s.busy_until = now;
    s.crash_at = next_crash(m.id, now, 0);
    members_.push_back(std::move(s));
  }
  std::vector<OwnershipChange> out;
  group_.join(joining, now, out);
  apply(out, now);
  for (std::int32_t m = joined_ - count; m < joined_; ++m) queue_.schedule(now, PollAt{m});
}

std::optional<SimTime> GroupSimulation::next_crash(const std::string& id, SimTime from, std::size_t first) const {
  std::optional<SimTime> at;
  for (std::size_t i = 0; i < spec_.schedule.size(); ++i) {
    const MemberChange& c = spec_.schedule[i];
    if (c.kind == MemberChange::Kind::kCrash && c.member == id && (c.at > from || (c.at == from && i >= first)) &&
        (!at || c.at < *at))
      at = c.at;
  }
  return at;
}

void GroupSimulation::close_member(std::int32_t member, SimTime now) {
  std::vector<OwnershipChange> out;
  if (group_.is_static(member)) {
    // close(): the auto commit (when enabled), and no LeaveGroup (§1.2 step 5, §1.5).
    for (const std::int32_t p : group_.owned(member)) commit(p);
    group_.close_static(member, now);
    reschedule_group();
    return;
  }
  group_.leave(member, now, out);
  apply(out, now);
}

void GroupSimulation::drop(std::int32_t member, std::int32_t part) {
  auto& s = parts_[static_cast<std::size_t>(part)];
  s.fetched = s.position;  // buffered records of a revoked partition are discarded (FC:156-199)
  ++s.epoch;
  dropping_.push_back({member, part});
}

// The partitions dropped since the last call leave their members' ready lists and fetch
// sessions in one pass per member (a pass per partition: quadratic, minutes for a member
// of 500,000 partitions revoking them all).
void GroupSimulation::flush_drops() {
  if (dropping_.empty()) return;
  if (marked_.size() < parts_.size()) marked_.resize(parts_.size(), 0);
  std::stable_sort(dropping_.begin(), dropping_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < dropping_.size();) {
    const std::int32_t member = dropping_[i].first;
    std::size_t j = i;
    for (; j < dropping_.size() && dropping_[j].first == member; ++j)
      marked_[static_cast<std::size_t>(dropping_[j].second)] = 1;
    const auto is_marked = [&](std::int32_t part) { return marked_[static_cast<std::size_t>(part)] != 0; };
    auto& ms = members_[static_cast<std::size_t>(member)];
    std::erase_if(ms.ready, is_marked);
    for (auto& order : ms.session) std::erase_if(order, is_marked);
    for (; i < j; ++i) marked_[static_cast<std::size_t>(dropping_[i].second)] = 0;
  }
  dropping_.clear();
}

void GroupSimulation::apply(const std::vector<OwnershipChange>& changes, SimTime now) {
  for (const auto& c : changes) {
    auto& ms = members_[static_cast<std::size_t>(c.member)];
    const bool revoke = c.kind == OwnershipChange::Kind::kRevokeCommitted || c.kind == OwnershipChange::Kind::kRevoke;
    if (!revoke) flush_drops();  // a partition revoked, then assigned again, is dropped first
    switch (c.kind) {
      case OwnershipChange::Kind::kCommit: commit(c.partition); break;
      case OwnershipChange::Kind::kRevokeCommitted:
        commit(c.partition);
        drop(c.member, c.partition);
        break;
      case OwnershipChange::Kind::kRevoke: drop(c.member, c.partition); break;
      case OwnershipChange::Kind::kAssign: {
        auto& s = parts_[static_cast<std::size_t>(c.partition)];
        const auto reset = spec_.config.auto_offset_reset;
        using Reset = ConsumerConfig::OffsetReset;
        if (!s.committed && reset == Reset::kLatest) {
          // §5.2: the records below the high watermark the group never processed nor jumped
          // over before (an owner without commits, or an earlier reset) are skipped now.
          const std::int64_t hw = high_watermark(s.log, now);
          result_.records_skipped_latest += std::max<std::int64_t>(0, hw - std::max(s.processed_high, s.skipped_high));
          s.skipped_high = std::max(s.skipped_high, hw);
        }
        // §5.2: none throws NoOffsetForPartitionException from poll(); the loader refuses it
        // for a scenario's group, which starts without committed offsets.
        PARTSIM_CHECK(s.committed || reset != Reset::kNone,
                      "auto.offset.reset none for a partition without a committed offset");
        // §5.2: the committed offset, else auto.offset.reset (latest: the high watermark now).
        if (s.committed) {
          s.position = *s.committed;
        } else if (reset == Reset::kEarliest) {
          s.position = 0;
        } else if (reset == Reset::kByDuration) {
          // KIP-1106: ListOffsets by timestamp now - duration: the first offset below the high
          // watermark whose timestamp (CreateTime, the send) is at or after it; none: latest.
          const std::int64_t hw = high_watermark(s.log, now);
          const SimTime from = now - spec_.config.auto_offset_reset_by;
          const auto& records = logs_.partitions[static_cast<std::size_t>(s.log)].records;
          std::int64_t o = 0;
          while (o < hw && records[static_cast<std::size_t>(o)].sent < from) ++o;
          s.position = o;
          s.skipped_high = std::max(s.skipped_high, o);
        } else {
          s.position = high_watermark(s.log, now);
        }
        s.fetched = s.position;
        ++s.epoch;
        ++s.assigned;
        ms.session[static_cast<std::size_t>(broker_of(c.partition))].push_back(c.partition);
        // A member blocked in poll() wakes to fetch its new partition.
        if (ms.idle && alive(c.member)) queue_.schedule(now, PollAt{c.member});
        break;
      }
    }
  }
  flush_drops();
  reschedule_group();
}

void GroupSimulation::restart(std::int32_t member, SimTime now, std::size_t step) {
  // A new process: nothing buffered, new fetch sessions, positions from the committed offsets.
  auto& ms = members_[static_cast<std::size_t>(member)];
  for (const std::int32_t p : std::vector<std::int32_t>(group_.owned(member))) drop(member, p);
  for (auto& order : ms.session) order.clear();
  ms.ready.clear();
  ms.crash_at = next_crash(group_.member_id(member), now, step + 1);
  ms.leave_pending = false;
  ms.busy_until = now;
  ms.idle = true;
  ms.next_commit = now + spec_.config.auto_commit_interval;
  std::vector<OwnershipChange> out;
  group_.restart(member, now, out);
  apply(out, now);
  queue_.schedule(now, PollAt{member});
}

void GroupSimulation::reschedule_group() {
  for (std::int32_t m = 0; m < group_.member_count(); ++m) {
    const SimTime due = group_.due(m);
    if (due == SimTime::max()) queue_.clear_timer(static_cast<std::size_t>(m));
    else queue_.set_timer(static_cast<std::size_t>(m), due, GroupDue{m});
  }
  const SimTime expiry = group_.next_expiry();
  if (expiry == SimTime::max()) queue_.clear_timer(static_cast<std::size_t>(total_members_));
  else queue_.set_timer(static_cast<std::size_t>(total_members_), expiry, Expiry{});
}

void GroupSimulation::poll(std::int32_t member, SimTime now) {
  auto& ms = members_[static_cast<std::size_t>(member)];
  if (ms.expelled && now >= ms.busy_until && !(ms.crash_at && now >= *ms.crash_at)) {
    ms.expelled = false;
    std::vector<OwnershipChange> out;
    group_.rejoin(member, now, out);
    apply(out, now);
  }
  if (!alive(member) || now < ms.busy_until) return;
  if (ms.crash_at && now >= *ms.crash_at) return;
  if (ms.leave_pending) {
    ms.leave_pending = false;
    close_member(member, now);
    if (const auto step = std::exchange(ms.restart_after_close, std::nullopt)) restart(member, now, *step);
    return;
  }
  // The coordinator step (§1.2): rejoin or reconcile when the group asked for it.
  if (group_.due(member) <= now) {
    std::vector<OwnershipChange> out;
    group_.step(member, now, out);
    apply(out, now);
  }
  // Auto commit inside poll, of the positions returned by earlier polls (§5.1).
  if (spec_.config.enable_auto_commit && now >= ms.next_commit) {
    for (const std::int32_t p : group_.owned(member)) commit(p);
    ms.next_commit = now + spec_.config.auto_commit_interval;
  }
  // Take up to max.poll.records, the partially drained partition first (§4.5).
  std::int64_t budget = spec_.config.max_poll_records;
  std::int64_t taken = 0;
  SimTime t = now;
  bool dies = false;
  using Commit = ConsumerGroupSpec::Commit;
  while (budget > 0 && !ms.ready.empty() && !dies) {
    const std::int32_t part = ms.ready.front();
    auto& s = parts_[static_cast<std::size_t>(part)];
    note_lag(part, now);
    while (budget > 0 && s.position < s.fetched) {
      const SimTime done = t + spec_.processing;
      if (ms.crash_at && done > *ms.crash_at) {
        dies = true;  // it dies mid-batch: the rest is never processed
        break;
      }
      t = done;
      const bool duplicate = s.position < s.processed_high;
      processed_.push_back({t, s.log, s.position, member, duplicate});
      if (!duplicate) {
        result_.e2e_latency.record(processed_latency(processed_.back(), logs_).count_ns());
        s.processed_high = s.position + 1;
        ++s.processed_first;
      } else {
        ++result_.duplicates;
        // Processing again past the furthest it had processed again is progress too (a long
        // replay after a crash); a rebalance storm goes over the same offsets again and again.
        if (s.position >= s.replayed_high) {
          s.replayed_high = s.position + 1;
          ++replayed_;
        }
      }
      ++ms.records;
      ++s.position;
      ++taken;
      --budget;
      if (spec_.commit == Commit::kPerRecord) {
        // commitSync({tp: offset + 1}) after each record: it waits for the answer.
        send_commit(member, part, s.position, t);
        t += coordinator_rtt_;
      }
    }
    if (s.position >= s.fetched) ms.ready.pop_front();
  }
  // commitSync() / commitAsync() after the poll's records: the positions of every partition
  // it owns; the synchronous one waits for the answer.
  if (taken > 0 && !dies && (spec_.commit == Commit::kSyncPerPoll || spec_.commit == Commit::kAsyncPerPoll)) {
    for (const std::int32_t p : group_.owned(member))
      send_commit(member, p, parts_[static_cast<std::size_t>(p)].position, t);
    if (spec_.commit == Commit::kSyncPerPoll) t += coordinator_rtt_;
  }
  // Pipelining: the next fetches go out before the records are processed (§4.2).
  send_fetches(member, now);
  ms.busy_until = t;
  ms.idle = taken == 0;
  if (!ms.idle) {
    queue_.schedule(t, PollAt{member});
    // A batch that outlasts max.poll.interval.ms: the member leaves the group meanwhile.
    ++ms.polls;
    if (t - now > spec_.config.max_poll_interval)
      queue_.schedule(now + spec_.config.max_poll_interval, PollTimeout{member, ms.polls});
  }
}

void GroupSimulation::send_fetches(std::int32_t member, SimTime now) {
  auto& ms = members_[static_cast<std::size_t>(member)];
  const bool growing = fetches_.logs_growing();
  SimTime retry_at = SimTime::max();  // a zero-time empty answer's retry (MemberState::spun_at)
  // A partition whose leader moved joins the end of its new leader's session. One without a
  // leader (its replicas down) is fetched once the member's metadata names one: it looks
  // again after retry.backoff.ms.
  bool leaderless = false;
  for (std::size_t b = 0; b < ms.session.size(); ++b) {
    auto& order = ms.session[b];
    for (std::size_t i = 0; i < order.size();) {
      const auto& s = parts_[static_cast<std::size_t>(order[i])];
      const std::int32_t leader = fetches_.leader(s.log);
      if (leader < 0)
        leaderless = leaderless || (s.fetched == s.position && (growing || s.fetched < log_end(s.log, growing)));
      if (leader < 0 || static_cast<std::size_t>(leader) == b) {
        ++i;
        continue;
      }
      ms.session[static_cast<std::size_t>(leader)].push_back(order[i]);
      order.erase(order.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  if (leaderless && !ms.leader_retry) {
    ms.leader_retry = true;
    queue_.schedule(now + kMetadataRetry, LeaderRetry{member});
  }
  for (std::size_t b = 0; b < ms.session.size(); ++b) {
    if (ms.in_flight[b]) continue;
    // Owned partitions this broker leads with nothing buffered (§4.2) and something left to
    // read: in the log, or to come while the logs grow.
    std::vector<FetchRequestPartition> request;
    std::vector<FetchedRange> ranges;
    for (const std::int32_t p : ms.session[b]) {
      const auto& s = parts_[static_cast<std::size_t>(p)];
      if (s.fetched != s.position || (!growing && s.fetched >= log_end(s.log, growing)) ||
          fetches_.leader(s.log) != static_cast<std::int32_t>(b))
        continue;
      if (ms.spun_at[b] == now && high_watermark(s.log, now) <= s.fetched) {
        // Nothing readable yet, and this leader has just said so at this very instant: the
        // member fetches once the next record it knows of is readable, or one arrives.
        const auto& records = logs_.partitions[static_cast<std::size_t>(s.log)].records;
        if (s.fetched < static_cast<std::int64_t>(records.size()) &&
            records[static_cast<std::size_t>(s.fetched)].readable != SimTime::max())
          retry_at = std::min(retry_at, records[static_cast<std::size_t>(s.fetched)].readable);
        continue;
      }
      request.push_back({s.log, s.fetched});
      ranges.push_back({p, s.epoch, s.fetched, s.fetched});
    }
    if (request.empty()) continue;
    ms.in_flight[b] = std::move(ranges);
    ms.sent_at[b] = now;
    ++fetches_in_flight_;
    fetches_.send_fetch(id_, member, static_cast<std::int32_t>(b), std::move(request), now);
  }
  if (retry_at != SimTime::max() && !ms.arrival) {
    ms.arrival = true;
    queue_.schedule(retry_at, Arrival{member});
  }
}

void GroupSimulation::fetch_answered(std::int32_t member, std::int32_t broker,
                                     std::optional<std::vector<std::int64_t>> counts, SimTime at) {
  auto& ms = members_[static_cast<std::size_t>(member)];
  auto& ranges = ms.in_flight[static_cast<std::size_t>(broker)];
  PARTSIM_CHECK(ranges.has_value(), "a fetch answered that was not sent");
  --fetches_in_flight_;
  std::vector<std::int32_t> returned;
  if (counts) {
    PARTSIM_CHECK(counts->size() == ranges->size(), "a fetch answer of another request");
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ranges->size(); ++i) {
      if ((*counts)[i] == 0) continue;
      FetchedRange r = (*ranges)[i];
      r.to = r.from + (*counts)[i];
      (*ranges)[kept++] = r;
      returned.push_back(r.part);
    }
    ranges->resize(kept);
  } else {
    ranges->clear();  // the connection failed: nothing returned
  }
  ms.spun_at[static_cast<std::size_t>(broker)] =
      returned.empty() && at == ms.sent_at[static_cast<std::size_t>(broker)] ? at : SimTime::max();
  // KIP-227: partitions that returned data move to the end of the session's order.
  auto& order = ms.session[static_cast<std::size_t>(broker)];
  std::stable_partition(order.begin(), order.end(), [&](std::int32_t p) {
    return std::find(returned.begin(), returned.end(), p) == returned.end();
  });
  queue_.schedule(at, FetchDone{member, broker});
}

void GroupSimulation::fetch_done(std::int32_t member, std::int32_t broker, SimTime now) {
  auto& ms = members_[static_cast<std::size_t>(member)];
  auto ranges = std::move(*ms.in_flight[static_cast<std::size_t>(broker)]);
  ms.in_flight[static_cast<std::size_t>(broker)].reset();
  if (!alive(member)) return;
  for (const auto& r : ranges) {
    auto& s = parts_[static_cast<std::size_t>(r.part)];
    // Still owned, not revoked since, and starting at the position (FC:156-199).
    if (s.epoch != r.epoch || group_.owner(r.part) != member || s.fetched != r.from) continue;
    s.fetched = r.to;
    ms.ready.push_back(r.part);
  }
  if (ms.idle) poll(member, now);
}

void GroupSimulation::sample(SimTime now) {
  std::vector<std::int64_t> row;
  for (const auto& s : parts_) row.push_back(high_watermark(s.log, now) - s.position);
  for (const auto v : row) result_.lag_max = std::max(result_.lag_max, v);
  result_.lag_time_ms.push_back(now.to_ms());
  result_.lag.push_back(std::move(row));
}

void GroupSimulation::start() {
  const auto& cfg = spec_.config;
  result_.group = spec_.group;
  result_.protocol = cfg.protocol == ConsumerConfig::Protocol::kConsumer ? "consumer" : "classic";
  result_.assignor = std::string(assignor_name(group_.settings().assignor));
  for (const auto& tp : group_.partitions())
    result_.lag_partitions.push_back(tp.topic + "-" + std::to_string(tp.partition));
  add_members(spec_.members, SimTime::zero());
  for (std::size_t i = 0; i < spec_.schedule.size(); ++i) queue_.schedule(spec_.schedule[i].at, Step{i});
  if (in_.sample_interval > SimTime::zero()) queue_.schedule(SimTime::zero(), Sample{});
  for (std::size_t i = 0; i < added_.size(); ++i) schedule_grow(i);
  // A group that makes no progress (a rebalance storm of late polls, as in Kafka) would
  // run for ever: it is stopped after a window without a first processing.
  stall_window_ = SimTime::ns(10 * std::max(cfg.max_poll_interval, group_.settings().session_timeout).count_ns());
}

void GroupSimulation::step() {
  if ((events_ & 4095) == 0 && in_.cancel && in_.cancel->load(std::memory_order_relaxed)) {
    cancelled_ = stopped_ = true;
    return;
  }
  auto e = queue_.pop();
  const SimTime now = e.time;
  ++events_;
  // Polls and fetches (and a member's wake-ups) are where progress shows.
  if (e.payload.index() == 0 || e.payload.index() == 1 || std::holds_alternative<LeaderRetry>(e.payload) ||
      std::holds_alternative<Arrival>(e.payload)) {
    const std::int64_t first = static_cast<std::int64_t>(processed_.size()) - result_.duplicates + replayed_;
    if (first != progress_) {
      progress_ = first;
      progress_at_ = now;
    } else if (now > progress_at_ + stall_window_ && !fetches_.logs_growing() &&
               now > last_readable(false) + stall_window_ && !all_consumed(false)) {
      // (while the logs grow a group waits for records, and one that read them all waits
      // for nothing: neither is a stall)
      result_.stalled = stopped_ = true;
      return;
    }
  }
  // The run has ended and every record is processed: no more steps nor samples.
  if (!ended_ && (std::holds_alternative<Step>(e.payload) || std::holds_alternative<Sample>(e.payload)) &&
      now > in_.run_end && !fetches_.logs_growing() && all_consumed(false) && now > last_readable(false))
    ended_ = true;
  if (std::holds_alternative<Sample>(e.payload)) {
    if (ended_) return;
    sample(now);
    // (a fetch in flight comes back: the group is not over)
    if (!queue_.empty() || fetches_in_flight_ > 0) queue_.schedule(now + in_.sample_interval, Sample{});
    return;
  }
  if (ended_ && std::holds_alternative<Step>(e.payload)) {
    ++result_.steps_not_played;
    return;
  }
  std::visit(
      [&](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, PollAt>) {
          poll(ev.member, now);
        } else if constexpr (std::is_same_v<T, LeaderRetry> || std::is_same_v<T, Arrival>) {
          auto& ms = members_[static_cast<std::size_t>(ev.member)];
          (std::is_same_v<T, LeaderRetry> ? ms.leader_retry : ms.arrival) = false;
          if (ms.idle && alive(ev.member) && now >= ms.busy_until) poll(ev.member, now);
        } else if constexpr (std::is_same_v<T, FetchDone>) {
          fetch_done(ev.member, ev.broker, now);
        } else if constexpr (std::is_same_v<T, GroupDue>) {
          // A member busy processing acts at its next poll; an idle one at once.
          if (members_[static_cast<std::size_t>(ev.member)].idle &&
              now >= members_[static_cast<std::size_t>(ev.member)].busy_until)
            poll(ev.member, now);
        } else if constexpr (std::is_same_v<T, PollTimeout>) {
          auto& ms = members_[static_cast<std::size_t>(ev.member)];
          if (!alive(ev.member) || ms.polls != ev.poll || now >= ms.busy_until || (ms.crash_at && now >= *ms.crash_at))
            return;
          ms.expelled = true;
          std::vector<OwnershipChange> out;
          group_.expel(ev.member, now, out);
          apply(out, now);
        } else if constexpr (std::is_same_v<T, CommitArrives>) {
          // Taken unless the member lost the partition to a later generation meanwhile
          // (reassigned since, or the member was expelled: the commit fails).
          auto& s = parts_[static_cast<std::size_t>(ev.part)];
          if (s.assigned != ev.assigned || members_[static_cast<std::size_t>(ev.member)].expelled) return;
          if (!s.committed || *s.committed < ev.offset) s.committed = ev.offset;
        } else if constexpr (std::is_same_v<T, Grow>) {
          const PartitionsAdded& a = added_[ev.index];
          std::vector<OwnershipChange> out;
          group_.set_partition_count(in_.topics[a.topic].name, a.partitions, now, out);
          apply(out, now);
        } else if constexpr (std::is_same_v<T, Expiry>) {
          std::vector<OwnershipChange> out;
          group_.expire(now, out);
          apply(out, now);
        } else if constexpr (std::is_same_v<T, Step>) {
          const MemberChange& c = spec_.schedule[ev.index];
          if (c.kind == MemberChange::Kind::kJoin) {
            add_members(c.count, now);
            return;
          }
          const auto m = group_.find(c.member);
          // The loader refuses impossible steps (a member that left, crashed, or restarts
          // while running); one expelled meanwhile does nothing.
          if (c.kind == MemberChange::Kind::kRestart) {
            if (!m || !group_.is_static(*m)) return;
            if (group_.crashed(*m)) {
              restart(*m, now, ev.index);
            } else if (members_[static_cast<std::size_t>(*m)].leave_pending) {
              // Its leave waits for the batch in hand (close() after it): the new process
              // starts once the old one has closed.
              members_[static_cast<std::size_t>(*m)].restart_after_close = ev.index;
            }
            return;
          }
          if (!m || !alive(*m)) return;
          auto& ms = members_[static_cast<std::size_t>(*m)];
          if (c.kind == MemberChange::Kind::kCrash) {
            group_.crash(*m, now);
            reschedule_group();
          } else if (ms.idle) {
            close_member(*m, now);
          } else {
            ms.leave_pending = true;  // close() after the batch in hand
          }
        }
      },
      e.payload);
}

GroupRun GroupSimulation::finish() {
  GroupRun run;
  const OrderSummary order = check_order(processed_, logs_);
  result_.order_violations = order.violations;
  result_.keys_out_of_order = order.keys_affected;
  // A record the log holds twice (a producer's retry) is a duplicate when its second copy is
  // processed: `duplicates` counts every record processed again, so records_consumed =
  // distinct records + duplicates. The latency counts first processings only.
  if (order.written_twice > 0) {
    result_.duplicates += order.written_twice;
    result_.e2e_latency = first_processing_latency(processed_, logs_);
  }
  // The latency over time, by sample interval.
  if (!result_.lag_time_ms.empty()) {
    IntervalLatency series = latency_by_interval(processed_, logs_, result_.lag_time_ms);
    result_.latency_mean_ms = std::move(series.mean_ms);
    result_.latency_max_ms = std::move(series.max_ms);
  }
  result_.records_consumed = static_cast<std::int64_t>(processed_.size());
  for (const auto& s : parts_) result_.records_unconsumed += log_end(s.log, false) - s.processed_first;
  if (!processed_.empty()) result_.end_ms = processed_.back().at.to_ms();
  for (std::int32_t m = 0; m < group_.member_count(); ++m) {
    GroupMemberResult r;
    r.member = group_.member_id(m);
    for (const std::int32_t p : group_.owned(m))
      r.partitions.push_back(result_.lag_partitions[static_cast<std::size_t>(p)]);
    r.records = members_[static_cast<std::size_t>(m)].records;
    r.crashed = group_.crashed(m) && !group_.closed(m);
    r.left = group_.closed(m) || (!group_.in_group(m) && !group_.crashed(m));
    if (alive(m) && r.partitions.empty()) result_.idle_members.push_back(r.member);
    result_.members.push_back(std::move(r));
  }
  result_.rebalances = group_.rebalances();
  for (std::size_t i = 0; i < processed_.size() && static_cast<std::int64_t>(i) < in_.trace; ++i) {
    const Processed& p = processed_[i];
    const LogRecord& r = logs_.partitions[static_cast<std::size_t>(p.log)].records[static_cast<std::size_t>(p.offset)];
    ConsumeTraceRow row;
    row.group = spec_.group;
    row.member = group_.member_id(p.member);
    for (std::size_t g = 0; g < parts_.size(); ++g)
      if (parts_[g].log == p.log) row.partition = result_.lag_partitions[g];
    row.offset = p.offset;
    row.log = p.log;
    row.processed_ms = p.at.to_ms();
    row.null_key = r.key == LogRecord::kNullKey;
    if (!row.null_key) row.key = logs_.keys[static_cast<std::size_t>(r.key)];
    run.trace.push_back(std::move(row));
  }
  run.result = std::move(result_);
  run.events = events_;
  run.cancelled = cancelled_;
  return run;
}

/// A replay's fetches: the logs are complete, so the leader's answer is known when the fetch
/// is sent (answer_fetch looks ahead), and the leaders are those at the end of the run.
class ReplayFetches final : public FetchPath {
public:
  ReplayFetches(const ConsumeInputs& in, const ConsumerConfig& config) : in_(in), config_(config) {}
  void attach(GroupSimulation* group) { group_ = group; }
  void send_fetch(std::uint32_t, std::int32_t member, std::int32_t broker, std::vector<FetchRequestPartition> request,
                  SimTime now) override {
    const SimTime half_rtt = SimTime::ns(in_.broker_rtt[static_cast<std::size_t>(broker)].count_ns() / 2);
    FetchAnswer answer = answer_fetch(*in_.logs, in_.record_bytes, request, now + half_rtt, config_);
    group_->fetch_answered(member, broker, std::move(answer.counts), answer.at + half_rtt);
  }
  std::int32_t leader(std::int32_t log) const override { return in_.leader[static_cast<std::size_t>(log)]; }
  bool logs_growing() const override { return false; }

private:
  const ConsumeInputs& in_;
  const ConsumerConfig& config_;
  GroupSimulation* group_ = nullptr;
};

}  // namespace group_sim

GroupRunner::GroupRunner(std::uint32_t group, const ConsumerGroupSpec& spec, const GroupCoordinatorConfig& coordinator,
                         const ConsumeInputs& in, FetchPath& fetches)
    : sim_(std::make_unique<group_sim::GroupSimulation>(group, spec, coordinator, in, fetches)) {}
GroupRunner::~GroupRunner() = default;
void GroupRunner::start() { sim_->start(); }
SimTime GroupRunner::next_time() { return sim_->next_time(); }
void GroupRunner::step() { sim_->step(); }
void GroupRunner::fetch_answered(std::int32_t member, std::int32_t broker,
                                 std::optional<std::vector<std::int64_t>> counts, SimTime at) {
  sim_->fetch_answered(member, broker, std::move(counts), at);
}
bool GroupRunner::records_arrived(std::int32_t log, SimTime at) { return sim_->records_arrived(log, at); }
void GroupRunner::partitions_added(std::size_t topic, std::int32_t partitions, SimTime at) {
  sim_->partitions_added(topic, partitions, at);
}
GroupRun GroupRunner::finish() { return sim_->finish(); }

GroupRun simulate_group(const ConsumerGroupSpec& spec, const GroupCoordinatorConfig& coordinator,
                        const ConsumeInputs& in) {
  assert(in.logs != nullptr);
  group_sim::ReplayFetches fetches(in, spec.config);
  group_sim::GroupSimulation sim(0, spec, coordinator, in, fetches);
  fetches.attach(&sim);
  sim.start();
  while (sim.next_time() != SimTime::max()) sim.step();
  return sim.finish();
}

}  // namespace partsim::model::consumer
