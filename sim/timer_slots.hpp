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
    payloads_.assign(slots, Payload{});
  }
  std::size_t slots() const { return pos_.size(); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  bool pending(std::size_t slot) const { return pos_[slot] != kNone; }

  /// Sets `slot` to fire at `key` with `payload`, replacing what it held.
  void set(std::size_t slot, detail::EventKey key, Payload payload) {
    payloads_[slot] = std::move(payload);
    schedule_slot(slot, key);
  }
  /// The same with the payload built in its slot as alternative `Alt` of a variant
  /// (no temporary whose piecewise stores a wide copy would then have to wait for).
  template <class Alt, class... Args>
  void emplace(std::size_t slot, detail::EventKey key, Args&&... args) {
    payloads_[slot].template emplace<Alt>(std::forward<Args>(args)...);
    schedule_slot(slot, key);
  }

  /// Empties `slot` (nothing happens when it holds nothing).
  void clear(std::size_t slot) {
    if (pos_[slot] == kNone) return;
    remove_at(pos_[slot]);
  }

  /// The smallest key; requires !empty().
  detail::EventKey top_key() const { return heap_.front().key; }
  /// The earliest timer's payload; requires !empty().
  const Payload& top_payload() const { return payloads_[heap_.front().slot]; }

  /// Removes the earliest timer; requires !empty(). The hole left at the root descends
  /// along the smaller children to a leaf and the last entry rises from there: the last
  /// entry usually belongs near the bottom, so this saves a compare per level.
  detail::KeyedEvent<Payload> pop() {
    const Entry top = heap_.front();
    detail::KeyedEvent<Payload> e{top.key, std::move(payloads_[top.slot])};
    pos_[top.slot] = kNone;
    const Entry last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return e;
    std::size_t hole = 0;
    for (;;) {
      const std::size_t first = hole * kArity + 1;
      if (first >= n) break;
      const std::size_t best = min_child(first, n);
      place(hole, heap_[best]);
      hole = best;
    }
    heap_[hole] = last;
    pos_[last.slot] = static_cast<std::uint32_t>(hole);
    sift_up(hole);
    return e;
  }

private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  static constexpr std::size_t kArity = 4;
  struct Entry {  // keys live in the heap itself: a sift compares without leaving it
    detail::EventKey key;
    std::uint32_t slot;
  };

  // Files `slot` at `key` in the heap: a new entry rises from the bottom; a held one moves
  // up or down from where it is. The entry travels in registers, never re-read from the heap.
  void schedule_slot(std::size_t slot, detail::EventKey key) {
    const Entry e{key, static_cast<std::uint32_t>(slot)};
    if (pos_[slot] == kNone) {
      heap_.emplace_back();
      sift_up(heap_.size() - 1, e);
      return;
    }
    const std::size_t i = pos_[slot];
    if (key < heap_[i].key) sift_up(i, e);
    else sift_down(i, e);
  }

  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.slot] = static_cast<std::uint32_t>(i);
  }

  void sift_up(std::size_t i) { sift_up(i, heap_[i]); }
  void sift_up(std::size_t i, const Entry e) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(e.key < heap_[parent].key)) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }

  // The smallest of the children starting at `first` (all four when they exist: a
  // tournament of three compares).
  std::size_t min_child(std::size_t first, std::size_t n) const {
    if (first + kArity <= n) {
      const std::size_t b01 = heap_[first + 1].key < heap_[first].key ? first + 1 : first;
      const std::size_t b23 = heap_[first + 3].key < heap_[first + 2].key ? first + 3 : first + 2;
      return heap_[b23].key < heap_[b01].key ? b23 : b01;
    }
    std::size_t best = first;
    for (std::size_t c = first + 1; c < n; ++c)
      if (heap_[c].key < heap_[best].key) best = c;
    return best;
  }

  void sift_down(std::size_t i) { sift_down(i, heap_[i]); }
  void sift_down(std::size_t i, const Entry e) {
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = i * kArity + 1;
      if (first >= n) break;
      const std::size_t best = min_child(first, n);
      if (!(heap_[best].key < e.key)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, e);
  }

  void remove_at(std::size_t i) {
    pos_[heap_[i].slot] = kNone;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    pos_[last.slot] = static_cast<std::uint32_t>(i);
    if (i > 0 && last.key < heap_[(i - 1) / kArity].key) sift_up(i);
    else sift_down(i);
  }

  std::vector<Entry> heap_;         // pending timers, ordered by key
  std::vector<std::uint32_t> pos_;  // slot -> index in heap_, kNone when empty
  std::vector<Payload> payloads_;
};

}  // namespace partsim::sim
