#pragma once
// The network between the clients and the brokers, a part of the engine that owns its state:
// the produce requests on their way (by ids that carry their slot's generation, so that an
// event about a request that is gone finds nothing), the connections they travel on (the
// ids a broker gives them, in the order they open, which a threaded broker hands to its
// network threads round robin), the brokers' request queues and servers (BrokerService),
// and threaded brokers' connections muted until the followers settle a request's acks.
// Network is the serve path: a request's arrival, its service, the response on its way
// back. What the leaders do with a request, and what a producer or a consumer fetch makes
// of the answer, it asks of its NetworkHost. Internal to partsim_model.

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/cluster/broker_links.hpp"
#include "model/cluster/broker_service.hpp"
#include "model/cluster/partition_log.hpp"
#include "model/detail/events.hpp"
#include "model/produce_error.hpp"
#include "model/producer/producer_batch.hpp"

namespace partsim::model::detail {

/// A batch in a request as the leader sees it (described when the producer is idempotent,
/// the run tags records or has followers).
struct RequestBatch {
  std::uint32_t log = 0;            // partition index (RunResult::partitions, BrokerLogs::partitions)
  std::int32_t base_sequence = -1;  // the idempotent producer's, or -1
  std::int32_t records = 0;
  std::int32_t bytes = 0;  // the batch's bytes (the followers' model's offsets)
  BatchId id = kNoBatch;   // the producer's id of it (for prefetching only)
};
// A request of ten batches is read from a few lines when the broker takes it up.
static_assert(sizeof(RequestBatch) == 20);

/// A produce request on its way: what the network and the broker need of it.
struct Request {
  std::uint32_t producer = 0;
  std::uint32_t broker = 0;
  std::uint32_t connection = 0;  // the broker's id of the connection it travels on
  std::int64_t bytes = 0;
  std::int32_t batches = 0;
  bool live = true;                            // false: acks=0, nobody waits for the response
  bool acks_all = false;                       // its producer's acks=all
  bool idempotent = false;                     // its producer's enable.idempotence (the leader's sequence check)
  std::vector<RequestBatch> described;         // per batch, or empty (see RequestBatch)
  std::vector<std::vector<LogRecord>> tagged;  // beside described when records are tagged: each batch's records
                                               // (readable is set at the append)
  std::vector<BatchId> batch_ids;              // without `described`: the producer's ids of its batches (prefetching)
  std::vector<ProduceError> errors;            // the response's error per batch; empty: none
};

/// The requests on their way, by id: a slot vector whose ids carry the slot's generation,
/// so that an event about a request that is gone finds nothing.
class RequestTable {
public:
  /// A new request; its vectors come empty (their memory kept from the slot's last use), but
  /// `tagged`, which send_request sizes and clears batch by batch.
  std::uint64_t add(std::uint32_t producer, std::uint32_t broker, std::int64_t bytes, std::int32_t batches, bool live,
                    bool acks_all, bool idempotent) {
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& s = slots_[slot];
    Request& r = s.request;
    r.producer = producer;
    r.broker = broker;
    r.bytes = bytes;
    r.batches = batches;
    r.live = live;
    r.acks_all = acks_all;
    r.idempotent = idempotent;
    r.described.clear();
    r.errors.clear();
    r.batch_ids.clear();
    s.used = true;
    return (std::uint64_t{s.generation} << 32) | slot;
  }
  Request* find(std::uint64_t id) { return const_cast<Request*>(std::as_const(*this).find(id)); }
  const Request* find(std::uint64_t id) const {
    const auto slot = static_cast<std::uint32_t>(id);
    if (slot >= slots_.size()) return nullptr;
    const Slot& s = slots_[slot];
    return s.used && s.generation == static_cast<std::uint32_t>(id >> 32) ? &s.request : nullptr;
  }
  void erase(std::uint64_t id) {
    if (!find(id)) return;
    Slot& s = slots_[static_cast<std::uint32_t>(id)];
    s.used = false;
    ++s.generation;
    free_.push_back(static_cast<std::uint32_t>(id));
  }

private:
  struct Slot {
    Request request;
    std::uint32_t generation = 0;
    bool used = false;
  };
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
};

/// Who travels on which connection. A producer's first connection to each broker has the
/// producer's index for id; a broker numbers every later one (a producer reconnecting, a
/// consumer group member's first fetch) in the order they open, from the producer count on.
class Connections {
public:
  Connections(std::uint32_t producers, std::size_t brokers);

  /// Producer `p`'s current connection to `broker`.
  std::uint32_t producer(std::uint32_t p, std::size_t broker) const { return producer_[p * brokers_ + broker]; }
  /// Producer `p` closed its connection to `broker`: its next requests travel on a new one.
  void reconnect_producer(std::uint32_t p, std::size_t broker) { producer_[p * brokers_ + broker] = next_[broker]++; }
  /// Member `member` of group `group`'s connection to `broker`, opened at its first use.
  std::uint32_t consumer(std::uint32_t group, std::int32_t member, std::size_t broker);
  /// The member's connection to `broker` failed: its next fetch opens a new one.
  void drop_consumer(std::uint32_t group, std::int32_t member, std::size_t broker) {
    consumer_.erase({group, member, broker});
  }

  /// `broker` failed: every member's connection to it is gone.
  void drop_consumers_at(std::size_t broker);

  /// A threaded broker's connection whose response waits for the followers to settle
  /// `request`'s acks (its epoch: a failure since makes it stale).
  struct Muted {
    std::uint32_t broker;
    std::uint64_t epoch;
    std::uint32_t connection;
  };
  void mute_until_settled(std::uint64_t request, Muted m) { muted_[request] = m; }
  /// The connection `request` muted, once (none if it muted none).
  std::optional<Muted> settled(std::uint64_t request);

private:
  std::size_t brokers_;
  std::vector<std::uint32_t> producer_;  // [producer * brokers + broker]
  std::vector<std::uint32_t> next_;      // per broker: the id its next new connection gets
  std::map<std::tuple<std::uint32_t, std::int32_t, std::size_t>, std::uint32_t> consumer_;
  std::map<std::uint64_t, Muted> muted_;
};

/// A request's id tells which it is: the brokers' queues hold produce requests and consumer
/// fetches (FetchServer), whose ids have this bit set.
inline constexpr std::uint64_t kFetchBit = std::uint64_t{1} << 63;
inline bool is_fetch(std::uint64_t id) { return (id & kFetchBit) != 0; }

/// What the network asks of its neighbours: the leaders serve a produce request and the
/// recorder counts it; a producer takes its response; a consumer fetch is the FetchServer's.
class NetworkHost {
public:
  virtual ~NetworkHost() = default;
  /// A produce request reached `broker` (up).
  virtual void request_arrived(std::uint32_t broker) = 0;
  /// `broker` takes up produce request `r` after it waited `waited` (null: its producer gave
  /// it up while it waited).
  virtual void request_started(std::uint32_t broker, SimTime waited, const Request* r) = 0;
  /// The leader appends `r`'s batches now, answering with `error` injected, and acks=all
  /// replicated at `replicated`. True: the response waits for the followers
  /// (Network::acks_settled).
  virtual bool serve(std::uint64_t id, Request& r, ProduceError error, SimTime now, SimTime replicated) = 0;
  /// `r`'s response leaves its broker now (traffic; Speed: what its producer will read of it
  /// may be asked for).
  virtual void responding(const Request& r) = 0;
  /// `producer`'s request `id` is answered now, with an error per batch (or none).
  virtual void response(std::uint32_t producer, std::uint64_t id, SimTime now, std::vector<ProduceError> errors) = 0;
  /// Whether consumer fetch `fetch` still counts; it starts after waiting `waited`; it is served now.
  virtual bool fetch_live(std::uint64_t fetch) const = 0;
  virtual void fetch_started(std::uint64_t fetch, SimTime waited) = 0;
  virtual void fetch_served(std::uint64_t fetch, SimTime now) = 0;
};

/// The serve path: produce requests from sent to answered, and consumer fetches in the
/// brokers' queues. It schedules its own events (RequestArrive, BrokerDone, ResponseSent,
/// ResponseArrive) on the engine's loop, which hands them back.
class Network {
public:
  /// `clients`: producers (their first connections); `fixed_replication`: acks=all waits
  /// the brokers' replication.ms (not the followers' fetches).
  Network(std::vector<BrokerService> brokers, std::uint32_t clients, bool fixed_replication, EventLoop& loop,
          NetworkHost& host, BrokerLinks links);
  Network(const Network&) = delete;  // its neighbours keep references to its connections
  Network& operator=(const Network&) = delete;

  std::size_t brokers() const { return brokers_.size(); }
  BrokerService& broker(std::size_t b) { return brokers_[b]; }
  const BrokerService& broker(std::size_t b) const { return brokers_[b]; }
  Connections& connections() { return connections_; }
  /// The brokers' network links (network.bytes.per.s), which follower and consumer fetch
  /// answers pass too.
  BrokerLinks& links() { return links_; }

  /// Producer `producer` sends a request to `broker` now, on its connection there; it
  /// arrives half a round trip later. `live`: a response is awaited (acks != 0); `acks_all`
  /// and `idempotent`: the producer's settings, which the leader applies. Its batches are
  /// described in `request(id)` before the event returns.
  std::uint64_t send(std::uint32_t producer, std::uint32_t broker, std::int64_t bytes, std::int32_t batches, bool live,
                     bool acks_all, bool idempotent);
  Request& request(std::uint64_t id) { return *requests_.find(id); }
  Request* find(std::uint64_t id) { return requests_.find(id); }
  /// The producer gave the request up: later events about it find nothing.
  void abandon(std::uint64_t id) { requests_.erase(id); }
  /// A closed connection takes its mute along: the producer's next requests to `broker`
  /// travel on a new one.
  void reconnect(std::uint32_t producer, std::size_t broker) { connections_.reconnect_producer(producer, broker); }
  /// The followers settled `id`'s acks: the leader answers now.
  void acks_settled(std::uint64_t id);
  /// Whether a request the brokers hold (produce or fetch) still counts.
  bool live(std::uint64_t id) const { return is_fetch(id) ? host_.fetch_live(id) : requests_.find(id) != nullptr; }

  /// A consumer fetch reaches `broker` on `connection` now; its answer went out on it.
  void queue_fetch(std::uint64_t fetch, std::uint32_t broker, std::uint32_t connection, std::int32_t partitions);
  void fetch_answer_sent(std::uint32_t broker, std::uint32_t connection);

  void operator()(const RequestArrive& e);
  void operator()(const BrokerDone& e);
  void operator()(const ResponseSent& e);  // threaded brokers: unmute
  void operator()(const ResponseArrive& e);

private:
  SimTime now() const { return loop_.now(); }
  void start(std::uint32_t broker, const BrokerService::Started& s);
  void respond(std::uint64_t id, const Request& r, SimTime ready);
  // With limited links: `at`, or the last arrival on the same (broker, connection) if later.
  static SimTime in_order(std::unordered_map<std::uint64_t, SimTime>& last, std::uint32_t broker,
                          std::uint32_t connection, SimTime at);

  std::vector<BrokerService> brokers_;
  RequestTable requests_;
  Connections connections_;
  bool fixed_replication_;
  EventLoop& loop_;
  NetworkHost& host_;
  BrokerLinks links_;
  std::unordered_map<std::uint64_t, SimTime> arrive_after_, respond_after_;  // per (broker, connection)
};

}  // namespace partsim::model::detail
