// Consumer groups in the engine's event loop: each group is a part with a queue of its own
// (consumer::GroupRunner) that the loop steps between its own events, and the engine is its
// FetchPath. A member's fetch travels to its partitions' leader (half the broker's rtt.ms),
// waits in the broker's queue and is served like a produce request (request.ms + batch.ms
// per partition it reads, on the broker's threads and host), then parks until
// fetch.min.bytes are readable or fetch.max.wait.ms passed, and its answer travels back
// (kafka-consumer-spec §4.2-4.3). A record is readable once the high watermark passes it:
// with followers, once they have it.

#include <algorithm>

#include "model/detail/consumer_run.hpp"
#include "model/detail/engine.hpp"

namespace partsim::model::detail {

void Engine::start_groups() {
  if (s_.consumers.empty() || s_.migration) return;  // a migration's groups are replayed after it
  consume_in_ = consume_inputs(s_, options_);
  consume_in_.logs = logs_.get();
  log_topic_.assign(result().partitions.size(), 0);
  for (std::size_t t = 0; t < stats_offset_.size(); ++t)
    for (std::size_t row = stats_offset_[t]; row < log_topic_.size(); ++row)
      log_topic_[row] = static_cast<std::int32_t>(t);
  parked_on_.resize(result().partitions.size());
  fetch_record_bytes_.assign(result().partitions.size(), 1.0);
  for (const auto& b : s_.brokers) result().consumer_fetches.push_back({.broker = b.id});
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
  return std::any_of(unreplicated_.begin(), unreplicated_.end(), [](const auto& u) { return !u.empty(); });
}

void Engine::send_fetch(std::uint32_t group, std::int32_t member, std::int32_t broker,
                        std::vector<consumer::FetchRequestPartition> request, SimTime at) {
  const auto b = static_cast<std::uint32_t>(broker);
  const std::uint64_t id = kConsumerFetch | next_fetch_++;
  ConsumerFetch f;
  f.group = group;
  f.member = member;
  f.broker = b;
  f.epoch = brokers_[b].epoch();
  f.connection = connections_.consumer(group, member, b);  // opened at its first fetch and after a failure
  f.request = std::move(request);
  fetches_.emplace(id, std::move(f));
  sim_.schedule_at(at + brokers_[b].one_way(), ConsumerFetchArrive{id});
}

void Engine::operator()(const ConsumerFetchArrive& e) {
  const auto it = fetches_.find(e.fetch);
  if (it == fetches_.end()) return;
  ConsumerFetch& f = it->second;
  BrokerService& b = brokers_[f.broker];
  if (!b.up() || b.epoch() != f.epoch) {  // down, or failed since it was sent: the connection is lost
    fail_fetch(e.fetch, now() + b.one_way());
    return;
  }
  f.at_broker = true;
  if (const auto started = b.arrive(e.fetch, f.connection, 0, static_cast<std::int32_t>(f.request.size()), now()))
    start_service(f.broker, *started);
}

// The broker has read the fetch: answered now when fetch.min.bytes are readable, else parked.
void Engine::consumer_fetch_served(std::uint64_t id) {
  ConsumerFetch& f = fetches_.at(id);
  f.served = now();
  const consumer::FetchAnswer a = evaluate_fetch(f);
  // Answered at once when fetch.min.bytes are readable, or with an error (a partition this
  // broker does not lead: NOT_LEADER_OR_FOLLOWER).
  const bool not_leader = std::any_of(f.request.begin(), f.request.end(), [&](const auto& p) {
    return leader(p.log) != static_cast<std::int32_t>(f.broker);
  });
  if (a.at <= now() || not_leader) {
    answer_fetch_now(id);
    return;
  }
  f.due = a.at;
  ++f.generation;
  sim_.schedule_at(f.due, ConsumerFetchDue{id, f.generation});
  for (const auto& p : f.request) parked_on_[static_cast<std::size_t>(p.log)].push_back(id);
}

consumer::FetchAnswer Engine::evaluate_fetch(const ConsumerFetch& f) {
  // A record's size is its partition's mean wire bytes so far (the logs carry no sizes).
  for (const auto& p : f.request) {
    const PartitionStats& ps = result().partitions[static_cast<std::size_t>(p.log)];
    fetch_record_bytes_[static_cast<std::size_t>(p.log)] =
        ps.records > 0 ? std::max(1.0, static_cast<double>(ps.bytes) / static_cast<double>(ps.records)) : 1.0;
  }
  return consumer::answer_fetch(*logs_, fetch_record_bytes_, f.request, f.served, s_.consumers[f.group].config);
}

void Engine::operator()(const ConsumerFetchDue& e) {
  const auto it = fetches_.find(e.fetch);
  if (it == fetches_.end() || it->second.generation != e.generation) return;
  answer_fetch_now(e.fetch);
}

void Engine::answer_fetch_now(std::uint64_t id) {
  unpark(id);
  ConsumerFetch f = std::move(fetches_.at(id));
  fetches_.erase(id);
  const consumer::FetchAnswer a = evaluate_fetch(f);
  std::vector<std::int64_t> counts = a.counts;
  // A partition this broker no longer leads answers NOT_LEADER_OR_FOLLOWER: no records (the
  // member's next fetch goes to the new leader, which the error names: KIP-951).
  std::int64_t records = 0;
  for (std::size_t i = 0; i < f.request.size(); ++i) {
    // Answered before the records it would return at its due time are readable (a leader
    // change ends its wait): only what is readable now.
    if (a.at > now())
      counts[i] = std::clamp<std::int64_t>(
          consumer::high_watermark(logs_->partitions[static_cast<std::size_t>(f.request[i].log)], now()) -
              f.request[i].from,
          0, counts[i]);
    if (leader(f.request[i].log) != static_cast<std::int32_t>(f.broker)) counts[i] = 0;
    records += counts[i];
  }
  BrokerFetches& stats = result().consumer_fetches[f.broker];
  ++stats.fetches;
  stats.records += records;
  stats.empty += records == 0 ? 1 : 0;
  stats.queue_wait_ms_sum += f.waited.to_ms();
  stats.parked_ms_sum += (now() - f.served).to_ms();
  BrokerService& b = brokers_[f.broker];
  group_woken_ = true;
  groups_[f.group]->fetch_answered(f.member, static_cast<std::int32_t>(f.broker), std::move(counts),
                                   now() + b.one_way());
  // Threaded: the connection was muted from the read until the response is sent.
  if (b.threaded())
    if (const auto next = b.response_sent(f.connection, now(), [this](std::uint64_t r) { return request_live(r); }))
      start_service(f.broker, *next);
}

void Engine::fail_fetch(std::uint64_t id, SimTime noticed) {
  unpark(id);
  const ConsumerFetch f = std::move(fetches_.at(id));
  fetches_.erase(id);
  connections_.drop_consumer(f.group, f.member, f.broker);
  ++result().consumer_fetches[f.broker].failed;
  group_woken_ = true;
  groups_[f.group]->fetch_answered(f.member, static_cast<std::int32_t>(f.broker), std::nullopt,
                                   noticed + consumer::kMetadataRetry);
}

void Engine::unpark(std::uint64_t id) {
  ConsumerFetch& f = fetches_.at(id);
  if (f.due == SimTime::max()) return;
  for (const auto& p : f.request) std::erase(parked_on_[static_cast<std::size_t>(p.log)], id);
  f.due = SimTime::max();
}

// Records of `log` were appended or became readable: a fetch parked on it may be answered
// sooner than it was due (the purgatory's check when a partition's high watermark moves),
// and an idle member that owns it without a fetch at its leader (it had read everything
// there was) fetches it.
void Engine::readable_changed(std::size_t log) {
  if (groups_.empty()) return;
  for (auto& g : groups_)
    if (g->records_arrived(static_cast<std::int32_t>(log), now())) group_woken_ = true;
  if (parked_on_[log].empty()) return;
  for (const std::uint64_t id : parked_on_[log]) {
    ConsumerFetch& f = fetches_.at(id);
    const SimTime at = std::max(now(), evaluate_fetch(f).at);
    if (at >= f.due) continue;
    f.due = at;
    ++f.generation;
    sim_.schedule_at(at, ConsumerFetchDue{id, f.generation});
  }
}

// Leaders moved: a parked fetch of a partition its broker no longer leads is answered now.
void Engine::leaders_changed() {
  std::vector<std::uint64_t> moved;
  for (const auto& [id, f] : fetches_)
    if (f.due != SimTime::max() && std::any_of(f.request.begin(), f.request.end(), [&](const auto& p) {
          return leader(p.log) != static_cast<std::int32_t>(f.broker);
        }))
      moved.push_back(id);
  for (const std::uint64_t id : moved) answer_fetch_now(id);
}

// A broker failed: the fetches it held (queued, in service or parked) are lost with their
// connections; their members notice half a round trip later.
void Engine::fail_fetches_at(std::uint32_t broker) {
  std::vector<std::uint64_t> lost;
  for (const auto& [id, f] : fetches_)
    if (f.broker == broker && f.at_broker) lost.push_back(id);
  for (const std::uint64_t id : lost) fail_fetch(id, now() + brokers_[broker].one_way());
  connections_.drop_consumers_at(broker);  // every member's connection to it is gone
}

}  // namespace partsim::model::detail
