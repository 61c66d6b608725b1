#include "model/consumer/consumer_group.hpp"

#include <algorithm>
#include <cassert>

namespace partsim::model::consumer {

GroupSettings group_settings(const ConsumerConfig& config, const GroupCoordinatorConfig& coordinator) {
  GroupSettings s;
  if (config.protocol == ConsumerConfig::Protocol::kConsumer) {
    s.mode = GroupSettings::Mode::kConsumer;
    s.assignor = config.remote_assignor == ConsumerConfig::RemoteAssignor::kRange ? AssignorKind::kConsumerRange
                                                                                  : AssignorKind::kConsumerUniform;
    s.session_timeout = coordinator.consumer_session_timeout;
    s.heartbeat_interval = coordinator.consumer_heartbeat_interval;
    return s;
  }
  // Every member lists the same strategies, so each votes for the first (§1.3); the
  // rebalance protocol is COOPERATIVE only when every listed assignor supports it (§1.4).
  s.assignor = parse_assignor(config.assignment_strategy.front()).value_or(AssignorKind::kRange);
  const bool all_cooperative = std::all_of(config.assignment_strategy.begin(), config.assignment_strategy.end(),
                                           [](const std::string& n) { return n == "cooperative-sticky"; });
  s.mode = all_cooperative ? GroupSettings::Mode::kCooperative : GroupSettings::Mode::kEager;
  s.session_timeout = config.session_timeout;
  s.heartbeat_interval = config.heartbeat_interval;
  return s;
}

ConsumerGroup::ConsumerGroup(GroupSettings settings, std::vector<TopicMetadata> topics,
                             const std::vector<std::string>& subscription)
    : settings_(settings), topics_(std::move(topics)), subscription_(subscription) {
  topic_first_.assign(topics_.size(), -1);
  for (const auto& name : subscription_)
    for (std::size_t t = 0; t < topics_.size(); ++t)
      if (topics_[t].name == name && topic_first_[t] < 0) {
        topic_first_[t] = static_cast<std::int32_t>(partitions_.size());
        for (std::int32_t p = 0; p < topics_[t].partitions; ++p) partitions_.push_back({name, p});
      }
  owner_.assign(partitions_.size(), -1);
  unowned_since_.assign(partitions_.size(), std::nullopt);
  all_topics_ = topics_;
}

void ConsumerGroup::set_partition_count(const std::string& topic, std::int32_t partitions, SimTime now,
                                        std::vector<OwnershipChange>& out) {
  bool changed = false;
  for (std::size_t t = 0; t < topics_.size(); ++t) {
    if (topics_[t].name != topic) continue;
    const std::int32_t n = std::min(partitions, all_topics_[t].partitions);
    if (n == topics_[t].partitions) continue;
    topics_[t] = all_topics_[t];
    topics_[t].partitions = n;
    if (!topics_[t].replica_racks.empty()) topics_[t].replica_racks.resize(static_cast<std::size_t>(n));
    changed = changed || topic_first_[t] >= 0;
  }
  const bool members = std::any_of(members_.begin(), members_.end(), [](const Member& m) { return m.in_group; });
  if (changed && members)
    membership_changed(now, "metadata: " + topic + " has " + std::to_string(partitions) + " partitions", out);
}

std::optional<std::int32_t> ConsumerGroup::find(const std::string& id) const {
  for (std::size_t m = 0; m < members_.size(); ++m)
    if (members_[m].id == id) return static_cast<std::int32_t>(m);
  return std::nullopt;
}

SimTime ConsumerGroup::next_heartbeat(const Member& m, SimTime t) const {
  const std::int64_t hb = settings_.heartbeat_interval.count_ns();
  if (hb <= 0) return std::max(t, m.joined);
  const std::int64_t since = (t - m.beat).count_ns();
  const std::int64_t k = since <= 0 ? since / hb : (since + hb - 1) / hb;  // ceil for both signs
  return std::max(m.joined, m.beat + SimTime::ns(k * hb));
}

SimTime ConsumerGroup::last_heartbeat(const Member& m, SimTime t) const {
  const std::int64_t hb = settings_.heartbeat_interval.count_ns();
  if (hb <= 0) return std::max(t, m.joined);
  const std::int64_t since = (t - m.beat).count_ns();
  const std::int64_t k = since >= 0 ? since / hb : -((-since + hb - 1) / hb);  // floor for both signs
  return std::max(m.joined, m.beat + SimTime::ns(k * hb));                     // its JoinGroup counts as one
}

SimTime ConsumerGroup::due(std::int32_t member) const {
  const Member& m = members_[static_cast<std::size_t>(member)];
  return m.in_group && !m.crashed ? m.due : SimTime::max();
}

SimTime ConsumerGroup::next_expiry() const {
  SimTime next = SimTime::max();
  for (const auto& m : members_)
    if (m.in_group && m.crashed) next = std::min(next, last_heartbeat(m, m.crashed_at) + settings_.session_timeout);
  return next;
}

// ---- membership ---------------------------------------------------------------------------------

void ConsumerGroup::open_rebalance(SimTime now, const std::string& cause) {
  if (rebalance_open_) {
    rebalances_.back().cause += ", " + cause;
    return;
  }
  RebalanceRecord r;
  r.at_ms = now.to_ms();
  r.done_ms = now.to_ms();
  r.kind = settings_.mode == GroupSettings::Mode::kEager         ? "eager"
           : settings_.mode == GroupSettings::Mode::kCooperative ? "cooperative"
                                                                 : "consumer";
  r.cause = cause;
  rebalances_.push_back(std::move(r));
  rebalance_open_ = true;
}

void ConsumerGroup::membership_changed(SimTime now, const std::string& cause, std::vector<OwnershipChange>& out) {
  const bool was_open = rebalance_open_;
  open_rebalance(now, cause);
  if (settings_.mode == GroupSettings::Mode::kConsumer) {
    compute_target(now);
    // Whoever triggered the change heartbeats now; the rest learn at their next heartbeat.
    for (std::size_t m = 0; m < members_.size(); ++m)
      if (members_[m].in_group && !members_[m].crashed)
        members_[m].due = std::min(members_[m].due, next_heartbeat(members_[m], now + SimTime::ns(1)));
    close_if_settled(now);
    return;
  }
  // classic: a round under way takes the change in; otherwise a new round starts.
  if (!was_open) start_round(now);
  try_complete(now, out);
}

void ConsumerGroup::join(const std::vector<NewMember>& joining, SimTime now, std::vector<OwnershipChange>& out) {
  std::string cause;
  for (const auto& j : joining) {
    Member m;
    m.id = j.id;
    m.instance_id = j.instance_id;
    m.rack = j.rack;
    m.joined = now;
    m.beat = now + j.heartbeat_offset;
    m.rejoined = true;  // its JoinGroup is the one that starts (or joins) the round
    m.due = settings_.mode == GroupSettings::Mode::kConsumer ? now : SimTime::max();
    members_.push_back(std::move(m));
    cause += (cause.empty() ? "join " : " ") + j.id;
  }
  membership_changed(now, rebalances_.empty() ? "start" : cause, out);
}

void ConsumerGroup::leave(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out) {
  remove(member, now, OwnershipChange::Kind::kRevokeCommitted, "leave ", out);
}

void ConsumerGroup::expel(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out) {
  remove(member, now, OwnershipChange::Kind::kRevoke, "poll timeout ", out);  // lost: the commit would fail
}

void ConsumerGroup::remove(std::int32_t member, SimTime now, OwnershipChange::Kind revoke, const std::string& cause,
                           std::vector<OwnershipChange>& out) {
  Member& m = members_[static_cast<std::size_t>(member)];
  assert(m.in_group && !m.crashed);
  for (const std::int32_t p : std::vector<std::int32_t>(m.owned)) {
    give(member, p, now, out);
    out.back().kind = revoke;
  }
  m.previous.clear();
  m.target.clear();
  m.in_group = false;
  m.due = SimTime::max();
  membership_changed(now, cause + m.id, out);
}

void ConsumerGroup::rejoin(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out) {
  Member& m = members_[static_cast<std::size_t>(member)];
  assert(!m.in_group && !m.crashed);
  m.in_group = true;
  m.joined = now;
  m.beat = now;
  m.rejoined = true;
  m.due = settings_.mode == GroupSettings::Mode::kConsumer ? now : SimTime::max();
  membership_changed(now, "rejoin " + m.id, out);
}

void ConsumerGroup::crash(std::int32_t member, SimTime now) {
  Member& m = members_[static_cast<std::size_t>(member)];
  assert(m.in_group && !m.crashed);
  m.crashed = true;
  m.crashed_at = now;
  m.due = SimTime::max();
  // Nobody processes its partitions from now on, though the group still counts them as its.
  for (const std::int32_t p : m.owned) unowned_since_[static_cast<std::size_t>(p)] = now;
}

void ConsumerGroup::close_static(std::int32_t member, SimTime now) {
  crash(member, now);
  members_[static_cast<std::size_t>(member)].closed = true;
}

void ConsumerGroup::restart(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out) {
  Member& m = members_[static_cast<std::size_t>(member)];
  assert(m.crashed && m.instance_id);
  m.crashed = false;
  m.closed = false;
  if (!m.in_group) {  // its session expired: removed, it joins afresh (§1.5: only a known instance id skips the
                      // rebalance)
    rejoin(member, now, out);
    return;
  }
  // GMM:5125-5160: the new member id replaces the old, the stored assignment is returned.
  // Its JoinGroup counts as a heartbeat; it heartbeats from now on.
  m.joined = now;
  m.beat = now;
  for (const std::int32_t p : m.owned) {
    unowned_since_[static_cast<std::size_t>(p)].reset();  // no rebalance: the pause is no rebalance's
    out.push_back({OwnershipChange::Kind::kAssign, member, p});
  }
  // A rebalance under way waits for its JoinGroup (classic) or its reconciliation (KIP-848).
  if (rebalance_open_ && (settings_.mode == GroupSettings::Mode::kConsumer || !m.rejoined)) m.due = now;
}

void ConsumerGroup::expire(SimTime now, std::vector<OwnershipChange>& out) {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (!m.in_group || !m.crashed || last_heartbeat(m, m.crashed_at) + settings_.session_timeout > now) continue;
    for (const std::int32_t p : m.owned) owner_[static_cast<std::size_t>(p)] = -1;  // pause counted from the crash
    m.owned.clear();
    m.previous.clear();
    m.target.clear();
    m.in_group = false;
    membership_changed(now, (m.closed ? "session expired " : "crash ") + m.id, out);
  }
}

// ---- ownership ----------------------------------------------------------------------------------

void ConsumerGroup::give(std::int32_t m, std::int32_t p, SimTime now, std::vector<OwnershipChange>& out) {
  auto& owned = members_[static_cast<std::size_t>(m)].owned;
  owned.erase(std::remove(owned.begin(), owned.end(), p), owned.end());
  owner_[static_cast<std::size_t>(p)] = -1;
  unowned_since_[static_cast<std::size_t>(p)] = now;
  out.push_back({OwnershipChange::Kind::kRevokeCommitted, m, p});
}

void ConsumerGroup::take(std::int32_t m, std::int32_t p, SimTime now, OwnershipChange::Kind kind,
                         std::vector<OwnershipChange>& out) {
  auto& owned = members_[static_cast<std::size_t>(m)].owned;
  owned.insert(std::lower_bound(owned.begin(), owned.end(), p), p);
  owner_[static_cast<std::size_t>(p)] = m;
  if (auto& since = unowned_since_[static_cast<std::size_t>(p)]; since && rebalance_open_) {
    RebalanceRecord& r = rebalances_.back();
    const double pause = (now - *since).to_ms();
    r.pause_max_ms = std::max(r.pause_max_ms, pause);
    r.pause_sum_ms += pause;
    ++r.paused;
    since.reset();
  }
  out.push_back({kind, m, p});
}

std::vector<std::int32_t> ConsumerGroup::indices(const std::vector<TopicPartition>& tps) const {
  std::vector<std::int32_t> out;
  for (const auto& tp : tps)
    for (std::size_t t = 0; t < topics_.size(); ++t)
      if (topics_[t].name == tp.topic && topic_first_[t] >= 0) out.push_back(topic_first_[t] + tp.partition);
  std::sort(out.begin(), out.end());
  return out;
}

GroupSpec ConsumerGroup::spec(bool eager_previous, bool targets) const {
  GroupSpec spec;
  spec.topics = topics_;
  for (const auto& m : members_) {
    if (!m.in_group) continue;
    GroupMember g;
    g.id = m.id;
    g.instance_id = m.instance_id;  // the assignors order static members by it (§2.1)
    g.topics = subscription_;
    g.rack = m.rack;
    const auto& owned = targets ? m.target : eager_previous ? m.previous : m.owned;
    for (const std::int32_t p : owned) g.owned.push_back(partitions_[static_cast<std::size_t>(p)]);
    if (!g.owned.empty()) g.generation = static_cast<std::int32_t>(rebalances_.size());
    spec.members.push_back(std::move(g));
  }
  return spec;
}

// ---- classic: JoinGroup rounds ------------------------------------------------------------------

void ConsumerGroup::start_round(SimTime now) {
  ++rebalances_.back().rounds;
  for (auto& m : members_) {
    if (!m.in_group) continue;
    if (m.rejoined) continue;
    m.due = m.crashed ? SimTime::max() : next_heartbeat(m, now + SimTime::ns(1));
  }
}

void ConsumerGroup::step(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out) {
  Member& m = members_[static_cast<std::size_t>(member)];
  if (!m.in_group || m.crashed || now < m.due) return;
  m.due = SimTime::max();
  if (settings_.mode == GroupSettings::Mode::kConsumer) {
    reconcile(member, now, out);
    return;
  }
  if (!rebalance_open_ || m.rejoined) return;
  // onJoinPrepare (§1.4): commit; eager revokes everything it owns.
  m.rejoined = true;
  if (settings_.mode == GroupSettings::Mode::kEager) {
    // Everything at once (one give() per partition erased from the front each time: a
    // quadratic pause of minutes for a member of 500,000 partitions).
    m.previous = m.owned;
    for (const std::int32_t p : m.previous) {
      owner_[static_cast<std::size_t>(p)] = -1;
      unowned_since_[static_cast<std::size_t>(p)] = now;
      out.push_back({OwnershipChange::Kind::kRevokeCommitted, member, p});
    }
    m.owned.clear();
  } else {
    for (const std::int32_t p : m.owned) out.push_back({OwnershipChange::Kind::kCommit, member, p});
  }
  try_complete(now, out);
}

void ConsumerGroup::try_complete(SimTime now, std::vector<OwnershipChange>& out) {
  if (!rebalance_open_ || settings_.mode == GroupSettings::Mode::kConsumer) return;
  for (const auto& m : members_)
    if (m.in_group && !m.rejoined) return;  // a crashed member holds the join until its session expires
  const bool eager = settings_.mode == GroupSettings::Mode::kEager;
  const GroupSpec group = spec(eager, false);
  const AssignmentResult result = assign(settings_.assignor, group);
  std::vector<std::int32_t> revokers;
  std::size_t g = 0;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (!m.in_group) continue;
    const auto mi = static_cast<std::int32_t>(i);
    const std::vector<std::int32_t> assigned = indices(result.partitions[g++]);
    m.rejoined = false;
    m.previous.clear();
    // Cooperative (§1.4): revoked = owned - assigned, without a commit; a member that revoked
    // something rejoins at once for the follow-up round.
    std::vector<std::int32_t> revoked;
    std::set_difference(m.owned.begin(), m.owned.end(), assigned.begin(), assigned.end(), std::back_inserter(revoked));
    if (!revoked.empty()) {  // owned - revoked, in one pass (both sorted)
      std::vector<std::int32_t> kept;
      kept.reserve(m.owned.size() - revoked.size());
      std::set_difference(m.owned.begin(), m.owned.end(), revoked.begin(), revoked.end(), std::back_inserter(kept));
      m.owned = std::move(kept);
    }
    for (const std::int32_t p : revoked) {
      owner_[static_cast<std::size_t>(p)] = -1;
      unowned_since_[static_cast<std::size_t>(p)] = now;
      out.push_back({OwnershipChange::Kind::kRevoke, mi, p});
    }
    if (!revoked.empty()) revokers.push_back(mi);
    for (const std::int32_t p : assigned)
      if (!std::binary_search(m.owned.begin(), m.owned.end(), p)) take(mi, p, now, OwnershipChange::Kind::kAssign, out);
  }
  if (!eager && !revokers.empty()) {
    for (const std::int32_t r : revokers) members_[static_cast<std::size_t>(r)].rejoined = true;
    start_round(now);
    try_complete(now, out);
    return;
  }
  rebalances_.back().done_ms = now.to_ms();
  rebalance_open_ = false;
}

// ---- consumer (KIP-848): target assignment and reconciliation ------------------------------------

void ConsumerGroup::compute_target(SimTime) {
  const GroupSpec group = spec(false, true);
  const AssignmentResult result = assign(settings_.assignor, group);
  std::size_t g = 0;
  for (auto& m : members_)
    if (m.in_group) m.target = indices(result.partitions[g++]);
}

void ConsumerGroup::reconcile(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out) {
  Member& m = members_[static_cast<std::size_t>(member)];
  std::vector<std::int32_t> revoke;
  std::set_difference(m.owned.begin(), m.owned.end(), m.target.begin(), m.target.end(), std::back_inserter(revoke));
  // The new client commits synchronously before revoking (§3.3); the partitions it releases
  // reach their new owners at those members' next heartbeats.
  for (const std::int32_t p : revoke) {
    give(member, p, now, out);
    for (std::size_t o = 0; o < members_.size(); ++o) {
      Member& other = members_[o];
      if (static_cast<std::int32_t>(o) != member && other.in_group && !other.crashed &&
          std::binary_search(other.target.begin(), other.target.end(), p))
        other.due = std::min(other.due, next_heartbeat(other, now + SimTime::ns(1)));
    }
  }
  bool waiting = false;
  for (const std::int32_t p : std::vector<std::int32_t>(m.target)) {
    if (std::binary_search(m.owned.begin(), m.owned.end(), p)) continue;
    if (owner_[static_cast<std::size_t>(p)] < 0) take(member, p, now, OwnershipChange::Kind::kAssign, out);
    else waiting = true;  // unreleased: still owned by another member
  }
  if (waiting) m.due = std::min(m.due, next_heartbeat(m, now + SimTime::ns(1)));
  close_if_settled(now);
}

void ConsumerGroup::close_if_settled(SimTime now) {
  if (!rebalance_open_) return;
  for (const auto& m : members_)
    if (m.in_group && (m.owned != m.target || m.crashed)) {
      if (m.crashed && m.target.empty() && m.owned.empty()) continue;
      return;
    }
  rebalances_.back().done_ms = now.to_ms();
  rebalance_open_ = false;
}

}  // namespace partsim::model::consumer
