#pragma once
// The network between the clients and the brokers, as the engine keeps it: the produce
// requests on their way (by ids that carry their slot's generation, so that an event about a
// request that is gone finds nothing), the connections they travel on (the ids a broker gives
// them, in the order they open, which a threaded broker hands to its network threads round
// robin), and threaded brokers' connections muted until the followers settle a request's
// acks. It knows no events: the engine schedules them and asks it. Internal to partsim_model.

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "model/cluster/partition_log.hpp"
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
  std::uint64_t add(std::uint32_t producer, std::uint32_t broker, std::int64_t bytes, std::int32_t batches, bool live) {
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
    r.described.clear();
    r.errors.clear();
    r.batch_ids.clear();
    s.used = true;
    return (std::uint64_t{s.generation} << 32) | slot;
  }
  Request* find(std::uint64_t id) {
    const auto slot = static_cast<std::uint32_t>(id);
    if (slot >= slots_.size()) return nullptr;
    Slot& s = slots_[slot];
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

}  // namespace partsim::model::detail
