#include "model/detail/network.hpp"

#include <algorithm>

#include "model/cluster/traffic.hpp"

#include <utility>

namespace partsim::model::detail {

Connections::Connections(std::uint32_t producers, std::size_t brokers) : brokers_(brokers), next_(brokers, producers) {
  for (std::uint32_t p = 0; p < producers; ++p) producer_.insert(producer_.end(), brokers, p);
}

std::uint32_t Connections::consumer(std::uint32_t group, std::int32_t member, std::size_t broker) {
  const auto [it, opened] = consumer_.try_emplace({group, member, broker}, 0);
  if (opened) it->second = next_[broker]++;
  return it->second;
}

void Connections::drop_consumers_at(std::size_t broker) {
  std::erase_if(consumer_, [broker](const auto& c) { return std::get<2>(c.first) == broker; });
}

std::optional<Connections::Muted> Connections::settled(std::uint64_t request) {
  const auto it = muted_.find(request);
  if (it == muted_.end()) return std::nullopt;
  const Muted m = it->second;
  muted_.erase(it);
  return m;
}

// ---- the serve path -----------------------------------------------------------------------------

Network::Network(std::vector<BrokerService> brokers, std::uint32_t clients, bool fixed_replication, EventLoop& loop,
                 NetworkHost& host, BrokerLinks links)
    : brokers_(std::move(brokers)),
      connections_(clients, brokers_.size()),
      fixed_replication_(fixed_replication),
      loop_(loop),
      host_(host),
      links_(std::move(links)) {}

std::uint64_t Network::send(std::uint32_t producer, std::uint32_t broker, std::int64_t bytes, std::int32_t batches,
                            bool live, bool acks_all, bool idempotent) {
  const std::uint64_t id = requests_.add(producer, broker, bytes, batches, live, acks_all, idempotent);
  requests_.find(id)->connection = connections_.producer(producer, broker);
  // Through the broker's inbound link (the producers' own links are not limited), in order on
  // its connection: a small request does not overtake a large one sent before it.
  SimTime at = now() + brokers_[broker].one_way();
  if (links_.limited())
    at = in_order(arrive_after_, broker, requests_.find(id)->connection, links_.receive(broker, bytes, at));
  loop_.schedule_at(at, RequestArrive{id});
  return id;
}

void Network::operator()(const RequestArrive& e) {
  Request* r = requests_.find(e.request);
  if (!r) return;
  BrokerService& b = brokers_[r->broker];
  if (!b.up()) {
    if (!r->live) requests_.erase(e.request);  // acks=0 request lost with the broker
    return;
  }
  host_.request_arrived(r->broker);
  const std::uint32_t broker = r->broker;
  if (const auto started = b.arrive(e.request, r->connection, r->bytes, r->batches, now())) start(broker, *started);
}

void Network::start(std::uint32_t broker, const BrokerService::Started& s) {
  loop_.schedule_at(s.done_at, BrokerDone{broker, brokers_[broker].epoch(), s.request, s.connection});
  if (is_fetch(s.request)) host_.fetch_started(s.request, s.waited);
  else host_.request_started(broker, s.waited, requests_.find(s.request));
}

void Network::operator()(const BrokerDone& e) {
  BrokerService& b = brokers_[e.broker];
  if (b.epoch() != e.epoch) return;  // the broker failed while serving this request or fetch
  const auto live = [this](std::uint64_t id) { return this->live(id); };
  if (is_fetch(e.request)) {
    host_.fetch_served(e.request, now());
    if (const auto next = b.finish(now(), live)) start(e.broker, *next);
    return;
  }
  SimTime replicated = SimTime::zero();
  bool answered = false, awaits_followers = false;
  if (Request* r = requests_.find(e.request)) {
    // acks=all waits for the slowest in-sync follower: a broker property (replication
    // fixed), or the followers' fetches (the host answers through acks_settled, when the
    // high watermark covers the batches). The high watermark passes the records then, as
    // the response leaves.
    replicated = fixed_replication_ && r->acks_all ? b.replication() : SimTime::zero();
    const bool waits = host_.serve(e.request, *r, b.draw_error(), now(), now() + replicated);
    if (!r->live) {
      requests_.erase(e.request);
    } else if (waits) {
      awaits_followers = true;  // answered by acks_settled
    } else {
      answered = true;
      respond(e.request, *r, now() + replicated);
    }
  }
  if (const auto next = b.finish(now(), live)) start(e.broker, *next);
  if (!b.threaded()) return;
  // The connection stays muted until its response is sent: after acks=all's wait (fixed,
  // or until the followers settle it), or now (acks=0 and requests given up send none).
  if (awaits_followers) {
    connections_.mute_until_settled(e.request, {e.broker, b.epoch(), e.connection});
  } else if (answered && replicated > SimTime::zero()) {
    loop_.schedule_at(now() + replicated, ResponseSent{e.broker, b.epoch(), e.connection});
  } else if (const auto read = b.response_sent(e.connection, now(), live)) {
    start(e.broker, *read);
  }
}

// The response leaves through the broker's outbound link (ProduceResponse's size, wire in
// traffic.hpp), handed to it now and gone no sooner than `ready` (fixed replication's
// wait), then travels half a round trip; in order on its connection.
void Network::respond(std::uint64_t id, const Request& r, SimTime ready) {
  SimTime at = ready + brokers_[r.broker].one_way();
  if (links_.limited()) {
    const std::int64_t bytes = wire::kProduceResponse + wire::kProduceResponsePartition * r.batches;
    const SimTime gone = std::max(ready, links_.send(r.broker, bytes, now()));
    at = in_order(respond_after_, r.broker, r.connection, gone + brokers_[r.broker].one_way());
  }
  loop_.schedule_at(at, ResponseArrive{id});
  host_.responding(r);
}

SimTime Network::in_order(std::unordered_map<std::uint64_t, SimTime>& last, std::uint32_t broker,
                          std::uint32_t connection, SimTime at) {
  SimTime& previous = last[(std::uint64_t{broker} << 32) | connection];
  previous = std::max(previous, at);
  return previous;
}

void Network::operator()(const ResponseSent& e) {
  BrokerService& b = brokers_[e.broker];
  if (b.epoch() != e.epoch) return;  // the broker failed meanwhile: its connections are gone
  if (const auto next = b.response_sent(e.connection, now(), [this](std::uint64_t id) { return live(id); }))
    start(e.broker, *next);
}

void Network::operator()(const ResponseArrive& e) {
  Request* found = requests_.find(e.request);
  if (!found) return;
  const std::uint32_t producer = found->producer;
  const bool live = found->live;
  // The errors outlive the slot, which the producer's next request may take.
  std::vector<ProduceError> errors = std::move(found->errors);
  requests_.erase(e.request);
  if (live) host_.response(producer, e.request, now(), std::move(errors));
}

void Network::acks_settled(std::uint64_t id) {
  // A threaded broker's connection was muted until this response: it is sent now, even
  // for a request its producer gave up (the broker does not know).
  if (const auto muted = connections_.settled(id))
    (*this)(ResponseSent{muted->broker, muted->epoch, muted->connection});
  const Request* r = requests_.find(id);
  if (!r) return;  // the producer gave it up
  respond(id, *r, now());
}

void Network::queue_fetch(std::uint64_t fetch, std::uint32_t broker, std::uint32_t connection,
                          std::int32_t partitions) {
  if (const auto started = brokers_[broker].arrive(fetch, connection, 0, partitions, now())) start(broker, *started);
}

void Network::fetch_answer_sent(std::uint32_t broker, std::uint32_t connection) {
  BrokerService& b = brokers_[broker];
  if (!b.threaded()) return;
  if (const auto next = b.response_sent(connection, now(), [this](std::uint64_t id) { return live(id); }))
    start(broker, *next);
}

}  // namespace partsim::model::detail
