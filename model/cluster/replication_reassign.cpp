// Reassignments in the followers' model (Replication's part; docs/reassignment.md). What
// each rule follows, read from apache/kafka:
// - The controller (KRaft ReplicationControlManager.changePartitionReassignment,
//   PartitionReassignmentReplicas): the replicas become the target's, then those it removes;
//   the adding and removing replicas are kept in broker id order; the ISR and the leader stay.
//   A reassignment of a partition already moving starts from its replicas less those the
//   earlier one was adding. It completes when every target replica is in the ISR: the
//   removed replicas leave the replicas and the ISR, and the leader stays if it is still in
//   the ISR, else the first target replica in the ISR on a live, unfenced broker leads. No
//   preferred-leader election is made.
// - kafka-reassign-partitions --execute --throttle (ReassignPartitionsCommand): the topic's
//   leader.replication.throttled.replicas become partition:broker for every replica the
//   partitions have now, follower.replication.throttled.replicas those they add (replacing
//   the topic's lists), and every broker of the move gets the rate as
//   leader/follower.replication.throttled.rate. --verify removes them once nothing moves:
//   partsim clears them when the last move completes.
// - UnderReplicatedPartitions leaves the adding replicas out (Partition.isUnderReplicated);
//   ReassigningPartitions counts the leaders' moving partitions; ReassignmentBytesOutPerSec
//   the bytes a leader sends adding replicas, ReassignmentBytesInPerSec those they receive.

#include <algorithm>
#include <numeric>

#include "model/cluster/replication.hpp"

namespace partsim::model {

namespace {

bool contains(const std::vector<std::int32_t>& v, std::int32_t b) {
  return std::find(v.begin(), v.end(), b) != v.end();
}

}  // namespace

bool Replication::leader_holds_back(const Session& s, const Partition& p, SimTime now) const {
  return !in_isr(p, s.follower) && contains(p.leader_throttled, s.leader) &&
         leader_quota_[static_cast<std::size_t>(s.leader)].exceeded(now);
}

bool Replication::follower_leaves_out(const Session& s, const Partition& p, SimTime now) const {
  return contains(p.follower_throttled, s.follower) && !p.state[pos(p, s.follower)].fetcher_in_sync &&
         follower_quota_[static_cast<std::size_t>(s.follower)].exceeded(now);
}

void Replication::reassign(std::size_t t, const ReassignStep& step, SimTime now) {
  account(now);
  const std::size_t n = s_.brokers.size();
  const auto node = [&](std::int32_t id) {
    for (std::size_t b = 0; b < n; ++b)
      if (s_.brokers[b].id == id) return static_cast<std::int32_t>(b);
    return std::int32_t{-1};  // the loader refuses unknown brokers
  };
  ReassignmentStepResult r;
  r.topic = s_.topics[t].name;
  r.at_ms = now.to_ms();
  r.throttle = step.throttle;
  std::vector<std::size_t> moved;
  if (step.plan.empty()) {
    // A throttle change: the rate on every broker of the moves under way.
    for (std::size_t b = 0; b < n; ++b)
      if (throttled_[b]) {
        leader_quota_[b].set_bound(step.throttle);
        follower_quota_[b].set_bound(step.throttle);
      }
  } else {
    if (step.throttle > 0)
      for (Partition& p : parts_)
        if (p.topic == t) p.leader_throttled.clear(), p.follower_throttled.clear();  // the lists are SET
    for (const ReassignTarget& e : step.plan) {
      const auto it = std::find_if(parts_.begin(), parts_.end(), [&](const Partition& p) {
        return p.topic == t && p.index == static_cast<std::size_t>(e.partition);
      });
      if (it == parts_.end() || !it->created()) continue;
      Partition& p = *it;
      const auto i = static_cast<std::size_t>(it - parts_.begin());
      std::vector<std::int32_t> target;
      for (const std::int32_t id : e.replicas) target.push_back(node(id));
      // The tool's view of the sources (its throttle lists): an unfinished move's additions apart.
      std::vector<std::int32_t> sources;
      for (const std::int32_t b : p.replicas)
        if (!contains(p.adding, b)) sources.push_back(b);
      const auto by_id = [&](std::int32_t a, std::int32_t b) {
        return s_.brokers[static_cast<std::size_t>(a)].id < s_.brokers[static_cast<std::size_t>(b)].id;
      };
      // The controller's: every replica the partition has now, an unfinished move's too.
      std::vector<std::int32_t> adding, removing;
      for (const std::int32_t b : target)
        if (!contains(p.replicas, b)) adding.push_back(b);
      for (const std::int32_t b : p.replicas)
        if (!contains(target, b)) removing.push_back(b);
      std::sort(adding.begin(), adding.end(), by_id);
      std::sort(removing.begin(), removing.end(), by_id);
      std::vector<std::int32_t> replicas = target;
      replicas.insert(replicas.end(), removing.begin(), removing.end());
      std::vector<Follower> state;
      for (const std::int32_t b : replicas) {
        if (contains(p.replicas, b)) {
          state.push_back(p.state[pos(p, b)]);
          continue;
        }
        Follower f;  // an empty log, fetching from the log's start
        f.last_caught_up = now;
        f.prev_fetch = now;
        state.push_back(f);
      }
      const bool was_moving = p.moving();
      p.replicas = std::move(replicas);  // the ISR stays: every replica it lists still is one
      p.state = std::move(state);
      std::sort(p.isr.begin(), p.isr.end(), [&](std::int32_t a, std::int32_t b) { return pos(p, a) < pos(p, b); });
      p.adding = std::move(adding);
      p.removing = std::move(removing);
      // Partition.effectiveMinIsr counts every assigned replica, adding and removing ones too.
      p.min_isr = std::min(p.min_insync, static_cast<std::int32_t>(p.replicas.size()));
      moving_ += (p.moving() ? 1 : 0) - (was_moving ? 1 : 0);
      leadership_.set_replicas(p.topic, p.index, p.replicas);
      if (step.throttle > 0) {
        p.leader_throttled = sources;
        p.follower_throttled.clear();
        for (const std::int32_t b : target)
          if (!contains(sources, b)) p.follower_throttled.push_back(b);
      }
      for (const std::int32_t b : p.adding) r.bytes_to_copy += lacks(p, b);
      moved.push_back(i);
    }
    if (step.throttle > 0)
      for (Partition& p : parts_) {
        if (p.topic != t) continue;
        // --additional lists the moves under way too (the lists are set whole).
        if (p.moving() && p.leader_throttled.empty() && p.follower_throttled.empty()) {
          for (const std::int32_t b : p.replicas)
            if (!contains(p.adding, b)) p.leader_throttled.push_back(b);
          p.follower_throttled = p.adding;
        }
        for (const std::int32_t b : p.leader_throttled) throttled_[static_cast<std::size_t>(b)] = 1;
        for (const std::int32_t b : p.follower_throttled) throttled_[static_cast<std::size_t>(b)] = 1;
      }
    if (step.throttle > 0)
      for (std::size_t b = 0; b < n; ++b)
        if (throttled_[b]) {
          leader_quota_[b].set_bound(step.throttle);
          follower_quota_[b].set_bound(step.throttle);
        }
  }
  r.partitions = static_cast<std::int32_t>(moved.size());
  result_.reassignment.steps.push_back(r);
  step_parts_.push_back(moved);
  open_window(now);
  snapshot(now, step.plan.empty() ? "throttle of topic " + r.topic + "'s reassignment changed"
                                  : "reassignment of topic " + r.topic + " started");
  // A move that only removes replicas or reorders them completes at once.
  for (const std::size_t i : moved) maybe_complete(parts_[i], now, true);
  if (moved.empty()) step_done(result_.reassignment.steps.size() - 1, now);  // a throttle change: done as made
  kick(now);
}

void Replication::maybe_complete(Partition& p, SimTime now, bool started) {
  const std::size_t i = static_cast<std::size_t>(&p - parts_.data());
  // Not a move (a plan that only reorders a partition's replicas, or names them as they are):
  // done as it starts.
  if (!p.moving()) {
    if (started) finish_move(p, i, false, now);
    return;
  }
  const std::vector<std::int32_t> target(p.replicas.begin(),
                                         p.replicas.end() - static_cast<std::ptrdiff_t>(p.removing.size()));
  if (!std::all_of(target.begin(), target.end(), [&](std::int32_t b) { return in_isr(p, b); })) return;
  std::vector<std::int32_t> isr;
  for (const std::int32_t b : target)
    if (in_isr(p, b)) isr.push_back(b);
  std::int32_t leader = p.leader;
  if (!contains(isr, leader)) {
    leader = -1;
    for (const std::int32_t b : target)
      if (up(b) && !fenced_[static_cast<std::size_t>(b)]) {
        leader = b;
        break;
      }
  }
  std::vector<Follower> state;
  for (const std::int32_t b : target) state.push_back(p.state[pos(p, b)]);
  for (const std::int32_t b : p.removing) {  // their logs are deleted (StopReplica)
    const Follower& f = p.state[pos(p, b)];
    remove_log(b, f.leo - f.start, now);
  }
  p.replicas = target;
  p.state = std::move(state);
  p.isr = std::move(isr);
  p.adding.clear();
  p.removing.clear();
  p.min_isr = std::min(p.min_insync, static_cast<std::int32_t>(p.replicas.size()));
  --moving_;
  leadership_.set_replicas(p.topic, p.index, p.replicas);
  const bool leader_moved = leader != p.leader;
  if (leader_moved) {
    leadership_.set_leader(p.topic, p.index, leader);
    sync_leaders(now);
  }
  advance_hw(p, now);
  finish_move(p, i, leader_moved, now);
}

// A partition's move is over: the steps it was part of may be done, and with nothing moving
// the throttles go.
void Replication::finish_move(Partition& p, std::size_t i, bool leader_moved, SimTime now) {
  if (moving_ == 0) {
    // --verify: nothing moves any more, the throttles and their lists go.
    for (Partition& q : parts_) q.leader_throttled.clear(), q.follower_throttled.clear();
    for (std::size_t b = 0; b < s_.brokers.size(); ++b) {
      throttled_[b] = 0;
      leader_quota_[b].set_bound(0);
      follower_quota_[b].set_bound(0);
    }
    result_.reassignment.completed_ms = now.to_ms();
  }
  for (std::size_t k = 0; k < step_parts_.size(); ++k)
    if (std::find(step_parts_[k].begin(), step_parts_[k].end(), i) != step_parts_[k].end()) step_done(k, now);
  snapshot(now, "reassignment of " + s_.topics[p.topic].name + "-" + std::to_string(p.index) + " completed");
  kick(now);  // a new leader's followers start fetching from it
  host_.reassignment_done(i, leader_moved);
}

// Step `k` is done once none of its partitions moves (the first time only).
void Replication::step_done(std::size_t k, SimTime now) {
  ReassignmentStepResult& r = result_.reassignment.steps[k];
  if (r.completed_ms) return;
  for (const std::size_t i : step_parts_[k])
    if (parts_[i].moving()) return;
  r.completed_ms = now.to_ms();
}

void Replication::sample_reassignment(SimTime now, const LatencyHistogram& latency) {
  ReassignmentSample x;
  x.time_ms = now.to_ms();
  x.interval_ms = now.to_ms() - last_sample_time_.to_ms();
  for (const Partition& p : parts_) {
    if (!p.created()) continue;
    const bool led = p.leader >= 0 && up(p.leader);
    for (const std::int32_t b : p.adding) x.bytes_left += lacks(p, b);
    if (led && p.moving()) ++x.reassigning;
    if (led && p.isr.size() < p.factor()) ++x.under_replicated;
  }
  std::int64_t out = 0, in = 0;
  for (const BrokerBytes& b : bytes_) out += b.reassign_out, in += b.reassign_in;
  const std::int64_t shrinks = result_.shrinks(), expands = result_.expands();
  x.bytes_out = out - last_out_;
  x.bytes_in = in - last_in_;
  x.shrinks = shrinks - last_shrinks_;
  x.expands = expands - last_expands_;
  last_out_ = out, last_in_ = in, last_shrinks_ = shrinks, last_expands_ = expands;
  last_sample_time_ = now;
  x.leaders = leadership_.leaders_per_broker();
  for (std::size_t b = 0; b < s_.brokers.size(); ++b) x.disk.push_back(used(static_cast<std::int32_t>(b), now));
  x.records = static_cast<std::int64_t>(latency.count());
  x.p50_ms = static_cast<double>(latency.quantile(0.50)) / 1e6;
  x.p99_ms = static_cast<double>(latency.quantile(0.99)) / 1e6;
  result_.reassignment.samples.push_back(std::move(x));
}

// The budgets are measured from the last step (a throttle change resets them).
void Replication::open_window(SimTime now) {
  window_start_ = now;
  window_bytes_ = bytes_;
  window_log_end_.clear();
  for (const Partition& p : parts_) window_log_end_.push_back(p.log_end);
}

// "Never, at this throttle": for the moves left, each throttled broker side's spare (its
// throttle less the listed in-sync traffic it counted) against the writes into the copies it
// carries (each out-of-sync new replica must take all of its partition's). Measured over at
// least the quota's horizon, else no verdict.
void Replication::judge(SimTime now) {
  ReassignmentResult& r = result_.reassignment;
  r.bytes_left = 0;
  r.partitions_left = moving_;
  for (const Partition& p : parts_)
    for (const std::int32_t b : p.adding) r.bytes_left += lacks(p, b);
  const double seconds = (now - window_start_).to_ms() / 1000;
  r.window_ms = seconds * 1000;
  if (moving_ == 0 || seconds * 1000 < ReplicationQuota::kSamples * ReplicationQuota::kWindow.to_ms()) return;
  for (std::size_t b = 0; b < s_.brokers.size(); ++b) {
    const auto broker = static_cast<std::int32_t>(b);
    // The copies it sends (as a throttled leader) and receives (as a throttled follower):
    // bytes/s written into them, bytes they lack.
    struct Copies {
      int count = 0;
      double written = 0;
      std::int64_t left = 0;
    } lead, follow;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const Partition& p = parts_[i];
      const double written = static_cast<double>(p.log_end - window_log_end_[i]) / seconds;
      for (const std::int32_t a : p.adding) {
        if (in_isr(p, a)) continue;
        const std::int64_t lacking = lacks(p, a);
        Copies* c = p.leader == broker && contains(p.leader_throttled, broker) ? &lead : nullptr;
        for (Copies* side : {c, a == broker && contains(p.follower_throttled, broker) ? &follow : nullptr}) {
          if (!side) continue;
          ++side->count;
          side->written += written;
          side->left += lacking;
        }
      }
    }
    const auto add = [&](bool leader, const ReplicationQuota& q, std::int64_t in_sync, std::int64_t before,
                         const Copies& c) {
      if (q.bound() <= 0 || c.count == 0) return;
      ThrottleBudget t;
      t.broker = s_.brokers[b].id;
      t.leader = leader;
      t.throttle = q.bound();
      t.listed_in_sync = static_cast<double>(in_sync - before) / seconds;
      t.produced = c.written;
      t.bytes_left = c.left;
      r.never = r.never || t.spare() <= 0;
      r.budgets.push_back(t);
    };
    add(true, leader_quota_[b], bytes_[b].listed_in_sync_out, window_bytes_[b].listed_in_sync_out, lead);
    add(false, follower_quota_[b], bytes_[b].listed_in_sync_in, window_bytes_[b].listed_in_sync_in, follow);
  }
}

}  // namespace partsim::model
