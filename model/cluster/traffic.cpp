#include "model/cluster/traffic.hpp"

#include <algorithm>
#include <utility>

#include "sim/check.hpp"

namespace partsim::model {

namespace {

constexpr const char* kKindNames[] = {"produce_request", "produce_response", "replication_fetch", "consumer_fetch",
                                      "migration_copy"};
static_assert(std::size(kKindNames) == static_cast<std::size_t>(Traffic::kCount));

}  // namespace

TrafficMeter::TrafficMeter(const Scenario& s, std::vector<std::string> client_racks, std::int64_t bridge,
                           const SimTime& clock)
    : s_(s), bridge_(bridge), clock_(clock) {
  std::vector<std::string> named;  // every endpoint's rack, "" for none
  for (const auto& b : s.brokers) named.push_back(b.rack);
  named.insert(named.end(), client_racks.begin(), client_racks.end());
  for (const auto& g : s.consumers) {
    if (g.racks.empty()) named.push_back(g.config.client_rack);
    named.insert(named.end(), g.racks.begin(), g.racks.end());
  }
  racks_ = named;
  std::sort(racks_.begin(), racks_.end(), [](const std::string& a, const std::string& b) {
    return a.empty() != b.empty() ? b.empty() : a < b;  // "" last
  });
  racks_.erase(std::unique(racks_.begin(), racks_.end()), racks_.end());
  for (const auto& b : s.brokers) broker_rack_.push_back(static_cast<std::uint32_t>(rack_index(b.rack)));
  for (const auto& c : client_racks) client_rack_.push_back(static_cast<std::uint32_t>(rack_index(c)));
  result_.racks = racks_;
  result_.racked = std::any_of(racks_.begin(), racks_.end(), [](const std::string& r) { return !r.empty(); });
  result_.replication_simulated = s.replication.followers();
  result_.cost_per_gb = s.cost_cross_rack_per_gb;
  for (const char* name : kKindNames) {
    TrafficKind& k = result_.kinds.emplace_back();
    k.name = name;
    k.matrix.assign(racks_.size() * racks_.size(), 0);
  }
}

std::size_t TrafficMeter::rack_index(const std::string& rack) const {
  const auto it = std::find(racks_.begin(), racks_.end(), rack);
  PARTSIM_CHECK(it != racks_.end(), "a rack the traffic meter was not given");
  return static_cast<std::size_t>(it - racks_.begin());
}

const std::string& TrafficMeter::member_rack(std::uint32_t group, std::int32_t member) const {
  const ConsumerGroupSpec& g = s_.consumers[group];
  return g.racks.empty() ? g.config.client_rack : g.racks[static_cast<std::size_t>(member) % g.racks.size()];
}

void TrafficMeter::add(Traffic kind, std::uint32_t from, std::uint32_t to, std::int64_t records_bytes,
                       std::int64_t framing) {
  // The rates are over the time the run moved records: an empty answer (a follower's fetch
  // that waited out replica.fetch.wait.max.ms once the producers are done) does not stretch it.
  if (records_bytes > 0 || kind == Traffic::kProduceResponse) last_ = std::max(last_, clock_);
  TrafficKind& k = result_.kinds[static_cast<std::size_t>(kind)];
  const std::int64_t bytes = records_bytes + framing;
  k.bytes += bytes;
  k.framing_bytes += framing;
  ++k.messages;
  k.matrix[std::size_t{from} * racks_.size() + to] += bytes;
  if (from != to && !racks_[from].empty() && !racks_[to].empty()) k.cross_rack_bytes += bytes;
}

void TrafficMeter::produce_request(std::uint32_t client, std::uint32_t broker, std::int64_t batch_bytes,
                                   std::int32_t batches, std::string_view topic) {
  const std::int64_t per_batch = batches > 0 ? batch_bytes / batches : 0;
  const std::int64_t framing =
      wire::kProduceRequest + wire::produce_topic(topic.size()) + batches * wire::produce_partition(per_batch);
  add(client == bridge_ ? Traffic::kMigrationCopy : Traffic::kProduceRequest, client_rack_[client],
      broker_rack_[broker], batch_bytes, framing);
}

void TrafficMeter::produce_response(std::uint32_t client, std::uint32_t broker, std::int32_t batches,
                                    std::string_view topic) {
  const std::int64_t framing =
      wire::kProduceResponse + wire::produce_topic(topic.size()) + batches * wire::kProduceResponsePartition;
  add(client == bridge_ ? Traffic::kMigrationCopy : Traffic::kProduceResponse, broker_rack_[broker],
      client_rack_[client], 0, framing);
}

void TrafficMeter::replication_fetch(std::uint32_t leader, std::uint32_t follower, std::int64_t records_bytes,
                                     std::int32_t partitions, std::int32_t topics) {
  const std::int64_t per_partition = partitions > 0 ? records_bytes / partitions : 0;
  const std::int64_t framing =
      wire::kFetchResponse + topics * wire::kFetchTopic + partitions * wire::fetch_partition(per_partition);
  add(Traffic::kReplicationFetch, broker_rack_[leader], broker_rack_[follower], records_bytes, framing);
}

void TrafficMeter::consumer_fetch(std::uint32_t group, std::int32_t member, std::uint32_t broker,
                                  std::int64_t records_bytes, std::int32_t partitions, std::int32_t topics) {
  const std::int64_t per_partition = partitions > 0 ? records_bytes / partitions : 0;
  const std::int64_t framing =
      wire::kFetchResponse + topics * wire::kFetchTopic + partitions * wire::fetch_partition(per_partition);
  add(Traffic::kConsumerFetch, broker_rack_[broker], static_cast<std::uint32_t>(rack_index(member_rack(group, member))),
      records_bytes, framing);
}

void TrafficMeter::migration_read(std::uint32_t broker, std::int64_t bytes) {
  // The bridge's consumer reads the records: their bytes, without a fetch's framing (the
  // bridge's reads are not fetches in the model).
  PARTSIM_CHECK(bridge_ >= 0, "a migration read without a bridge");
  add(Traffic::kMigrationCopy, broker_rack_[broker], client_rack_[static_cast<std::size_t>(bridge_)], bytes, 0);
}

TrafficResult TrafficMeter::finish(bool partial) const {
  TrafficResult r = result_;
  // A run of run.duration.ms: the workload's time, so that bytes a slower path moves after it
  // (consumers catching up, a follower's late high watermark) count at the workload's rate
  // rather than diluting it. A run that may stop before it (a record count, the run's or a
  // producer's) or was interrupted: up to the last message that moved records.
  const bool by_records = s_.run.records || std::any_of(s_.producers.begin(), s_.producers.end(),
                                                        [](const auto& p) { return p.workload.records.has_value(); });
  const bool timed = s_.run.duration && !by_records && !partial;
  r.seconds = (timed ? *s_.run.duration : last_).to_ms() / 1000;
  return r;
}

}  // namespace partsim::model
