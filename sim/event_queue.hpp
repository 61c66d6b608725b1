#pragma once
// The pending-event set: events ordered by (time, sequence), where the sequence is stamped
// at schedule() so events at equal times pop in the order they were scheduled (FIFO) and a
// run never depends on layout or pointer order. Cancellation is lazy: a cancelled event
// stays stored and is dropped when it surfaces, so nothing is searched or allocated per
// cancel. The storage is a policy: HeapStore (4-ary heap, the default) or CalendarStore
// (calendar queue); bench/kernel_bench.cpp compares them.

#include <cassert>
#include <cstdint>
#include <unordered_set>
#include <utility>

#include "sim/calendar_store.hpp"
#include "sim/event_key.hpp"
#include "sim/heap_store.hpp"
#include "sim/sim_time.hpp"
#include "sim/timer_slots.hpp"

namespace partsim::sim {

/// Identifies one scheduled event (its sequence number); used to cancel it.
struct EventId {
  std::uint64_t seq = 0;
  constexpr bool valid() const { return seq != 0; }
  constexpr auto operator<=>(const EventId&) const = default;
};

template <class Payload, class Store = HeapStore<Payload>>
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
    store_.push(detail::make_key(t, seq), std::move(p));
    return EventId{seq};
  }

  /// Timer slots (sim/timer_slots.hpp): `slots` numbered timers beside the store.
  void resize_timers(std::size_t slots) { timers_.resize(slots); }
  /// Schedules `p` at `t` in timer slot `slot`, replacing the event the slot held (that
  /// one never runs). Stamped like schedule(): the same (time, sequence) order.
  EventId set_timer(std::size_t slot, SimTime t, Payload p) {
    const std::uint64_t seq = next_seq_++;
    timers_.set(slot, detail::make_key(t, seq), std::move(p));
    return EventId{seq};
  }
  /// set_timer with the payload built in the slot as alternative `Alt` of a variant.
  template <class Alt, class... Args>
  EventId emplace_timer(std::size_t slot, SimTime t, Args&&... args) {
    const std::uint64_t seq = next_seq_++;
    timers_.template emplace<Alt>(slot, detail::make_key(t, seq), std::forward<Args>(args)...);
    return EventId{seq};
  }
  /// Empties a timer slot.
  void clear_timer(std::size_t slot) { timers_.clear(slot); }

  /// Marks a pending event as cancelled; it is skipped when it surfaces. Cancelling it
  /// twice is harmless; callers must not cancel an event that already ran.
  void cancel(EventId id) {
    if (!id.valid()) return;
    if (id.seq < next_seq_) cancelled_.insert(id.seq);
  }

  /// True when no live (uncancelled) event remains.
  bool empty() {
    drop_cancelled_top();
    return store_.empty() && timers_.empty();
  }

  /// Time of the next live event; requires !empty().
  SimTime next_time() {
    drop_cancelled_top();
    assert(!empty());
    return detail::key_time(timer_first() ? timers_.top_key() : store_.top_key());
  }

  /// The next live event's payload, or null when none is pending (a look ahead, e.g. to
  /// prefetch what it will touch; the queue's order is not changed).
  const Payload* next_payload() {
    if (empty()) return nullptr;
    return timer_first() ? &timers_.top_payload() : &store_.top_payload();
  }

  /// Removes and returns the next live event; requires !empty().
  Entry pop() {
    drop_cancelled_top();
    assert(!empty());
    auto n = timer_first() ? timers_.pop() : store_.pop();
    return Entry{detail::key_time(n.key), detail::key_seq(n.key), std::move(n.payload)};
  }

  /// Live and cancelled-but-not-yet-dropped entries, timers included.
  std::size_t size_with_cancelled() const { return store_.size() + timers_.size(); }
  void reserve(std::size_t n) { store_.reserve(n); }

private:
  // The earliest pending event is a timer (the store is empty or its top comes later).
  bool timer_first() { return !timers_.empty() && (store_.empty() || timers_.top_key() < store_.top_key()); }

  void drop_cancelled_top() {
    if (cancelled_.empty()) return;
    while (!store_.empty()) {
      const auto it = cancelled_.find(detail::key_seq(store_.top_key()));
      if (it == cancelled_.end()) return;
      cancelled_.erase(it);
      store_.pop();
    }
  }

  Store store_;
  TimerSlots<Payload> timers_;
  std::uint64_t next_seq_ = 1;  // 0 is the invalid EventId
  // Sequence numbers cancelled but still stored; an entry leaves the set when its event
  // surfaces, so the set's size is bounded by the pending events.
  std::unordered_set<std::uint64_t> cancelled_;
};

}  // namespace partsim::sim
