// Consumer groups in the engine's event loop: each group is a part with a queue of its own
// (consumer::GroupRunner) that the loop steps between its own events, and the engine is its
// FetchPath. Its fetches are the FetchServer's (fetch_server.hpp), which the engine serves
// in the brokers' queues beside produce requests and whose answers it hands to the groups.

#include <algorithm>

#include "model/detail/consumer_run.hpp"
#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::start_groups() {
  if (s_.consumers.empty()) return;
  consume_in_ = consume_inputs(s_, options_);
  consume_in_.logs = leaders_->logs().get();
  log_topic_.assign(result().partitions.size(), 0);
  for (std::size_t t = 0; t < stats_offset_.size(); ++t)
    for (std::size_t row = stats_offset_[t]; row < log_topic_.size(); ++row)
      log_topic_[row] = static_cast<std::int32_t>(t);
  for (const auto& b : s_.brokers) result().consumer_fetches.push_back({.broker = b.id});
  fetch_server_.emplace(*leaders_->logs(), result().partitions, s_.consumers, connections_, result().consumer_fetches,
                        *this);
  for (std::uint32_t g = 0; g < s_.consumers.size(); ++g)
    groups_.push_back(std::make_unique<consumer::GroupRunner>(g, s_.consumers[g], s_.group_coordinator, consume_in_,
                                                              *this));
  for (auto& g : groups_) g->start();
}

void Engine::finish_groups() {
  for (auto& g : groups_) add_group_run(result(), g->finish());
}

std::int32_t Engine::leader(std::int32_t log) const {
  const auto t = static_cast<std::size_t>(log_topic_[static_cast<std::size_t>(log)]);
  const std::size_t partition = static_cast<std::size_t>(log) - stats_offset_[t];
  const auto leaders = leadership_.leaders(t);
  return partition < leaders.size() ? leaders[partition] : -1;
}

// Records may still come, or become readable: a producer runs on, or (followers) records
// above the high watermark wait for followers that still fetch or brokers that may recover.
bool Engine::logs_growing() const {
  if (!quiet()) return true;
  if (!replication_ || (replication_steps_ == 0 && broker_steps_left_ == 0)) return false;
  return leaders_->unreplicated();
}

void Engine::send_fetch(std::uint32_t group, std::int32_t member, std::int32_t broker,
                        std::vector<consumer::FetchRequestPartition> request, SimTime at) {
  fetch_server_->send(group, member, static_cast<std::uint32_t>(broker), std::move(request), at);
}

void Engine::operator()(const ConsumerFetchArrive& e) { fetch_server_->arrived(e.fetch, now()); }
void Engine::operator()(const ConsumerFetchDue& e) { fetch_server_->due(e.fetch, e.generation, now()); }

void Engine::queue_at_broker(std::uint64_t fetch, std::uint32_t broker, std::uint32_t connection,
                             std::int32_t partitions) {
  if (const auto started = brokers_[broker].arrive(fetch, connection, 0, partitions, now()))
    start_service(broker, *started);
}

void Engine::answer_sent(std::uint32_t broker, std::uint32_t connection) {
  BrokerService& b = brokers_[broker];
  if (!b.threaded()) return;
  if (const auto next = b.response_sent(connection, now(), [this](std::uint64_t r) { return request_live(r); }))
    start_service(broker, *next);
}

void Engine::answered(std::uint32_t group, std::int32_t member, std::int32_t broker,
                      std::optional<std::vector<std::int64_t>> counts, SimTime at) {
  group_woken_ = true;
  groups_[group]->fetch_answered(member, broker, std::move(counts), at);
}

// Records of `log` were appended or became readable: an idle member that owns it without a
// fetch at its leader (it had read everything there was) fetches it, and a fetch parked on
// it may be answered sooner than it was due.
void Engine::readable_changed(std::size_t log) {
  if (migration_) migration_->readable_changed(log, now());
  if (groups_.empty()) return;
  for (auto& g : groups_)
    if (g->records_arrived(static_cast<std::int32_t>(log), now())) group_woken_ = true;
  fetch_server_->readable_changed(log, now());
}

void Engine::leaders_changed() {
  if (fetch_server_) fetch_server_->leaders_changed(now());
}

}  // namespace partsim::model::detail
