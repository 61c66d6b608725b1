// The run's results: the time series samples (what the producers hold, read for the
// recorder) and what is gathered from the producers, the leaders and the replication when
// the run ends. What the producers report as the run goes is the RunRecorder's.

#include <algorithm>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::operator()(const Sample&) {
  std::vector<std::int32_t> queues(result().partitions.size(), 0);
  std::vector<std::int32_t> in_flight(network_->brokers(), 0);
  std::int64_t buffer = 0;
  for (const auto& p : producers_) {
    const std::size_t base = stats_offset_[topic_of_[p->index()]];
    const RecordAccumulator& acc = p->accumulator();
    for (std::int32_t part = 0; part < acc.num_partitions(); ++part)
      queues[base + static_cast<std::size_t>(part)] += acc.deque_size(part);
    for (std::size_t b = 0; b < network_->brokers(); ++b) in_flight[b] += p->sender().in_flight(b);
    buffer += acc.pool().used_bytes();
  }
  recorder_->sample(std::move(queues), std::move(in_flight), buffer);
  if (replication_) replication_->sample(now());
  // Keep sampling while producers send or anything is buffered or in flight.
  bool active = migration_ && migration_->active();
  for (const auto& p : producers_)
    active = active || !p->stopped() || p->has_in_flight() || p->blocked() || p->accumulator().has_batches();
  if (active && sim_.has_pending()) sim_.schedule_in(options_.timeseries, Sample{});
}

// Called once the run has stopped (done or cancelled).
void Engine::gather_results() {
  // The run's last acknowledgement or failure: the producers', and the bridge's copies.
  const SimTime last_completion =
      std::max(recorder_->last_completion(), migration_ ? migration_->last_completion() : SimTime::zero());
  result().simulated_ms = last_completion.to_ms();
  // Work done, not a result: sampling adds events (and breaks inline sends into events).
  result().events = sim_.events_processed();
  recorder_->finish();
  finish_repartition();
  recorder_->note_existence(controller_->created());
  // Up to the last completion (the controller's and the leaders' periodic checks run on).
  if (replication_) {
    leaders_->finish();
    result().replication = replication_->finish(last_completion);
    result().replication.records_truncated = leaders_->records_truncated();
    result().replication.records_uncommitted = leaders_->records_uncommitted();
  }
  if (migration_) result().migration = migration_->finish();  // from the logs as the run left them
  if (leaders_->keeps_logs()) result().logs = leaders_->logs();
  result().leader_history = controller_->take_history();
  result().traffic = traffic_->finish(result().partial);
  for (std::size_t t = 0; t < s_.topics.size(); ++t) {
    const auto leaders = leadership_.leaders(t);
    for (std::size_t p = 0; p < leaders.size(); ++p)
      result().partitions[stats_offset_[t] + p].leader =
          leaders[p] < 0 ? -1 : s_.brokers[static_cast<std::size_t>(leaders[p])].id;
  }
  for (const auto& p : producers_)
    recorder_->add_producer(*p, owner_[p->index()], p->index() == bridge_client_ && bridge_client_ != 0,
                            last_completion);
}

}  // namespace partsim::model::detail
