#pragma once
// Timer slots: pending events that each belong to a numbered slot, at most one per slot,
// in an indexed 4-ary min-heap of keys. Setting a slot that holds an event replaces it (the
// old event is gone, not left to surface and be ignored). For components that keep one
// outstanding timer of a kind (a producer's next send(), its sender thread's wake-up): their
// superseded events would otherwise sit in the event store until they surface, and the few
// slots stay in cache where the store may not. The key is the event queue's (time,
// sequence), stamped from the same counter, so timers and other events interleave exactly
// as if every timer had been scheduled as an event.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/check.hpp"
#include "sim/event_key.hpp"

namespace partsim::sim {

template <class Payload>
class TimerSlots {
public:
  void resize(std::size_t slots) {
    PARTSIM_CHECK(heap_.empty(), "timer slots resized while timers are pending");
    pos_.assign(slots, kNone);
    keys_.assign(slots, detail::EventKey{});
    payloads_.assign(slots, Payload{});
  }
  std::size_t slots() const { return pos_.size(); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  bool pending(std::size_t slot) const { return pos_[slot] != kNone; }

  /// Sets `slot` to fire at `key` with `payload`, replacing what it held.
  void set(std::size_t slot, detail::EventKey key, Payload payload) {
    const bool was = pos_[slot] != kNone;
    const detail::EventKey old = keys_[slot];
    keys_[slot] = key;
    payloads_[slot] = std::move(payload);
    if (!was) {
      pos_[slot] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(static_cast<std::uint32_t>(slot));
      sift_up(heap_.size() - 1);
    } else if (key < old) {
      sift_up(pos_[slot]);
    } else {
      sift_down(pos_[slot]);
    }
  }

  /// Empties `slot` (nothing happens when it holds nothing).
  void clear(std::size_t slot) {
    if (pos_[slot] == kNone) return;
    remove_at(pos_[slot]);
  }

  /// The smallest key; requires !empty().
  detail::EventKey top_key() const { return keys_[heap_.front()]; }

  /// Removes the earliest timer; requires !empty().
  detail::KeyedEvent<Payload> pop() {
    const std::uint32_t slot = heap_.front();
    detail::KeyedEvent<Payload> e{keys_[slot], std::move(payloads_[slot])};
    remove_at(0);
    return e;
  }

private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  static constexpr std::size_t kArity = 4;

  bool less(std::uint32_t a, std::uint32_t b) const { return keys_[a] < keys_[b]; }

  void place(std::size_t i, std::uint32_t slot) {
    heap_[i] = slot;
    pos_[slot] = static_cast<std::uint32_t>(i);
  }

  void sift_up(std::size_t i) {
    const std::uint32_t slot = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!less(slot, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, slot);
  }

  void sift_down(std::size_t i) {
    const std::uint32_t slot = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = i * kArity + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t last = std::min(first + kArity, n);
      for (std::size_t c = first + 1; c < last; ++c)
        if (less(heap_[c], heap_[best])) best = c;
      if (!less(heap_[best], slot)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, slot);
  }

  void remove_at(std::size_t i) {
    const std::uint32_t slot = heap_[i];
    pos_[slot] = kNone;
    const std::uint32_t last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    if (i > 0 && less(last, heap_[(i - 1) / kArity]))
      sift_up(i);
    else
      sift_down(i);
  }

  std::vector<std::uint32_t> heap_;  // slots, ordered by key
  std::vector<std::uint32_t> pos_;   // slot -> index in heap_, kNone when empty
  std::vector<detail::EventKey> keys_;
  std::vector<Payload> payloads_;
};

}  // namespace partsim::sim
