#pragma once
// The order of events: (time, sequence) packed into one unsigned 128-bit key. The time's
// sign bit is flipped so unsigned order is signed order; the sequence, stamped at
// schedule(), fills the low half. One branch-free compare orders two events, and equal
// times pop first-scheduled first (ns-3's (ts, uid) key).

#include <cstdint>

#include "sim/sim_time.hpp"

namespace partsim::sim::detail {

__extension__ typedef unsigned __int128 EventKey;

inline EventKey make_key(SimTime t, std::uint64_t seq) {
  const auto hi = static_cast<std::uint64_t>(t.count_ns()) ^ (std::uint64_t{1} << 63);
  return (static_cast<EventKey>(hi) << 64) | seq;
}
/// The time half as an unsigned, order-preserving integer.
inline std::uint64_t key_time_bits(EventKey k) { return static_cast<std::uint64_t>(k >> 64); }
inline SimTime key_time(EventKey k) {
  return SimTime::ns(static_cast<std::int64_t>(key_time_bits(k) ^ (std::uint64_t{1} << 63)));
}
inline std::uint64_t key_seq(EventKey k) { return static_cast<std::uint64_t>(k); }

template <class Payload>
struct KeyedEvent {
  EventKey key;
  Payload payload;
};

}  // namespace partsim::sim::detail
