#include "model/consumer/consumer_simulation.hpp"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>
#include <variant>

#include "model/consumer/detail/group_simulation.hpp"
#include "model/consumer/fetch_answer.hpp"
#include "model/consumer/order_check.hpp"
#include "model/consumer/processed_latency.hpp"
#include "sim/check.hpp"

namespace partsim::model::consumer {
namespace group_sim {

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
  // A partition whose leader (or read replica) moved joins the end of its new broker's
  // session. One without a leader (its replicas down) is fetched once the member's metadata
  // names one: it looks again after retry.backoff.ms.
  bool leaderless = false;
  for (std::size_t b = 0; b < ms.session.size(); ++b) {
    auto& order = ms.session[b];
    for (std::size_t i = 0; i < order.size();) {
      const auto& s = parts_[static_cast<std::size_t>(order[i])];
      const std::int32_t to = target(order[i], now);
      if (to < 0)
        leaderless = leaderless || (s.fetched == s.position && (growing || s.fetched < log_end(s.log, growing)));
      if (to < 0 || static_cast<std::size_t>(to) == b) {
        ++i;
        continue;
      }
      ms.session[static_cast<std::size_t>(to)].push_back(order[i]);
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
          target(p, now) != static_cast<std::int32_t>(b))
        continue;
      if (ms.spun_at[b] == now && readable_at(s.log, static_cast<std::int32_t>(b), now) <= s.fetched) {
        // Nothing readable yet, and this broker has just said so at this very instant: the
        // member fetches once the next record it knows of is readable, or one arrives (at a
        // follower: once it learns a higher high watermark, GroupRunner::records_arrived).
        const auto& records = logs_.partitions[static_cast<std::size_t>(s.log)].records;
        if (s.fetched < static_cast<std::int64_t>(records.size()) &&
            records[static_cast<std::size_t>(s.fetched)].readable != SimTime::max() &&
            records[static_cast<std::size_t>(s.fetched)].readable > now)
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
                                     std::optional<std::vector<std::int64_t>> counts, SimTime at,
                                     const std::vector<std::int32_t>& read_replicas) {
  auto& ms = members_[static_cast<std::size_t>(member)];
  auto& ranges = ms.in_flight[static_cast<std::size_t>(broker)];
  PARTSIM_CHECK(ranges.has_value(), "a fetch answered that was not sent");
  --fetches_in_flight_;
  std::vector<std::int32_t> returned;
  // KIP-392: the leader named a read replica, valid until metadata.max.age.ms after the answer
  // (FetchCollector: metadataExpireMs); an error of the replica, or a failed fetch of its
  // session, sends the member back to the leader (FetchUtils.requestMetadataUpdate,
  // AbstractFetch.handleFetchFailure). The member acts on it when the answer reaches it.
  auto& notes = ms.notes[static_cast<std::size_t>(broker)];
  notes.clear();
  if (counts && !read_replicas.empty()) {
    PARTSIM_CHECK(read_replicas.size() == ranges->size(), "a fetch answer of another request");
    for (std::size_t i = 0; i < ranges->size(); ++i)
      if (read_replicas[i] != kSameReplica) notes.push_back({(*ranges)[i].part, (*ranges)[i].epoch, read_replicas[i]});
  } else if (!counts) {
    for (const std::int32_t p : ms.session[static_cast<std::size_t>(broker)])
      notes.push_back({p, parts_[static_cast<std::size_t>(p)].epoch, kNotReplica});
  }
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
  for (const ReadReplicaNote& n : ms.notes[static_cast<std::size_t>(broker)]) {
    auto& s = parts_[static_cast<std::size_t>(n.part)];
    if (s.epoch != n.epoch) continue;  // revoked or assigned again since
    // The same replica named again keeps its expiry (SubscriptionState.tryUpdatingPreferredReadReplica).
    if (n.replica >= 0 && n.replica == s.read_replica && now <= s.read_replica_until) continue;
    s.read_replica = n.replica >= 0 ? n.replica : -1;
    s.read_replica_until = now + spec_.config.metadata_max_age;
  }
  ms.notes[static_cast<std::size_t>(broker)].clear();
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
                                 std::optional<std::vector<std::int64_t>> counts, SimTime at,
                                 std::vector<std::int32_t> read_replicas) {
  sim_->fetch_answered(member, broker, std::move(counts), at, read_replicas);
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
