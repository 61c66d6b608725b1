#include "model/migration/bridge.hpp"

#include <algorithm>
#include <cmath>

#include "model/partitioners/key_hash.hpp"
#include "sim/check.hpp"

namespace partsim::model::migration {

NewTopic::NewTopic(const Scenario& s, std::int32_t partitions, double record_bytes,
                   const std::vector<std::string>& keys, std::uint64_t seed, std::uint64_t replication)
    : partitions_(partitions), record_bytes_(record_bytes), keys_(keys) {
  PARTSIM_CHECK(partitions > 0 && !s.brokers.empty(), "a new topic needs partitions and brokers");
  const sim::RandomStreams streams(seed, replication);
  brokers_.reserve(s.brokers.size());
  for (const auto& b : s.brokers)
    brokers_.emplace_back(b, streams.stream("migration/broker/" + std::to_string(b.id) + "/jitter"));
}

std::int32_t NewTopic::partition_of(std::int32_t key, std::size_t index) const {
  if (key < 0) return static_cast<std::int32_t>(index % static_cast<std::size_t>(partitions_));
  return partition_for_key(keys_[static_cast<std::size_t>(key)], partitions_);
}

Write NewTopic::send(std::size_t source, std::int32_t partition, SimTime at) {
  BrokerService& b = brokers_[static_cast<std::size_t>(partition) % brokers_.size()];
  const auto bytes = static_cast<std::int64_t>(std::llround(record_bytes_));
  Write w;
  w.source = source;
  w.partition = partition;
  w.append = at + b.one_way() + b.service_time(bytes, 1) + b.draw_jitter();
  w.ack = w.append + b.one_way() + b.replication();
  return w;
}

namespace {

/// The end of simulated time a bridge's pace may reach (the loader's 1e12 ms), far inside
/// int64 nanoseconds so that the writes' later times stay representable.
constexpr std::int64_t kLastNs = 1'000'000'000'000'000'000;

}  // namespace

SimTime paced(SimTime start, std::size_t j, double records_per_second) {
  const double ns = std::ceil(static_cast<double>(j) * 1e9 / records_per_second);
  if (!(ns < static_cast<double>(kLastNs - start.count_ns()))) return SimTime::ns(std::max(kLastNs, start.count_ns()));
  return start + SimTime::ns(static_cast<std::int64_t>(ns));
}

std::vector<Write> run_bridge(const std::vector<Source>& sources, const std::vector<std::size_t>& order,
                              const BridgeSpec& spec, SimTime start, NewTopic& topic,
                              const std::vector<std::string>& keys) {
  const auto threads = static_cast<std::size_t>(spec.threads);
  std::vector<SimTime> free(threads, start);
  std::vector<Write> writes;
  writes.reserve(order.size());
  for (std::size_t j = 0; j < order.size(); ++j) {
    const Source& r = sources[order[j]];
    std::size_t thread = j % threads;
    if (spec.route == BridgeSpec::Route::kByKey && r.key >= 0)
      thread = static_cast<std::size_t>(to_positive(murmur2(keys[static_cast<std::size_t>(r.key)]))) % threads;
    SimTime at = std::max({start, r.readable, free[thread]});
    if (spec.records_per_second > 0) at = std::max(at, paced(start, j, spec.records_per_second));
    Write w = topic.send(order[j], topic.partition_of(r.key, j), at);
    free[thread] = w.ack;
    writes.push_back(w);
  }
  return writes;
}

}  // namespace partsim::model::migration
