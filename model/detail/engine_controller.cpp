// The engine's part in the brokers' schedules: a scenario's broker changes
// (brokers[].schedule), a broker's failure and recovery, and the periodic preferred leader
// check. Who leads is the Controller's (controller.hpp); here is what the brokers and
// producers do about it: a failed broker's connections drop, and each change ends in the
// producers' metadata refresh.

#include <string>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::operator()(const BrokerScheduleStep& e) {
  --broker_steps_left_;
  BrokerService& b = network_->broker(e.broker);
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

// The broker stops serving; the controller moves its leadership (now, or at the fence it
// returns); every producer's connection to it drops and each asks for metadata.
void Engine::fail_broker(std::uint32_t bi) {
  BrokerService& b = network_->broker(bi);
  if (!b.up()) return;
  b.fail();
  if (consumers_) consumers_->broker_failed(bi, now());
  if (const auto fence_at = controller_->broker_failed(bi, now())) sim_.schedule_at(*fence_at, Fence{bi, b.epoch()});
  for (auto& p : producers_) {
    sim_.schedule_at(now() + b.one_way(), Disconnect{p->index(), bi, b.epoch()});
    sim_.schedule_at(now() + b.rtt(), MetadataRefresh{p->index()});
  }
}

void Engine::recover_broker(std::uint32_t bi) {
  BrokerService& b = network_->broker(bi);
  if (b.up()) return;
  b.recover();
  controller_->broker_recovered(bi, now());
  leaders_changed();
  for (auto& p : producers_) sim_.schedule_at(now() + b.rtt(), MetadataRefresh{p->index()});
}

// The controller's periodic preferred-leader check (controller.hpp).
// Once the run is over (the producers done, nothing in flight) it moves nothing: a check
// first due after a short run's end would change the leaders the run reports.
void Engine::operator()(const LeaderCheck&) {
  if (quiet()) return;
  if (controller_->check_preferred_leaders(now())) refresh_metadata();
  sim_.schedule_in(s_.controller.imbalance_check_interval, LeaderCheck{});
}

void Engine::refresh_metadata() {
  leaders_changed();
  for (auto& p : producers_) {
    sim_.schedule_in(SimTime::ms(1), MetadataRefresh{p->index()});
    p->wake_sender(now(), now());
  }
}

}  // namespace partsim::model::detail
