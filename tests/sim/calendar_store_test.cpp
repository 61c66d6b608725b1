// The calendar (ladder) store under the loads that break calendar queues: a dense front
// with a far-future tail, bursts at one time, sizes crossing every split threshold,
// clustered and extreme times, cancels. Each contract case runs against both stores; the
// differential cases replay one schedule on HeapStore (the reference) and CalendarStore.

#include "sim/calendar_store.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <unordered_set>
#include <vector>

#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "sim/event_queue.hpp"

using partsim::sim::CalendarStore;
using partsim::sim::EventId;
using partsim::sim::EventQueue;
using partsim::sim::HeapStore;
using partsim::sim::SimTime;

#define QUEUE_TYPES EventQueue<int, HeapStore<int>>, EventQueue<int, CalendarStore<int>>

namespace {

constexpr std::int64_t kMaxNs = std::numeric_limits<std::int64_t>::max();

// Increments like the producer model's: 95% exponential with mean 50 us, 5% timers
// uniform in [1 s, 60 s].
class ModelMix {
public:
  explicit ModelMix(std::uint32_t seed) : rng_(seed) {}
  SimTime next() {
    if (timer_(rng_)) return SimTime::ns(timer_ns_(rng_));
    return SimTime::ns(static_cast<std::int64_t>(near_ns_(rng_)));
  }
  boost::random::mt19937& rng() { return rng_; }

private:
  boost::random::mt19937 rng_;
  boost::random::bernoulli_distribution<double> timer_{0.05};
  boost::random::uniform_int_distribution<std::int64_t> timer_ns_{1'000'000'000, 60'000'000'000};
  boost::random::exponential_distribution<double> near_ns_{1.0 / 50e3};
};

// Pops everything, checking that (time, seq) strictly increases; returns the payloads.
template <class Q>
std::vector<int> drain(Q& q) {
  std::vector<int> out;
  bool first = true;
  SimTime last_time;
  std::uint64_t last_seq = 0;
  while (!q.empty()) {
    const auto e = q.pop();
    if (!first) REQUIRE((e.time > last_time || (e.time == last_time && e.seq > last_seq)));
    first = false;
    last_time = e.time;
    last_seq = e.seq;
    out.push_back(e.payload);
  }
  return out;
}

// One schedule replayed on the reference heap and on the calendar: every pop must agree.
class Twin {
public:
  EventId schedule(SimTime t, int payload) {
    const EventId id = heap_.schedule(t, payload);
    REQUIRE(calendar_.schedule(t, payload) == id);
    live_.insert(id.seq);
    return id;
  }
  // Cancels `id` if it is still pending (a queue must not be asked to cancel a past event).
  void cancel(EventId id) {
    if (live_.erase(id.seq) == 0) return;
    heap_.cancel(id);
    calendar_.cancel(id);
  }
  bool empty() {
    const bool e = heap_.empty();
    REQUIRE(calendar_.empty() == e);
    return e;
  }
  SimTime pop() {
    REQUIRE(calendar_.next_time() == heap_.next_time());
    const auto a = heap_.pop();
    const auto b = calendar_.pop();
    REQUIRE(b.time == a.time);
    REQUIRE(b.seq == a.seq);
    REQUIRE(b.payload == a.payload);
    live_.erase(a.seq);
    ++pops_;
    return a.time;
  }
  std::size_t pending() const { return live_.size(); }
  std::size_t pops() const { return pops_; }

private:
  EventQueue<int, HeapStore<int>> heap_;
  EventQueue<int, CalendarStore<int>> calendar_;
  std::unordered_set<std::uint64_t> live_;  // membership only: never iterated
  std::size_t pops_ = 0;
};

}  // namespace

TEST_CASE_TEMPLATE("a dense front with a far-future tail pops in key order", Q, QUEUE_TYPES) {
  Q q;
  ModelMix mix(3);
  boost::random::uniform_int_distribution<std::int64_t> front_ns(0, 10'000'000),
      tail_ns(1'000'000'000, 3'600'000'000'000);
  int n = 0;
  for (int i = 0; i < 60'000; ++i) q.schedule(SimTime::ns(front_ns(mix.rng())), n++);
  for (int i = 0; i < 3'000; ++i) q.schedule(SimTime::ns(tail_ns(mix.rng())), n++);
  for (int i = 0; i < 20; ++i) q.schedule(SimTime::max(), n++);
  // Hold: each pop schedules one more with the model's increments.
  SimTime last = SimTime::zero();
  for (int i = 0; i < 100'000; ++i) {
    const auto e = q.pop();
    REQUIRE(e.time >= last);
    last = e.time;
    q.schedule(e.time.saturating_add(mix.next()), n++);
  }
  const auto rest = drain(q);
  CHECK(rest.size() == 63'020);
  // The 20 events at the end of time come out last, in the order they were scheduled.
  CHECK(std::vector<int>(rest.end() - 20, rest.end()) == [] {
    std::vector<int> v;
    for (int i = 63'000; i < 63'020; ++i) v.push_back(i);
    return v;
  }());
}

TEST_CASE_TEMPLATE("a burst at one time pops in scheduling order while it grows", Q, QUEUE_TYPES) {
  Q q;
  const SimTime t = SimTime::ms(7);
  for (int i = 0; i < 30'000; ++i) q.schedule(t, i);
  q.schedule(t + SimTime::ns(1), -1);
  q.schedule(t - SimTime::ns(1), -2);
  CHECK(q.pop().payload == -2);
  // Each of the first 10,000 pops schedules another event at the same time: they queue
  // behind the burst, before the event 1 ns later.
  int next = 30'000;
  for (int i = 0; i < 30'000; ++i) {
    const auto e = q.pop();
    REQUIRE(e.time == t);
    REQUIRE(e.payload == i);
    if (i < 10'000) q.schedule(t, next++);
  }
  for (int i = 30'000; i < next; ++i) REQUIRE(q.pop().payload == i);
  CHECK(q.pop().payload == -1);
  CHECK(q.empty());
}

TEST_CASE_TEMPLATE("times at the ends of the clock pop in key order", Q, QUEUE_TYPES) {
  Q q;
  int n = 0;
  std::vector<SimTime> times;
  for (int k = 0; k < 63; ++k) {
    times.push_back(SimTime::ns(kMaxNs - (std::int64_t{1} << k)));
    times.push_back(SimTime::ns(std::numeric_limits<std::int64_t>::min() + (std::int64_t{1} << k)));
  }
  for (int k = 0; k < 40; ++k) times.push_back(SimTime::ns(kMaxNs - k));
  times.push_back(SimTime::ns(std::numeric_limits<std::int64_t>::min()));
  for (const SimTime t : times) q.schedule(t, n++);
  for (int i = 0; i < 30; ++i) q.schedule(SimTime::max(), n++);
  // Pop the early half, then keep scheduling just below and at the end of time while
  // popping: the buckets that end at 2^64 (one past SimTime::max()) fill and drain.
  for (int i = 0; i < 100; ++i) q.pop();
  for (int i = 0; i < 200; ++i) {
    const auto e = q.pop();
    q.schedule(SimTime::ns(kMaxNs - (i % 7)) < e.time ? e.time : SimTime::ns(kMaxNs - (i % 7)), n++);
  }
  const auto rest = drain(q);
  CHECK(rest.size() == times.size() + 30 - 100);
}

TEST_CASE_TEMPLATE("clusters at every scale pop in key order", Q, QUEUE_TYPES) {
  // 17 events at one time plus one at each power of two above it: every split leaves more
  // than 16 events in its first bucket, so the ladder deepens to 12 rungs.
  Q q;
  int n = 0;
  const SimTime base = SimTime::sec(1);
  for (int i = 0; i < 17; ++i) q.schedule(base, n++);
  for (int k = 0; k < 62; ++k) q.schedule(base + SimTime::ns(std::int64_t{1} << k), n++);
  for (int i = 0; i < 17; ++i) q.schedule(base + SimTime::ns(1), n++);
  const auto order = drain(q);
  REQUIRE(order.size() == 17 + 62 + 17);
  for (int i = 0; i < 17; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
  CHECK(order[17] == 17);  // base + 1 ns, scheduled before the 17 others at that time
  CHECK(order[18] == 79);
}

TEST_CASE_TEMPLATE("an event scheduled before the last pop comes out next", Q, QUEUE_TYPES) {
  Q q;
  for (int i = 0; i < 1000; ++i) q.schedule(SimTime::us(i), i);
  for (int i = 0; i < 500; ++i) q.pop();
  q.schedule(SimTime::us(3), -1);
  CHECK(q.pop().payload == -1);
  CHECK(q.pop().payload == 500);
}

TEST_CASE("pushes before the last pop stack rungs up to the limit and keep key order") {
  // Each block lies before everything pending: it fills the bottom, which becomes a new
  // finest rung, and its 100 events 1-100 ns after its start crowd that rung's first
  // bucket, which splits again. The 16-rung limit is reached by the 6th block; past it,
  // crowded buckets are sorted whole and the bottom takes sorted inserts.
  Twin twin;
  int n = 0;
  for (int b = 0; b < 24; ++b) {
    const SimTime start = SimTime::sec(100) - SimTime::ms(b);
    for (int i = 0; i < 80; ++i) twin.schedule(start + SimTime::us(i), n++);
    for (int i = 1; i <= 100; ++i) twin.schedule(start + SimTime::ns(i), n++);
    twin.pop();
  }
  while (!twin.empty()) twin.pop();
  CHECK(twin.pops() == 24 * 180);
}

TEST_CASE("the calendar pops what the heap pops while the size crosses every split threshold") {
  // Sizes around the split threshold (16), the widest rung (4096 buckets at 2 events each)
  // and far past it, up and down again, with the model's increments and some cancels.
  Twin twin;
  ModelMix mix(17);
  boost::random::uniform_int_distribution<int> pct(0, 99);
  std::vector<EventId> ids;
  SimTime now = SimTime::zero();
  int n = 0;
  for (const std::size_t target : {1, 16, 17, 40, 8192, 8193, 40'000, 17, 16, 1, 0, 9'000, 0, 30'000, 2}) {
    while (twin.pending() < target) ids.push_back(twin.schedule(now + mix.next(), n++));
    while (twin.pending() > target) now = twin.pop();
    for (std::size_t i = 0; i < 2 * target; ++i) {
      now = twin.pop();
      ids.push_back(twin.schedule(now + mix.next(), n++));
      if (pct(mix.rng()) < 5) {
        twin.cancel(ids[ids.size() / 2 + static_cast<std::size_t>(pct(mix.rng())) * (ids.size() / 200)]);
        ids.push_back(twin.schedule(now + mix.next(), n++));
      }
    }
  }
  while (!twin.empty()) twin.pop();
  CHECK(twin.pops() > 200'000);
}

TEST_CASE("the calendar pops what the heap pops under a random model-like schedule") {
  // 300,000 operations: holds with the model's increments, bursts at one time, events at
  // the end of time, cancels of pending events, the pending set swinging between 0 and
  // ~20,000.
  Twin twin;
  ModelMix mix(2024);
  boost::random::uniform_int_distribution<int> pct(0, 99), burst(2, 200);
  std::vector<EventId> ids;
  SimTime now = SimTime::zero();
  int n = 0;
  for (int op = 0; op < 300'000; ++op) {
    const bool growing = (op / 40'000) % 2 == 0;
    const int p = pct(mix.rng());
    if (twin.pending() == 0 || p < (growing ? 55 : 45)) {
      ids.push_back(twin.schedule(now + mix.next(), n++));
    } else if (p < 96) {
      now = twin.pop();
    } else if (p < 98) {
      const SimTime t = p == 96 ? now : now + mix.next();
      for (int i = burst(mix.rng()); i > 0; --i) ids.push_back(twin.schedule(t, n++));
    } else if (p == 98) {
      twin.cancel(ids[ids.size() - 1 - static_cast<std::size_t>(pct(mix.rng())) % ids.size()]);
    } else {
      ids.push_back(twin.schedule(SimTime::max(), n++));
    }
  }
  while (!twin.empty()) twin.pop();
  CHECK(twin.pops() > 100'000);
}
