// The engine's part in replication with followers (cluster.replication,
// model/cluster/replication.hpp): the fetch steps, the leaders' ISR check and the fencing
// of a dead broker are dispatched to the Replication; it answers through ReplicationHost
// when an acks=all request's batches are settled, and moves the leaders' high watermarks.

#include <algorithm>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::operator()(const FetchStep& e) {
  --replication_steps_;
  switch (e.step) {
    case ReplicationHost::Step::kArrive: replication_->on_fetch_arrive(e.session, e.fetch, now()); break;
    case ReplicationHost::Step::kReturn: replication_->on_fetch_return(e.session, e.fetch, now()); break;
    case ReplicationHost::Step::kExpire: replication_->on_fetch_expire(e.session, e.fetch, now()); break;
    case ReplicationHost::Step::kBackoff: replication_->on_fetch_backoff(e.session, e.fetch, now()); break;
  }
}

bool Engine::schedule_fetch(ReplicationHost::Step step, std::uint32_t session, std::uint64_t fetch, SimTime at) {
  // Once no producer will send again, an idle fetcher (waiting for data) stops: the run ends;
  // unless a follower has yet to learn its leader's high watermark (KIP-392: consumers read
  // from it), which the expiry's answer tells it.
  // A throttled follower's backoff likewise: a move left unfinished stays so once the run is over.
  if ((step == ReplicationHost::Step::kExpire || step == ReplicationHost::Step::kBackoff) && quiet() &&
      !replication_->followers_behind())
    return false;
  ++replication_steps_;
  sim_.schedule_at(at, FetchStep{step, session, fetch});
  return true;
}

bool Engine::run_over() const {
  return std::all_of(producers_.begin(), producers_.end(), [](const auto& p) { return p->stopped(); }) &&
         !(migration_ && migration_->active());
}

bool Engine::quiet() const {
  if (migration_ && migration_->active()) return false;  // it may still copy, or move the producers
  for (const auto& p : producers_)
    if (!p->stopped() || p->has_in_flight() || p->blocked() || p->accumulator().has_batches()) return false;
  return true;
}

void Engine::operator()(const IsrCheck&) {
  replication_->check_isr(now());
  if (!quiet()) sim_.schedule_in(replication_->isr_check_interval(), IsrCheck{});
}

void Engine::operator()(const Fence& e) {
  if (network_->broker(e.broker).epoch() != e.epoch) return;  // back before the controller fenced it
  if (controller_->fence(e.broker, now())) refresh_metadata();
}

// A topic schedule's reassignment step (docs/reassignment.md): none once the run is over, as
// a partition step then.
void Engine::operator()(const ReassignStart& e) {
  if (run_over()) return;
  replication_->reassign(e.topic, *s_.topics[e.topic].schedule[e.index].reassign, now());
}

// The reassignments' time series: every interval from the start while the run goes on.
void Engine::operator()(const ReassignSample&) {
  replication_->sample_reassignment(now(), recorder_->interval_latency());
  recorder_->reset_interval_latency();
  if (!quiet() && sim_.has_pending()) sim_.schedule_in(reassign_interval_, ReassignSample{});
}

// The brokers' retention check (docs/disks.md): every interval while the run goes on. Once
// it is over none runs (a check first due in the drain would change the disks the run reports).
void Engine::operator()(const RetentionCheck&) {
  if (quiet()) return;
  replication_->check_retention(now());
  sim_.schedule_in(s_.replication.retention_check, RetentionCheck{});
}

// The disks' time series: every interval from the start while the run goes on.
void Engine::operator()(const DiskSample&) {
  if (quiet()) return;  // the run's end samples them (Replication::finish)
  replication_->sample_disks(now());
  if (sim_.has_pending()) sim_.schedule_in(disk_interval_, DiskSample{});
}

// A write did not fit on the broker's disk: its only log directory failed, and it halts
// (docs/disks.md). The controller moves its leaders as at any broker failure.
void Engine::operator()(const LogDirFailure& e) { fail_broker(e.broker); }

// A completed reassignment whose leader was removed has a new leader: the producers and the
// groups learn it as from any election.
void Engine::reassignment_done(std::size_t, bool leader_moved) {
  if (!leader_moved) return;
  controller_->leaders_moved(now(), "reassignment completed");
  refresh_metadata();
}

void Engine::acks_settled(std::uint64_t id) { network_->acks_settled(id); }

void Engine::ack_error(std::uint64_t id, std::size_t partition, ProduceError error) {
  Request* r = network_->find(id);
  if (!r) return;
  if (r->errors.empty()) r->errors.assign(static_cast<std::size_t>(r->batches), ProduceError::kNone);
  for (std::size_t k = 0; k < r->described.size(); ++k)
    if (r->described[k].log == partition) r->errors[k] = error;
}

// Followers: the high watermark passed the records of the batches below `hw`, or a new
// leader's log ends at `end` (the leaders' logs, leader_logs.hpp).
void Engine::high_watermark_moved(std::size_t partition, std::int64_t hw) {
  leaders_->high_watermark_moved(partition, hw, now());
}
void Engine::log_truncated(std::size_t partition, std::int64_t end) { leaders_->log_truncated(partition, end); }

void Engine::sequence_gap(std::uint32_t p, std::int32_t partition) {
  leaders_->sequence_gap(stats_offset_[topic_of_[p]] + static_cast<std::size_t>(partition), p);
}

}  // namespace partsim::model::detail
