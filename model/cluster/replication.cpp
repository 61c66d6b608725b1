#include "model/cluster/replication.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "sim/check.hpp"

namespace partsim::model {

Replication::Replication(const Scenario& s, Leadership& leadership, ReplicationHost& host)
    : s_(s), leadership_(leadership), host_(host) {
  const std::size_t n = s.brokers.size();
  up_.assign(n, 1);
  fenced_.assign(n, 0);
  for (const auto& b : s.brokers) replica_rtt_.push_back(b.replica_rtt);
  for (std::size_t t = 0; t < s.topics.size(); ++t) {
    const TopicConfig& tc = s.topics[t];
    // min.insync.replicas: the topic's, else the brokers' default; effective min(·, replicas) (§9.2).
    const std::int32_t min_insync = tc.min_insync > 0 ? tc.min_insync : s.replication.min_insync;
    // A row for every partition the topic will have by the run's end (as RunResult::partitions);
    // those a schedule adds are created at their step (add_partitions).
    for (std::int32_t p = 0; p < tc.partitions_before(s.run.duration); ++p) {
      Partition part;
      part.topic = t;
      part.index = static_cast<std::size_t>(p);
      part.min_insync = min_insync;
      part.min_isr = std::min(min_insync, tc.replication_factor);
      if (p < tc.partitions) {
        const auto reps = leadership.replicas(t, p);
        part.replicas.assign(reps.begin(), reps.end());
        part.isr = part.replicas;
        part.state.resize(part.replicas.size());
        part.leader = leadership.leaders(t)[part.index];
        part.min_isr = std::min(min_insync, static_cast<std::int32_t>(part.replicas.size()));
      }
      part.segments = LogSegments(SegmentRules{tc.segment_bytes, tc.segment_ms, tc.retention_ms, tc.retention_bytes});
      parts_.push_back(std::move(part));
    }
  }
  for (std::size_t f = 0; f < n; ++f)
    for (std::size_t l = 0; l < n; ++l) {
      Session& session = sessions_.emplace_back();
      session.follower = static_cast<std::int32_t>(f);
      session.leader = static_cast<std::int32_t>(l);
    }
  read_replicas_ = s.replication.rack_aware_selector;
  leader_quota_.resize(n);
  follower_quota_.resize(n);
  bytes_.resize(n);
  throttled_.assign(n, 0);
  disks_.resize(n);
  disks_on_ = s.models_disks();
  for (std::size_t b = 0; disks_on_ && b < n; ++b) {
    disks_[b].capacity = s.brokers[b].disk_bytes;
    disks_[b].other = s.brokers[b].disk_used_bytes;
    BrokerDisk& r = result_.disks.brokers.emplace_back();
    r.broker = s.brokers[b].id;
    r.capacity = s.brokers[b].disk_bytes;
    r.other = r.peak = s.brokers[b].disk_used_bytes;
  }
  result_.enabled = true;
  result_.partitions.resize(parts_.size());
  for (std::size_t i = 0; i < parts_.size(); ++i)
    result_.partitions[i].isr_min = static_cast<std::int32_t>(parts_[i].isr.size());
}

std::size_t Replication::pos(const Partition& p, std::int32_t b) const {
  const auto it = std::find(p.replicas.begin(), p.replicas.end(), b);
  PARTSIM_CHECK(it != p.replicas.end(), "a broker that holds no replica of the partition");
  return static_cast<std::size_t>(it - p.replicas.begin());
}

bool Replication::in_isr(const Partition& p, std::int32_t b) const {
  return std::find(p.isr.begin(), p.isr.end(), b) != p.isr.end();
}

bool Replication::eligible(std::size_t t, std::size_t p, std::int32_t b) const {
  for (const auto& part : parts_)
    if (part.topic == t && part.index == p) return in_isr(part, b) && !fenced_[static_cast<std::size_t>(b)];
  return false;
}

SimTime Replication::isr_check_interval() const {
  // The leader checks every replica.lag.time.max.ms / 2 (§9.3, RM:415).
  return SimTime::ns(s_.replication.lag_time_max.count_ns() / 2);
}

std::string Replication::broker_name(std::int32_t b) const {
  return "broker " + std::to_string(s_.brokers[static_cast<std::size_t>(b)].id);
}

void Replication::start(SimTime now) {
  snapshot(now, "start");
  kick(now);
}

void Replication::add_partitions(std::size_t t, std::int32_t partitions, SimTime now) {
  account(now);
  bool added = false;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    Partition& p = parts_[i];
    if (p.topic != t || p.created() || p.index >= static_cast<std::size_t>(partitions)) continue;
    const auto reps = leadership_.replicas(t, static_cast<std::int32_t>(p.index));
    p.replicas.assign(reps.begin(), reps.end());
    // The controller's view: every replica it has not fenced is in sync with an empty log
    // (a broker dead but not fenced yet leaves at its fencing). The ISR never starts empty.
    for (const std::int32_t b : p.replicas)
      if (!fenced_[static_cast<std::size_t>(b)]) p.isr.push_back(b);
    if (p.isr.empty()) p.isr = p.replicas;
    p.state.resize(p.replicas.size());
    p.leader = leadership_.leaders(t)[p.index];
    p.min_isr = std::min(p.min_insync, static_cast<std::int32_t>(p.replicas.size()));
    for (Follower& f : p.state) {
      f.last_caught_up = now;
      f.prev_fetch = now;
    }
    result_.partitions[i].isr_min = static_cast<std::int32_t>(p.isr.size());
    added = true;
  }
  if (!added) return;
  snapshot(now, "topic " + s_.topics[t].name + " grew to " + std::to_string(partitions) + " partitions");
  kick(now);
}

// ---- produce ----------------------------------------------------------------------------------

bool Replication::refuses(std::size_t partition) {
  const Partition& p = parts_[partition];
  // NOT_ENOUGH_REPLICAS before the append (§9.2, PS:1380-1387).
  if (static_cast<std::int32_t>(p.isr.size()) >= p.min_isr) return false;
  ++result_.partitions[partition].not_enough_replicas;
  ++result_.errors[std::string(produce_error_info(ProduceError::kNotEnoughReplicas).name)];
  return true;
}

bool Replication::append(std::size_t partition, std::int64_t bytes, SimTime now, std::optional<std::uint64_t> request) {
  Partition& p = parts_[partition];
  Follower& leader = p.state[pos(p, p.leader)];
  p.segments.append(leader.leo, bytes, timestamp_ms(now));
  grow(p.leader, bytes, now);
  leader.leo += bytes;
  leader.fetched = leader.leo;
  p.log_end = leader.leo;
  const std::int64_t end = leader.leo;
  advance_hw(p, now);
  // Covered at once (an ISR of the leader alone), or waits for the followers' fetches.
  const bool waits = request && p.hw < end;
  if (waits) {
    p.pending.push_back(Pending{end, *request});
    ++waiting_[*request];
  }
  // The append completes parked follower fetches of this leader that now have enough
  // bytes (§9.2, RM:977-999).
  for (Session& s : sessions_)
    if (s.leader == p.leader && s.state == FetchState::kParked && available(s, now) >= s_.replication.fetch_min_bytes)
      respond(s, now);
  return waits;
}

// The high watermark: the least log end over the ISR as the leader sees it; it does not
// move while the ISR is below the effective min ISR (§9.2, PS:1174-1200, KAFKA-15583).
void Replication::advance_hw(Partition& p, SimTime) {
  if (p.leader < 0 || static_cast<std::int32_t>(p.isr.size()) < p.min_isr) return;
  std::int64_t hw = p.state[pos(p, p.leader)].leo;
  for (const std::int32_t b : p.isr) hw = std::min(hw, p.state[pos(p, b)].fetched);
  if (hw <= p.hw) return;
  p.hw = hw;
  host_.high_watermark_moved(static_cast<std::size_t>(&p - parts_.data()), hw);
  settle(p, hw, std::nullopt);
  if (read_replicas_) wake_parked(p.leader);
}

// A parked fetch always waits out replica.fetch.wait.max.ms in Kafka; the host drops the
// expiry when nothing would come of it (the producers done, every follower up to date). A
// high watermark that moves after that gives the leader's parked followers something to
// learn, so their expiry comes back, at the time it would have been.
void Replication::wake_parked(std::int32_t leader) {
  for (Session& s : sessions_) {
    if (s.leader != leader || s.state != FetchState::kParked || s.expiry_pending) continue;
    s.expiry_pending = host_.schedule_fetch(ReplicationHost::Step::kExpire,
                                            static_cast<std::uint32_t>(&s - sessions_.data()), s.fetch,
                                            s.parked_at + s_.replication.fetch_wait_max);
  }
}

// Pending acks=all batches up to `upto` are answered: covered (no error) or with `error`.
void Replication::settle(Partition& p, std::int64_t upto, std::optional<ProduceError> error) {
  std::size_t done = 0;
  while (done < p.pending.size() && p.pending[done].end <= upto) ++done;
  std::vector<Pending> settled(p.pending.begin(), p.pending.begin() + static_cast<std::ptrdiff_t>(done));
  p.pending.erase(p.pending.begin(), p.pending.begin() + static_cast<std::ptrdiff_t>(done));
  const std::size_t index = static_cast<std::size_t>(&p - parts_.data());
  for (const Pending& w : settled) {
    const auto it = waiting_.find(w.request);
    if (it == waiting_.end()) continue;
    if (error) {
      ++result_.errors[std::string(produce_error_info(*error).name)];
      host_.ack_error(w.request, index, *error);
    }
    if (--it->second > 0) continue;
    waiting_.erase(it);
    host_.acks_settled(w.request);
  }
}

// ---- KIP-392: consumers fetching from the closest replica --------------------------------------

// ReplicaManager.findPreferredReadReplica with RackAwareReplicaSelector (docs/traffic.md,
// "Fetching from the closest replica"): the candidates are the leader and its in-sync
// followers whose log covers the fetch offset. A consumer's fetch offset is at most the high
// watermark, which every in-sync follower's log end has passed, so the ISR's followers all
// cover it. In the client's rack: the leader if it is there, else the most caught-up follower
// (ReplicaView.comparator: the largest log end, then the least time since it was last caught
// up, then the largest broker id); none there: the leader.
std::int32_t Replication::preferred_read_replica(std::size_t partition, const std::string& rack) const {
  if (!read_replicas_ || rack.empty()) return -1;
  const Partition& p = parts_[partition];
  if (p.leader < 0 || s_.brokers[static_cast<std::size_t>(p.leader)].rack == rack) return -1;
  std::int32_t best = -1;
  for (const std::int32_t b : p.isr) {
    if (b == p.leader || s_.brokers[static_cast<std::size_t>(b)].rack != rack) continue;
    if (best < 0) {
      best = b;
      continue;
    }
    const Follower& f = p.state[pos(p, b)];
    const Follower& g = p.state[pos(p, best)];
    const auto key = [&](const Follower& x, std::int32_t broker) {
      // (Kafka's times are whole milliseconds: followers caught up within one tie there)
      return std::tuple(x.fetched, x.last_caught_up.count_ns() / 1'000'000,
                        s_.brokers[static_cast<std::size_t>(broker)].id);
    };
    if (key(f, b) > key(g, best)) best = b;
  }
  return best;
}

std::optional<std::int64_t> Replication::follower_readable_records(std::size_t partition, std::int32_t broker) const {
  const Partition& p = parts_[partition];
  if (broker == p.leader || !up(broker) || !p.created()) return std::nullopt;
  const auto it = std::find(p.replicas.begin(), p.replicas.end(), broker);
  if (it == p.replicas.end()) return std::nullopt;
  return p.state[static_cast<std::size_t>(it - p.replicas.begin())].hw_records;
}

bool Replication::followers_behind() const {
  if (!read_replicas_) return false;
  for (const Partition& p : parts_) {
    if (p.leader < 0 || !up(p.leader)) continue;
    for (const std::int32_t b : p.isr)
      if (b != p.leader && up(b) && !fenced_[static_cast<std::size_t>(b)] && p.state[pos(p, b)].hw < p.hw) return true;
  }
  return false;
}

// Idle fetchers of live followers towards live leaders start again.
void Replication::kick(SimTime now) {
  for (Session& s : sessions_) {
    if (s.state != FetchState::kIdle || s.follower == s.leader || !up(s.follower) || !up(s.leader)) continue;
    bool any = false;
    for (const Partition& p : parts_) any = any || fetches(s, p);
    if (any) send_fetch(s, now);
  }
}

void Replication::stop_sessions(std::int32_t b) {
  for (Session& s : sessions_)
    if (s.follower == b || s.leader == b) {
      s.state = FetchState::kIdle;
      s.fetch = next_fetch_++;  // what is on its way is stale
      s.carried.clear();
      s.expiry_pending = false;
    }
}

// ---- the leaders' ISR check --------------------------------------------------------------------

void Replication::check_isr(SimTime now) {
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    Partition& p = parts_[i];
    if (p.leader < 0 || !up(p.leader)) continue;
    const std::int64_t leo = leader_leo(p);
    // A follower is caught up iff its log end is the leader's or it caught up within
    // replica.lag.time.max.ms (§9.3, RP:67-73); the others leave in one change.
    std::vector<std::int32_t> keep;
    for (const std::int32_t b : p.isr) {
      const Follower& f = p.state[pos(p, b)];
      if (b == p.leader || f.fetched >= leo || now - f.last_caught_up <= s_.replication.lag_time_max) keep.push_back(b);
    }
    if (keep.size() == p.isr.size()) continue;
    account(now);
    p.isr = std::move(keep);
    ++result_.partitions[i].shrinks;
    advance_hw(p, now);
    snapshot(now, "isr shrink");
  }
}

// ---- brokers and the controller -----------------------------------------------------------------

SimTime Replication::broker_failed(std::int32_t b, SimTime now) {
  account(now);
  up_[static_cast<std::size_t>(b)] = 0;
  stop_sessions(b);
  // The requests waiting on its partitions die with it (the producers see the disconnect).
  for (Partition& p : parts_) {
    if (p.leader != b) continue;
    for (const Pending& w : p.pending) waiting_.erase(w.request);
    p.pending.clear();
  }
  snapshot(now, broker_name(b) + " failed");
  // Heartbeats every broker.heartbeat.interval.ms from 0; fenced when the last one is
  // broker.session.timeout.ms old (§9.4, BrokerHeartbeatManager.java:350-356).
  const std::int64_t hb = s_.replication.heartbeat_interval.count_ns();
  return SimTime::ns(now.count_ns() / hb * hb) + s_.replication.session_timeout;
}

bool Replication::fence(std::int32_t b, SimTime now) {
  account(now);
  fenced_[static_cast<std::size_t>(b)] = 1;
  bool moved = false;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    Partition& p = parts_[i];
    if (!in_isr(p, b)) continue;
    // Out of the ISR, but the ISR never empties: the last member stays listed (§9.4, PCB:446-454).
    if (p.isr.size() > 1) {
      p.isr.erase(std::find(p.isr.begin(), p.isr.end(), b));
      ++result_.partitions[i].fenced_removals;
    }
    if (p.leader != b) continue;
    // The first replica in assignment order in the new ISR and active; else offline
    // (unclean.leader.election.enable false, PCB:261-286).
    std::int32_t leader = -1;
    for (const std::int32_t r : p.replicas)
      if (r != b && in_isr(p, r) && up(r) && !fenced_[static_cast<std::size_t>(r)]) {
        leader = r;
        break;
      }
    leadership_.set_leader(p.topic, p.index, leader);
    moved = true;
  }
  sync_leaders(now);
  for (Partition& p : parts_) advance_hw(p, now);
  snapshot(now, broker_name(b) + " fenced");
  kick(now);
  return moved;
}

bool Replication::broker_recovered(std::int32_t b, SimTime now) {
  account(now);
  up_[static_cast<std::size_t>(b)] = 1;
  fenced_[static_cast<std::size_t>(b)] = 0;
  // A restarted broker's log directory is online again (going offline is the running
  // broker's state); a write that still does not fit fails it again.
  disks_[static_cast<std::size_t>(b)].failed = false;
  bool moved = false;
  for (Partition& p : parts_) {
    // An offline partition whose ISR still lists `b` (its last member) is led by it again.
    if (p.leader < 0 && in_isr(p, b)) {
      leadership_.set_leader(p.topic, p.index, b);
      moved = true;
    }
  }
  sync_leaders(now);
  snapshot(now, broker_name(b) + " back");
  kick(now);
  return moved;
}

void Replication::leaders_moved(SimTime now, const std::string& cause) {
  account(now);
  sync_leaders(now);
  snapshot(now, cause);
  kick(now);
}

// Partitions whose leader changed: the old leader's waiting batches are answered with
// NOT_LEADER_OR_FOLLOWER if it is alive (it lost leadership), the followers' logs end no
// later than the new leader's (truncation), and the new leader knows no follower past it.
void Replication::sync_leaders(SimTime now) {
  for (Partition& p : parts_) {
    if (!p.created()) continue;
    const std::int32_t now_leader = leadership_.leaders(p.topic)[p.index];
    if (now_leader == p.leader) continue;
    if (p.leader >= 0 && up(p.leader))
      settle(p, std::numeric_limits<std::int64_t>::max(), ProduceError::kNotLeaderOrFollower);
    for (const Pending& w : p.pending) waiting_.erase(w.request);
    p.pending.clear();
    p.leader = now_leader;
    if (p.leader < 0) continue;
    const std::int64_t leo = leader_leo(p);
    for (std::size_t k = 0; k < p.state.size(); ++k) {
      Follower& f = p.state[k];
      remove_log(p.replicas[k], f.leo - leo, now);  // truncated (nothing when it ends below)
      f.leo = std::min(f.leo, leo);
      f.fetched = std::min(f.fetched, leo);
      f.last_caught_up = now;
      f.prev_fetch = now;
      f.leo_at_prev_fetch = leo;
    }
    p.state[pos(p, p.leader)].fetched = leo;
    p.hw = std::min(p.hw, leo);
    // What the new leader never fetched is gone from the partition's log (below the high
    // watermark nothing is: an in-sync replica holds it all).
    if (leo < p.log_end) {
      p.segments.truncate(leo);
      host_.log_truncated(static_cast<std::size_t>(&p - parts_.data()), leo);
    }
    p.log_end = leo;
  }
}

// ---- results -----------------------------------------------------------------------------------

void Replication::account(SimTime now) {
  const double dt = (now - accounted_).to_ms();
  accounted_ = now;
  if (dt <= 0) return;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const Partition& p = parts_[i];
    if (!p.created()) continue;
    PartitionReplication& r = result_.partitions[i];
    const bool led = p.leader >= 0 && up(p.leader);
    if (!led) r.offline_ms += dt;
    if (led && p.isr.size() < p.factor()) r.under_replicated_ms += dt;
    if (static_cast<std::int32_t>(p.isr.size()) < p.min_isr) r.under_min_isr_ms += dt;
  }
}

void Replication::snapshot(SimTime now, const std::string& cause) {
  IsrSnapshot snap;
  snap.time_ms = now.to_ms();
  snap.cause = cause;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const Partition& p = parts_[i];
    const auto size = static_cast<std::int32_t>(p.isr.size());
    snap.isr_size.push_back(size);  // 0: not created yet
    if (!p.created()) continue;
    PartitionReplication& r = result_.partitions[i];
    r.isr_min = std::min(r.isr_min, size);
    const bool led = p.leader >= 0 && up(p.leader);
    // UnderReplicatedPartitions is reported by the leader (§9.5): offline partitions apart.
    if (led && p.isr.size() < p.factor()) ++snap.under_replicated;
    if (size < p.min_isr) ++snap.under_min_isr;
    if (!led) ++snap.offline;
    snap.not_enough_replicas += r.not_enough_replicas;
  }
  snap.records_acked = host_.records_acked();
  result_.history.push_back(std::move(snap));
}

ReplicationResult Replication::finish(SimTime end) {
  const SimTime now = std::max(end, accounted_);  // never before the last change
  account(now);
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    auto& isr = result_.partitions[i].isr;
    isr.clear();
    for (const std::int32_t b : parts_[i].isr) isr.push_back(s_.brokers[static_cast<std::size_t>(b)].id);
  }
  if (result_.reassignment.enabled()) judge(now);
  finish_disks(now);
  snapshot(now, "end");
  return result_;
}

}  // namespace partsim::model
