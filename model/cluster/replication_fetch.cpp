// The followers' fetchers (Replication's part; replication.hpp): a fetch travels to its
// leader, waits there for replica.fetch.min.bytes or replica.fetch.wait.max.ms, and comes
// back with what the leader's answer carries (kafka-consumer-spec §9.1-9.3); the throttles
// of a reassignment hold parts of it back (replication_reassign.cpp), and a full disk stops
// the follower (replication_disks.cpp).

#include <algorithm>

#include "model/cluster/replication.hpp"

namespace partsim::model {

// Half the follower's replica.rtt.ms, rounded half up (as BrokerService::one_way).
SimTime Replication::one_way(const Session& s) const {
  return SimTime::ns((replica_rtt_[static_cast<std::size_t>(s.follower)].count_ns() + 1) / 2);
}

bool Replication::fetches(const Session& s, const Partition& p) const {
  return p.leader == s.leader && p.leader != s.follower &&
         std::find(p.replicas.begin(), p.replicas.end(), s.follower) != p.replicas.end();
}

// DelayedFetch's accumulated bytes: a partition the leader holds back adds none.
std::int64_t Replication::available(const Session& s, SimTime now) const {
  std::int64_t bytes = 0;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const Partition& p = parts_[i];
    if (!carries(s, i) || leader_holds_back(s, p, now)) continue;
    bytes += std::min(leader_leo(p) - p.state[pos(p, s.follower)].fetched, s_.replication.fetch_max_bytes);
  }
  return bytes;
}

// The follower builds its fetch: a listed partition its fetcher does not see in sync is left
// out while the follower's throttle is over (RemoteLeaderEndPoint.buildFetch); none left,
// it waits replica.fetch.backoff.ms and builds again.
void Replication::send_fetch(Session& s, SimTime now) {
  s.expiry_pending = false;
  s.fetch = next_fetch_++;
  s.omitted.clear();
  if (follower_quota_[static_cast<std::size_t>(s.follower)].exceeded(now)) {
    bool asks = false, any = false;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const Partition& p = parts_[i];
      if (!fetches(s, p)) continue;
      any = true;
      if (!follower_leaves_out(s, p, now)) {
        asks = true;
        continue;
      }
      if (s.omitted.empty()) s.omitted.assign(parts_.size(), 0);
      s.omitted[i] = 1;
    }
    if (any && !asks) {
      s.state = FetchState::kBackoff;
      schedule(s, ReplicationHost::Step::kBackoff, now + s_.replication.fetch_backoff);
      return;
    }
  }
  s.state = FetchState::kInFlight;
  schedule(s, ReplicationHost::Step::kArrive, now + one_way(s));
}

void Replication::on_fetch_backoff(std::uint32_t session, std::uint64_t fetch, SimTime now) {
  if (Session* const s = current(session, fetch, FetchState::kBackoff, kNeedsFollower)) send_fetch(*s, now);
}

void Replication::schedule(const Session& s, ReplicationHost::Step step, SimTime at) {
  host_.schedule_fetch(step, static_cast<std::uint32_t>(&s - sessions_.data()), s.fetch, at);
}

// The session of a fetch step that is still current (the session's fetch, in the state the
// step expects), or nullptr. When a broker the step needs is down, the fetch ends there: the
// session goes idle and the step does nothing either.
Replication::Session* Replication::current(std::uint32_t session, std::uint64_t fetch, FetchState state, Needs needs) {
  Session& s = sessions_[session];
  if (s.fetch != fetch || s.state != state) return nullptr;
  const bool leader_ok = !(needs & kNeedsLeader) || up(s.leader);
  const bool follower_ok = !(needs & kNeedsFollower) || up(s.follower);
  if (!leader_ok || !follower_ok) {
    s.state = FetchState::kIdle;
    return nullptr;
  }
  return &s;
}

// The leader answers a fetch with its log past the follower's end, now: at most
// replica.fetch.max.bytes of a partition and replica.fetch.response.max.bytes in all
// (ReplicaManager.readFromLog; offsets are bytes, so no batch is split), nothing of a
// partition it holds back. The bytes of listed partitions count against its throttle
// (KafkaApis: sizeOfThrottledPartitions, in-sync followers' too).
void Replication::respond(Session& s, SimTime now, bool at_arrival) {
  s.state = FetchState::kInFlight;
  s.carried.clear();
  std::int64_t bytes = 0;                                   // what the answer carries
  std::int64_t budget = s_.replication.response_max_bytes;  // spent below, after the partitions' wants
  std::int64_t listed = 0;                                  // of it, the leader's throttled partitions'
  BrokerBytes& counts = bytes_[static_cast<std::size_t>(s.leader)];
  std::int32_t partitions = 0, topics = 0;
  std::size_t last_topic = parts_.size();  // parts_ are in topic order
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    const Partition& p = parts_[i];
    if (!carries(s, i)) continue;
    // The answer's high watermark (KIP-392): read before the fetch's own update when answered
    // as it arrives (Partition.fetchRecords reads, then updateFollowerFetchState), else now.
    std::pair<std::int64_t, std::int64_t> hw{p.hw, 0};
    if (read_replicas_)
      hw = at_arrival && i < s.arrival_hw.size() ? s.arrival_hw[i] : std::pair{p.hw, host_.readable_records(i)};
    const std::int64_t leo = p.state[pos(p, s.follower)].leo;
    // A follower whose log ends below the leader's start gets OFFSET_OUT_OF_RANGE and fetches
    // from that start (docs/disks.md); partsim answers from there at once.
    const std::int64_t log_start = leader_log_start(p);
    const std::int64_t at = std::max(leo, log_start);
    std::int64_t more = std::min(leader_leo(p) - at, s_.replication.fetch_max_bytes);
    if (more > 0 && leader_holds_back(s, p, now)) more = 0;
    s.carried.push_back({i, leo, at + std::max<std::int64_t>(more, 0), hw.first, hw.second, log_start});
  }
  // The answer's budget goes round the partitions: those that got records last time go
  // last (the fetch session and the fetcher move them to the end).
  const std::size_t n = s.carried.size();
  std::size_t last = n;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t at = (s.rotation + j) % n;
    Session::Carried& c = s.carried[at];
    const std::int64_t from = std::max(c.from, c.log_start);
    const std::int64_t more = std::min(c.leo - from, budget);
    c.leo = from + more;
    budget -= more;
    if (more > 0) last = at;
  }
  if (last < n) s.rotation = last + 1;
  for (const Session::Carried& c : s.carried) {
    const Partition& p = parts_[c.partition];
    const std::int64_t more = c.leo - std::max(c.from, c.log_start);
    if (more <= 0) continue;
    if (std::find(p.leader_throttled.begin(), p.leader_throttled.end(), s.leader) != p.leader_throttled.end()) {
      listed += more;
      if (in_isr(p, s.follower)) counts.listed_in_sync_out += more;
    }
    if (std::find(p.adding.begin(), p.adding.end(), s.follower) != p.adding.end()) counts.reassign_out += more;
    bytes += more;
    ++partitions;
    topics += p.topic != last_topic ? 1 : 0;
    last_topic = p.topic;
  }
  leader_quota_[static_cast<std::size_t>(s.leader)].record(listed, now);
  if (up(s.follower)) host_.fetch_answered(s.leader, s.follower, bytes, partitions, topics);  // else no one reads it
  // The answer (its records; the framing is small) passes the leader's outbound link now, and
  // the follower's inbound one when it gets there (on_fetch_return).
  s.answer_bytes = bytes;
  s.passed_in = !links_;
  schedule(s, ReplicationHost::Step::kReturn,
           (links_ ? links_->send(static_cast<std::size_t>(s.leader), bytes, now) : now) + one_way(s));
}

void Replication::on_fetch_arrive(std::uint32_t session, std::uint64_t fetch, SimTime now) {
  Session* const found = current(session, fetch, FetchState::kInFlight, kNeedsBoth);
  if (!found) return;
  Session& s = *found;
  s.arrival_hw.clear();
  if (read_replicas_) s.arrival_hw.resize(parts_.size());
  bool any = false;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    Partition& p = parts_[i];
    if (!carries(s, i)) continue;
    any = true;
    if (read_replicas_) s.arrival_hw[i] = {p.hw, host_.readable_records(i)};
    Follower& f = p.state[pos(p, s.follower)];
    const std::int64_t leo = leader_leo(p);
    // lastCaughtUpTime (§9.3, RP:127-133).
    if (f.leo >= leo) f.last_caught_up = now;
    else if (f.leo >= f.leo_at_prev_fetch) f.last_caught_up = std::max(f.last_caught_up, f.prev_fetch);
    f.leo_at_prev_fetch = leo;
    f.prev_fetch = now;
    f.fetched = f.leo;
    // Expansion: a live, unfenced replica at or past the high watermark rejoins (§9.3, PS:1050-1075).
    if (!in_isr(p, s.follower) && f.fetched >= p.hw && !fenced_[static_cast<std::size_t>(s.follower)]) {
      account(now);
      p.isr.push_back(s.follower);
      std::sort(p.isr.begin(), p.isr.end(), [&](std::int32_t a, std::int32_t b) { return pos(p, a) < pos(p, b); });
      ++result_.partitions[static_cast<std::size_t>(&p - parts_.data())].expands;
      advance_hw(p, now);
      snapshot(now, "isr expand");
      maybe_complete(p, now);
    } else {
      advance_hw(p, now);
    }
  }
  if (!any) {
    s.state = FetchState::kIdle;
    return;
  }
  if (available(s, now) >= s_.replication.fetch_min_bytes) {
    respond(s, now, true);
    return;
  }
  s.state = FetchState::kParked;
  s.parked_at = now;
  s.expiry_pending = host_.schedule_fetch(ReplicationHost::Step::kExpire,
                                          static_cast<std::uint32_t>(&s - sessions_.data()), s.fetch,
                                          now + s_.replication.fetch_wait_max);
}

void Replication::on_fetch_expire(std::uint32_t session, std::uint64_t fetch, SimTime now) {
  if (Session* const s = current(session, fetch, FetchState::kParked, kNeedsLeader)) {
    s->expiry_pending = false;
    respond(*s, now);
  }
}

void Replication::on_fetch_return(std::uint32_t session, std::uint64_t fetch, SimTime now) {
  Session* const found = current(session, fetch, FetchState::kInFlight, kNeedsFollower);
  if (!found) return;
  Session& s = *found;
  if (!s.passed_in) {
    s.passed_in = true;
    const SimTime in = links_->receive(static_cast<std::size_t>(s.follower), s.answer_bytes, now);
    if (in > now) {
      schedule(s, ReplicationHost::Step::kReturn, in);
      return;
    }
  }
  // The follower appends what came back (if the partition still has that leader and it is
  // still a replica), counting the listed partitions' bytes against its throttle.
  std::int64_t listed = 0;
  BrokerBytes& counts = bytes_[static_cast<std::size_t>(s.follower)];
  for (const auto& c : s.carried) {
    Partition& p = parts_[c.partition];
    if (p.leader != s.leader || !fetches(s, p)) continue;
    Follower& f = p.state[pos(p, s.follower)];
    if (f.leo != c.from) continue;  // removed and added again meanwhile: a new log
    if (f.leo < c.log_start) {      // out of range: the follower's log goes, it starts at the leader's start
      remove_log(s.follower, f.leo - f.start, now);
      f.start = f.leo = c.log_start;
    }
    f.log_start = std::max(f.log_start, c.log_start);
    const std::int64_t got = c.leo - f.leo;
    if (got > 0 && disks_on_ && !fits(s.follower, got, now)) {
      // The append does not fit: the follower's log directory fails and the broker halts
      // (its fetcher stops with it).
      s.carried.clear();
      s.state = FetchState::kIdle;
      fail_log_dir(s.follower, now);
      return;
    }
    grow(s.follower, got, now);
    if (got > 0) {
      if (std::find(p.follower_throttled.begin(), p.follower_throttled.end(), s.follower) !=
          p.follower_throttled.end()) {
        listed += got;
        if (f.fetcher_in_sync) counts.listed_in_sync_in += got;
      }
      if (std::find(p.adding.begin(), p.adding.end(), s.follower) != p.adding.end()) counts.reassign_in += got;
    }
    f.leo = c.leo;
    // The fetcher's lag: the answer's high watermark less its new log end, updated by an
    // answer with records (AbstractFetcherThread.processFetchRequest).
    if (got > 0 || !f.lag_known) {
      f.lag_known = true;
      f.fetcher_in_sync = c.hw <= f.leo;
    }
    // The answer's high watermark, bounded by the follower's log end (UnifiedLog.maybeUpdateHighWatermark,
    // which the answer's log end always covers); a higher one lets the follower's delayed
    // consumer fetches complete (KIP-392).
    if (std::min(c.hw, f.leo) <= f.hw) continue;
    f.hw = std::min(c.hw, f.leo);
    f.hw_records = c.hw_records;
    if (read_replicas_) host_.follower_high_watermark(c.partition, s.follower);
  }
  follower_quota_[static_cast<std::size_t>(s.follower)].record(listed, now);
  s.carried.clear();
  send_fetch(s, now);
}

}  // namespace partsim::model
