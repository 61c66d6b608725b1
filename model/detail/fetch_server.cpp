#include "model/detail/fetch_server.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/consumer/consumer_simulation.hpp"

namespace partsim::model::detail {

FetchServer::FetchServer(const BrokerLogs& logs, const std::vector<PartitionStats>& partitions,
                         std::span<const ConsumerGroupSpec> groups, Connections& connections,
                         std::vector<BrokerFetches>& stats, FetchServerHost& host)
    : logs_(logs),
      partitions_(partitions),
      groups_(groups),
      connections_(connections),
      stats_(stats),
      host_(host),
      parked_on_(partitions.size()),
      record_bytes_(partitions.size(), 1.0) {}

void FetchServer::send(std::uint32_t group, std::int32_t member, std::uint32_t broker,
                       std::vector<consumer::FetchRequestPartition> request, SimTime now) {
  const std::uint64_t id = kFetchBit | next_++;
  Fetch f;
  f.group = group;
  f.member = member;
  f.broker = broker;
  f.epoch = host_.broker_epoch(broker);
  f.connection = connections_.consumer(group, member, broker);  // opened at its first fetch and after a failure
  f.request = std::move(request);
  for (const auto& p : f.request) f.leaders.push_back(host_.leader(p.log));
  // The member's client.rack rides in every fetch (FetchRequest v11+, KIP-392).
  const ConsumerGroupSpec& g = groups_[group];
  f.rack = g.racks.empty() ? &g.config.client_rack : &g.racks[static_cast<std::size_t>(member) % g.racks.size()];
  fetches_.emplace(id, std::move(f));
  host_.schedule_arrival(id, now + host_.one_way(broker));
}

void FetchServer::arrived(std::uint64_t id, SimTime now) {
  const auto it = fetches_.find(id);
  if (it == fetches_.end()) return;
  Fetch& f = it->second;
  if (!host_.broker_up(f.broker) || host_.broker_epoch(f.broker) != f.epoch) {
    // Down, or failed since it was sent: the connection is lost.
    fail(id, now + host_.one_way(f.broker));
    return;
  }
  f.at_broker = true;
  host_.queue_at_broker(id, f.broker, f.connection, static_cast<std::int32_t>(f.request.size()));
}

void FetchServer::started(std::uint64_t id, SimTime waited) {
  if (const auto it = fetches_.find(id); it != fetches_.end()) it->second.waited = waited;
}

FetchServer::Role FetchServer::role(const Fetch& f, std::size_t i) const {
  const std::int32_t log = f.request[i].log;
  const std::int32_t leader = host_.leader(log);
  // The fetch carries the leader epoch the member knew: a leader change since fences it
  // wherever it is read (FENCED_LEADER_EPOCH; the member refreshes its metadata), at a
  // follower and at a new leader alike.
  if (leader < 0 || leader != f.leaders[i]) return Role::kNone;
  if (leader == static_cast<std::int32_t>(f.broker)) return Role::kLeader;
  return host_.follower_readable(log, f.broker) ? Role::kFollower : Role::kNone;
}

bool FetchServer::serves_all(const Fetch& f) const {
  for (std::size_t i = 0; i < f.request.size(); ++i)
    if (role(f, i) == Role::kNone) return false;
  return true;
}

bool FetchServer::redirects(const Fetch& f) const {
  if (f.rack->empty()) return false;
  for (std::size_t i = 0; i < f.request.size(); ++i)
    if (role(f, i) == Role::kLeader && host_.read_replica(f.request[i].log, *f.rack) >= 0) return true;
  return false;
}

void FetchServer::served(std::uint64_t id, SimTime now) {
  Fetch& f = fetches_.at(id);
  f.served = now;
  const consumer::FetchAnswer a = evaluate(f);
  // Answered at once when fetch.min.bytes are readable, with an error (a partition this
  // broker does not lead: NOT_LEADER_OR_FOLLOWER), or naming a preferred read replica
  // (ReplicaManager.fetchMessages).
  if (a.at <= now || !serves_all(f) || redirects(f)) {
    answer(id, now);
    return;
  }
  f.due = a.at;
  ++f.generation;
  host_.schedule_due(id, f.generation, f.due);
  for (const auto& p : f.request) parked_on_[static_cast<std::size_t>(p.log)].push_back(id);
}

consumer::FetchAnswer FetchServer::evaluate(const Fetch& f) {
  // A record's size is its partition's mean wire bytes so far (the logs carry no sizes).
  for (const auto& p : f.request) {
    const PartitionStats& ps = partitions_[static_cast<std::size_t>(p.log)];
    record_bytes_[static_cast<std::size_t>(p.log)] =
        ps.records > 0 ? std::max(1.0, static_cast<double>(ps.bytes) / static_cast<double>(ps.records)) : 1.0;
  }
  // A follower returns only what is below the high watermark it learnt (KIP-392).
  bool limited = false;
  limits_.assign(f.request.size(), std::numeric_limits<std::int64_t>::max());
  for (std::size_t i = 0; i < f.request.size(); ++i) {
    const Role r = role(f, i);
    if (r == Role::kLeader) continue;
    limited = true;
    limits_[i] = r == Role::kFollower ? *host_.follower_readable(f.request[i].log, f.broker) : 0;
  }
  return consumer::answer_fetch(logs_, record_bytes_, f.request, f.served, groups_[f.group].config,
                                limited ? &limits_ : nullptr);
}

void FetchServer::due(std::uint64_t id, std::uint32_t generation, SimTime now) {
  const auto it = fetches_.find(id);
  if (it == fetches_.end() || it->second.generation != generation) return;
  answer(id, now);
}

void FetchServer::answer(std::uint64_t id, SimTime now) {
  unpark(id);
  Fetch f = std::move(fetches_.at(id));
  fetches_.erase(id);
  const consumer::FetchAnswer a = evaluate(f);
  std::vector<std::int64_t> counts = a.counts;
  // A partition this broker no longer leads answers NOT_LEADER_OR_FOLLOWER: no records (the
  // member's next fetch goes to the new leader, which the error names: KIP-951).
  std::int64_t records = 0;
  double bytes = 0;
  std::vector<std::int32_t> carried;  // the partitions with records
  std::vector<std::int32_t> read_replicas;
  BrokerFetches& stats = stats_[f.broker];
  bool as_follower = false;
  const auto say = [&](std::size_t i, std::int32_t replica) {
    if (read_replicas.empty()) read_replicas.assign(f.request.size(), consumer::kSameReplica);
    read_replicas[i] = replica;
  };
  for (std::size_t i = 0; i < f.request.size(); ++i) {
    // Answered before the records it would return at its due time are readable (a leader
    // change ends its wait): only what is readable now.
    if (a.at > now)
      counts[i] = std::clamp<std::int64_t>(
          consumer::high_watermark(logs_.partitions[static_cast<std::size_t>(f.request[i].log)], now) -
              f.request[i].from,
          0, counts[i]);
    switch (role(f, i)) {
      case Role::kLeader:
        // KIP-392: the leader names the member's read replica; the answer carries no records of it.
        if (const std::int32_t replica = f.rack->empty() ? -1 : host_.read_replica(f.request[i].log, *f.rack);
            replica >= 0) {
          counts[i] = 0;
          say(i, replica);
          ++stats.redirected;
        }
        break;
      case Role::kFollower: as_follower = true; break;
      case Role::kNone:
        counts[i] = 0;
        say(i, consumer::kNotReplica);
        break;
    }
    records += counts[i];
    if (counts[i] == 0) continue;
    bytes += static_cast<double>(counts[i]) * record_bytes_[static_cast<std::size_t>(f.request[i].log)];
    carried.push_back(f.request[i].log);
  }
  ++stats.fetches;
  stats.as_follower += as_follower ? 1 : 0;
  stats.records += records;
  stats.bytes += std::llround(bytes);
  stats.empty += records == 0 ? 1 : 0;
  stats.queue_wait_ms_sum += f.waited.to_ms();
  stats.parked_ms_sum += (now - f.served).to_ms();
  host_.answer_traffic(f.group, f.member, f.broker, std::llround(bytes), carried);
  host_.answered(f.group, f.member, static_cast<std::int32_t>(f.broker), std::move(counts), std::move(read_replicas),
                 host_.answer_leaves(f.broker, std::llround(bytes), now) + host_.one_way(f.broker));
  // Threaded: the connection was muted from the read until the answer is sent.
  host_.answer_sent(f.broker, f.connection);
}

void FetchServer::fail(std::uint64_t id, SimTime noticed) {
  unpark(id);
  const Fetch f = std::move(fetches_.at(id));
  fetches_.erase(id);
  connections_.drop_consumer(f.group, f.member, f.broker);
  ++stats_[f.broker].failed;
  host_.answered(f.group, f.member, static_cast<std::int32_t>(f.broker), std::nullopt, {},
                 noticed + consumer::kMetadataRetry);
}

void FetchServer::unpark(std::uint64_t id) {
  Fetch& f = fetches_.at(id);
  if (f.due == SimTime::max()) return;
  for (const auto& p : f.request) std::erase(parked_on_[static_cast<std::size_t>(p.log)], id);
  f.due = SimTime::max();
}

void FetchServer::readable_changed(std::size_t log, SimTime now) {
  for (const std::uint64_t id : parked_on_[log]) {
    Fetch& f = fetches_.at(id);
    const SimTime at = std::max(now, evaluate(f).at);
    if (at >= f.due) continue;
    f.due = at;
    ++f.generation;
    host_.schedule_due(id, f.generation, at);
  }
}

void FetchServer::leaders_changed(SimTime now) {
  std::vector<std::uint64_t> moved;
  for (const auto& [id, f] : fetches_)
    if (f.due != SimTime::max() && !serves_all(f)) moved.push_back(id);
  for (const std::uint64_t id : moved) answer(id, now);
}

void FetchServer::broker_failed(std::uint32_t broker, SimTime now) {
  std::vector<std::uint64_t> lost;
  for (const auto& [id, f] : fetches_)
    if (f.broker == broker && f.at_broker) lost.push_back(id);
  for (const std::uint64_t id : lost) fail(id, now + host_.one_way(broker));
  connections_.drop_consumers_at(broker);  // every member's connection to it is gone
}

}  // namespace partsim::model::detail
