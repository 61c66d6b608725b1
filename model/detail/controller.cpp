#include "model/detail/controller.hpp"

#include <algorithm>

namespace partsim::model::detail {

Controller::Controller(const Scenario& s, Leadership& leadership, std::vector<char>& up, Replication* replication,
                       std::vector<LeaderSnapshot>& history)
    : s_(s), leadership_(leadership), up_(up), replication_(replication), history_(history) {
  for (const auto& b : s.brokers)
    keep_history_ = keep_history_ || std::any_of(b.schedule.begin(), b.schedule.end(), [](const BrokerChange& c) {
                      return c.kind == BrokerChange::Kind::kFail;
                    });
}

void Controller::start(SimTime now) { snapshot(now, "start"); }

std::optional<SimTime> Controller::broker_failed(std::uint32_t b, SimTime now) {
  if (!up_[b]) return std::nullopt;
  up_[b] = 0;
  std::optional<SimTime> fence_at;
  // Followers: leadership moves when the controller fences the broker (§9.4). Fixed: to the
  // next live replica now; with none, the partition goes offline.
  if (replication_) fence_at = replication_->broker_failed(static_cast<std::int32_t>(b), now);
  else leadership_.broker_failed(static_cast<std::int32_t>(b), up_);
  snapshot(now, broker_name(b) + " failed");
  return fence_at;
}

void Controller::broker_recovered(std::uint32_t b, SimTime now) {
  if (up_[b]) return;
  up_[b] = 1;
  // Offline partitions with a replica here (followers: whose ISR lists it) come back led by
  // it; others keep their leader.
  if (replication_) replication_->broker_recovered(static_cast<std::int32_t>(b), now);
  else leadership_.broker_recovered(static_cast<std::int32_t>(b));
  snapshot(now, broker_name(b) + " back");
}

bool Controller::fence(std::uint32_t b, SimTime now) {
  const bool moved = replication_ && replication_->fence(static_cast<std::int32_t>(b), now);
  snapshot(now, broker_name(b) + " fenced");
  return moved;
}

// auto.leader.rebalance.enable: a live broker whose preferred partitions are led elsewhere
// beyond leader.imbalance.per.broker.percentage gets them back (followers: only where it is
// in the ISR).
bool Controller::check_preferred_leaders(SimTime now) {
  Leadership::Eligible in_isr;
  if (replication_)
    in_isr = [this](std::size_t t, std::size_t p, std::int32_t b) { return replication_->eligible(t, p, b); };
  if (!leadership_.rebalance_preferred(up_, s_.controller.imbalance_per_broker_percent, in_isr)) return false;
  if (replication_) replication_->leaders_moved(now, "preferred leader election");
  snapshot(now, "preferred leader election");
  return true;
}

void Controller::topic_grew(std::size_t t, std::int32_t partitions, SimTime now) {
  leadership_.add_partitions(t, partitions, up_);
  if (replication_) replication_->add_partitions(t, partitions, now);
  snapshot(now, "topic " + s_.topics[t].name + " grew to " + std::to_string(partitions) + " partitions");
}

void Controller::snapshot(SimTime now, const std::string& cause) {
  if (!keep_history_) return;
  LeaderSnapshot snap;
  snap.time_ms = now.to_ms();
  snap.cause = cause;
  snap.leaders = leadership_.leaders_per_broker();
  history_.push_back(std::move(snap));
}

}  // namespace partsim::model::detail
