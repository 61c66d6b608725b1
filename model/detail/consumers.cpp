#include "model/detail/consumers.hpp"

#include <algorithm>

#include "model/detail/consumer_run.hpp"

namespace partsim::model::detail {

Consumers::Consumers(const Scenario& s, const RunOptions& options, const BrokerLogs& logs, RunResult& result,
                     std::span<const std::size_t> first_log, const Leadership& leadership, Network& network,
                     EventLoop& loop, ConsumersHost& host, TrafficMeter* traffic, const Replication* replication)
    : s_(s),
      result_(result),
      first_log_(first_log),
      leadership_(leadership),
      network_(network),
      loop_(loop),
      host_(host),
      traffic_(traffic),
      replication_(replication),
      in_(consume_inputs(s, options)),
      log_topic_(result.partitions.size(), 0),
      fetches_(logs, result.partitions, s.consumers, network.connections(), result.consumer_fetches, *this) {
  in_.logs = &logs;
  for (std::size_t t = 0; t < first_log_.size(); ++t)
    for (std::size_t row = first_log_[t]; row < log_topic_.size(); ++row)
      log_topic_[row] = static_cast<std::int32_t>(t);
  for (const auto& b : s.brokers) result.consumer_fetches.push_back({.broker = b.id});
}

void Consumers::start() {
  for (std::uint32_t g = 0; g < s_.consumers.size(); ++g)
    groups_.push_back(std::make_unique<consumer::GroupRunner>(g, s_.consumers[g], s_.group_coordinator, in_, *this));
  for (auto& g : groups_) g->start();
}

SimTime Consumers::next_time() const {
  SimTime next = SimTime::max();
  for (const auto& g : groups_) next = std::min(next, g->next_time());
  return next;
}

void Consumers::step() {
  std::size_t first = groups_.size();
  SimTime next = SimTime::max();
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (const SimTime t = groups_[g]->next_time(); t < next) {
      next = t;
      first = g;
    }
  if (first < groups_.size()) groups_[first]->step();
}

void Consumers::finish() {
  for (auto& g : groups_) add_group_run(result_, g->finish());
}

std::int32_t Consumers::leader(std::int32_t log) const {
  const auto t = static_cast<std::size_t>(log_topic_[static_cast<std::size_t>(log)]);
  const std::size_t partition = static_cast<std::size_t>(log) - first_log_[t];
  const auto leaders = leadership_.leaders(t);
  return partition < leaders.size() ? leaders[partition] : -1;
}

void Consumers::send_fetch(std::uint32_t group, std::int32_t member, std::int32_t broker,
                           std::vector<consumer::FetchRequestPartition> request, SimTime at) {
  fetches_.send(group, member, static_cast<std::uint32_t>(broker), std::move(request), at);
}

void Consumers::answered(std::uint32_t group, std::int32_t member, std::int32_t broker,
                         std::optional<std::vector<std::int64_t>> counts, std::vector<std::int32_t> read_replicas,
                         SimTime at) {
  woken_ = true;
  groups_[group]->fetch_answered(member, broker, std::move(counts), at, std::move(read_replicas));
}

void Consumers::answer_traffic(std::uint32_t group, std::int32_t member, std::uint32_t broker, std::int64_t bytes,
                               std::span<const std::int32_t> logs) {
  if (!traffic_) return;
  // The answer's topics, each once however its partitions are ordered (a few topics: a short list).
  std::vector<std::int32_t> topics;
  for (const std::int32_t log : logs)
    if (const std::int32_t t = log_topic_[static_cast<std::size_t>(log)];
        std::find(topics.begin(), topics.end(), t) == topics.end())
      topics.push_back(t);
  traffic_->consumer_fetch(group, member, broker, bytes, static_cast<std::int32_t>(logs.size()),
                           static_cast<std::int32_t>(topics.size()));
}

// An idle member that owns `log` without a fetch at its leader (it had read everything there
// was) fetches it, and a fetch parked on it may be answered sooner than it was due.
void Consumers::readable_changed(std::size_t log, SimTime now) {
  for (auto& g : groups_)
    if (g->records_arrived(static_cast<std::int32_t>(log), now)) woken_ = true;
  fetches_.readable_changed(log, now);
}

// A KIP-848 coordinator learns of new partitions at once, a classic group's leader at its
// next refresh.
void Consumers::partitions_added(std::size_t topic, std::int32_t partitions, SimTime now) {
  for (auto& g : groups_) g->partitions_added(topic, partitions, now);
  woken_ = !groups_.empty();
}

}  // namespace partsim::model::detail
