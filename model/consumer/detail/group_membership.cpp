// A consumer group's membership changes as the simulation applies them: members joining,
// closing, crashing and restarting, and the partitions the group's protocol assigns and
// revokes (model/consumer/consumer_group.hpp decides them; here the positions, buffers and
// fetch sessions follow).

#include "model/consumer/detail/group_simulation.hpp"

namespace partsim::model::consumer {
namespace group_sim {

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
    // Before 3.5 the assignors know no racks (KIP-881; kafka-versions.md "3.5").
    if (!java::rack_aware_assignors(spec_.config.client)) m.rack.clear();
    // Members that join together heartbeat out of step: spread evenly over the interval.
    m.heartbeat_offset = SimTime::ns(group_.settings().heartbeat_interval.count_ns() * i / count);
    joining.push_back(m);
    MemberState s;
    s.in_flight.resize(in_.broker_rtt.size());
    s.session.resize(in_.broker_rtt.size());
    s.notes.resize(in_.broker_rtt.size());
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
        s.read_replica = -1;  // a new assignment reads from the leader until it names a replica
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

}  // namespace group_sim
}  // namespace partsim::model::consumer
