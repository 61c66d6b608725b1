// The engine's part in the brokers' schedules and the controller: a scenario's broker changes
// (brokers[].schedule), a broker's failure and recovery with the leadership moves they cause
// (by the controller at once, or through replication's fencing), the leader history, and
// the periodic preferred leader election (auto.leader.rebalance.enable). Each ends in the
// producers' metadata refresh.

#include <string>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::operator()(const BrokerScheduleStep& e) {
  BrokerService& b = brokers_[e.broker];
  const BrokerChange& c = s_.brokers[e.broker].schedule[e.index];
  switch (c.kind) {
    case BrokerChange::Kind::kSetRtt: b.set_rtt(c.duration); break;
    case BrokerChange::Kind::kSetRequestTime: b.set_request_time(c.duration); break;
    case BrokerChange::Kind::kSetByteRate: b.set_bytes_per_second(c.bytes_per_second); break;
    case BrokerChange::Kind::kFail: fail_broker(e.broker); break;
    case BrokerChange::Kind::kRecover: recover_broker(e.broker); break;
    case BrokerChange::Kind::kSetErrorRate: b.set_error_rate(c.error_rate); break;
    case BrokerChange::Kind::kSetReplicaRtt:
      if (replication_) replication_->set_replica_rtt(static_cast<std::int32_t>(e.broker), c.duration);
      break;
  }
  for (auto& p : producers_) p->wake_sender(now(), now());
}

void Engine::fail_broker(std::uint32_t bi) {
  BrokerService& b = brokers_[bi];
  if (!b.up()) return;
  b.fail();
  up_[bi] = 0;
  if (replication_) {
    // Leadership moves when the controller fences the broker (kafka-consumer-spec §9.4).
    sim_.schedule_at(replication_->broker_failed(static_cast<std::int32_t>(bi), now()), Fence{bi, b.epoch()});
  } else {
    // Leadership moves to the next live replica; with none, the partition goes offline.
    leadership_.broker_failed(static_cast<std::int32_t>(bi), up_);
  }
  for (auto& p : producers_) {
    sim_.schedule_at(now() + b.one_way(), Disconnect{p->index(), bi, b.epoch()});
    sim_.schedule_at(now() + b.rtt(), MetadataRefresh{p->index()});
  }
  snapshot_leaders("broker " + std::to_string(s_.brokers[bi].id) + " failed");
}

void Engine::recover_broker(std::uint32_t bi) {
  BrokerService& b = brokers_[bi];
  if (b.up()) return;
  b.recover();
  up_[bi] = 1;
  // Offline partitions with a replica here (followers: whose ISR lists it) come back led by
  // it; others keep their leader.
  if (replication_) replication_->broker_recovered(static_cast<std::int32_t>(bi), now());
  else leadership_.broker_recovered(static_cast<std::int32_t>(bi));
  for (auto& p : producers_) sim_.schedule_at(now() + b.rtt(), MetadataRefresh{p->index()});
  snapshot_leaders("broker " + std::to_string(s_.brokers[bi].id) + " back");
}

void Engine::snapshot_leaders(const std::string& cause) {
  if (!track_leaders_) return;
  LeaderSnapshot snap;
  snap.time_ms = now().to_ms();
  snap.cause = cause;
  snap.leaders = leadership_.leaders_per_broker();
  result().leader_history.push_back(std::move(snap));
}

// auto.leader.rebalance.enable: every check interval, a broker whose preferred partitions
// are led elsewhere beyond leader.imbalance.per.broker.percentage gets them back (a
// preferred leader election), if it is alive.
void Engine::operator()(const LeaderCheck&) {
  Leadership::Eligible in_isr;
  if (replication_)
    in_isr = [this](std::size_t t, std::size_t p, std::int32_t b) { return replication_->eligible(t, p, b); };
  if (leadership_.rebalance_preferred(up_, s_.controller.imbalance_per_broker_percent, in_isr)) {
    if (replication_) replication_->leaders_moved(now(), "preferred leader election");
    snapshot_leaders("preferred leader election");
    refresh_metadata();
  }
  bool active = false;
  for (const auto& p : producers_) active = active || !p->stopped() || p->has_in_flight();
  if (active) sim_.schedule_in(s_.controller.imbalance_check_interval, LeaderCheck{});
}

void Engine::refresh_metadata() {
  for (auto& p : producers_) {
    sim_.schedule_in(SimTime::ms(1), MetadataRefresh{p->index()});
    p->wake_sender(now(), now());
  }
}

}  // namespace partsim::model::detail
