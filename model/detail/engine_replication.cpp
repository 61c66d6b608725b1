// The engine's part in replication with followers (cluster.replication,
// model/cluster/replication.hpp): the fetch steps, the leaders' ISR check and the fencing
// of a dead broker are dispatched to the Replication; it answers through ReplicationHost
// when an acks=all request's batches are settled. The leader's refusals of a produce request
// that only followers cause are here too.

#include <algorithm>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::operator()(const FetchStep& e) {
  --replication_steps_;
  switch (e.step) {
    case ReplicationHost::Step::kArrive: replication_->on_fetch_arrive(e.session, e.fetch, now()); break;
    case ReplicationHost::Step::kReturn: replication_->on_fetch_return(e.session, e.fetch, now()); break;
    case ReplicationHost::Step::kExpire: replication_->on_fetch_expire(e.session, e.fetch, now()); break;
  }
}

void Engine::schedule_fetch(ReplicationHost::Step step, std::uint32_t session, std::uint64_t fetch, SimTime at) {
  // Once no producer will send again, an idle fetcher (waiting for data) stops: the run ends.
  if (step == ReplicationHost::Step::kExpire && quiet()) return;
  ++replication_steps_;
  sim_.schedule_at(at, FetchStep{step, session, fetch});
}

bool Engine::quiet() const {
  for (const auto& p : producers_)
    if (!p->stopped() || p->has_in_flight() || p->blocked() || p->accumulator().has_batches()) return false;
  return true;
}

void Engine::operator()(const IsrCheck&) {
  replication_->check_isr(now());
  if (!quiet()) sim_.schedule_in(replication_->isr_check_interval(), IsrCheck{});
}

void Engine::operator()(const Fence& e) {
  if (brokers_[e.broker].epoch() != e.epoch) return;  // back before the controller fenced it
  if (controller_->fence(e.broker, now())) refresh_metadata();
}

void Engine::acks_settled(std::uint64_t id) {
  // A threaded broker's connection was muted until this response: it is sent now, even
  // for a request its producer gave up (the broker does not know).
  if (const auto muted = connections_.settled(id))
    (*this)(ResponseSent{muted->broker, muted->epoch, muted->connection});
  Request* r = requests_.find(id);
  if (!r) return;  // the producer gave it up
  schedule_response(id, *r, now() + brokers_[r->broker].one_way());
}

void Engine::ack_error(std::uint64_t id, std::size_t partition, ProduceError error) {
  Request* r = requests_.find(id);
  if (!r) return;
  if (r->errors.empty()) r->errors.assign(static_cast<std::size_t>(r->batches), ProduceError::kNone);
  for (std::size_t k = 0; k < r->described.size(); ++k)
    if (r->described[k].log == partition) r->errors[k] = error;
}

// Followers: a batch for a partition this broker no longer leads (an election while the
// request waited, or the partition went offline) is refused NOT_LEADER_OR_FOLLOWER; acks=all
// is refused before the append while the ISR is below min.insync.replicas.
void Engine::refuse_for_followers(Request& r, bool acks_all) {
  for (std::size_t k = 0; k < r.described.size(); ++k) {
    ProduceError refusal = ProduceError::kNone;
    if (!replication_->led_by(r.described[k].log, static_cast<std::int32_t>(r.broker))) {
      refusal = ProduceError::kNotLeaderOrFollower;
      replication_->count_error(refusal);
    } else if (acks_all && replication_->refuses(r.described[k].log)) refusal = ProduceError::kNotEnoughReplicas;
    if (refusal == ProduceError::kNone) continue;
    if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
    r.errors[k] = refusal;
  }
}

// Replication fixed: the ISR is the replicas on live brokers, so acks=all is refused
// NOT_ENOUGH_REPLICAS before the append while fewer of a partition's replicas are up than its
// effective min.insync.replicas (kafka-consumer-spec §9.2). The error is retriable: the
// producer retries until delivery.timeout.ms.
void Engine::refuse_under_min_isr(Request& r) {
  for (std::size_t k = 0; k < r.described.size(); ++k) {
    const std::size_t log = r.described[k].log;
    const auto topic = static_cast<std::size_t>(std::upper_bound(stats_offset_.begin(), stats_offset_.end(), log) -
                                                stats_offset_.begin() - 1);
    const std::int32_t min_isr = fixed_min_isr_[topic];
    if (min_isr <= 1) continue;
    std::int32_t live = 0;
    for (const std::int32_t b : leadership_.replicas(topic, static_cast<std::int32_t>(log - stats_offset_[topic])))
      live += up_[static_cast<std::size_t>(b)] ? 1 : 0;
    if (live >= min_isr) continue;
    if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
    if (r.errors[k] != ProduceError::kNone) continue;
    r.errors[k] = ProduceError::kNotEnoughReplicas;
    ++result().produce_errors.not_enough_replicas;
  }
}

// A batch refused before the append: below min.insync.replicas, or (followers) sent to a
// broker that does not lead its partition. An injected error that is not appended returns
// earlier.
bool Engine::refused(const Request& r, std::size_t k) const {
  return !r.errors.empty() &&
         (r.errors[k] == ProduceError::kNotEnoughReplicas || r.errors[k] == ProduceError::kNotLeaderOrFollower);
}

}  // namespace partsim::model::detail
