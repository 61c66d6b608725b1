// Brokers: a FIFO request queue with a service model, and their schedules of changes
// (slow down, fail with leader moves, recover).

#include "model/detail/producer_engine.hpp"

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

namespace partsim::model::detail {

// ---- brokers ----------------------------------------------------------------------------------

SimTime Engine::jitter(Broker& b) {
  const Jitter& j = b.cfg->jitter;
  double ms = 0;
  switch (j.kind) {
    case Jitter::Kind::kNone: break;
    case Jitter::Kind::kExponential: ms = boost::random::exponential_distribution<double>(1.0 / j.mean_ms)(b.jitter_rng); break;
    case Jitter::Kind::kUniform: ms = boost::random::uniform_real_distribution<double>(0.0, j.max_ms)(b.jitter_rng); break;
    case Jitter::Kind::kLognormal:
      // ln X ~ N(ln median, sigma): Boost takes the underlying normal's mean and sigma.
      ms = boost::random::lognormal_distribution<double>(std::log(j.mean_ms), j.sigma)(b.jitter_rng);
      break;
  }
  return SimTime::from_ms(ms);
}

void Engine::operator()(const RequestArrive& e) {
  auto it = requests_.find(e.request);
  if (it == requests_.end()) return;
  Request& r = it->second;
  Broker& b = brokers_[r.broker];
  if (!b.up) {
    if (!r.live) requests_.erase(it);  // acks=0 request lost with the broker
    return;
  }
  r.arrived = now();
  ++result_.brokers[r.broker].requests;
  b.queue.push_back(e.request);
  if (!b.busy) start_service(r.broker);
}

void Engine::start_service(std::uint32_t bi) {
  Broker& b = brokers_[bi];
  while (!b.queue.empty()) {
    const std::uint64_t id = b.queue.front();
    b.queue.pop_front();
    auto it = requests_.find(id);
    if (it == requests_.end()) continue;
    Request& r = it->second;
    result_.brokers[bi].queue_wait_ms_sum += (now() - r.arrived).to_ms();
    if (!ts_wait_sum_.empty()) {
      ts_wait_sum_[bi] += (now() - r.arrived).to_ms();
      ++ts_wait_count_[bi];
    }
    double ms = b.request_time.to_ms() + b.cfg->batch_time.to_ms() * static_cast<double>(r.batches.size());
    if (b.bytes_per_second > 0) ms += static_cast<double>(r.bytes) * 1000.0 / b.bytes_per_second;
    b.busy = true;
    sim_.schedule_at(now() + SimTime::from_ms(ms) + jitter(b), BrokerDone{bi, b.epoch, id});
    return;
  }
  b.busy = false;
}

void Engine::operator()(const BrokerDone& e) {
  Broker& b = brokers_[e.broker];
  if (b.epoch != e.epoch) return;  // the broker failed while serving this request
  auto it = requests_.find(e.request);
  if (it != requests_.end()) {
    Request& r = it->second;
    if (!r.live && producers_[r.producer].cfg->acks == Acks::kNone) {
      requests_.erase(it);
    } else {
      // acks=all waits for the slowest in-sync follower (a broker property).
      SimTime delay = one_way(b);
      if (producers_[r.producer].cfg->acks == Acks::kAll) delay += b.cfg->replication;
      sim_.schedule_at(now() + delay, ResponseArrive{e.request});
    }
  }
  start_service(e.broker);
}

void Engine::fail_broker(std::uint32_t bi) {
  Broker& b = brokers_[bi];
  if (!b.up) return;
  b.up = false;
  ++b.epoch;
  b.queue.clear();
  b.busy = false;
  // Leadership moves to the next live replica; with none, the partition goes offline.
  for (auto& t : topics_)
    for (std::size_t part = 0; part < t.leader.size(); ++part) {
      if (t.leader[part] != static_cast<std::int32_t>(bi)) continue;
      t.leader[part] = -1;
      for (std::int32_t r : t.replicas[part])
        if (brokers_[static_cast<std::size_t>(r)].up) {
          t.leader[part] = r;
          break;
        }
    }
  for (auto& p : producers_) {
    sim_.schedule_at(now() + one_way(b), Disconnect{p.index, bi, b.epoch});
    sim_.schedule_at(now() + b.rtt, MetadataRefresh{p.index});
  }
  snapshot_leaders("broker " + std::to_string(b.cfg->id) + " failed");
}

void Engine::recover_broker(std::uint32_t bi) {
  Broker& b = brokers_[bi];
  if (b.up) return;
  b.up = true;
  ++b.epoch;
  // Offline partitions with a replica here come back led by it; others keep their leader.
  for (auto& t : topics_)
    for (std::size_t part = 0; part < t.leader.size(); ++part)
      if (t.leader[part] < 0 && std::find(t.replicas[part].begin(), t.replicas[part].end(), static_cast<std::int32_t>(bi)) != t.replicas[part].end())
        t.leader[part] = static_cast<std::int32_t>(bi);
  for (auto& p : producers_) sim_.schedule_at(now() + b.rtt, MetadataRefresh{p.index});
  snapshot_leaders("broker " + std::to_string(b.cfg->id) + " back");
}

void Engine::snapshot_leaders(const std::string& cause) {
  if (!track_leaders_) return;
  LeaderSnapshot snap;
  snap.time_ms = now().to_ms();
  snap.cause = cause;
  snap.leaders.assign(brokers_.size(), 0);
  for (const auto& t : topics_)
    for (auto l : t.leader)
      if (l >= 0) ++snap.leaders[static_cast<std::size_t>(l)];
  result_.leader_history.push_back(std::move(snap));
}

// auto.leader.rebalance.enable: every check interval, a broker whose preferred
// partitions are led elsewhere beyond leader.imbalance.per.broker.percentage gets them
// back (a preferred leader election), if it is alive.
void Engine::operator()(const LeaderCheck&) {
  bool moved = false;
  for (std::size_t b = 0; b < brokers_.size(); ++b) {
    if (!brokers_[b].up) continue;
    std::int32_t preferred = 0, elsewhere = 0;
    for (const auto& t : topics_)
      for (std::size_t part = 0; part < t.leader.size(); ++part)
        if (t.replicas[part].front() == static_cast<std::int32_t>(b)) {
          ++preferred;
          if (t.leader[part] != static_cast<std::int32_t>(b)) ++elsewhere;
        }
    if (preferred == 0 || 100.0 * elsewhere / preferred <= s_.controller.imbalance_per_broker_percent) continue;
    for (auto& t : topics_)
      for (std::size_t part = 0; part < t.leader.size(); ++part)
        if (t.replicas[part].front() == static_cast<std::int32_t>(b) && t.leader[part] != static_cast<std::int32_t>(b)) {
          t.leader[part] = static_cast<std::int32_t>(b);
          moved = true;
        }
  }
  if (moved) {
    snapshot_leaders("preferred leader election");
    for (auto& p : producers_) {
      sim_.schedule_in(SimTime::from_ms(1), MetadataRefresh{p.index});
      wake_sender(p, now());
    }
  }
  bool active = false;
  for (const auto& p : producers_) active = active || !p.stopped || !p.live_requests.empty();
  if (active) sim_.schedule_in(s_.controller.imbalance_check_interval, LeaderCheck{});
}

void Engine::operator()(const BrokerScheduleStep& e) {
  Broker& b = brokers_[e.broker];
  const BrokerChange& c = b.cfg->schedule[e.index];
  switch (c.kind) {
    case BrokerChange::Kind::kSetRtt: b.rtt = c.duration; break;
    case BrokerChange::Kind::kSetRequestTime: b.request_time = c.duration; break;
    case BrokerChange::Kind::kSetByteRate: b.bytes_per_second = c.bytes_per_second; break;
    case BrokerChange::Kind::kFail: fail_broker(e.broker); break;
    case BrokerChange::Kind::kRecover: recover_broker(e.broker); break;
  }
  for (auto& p : producers_) wake_sender(p, now());
}


}  // namespace partsim::model::detail
