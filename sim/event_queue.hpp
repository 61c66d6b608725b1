#pragma once
// The pending-event set: a 4-ary min-heap keyed by (time, sequence). The sequence is
// stamped at schedule(), so events at equal times pop in the order they were scheduled
// (FIFO) and a run never depends on heap layout or pointer order (ns-3's (ts, uid) key).
// Cancellation is lazy: a cancelled event stays in the heap and is dropped when it reaches
// the top, which keeps schedule/pop O(log n) with no per-event allocation.

#include <cassert>
#include <cstdint>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::sim {

/// Identifies one scheduled event (its sequence number); used to cancel it.
struct EventId {
  std::uint64_t seq = 0;
  constexpr bool valid() const { return seq != 0; }
  constexpr auto operator<=>(const EventId&) const = default;
};

template <class Payload>
class EventQueue {
public:
  /// What pop() returns.
  struct Entry {
    SimTime time;
    std::uint64_t seq;
    Payload payload;
  };

  EventId schedule(SimTime t, Payload p) {
    const std::uint64_t seq = next_seq_++;
    heap_.push_back(Node{make_key(t, seq), std::move(p)});
    sift_up(heap_.size() - 1);
    return EventId{seq};
  }

  /// Marks a pending event as cancelled; it is skipped when it surfaces. Cancelling it
  /// twice is harmless; callers must not cancel an event that already ran.
  void cancel(EventId id) {
    if (!id.valid()) return;
    if (id.seq < next_seq_) cancelled_.insert(id.seq);
  }

  /// True when no live (uncancelled) event remains.
  bool empty() {
    drop_cancelled_top();
    return heap_.empty();
  }

  /// Time of the next live event; requires !empty().
  SimTime next_time() {
    drop_cancelled_top();
    assert(!heap_.empty());
    return time_of(heap_.front().key);
  }

  /// Removes and returns the next live event; requires !empty().
  Entry pop() {
    drop_cancelled_top();
    assert(!heap_.empty());
    Node& top = heap_.front();
    Entry out{time_of(top.key), seq_of(top.key), std::move(top.payload)};
    remove_top();
    return out;
  }

  /// Live and cancelled-but-not-yet-dropped entries.
  std::size_t size_with_cancelled() const { return heap_.size(); }
  void reserve(std::size_t n) { heap_.reserve(n); }

private:
  static constexpr std::size_t kArity = 4;
  // (time, seq) packed into one unsigned 128-bit key: the time's sign bit flipped so that
  // unsigned order is signed order, the sequence in the low half. One branch-free compare
  // orders two events, which is what makes the heap fast.
  __extension__ typedef unsigned __int128 Key;
  struct Node {
    Key key;
    Payload payload;
  };

  static Key make_key(SimTime t, std::uint64_t seq) {
    const auto hi = static_cast<std::uint64_t>(t.count_ns()) ^ (std::uint64_t{1} << 63);
    return (static_cast<Key>(hi) << 64) | seq;
  }
  static SimTime time_of(Key k) {
    return SimTime::ns(static_cast<std::int64_t>(static_cast<std::uint64_t>(k >> 64) ^ (std::uint64_t{1} << 63)));
  }
  static std::uint64_t seq_of(Key k) { return static_cast<std::uint64_t>(k); }

  bool is_cancelled(std::uint64_t seq) const { return !cancelled_.empty() && cancelled_.contains(seq); }

  void drop_cancelled_top() {
    while (!heap_.empty() && is_cancelled(seq_of(heap_.front().key))) {
      cancelled_.erase(seq_of(heap_.front().key));
      remove_top();
    }
  }

  // Moves the last node into the root's place: the hole left by the root descends along
  // the smaller children to a leaf, then the last node rises from there. The last node
  // usually belongs near the bottom, so this saves a comparison per level.
  void remove_top() {
    Node last = std::move(heap_.back());
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return;
    std::size_t hole = 0;
    for (;;) {
      const std::size_t first = hole * kArity + 1;
      if (first >= n) break;
      std::size_t best = first;
      if (first + kArity <= n) {
        const std::size_t b01 = heap_[first + 1].key < heap_[first].key ? first + 1 : first;
        const std::size_t b23 = heap_[first + 3].key < heap_[first + 2].key ? first + 3 : first + 2;
        best = heap_[b23].key < heap_[b01].key ? b23 : b01;
      } else {
        for (std::size_t c = first + 1; c < n; ++c)
          if (heap_[c].key < heap_[best].key) best = c;
      }
      heap_[hole] = std::move(heap_[best]);
      hole = best;
    }
    heap_[hole] = std::move(last);
    sift_up(hole);
  }

  void sift_up(std::size_t i) {
    Node e = std::move(heap_[i]);
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(e.key < heap_[parent].key)) break;
      heap_[i] = std::move(heap_[parent]);
      i = parent;
    }
    heap_[i] = std::move(e);
  }

  std::vector<Node> heap_;
  std::uint64_t next_seq_ = 1;  // 0 is the invalid EventId
  // Sequence numbers cancelled but still in the heap; an entry leaves the set when its
  // event surfaces, so the set's size is bounded by the pending events.
  std::unordered_set<std::uint64_t> cancelled_;
};

}  // namespace partsim::sim
