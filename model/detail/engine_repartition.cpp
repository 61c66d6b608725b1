// The engine's part in a live partition increase (a topic's schedule): the controller adds
// the partitions at the step's time, each producer sees them at its next metadata refresh
// (kafka-consumer-spec §6.2: lastRefresh + metadata.max.age.ms, or earlier when an error or
// a disconnect forces one), and the run counts what the two partitioning rules cost.

#include <algorithm>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::setup_repartition() {
  if (!controller_->topics_grow()) return;  // else the recorder keeps result().repartition
  last_refresh_.assign(producers_.size(), SimTime::zero());
  saw_new_count_.assign(producers_.size(), std::nullopt);
}

// A step at 0 ms is made at the start, and each producer's first refresh (at its start,
// kafka-consumer-spec §6.2) sees it: no record, not even one sent at 0 ms, is partitioned
// by the old count. (Queued, the step would come after the producers' first refresh.)
void Engine::start_repartition() {
  if (!result().repartition) return;
  for (std::uint32_t t = 0; t < s_.topics.size(); ++t)
    for (std::uint32_t i = 0; i < controller_->topic_steps(t).size(); ++i)
      if (controller_->topic_steps(t)[i].at <= SimTime::zero()) (*this)(TopicStep{t, i});
  for (std::uint32_t p = 0; p < producers_.size(); ++p)
    if (producer(p).metadata().num_partitions() < controller_->partition_counts()[topic_of_[p]])
      (*this)(MetadataRefresh{p});
}

// The partitions appear at once in the controller's metadata; the consumer groups learn of
// them (a KIP-848 coordinator at once, a classic group's leader at its next refresh).
void Engine::operator()(const TopicStep& e) {
  const std::optional<PartitionIncrease> change = controller_->make_step(e.topic, e.index, now(), run_over());
  if (!change) return;
  result().repartition->changes.push_back(*change);
  if (consumers_) consumers_->partitions_added(e.topic, change->to, now());
}

// The next refresh that can show the producer something new (next_useful_refresh); the
// refreshes in between would change nothing and are not simulated. A stopped producer or
// one that has seen the last step is left alone.
void Engine::arm_metadata_refresh(std::uint32_t p) {
  const std::size_t t = topic_of_[p];
  const KafkaProducer& kp = producer(p);
  if (kp.closed() || (kp.stopped() && !migration_)) return;  // a migration's fed producers still send
  const auto& steps = controller_->topic_steps(t);
  const std::size_t done = controller_->steps_done(t);
  const std::optional<SimTime> at =
      next_useful_refresh(last_refresh_[p], kp.spec().config.metadata_max_age,
                          kp.metadata().num_partitions() < controller_->partition_counts()[t],
                          done < steps.size() ? std::optional<SimTime>(steps[done].at) : std::nullopt);
  if (!at) return;
  sim_.emplace_timer<PeriodicRefresh>(timer_slot(p, kMetadataTimer), std::max(*at, now()), PeriodicRefresh{p});
}

// A producer that has stopped sending (closing) does not refresh: what it still flushes was
// partitioned already.
void Engine::operator()(const PeriodicRefresh& e) {
  if (producer(e.producer).closed() || (producer(e.producer).stopped() && !migration_)) return;
  (*this)(MetadataRefresh{e.producer});
}

void Engine::finish_repartition() {
  if (!result().repartition) return;
  RepartitionResult& r = *result().repartition;
  // A producer that never saw the topic's last count has no time (null), whatever earlier
  // step it saw.
  for (std::uint32_t p = 0; p < producers_.size(); ++p) {
    const std::size_t t = topic_of_[p];
    if (controller_->topic_steps(t).empty()) continue;
    const bool saw_last = producer(p).metadata().num_partitions() >= controller_->partition_counts()[t];
    r.producers.push_back({producer(p).spec().name, saw_last ? saw_new_count_[p] : std::nullopt});
  }
}

}  // namespace partsim::model::detail
