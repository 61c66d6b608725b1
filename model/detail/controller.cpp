#include "model/detail/controller.hpp"

#include <algorithm>

#include "model/producer/partition_order.hpp"

namespace partsim::model::detail {

Controller::Controller(const Scenario& s, Leadership& leadership, std::vector<char>& up, Replication* replication)
    : s_(s), leadership_(leadership), up_(up), replication_(replication) {
  for (const auto& b : s.brokers)
    keep_history_ = keep_history_ || std::any_of(b.schedule.begin(), b.schedule.end(), [](const BrokerChange& c) {
                      return c.kind == BrokerChange::Kind::kFail;
                    });
  for (const TopicConfig& tc : s.topics) keep_history_ = keep_history_ || tc.reassigns();
  for (const TopicConfig& tc : s.topics) {
    count_.push_back(tc.partitions);
    // A step at or after the run's end is never made (the loader warns).
    auto& steps = steps_.emplace_back();
    for (const TopicChange& c : tc.schedule)
      if (c.adds_partitions() && (!s.run.duration || c.at < *s.run.duration)) steps.push_back(c);
    std::stable_sort(steps.begin(), steps.end(),
                     [](const TopicChange& a, const TopicChange& b) { return a.at < b.at; });
    grows_ = grows_ || !steps.empty();
    // The client's partition list order (spec §2.2), the same for every producer, for each
    // count the topic will have.
    auto& orders = orders_.emplace_back();
    std::vector<std::int32_t> counts{tc.partitions};
    for (const TopicChange& c : steps) counts.push_back(c.partitions);
    for (const std::int32_t n : counts) {
      auto& order = orders[n];
      if (!order.empty()) continue;
      if (s.run.sorted_partition_order) {
        for (std::int32_t p = 0; p < n; ++p) order.push_back(p);
      } else {
        order = java_hashmap_partition_order(tc.name, n);
      }
    }
    // The partitions the topic starts with exist from 0 ms; the others from their step.
    first_row_.push_back(created_.size());
    for (std::int32_t p = 0; p < tc.partitions_before(s.run.duration); ++p)
      created_.push_back(p < tc.partitions ? SimTime::zero() : SimTime::max());
  }
  done_.assign(s.topics.size(), 0);
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

std::optional<PartitionIncrease> Controller::make_step(std::size_t t, std::size_t i, SimTime now, bool run_over) {
  const TopicChange& c = steps_[t][i];
  ++done_[t];
  if (run_over) return std::nullopt;
  for (std::int32_t p = count_[t]; p < c.partitions; ++p) created_[first_row_[t] + static_cast<std::size_t>(p)] = now;
  PartitionIncrease change;
  change.topic = s_.topics[t].name;
  change.at_ms = now.to_ms();
  change.from = count_[t];
  change.to = c.partitions;
  count_[t] = c.partitions;
  topic_grew(t, c.partitions, now);
  return change;
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
