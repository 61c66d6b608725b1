#pragma once
// A simulation is an object, never a singleton: it owns its clock and its pending events,
// so replications run side by side in one process. The model supplies the event payload
// type (a closed std::variant of small structs) and a handler; the kernel knows nothing
// of Kafka.

#include <cstdint>
#include <functional>
#include <utility>

#include "sim/check.hpp"
#include "sim/event_queue.hpp"
#include "sim/sim_time.hpp"

namespace partsim::sim {

/// Why run_until() returned.
enum class StopReason { kTimeLimit, kEventLimit, kPredicate, kNoEvents, kStopRequested };

/// When to stop a run: all limits are optional and the first one reached wins.
struct StopRule {
  SimTime until = SimTime::max();         ///< events at t > until do not run
  std::uint64_t max_events = UINT64_MAX;  ///< events to process in this call
  std::function<bool()> predicate;        ///< checked after every event
};

template <class Payload, class Store = HeapStore<Payload>>
class Simulation {
public:
  SimTime now() const { return now_; }
  /// The clock itself, for a part of the model that reads the time without the queue.
  const SimTime& clock() const { return now_; }
  std::uint64_t events_processed() const { return events_processed_; }

  /// Schedules `p` at absolute time t >= now().
  EventId schedule_at(SimTime t, Payload p) {
    PARTSIM_CHECK(t >= now_, "an event cannot be scheduled in the past");
    return queue_.schedule(t, std::move(p));
  }
  EventId schedule_in(SimTime delay, Payload p) { return schedule_at(now_ + delay, std::move(p)); }

  /// Timer slots (sim/timer_slots.hpp): one pending event per slot, replaced when set again.
  void resize_timers(std::size_t slots) { queue_.resize_timers(slots); }
  EventId set_timer(std::size_t slot, SimTime t, Payload p) {
    PARTSIM_CHECK(t >= now_, "a timer cannot be set in the past");
    return queue_.set_timer(slot, t, std::move(p));
  }
  template <class Alt, class... Args>
  EventId emplace_timer(std::size_t slot, SimTime t, Args&&... args) {
    PARTSIM_CHECK(t >= now_, "a timer cannot be set in the past");
    return queue_.template emplace_timer<Alt>(slot, t, std::forward<Args>(args)...);
  }
  void clear_timer(std::size_t slot) { queue_.clear_timer(slot); }
  void cancel(EventId id) { queue_.cancel(id); }

  /// Asks the running loop to return after the current event.
  void request_stop() { stop_requested_ = true; }

  bool has_pending() { return !queue_.empty(); }

  /// Moves the clock to t without an event, when no pending event comes at or before t
  /// (and t is within the running stop rule). A source whose next arrival is known uses it
  /// to run inline instead of scheduling one event per arrival; the order of everything
  /// that happens is the same as with the event.
  bool try_advance(SimTime t) {
    if (t < now_ || t > until_) return false;
    if (!queue_.empty() && queue_.next_time() <= t) return false;
    now_ = t;
    return true;
  }
  SimTime next_event_time() { return queue_.next_time(); }
  /// The next event's payload, or null (EventQueue::next_payload).
  const Payload* next_payload() { return queue_.next_payload(); }

  /// Runs events in (time, sequence) order, calling handler(payload) for each, until a
  /// limit of `rule` is reached or no event remains. The clock never goes backwards; when
  /// the time limit stops the run, the clock is advanced to it.
  template <class Handler>
  StopReason run(const StopRule& rule, Handler&& handler) {
    std::uint64_t ran = 0;
    stop_requested_ = false;
    until_ = rule.until;
    for (;;) {
      if (queue_.empty()) return StopReason::kNoEvents;
      if (ran >= rule.max_events) return StopReason::kEventLimit;
      const SimTime t = queue_.next_time();
      if (t > rule.until) {
        now_ = rule.until;
        return StopReason::kTimeLimit;
      }
      auto entry = queue_.pop();
      PARTSIM_CHECK(entry.time >= now_, "simulated time went backwards");
      now_ = entry.time;
      ++ran;
      ++events_processed_;
      handler(entry.payload);
      if (stop_requested_) return StopReason::kStopRequested;
      if (rule.predicate && rule.predicate()) return StopReason::kPredicate;
    }
  }

  template <class Handler>
  StopReason run_until(SimTime t, Handler&& handler) {
    StopRule rule;
    rule.until = t;
    return run(rule, std::forward<Handler>(handler));
  }

private:
  EventQueue<Payload, Store> queue_;
  SimTime now_ = SimTime::zero();
  SimTime until_ = SimTime::max();
  std::uint64_t events_processed_ = 0;
  bool stop_requested_ = false;
};

}  // namespace partsim::sim
