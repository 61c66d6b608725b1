// Timer slots: one pending event per slot, replaced when set again, interleaved with the
// event store by the same (time, sequence) key.

#include "sim/timer_slots.hpp"

#include <doctest/doctest.h>

#include <map>
#include <variant>
#include <vector>

#include <boost/random/uniform_int_distribution.hpp>

#include "sim/event_queue.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::sim;

namespace {
detail::EventKey key(std::int64_t t_ns, std::uint64_t seq) { return detail::make_key(SimTime::ns(t_ns), seq); }
}  // namespace

TEST_CASE("a slot holds one timer: setting it again replaces it, earlier or later") {
  TimerSlots<int> t;
  t.resize(3);
  t.set(0, key(50, 1), 100);
  t.set(1, key(20, 2), 200);
  t.set(2, key(30, 3), 300);
  t.set(1, key(60, 4), 201);  // later: slot 1 moves back
  t.set(2, key(10, 5), 301);  // earlier: slot 2 moves up
  CHECK(t.size() == 3);
  std::vector<int> order;
  while (!t.empty()) order.push_back(t.pop().payload);
  CHECK(order == std::vector<int>{301, 100, 201});
}

TEST_CASE("emplace builds the payload in its slot and files it as set would, replacing the slot's timer") {
  using Payload = std::variant<int, double>;
  TimerSlots<Payload> t;
  t.resize(2);
  t.set(0, key(40, 1), Payload{1});
  t.emplace<double>(1, key(30, 2), 2.5);
  t.emplace<int>(1, key(50, 3), 7);  // replaces slot 1's timer, now after slot 0's
  REQUIRE(t.size() == 2);
  const auto first = t.pop();
  CHECK(first.key == key(40, 1));
  CHECK(std::get<int>(first.payload) == 1);
  const auto second = t.pop();
  CHECK(second.key == key(50, 3));
  CHECK(std::get<int>(second.payload) == 7);
  CHECK(t.empty());
}

TEST_CASE("clearing a slot removes its timer; clearing an empty slot does nothing") {
  TimerSlots<int> t;
  t.resize(4);
  for (int s = 0; s < 4; ++s)
    t.set(static_cast<std::size_t>(s), key(10 * (4 - s), static_cast<std::uint64_t>(s + 1)), s);
  t.clear(2);
  t.clear(2);
  CHECK_FALSE(t.pending(2));
  std::vector<int> order;
  while (!t.empty()) order.push_back(t.pop().payload);
  CHECK(order == std::vector<int>{3, 1, 0});
}

TEST_CASE("timers and scheduled events run in (time, sequence) order; equal times first-scheduled first") {
  EventQueue<int> q;
  q.resize_timers(2);
  q.schedule(SimTime::ns(10), 1);      // seq 1
  q.set_timer(0, SimTime::ns(10), 2);  // seq 2: same time, after event 1
  q.schedule(SimTime::ns(10), 3);      // seq 3
  q.set_timer(1, SimTime::ns(5), 4);
  q.set_timer(1, SimTime::ns(10), 5);  // replaces 4 (which never runs), seq 5
  std::vector<int> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  CHECK(order == std::vector<int>{1, 2, 3, 5});
}

// Against a reference where every timer set is a scheduled event and a superseded one is
// dropped when it surfaces (what the engine did before timer slots): the same events run,
// in the same order.
TEST_CASE("timer slots run what superseded scheduled events would have, in the same order") {
  auto rng = RandomStreams(3).stream("test/timers");
  auto pick = [&](int n) { return boost::random::uniform_int_distribution<int>(0, n - 1)(rng); };
  EventQueue<int, HeapStore<int>> with_timers;
  EventQueue<int, HeapStore<int>> reference;
  constexpr int kSlots = 7;
  with_timers.resize_timers(kSlots);
  std::map<int, int> live_id_of_slot;  // reference: the payload id each slot's live event carries
  SimTime now = SimTime::zero();
  int next_id = 0;
  std::vector<int> ran_timers, ran_reference;
  for (int step = 0; step < 200000; ++step) {
    const int op = pick(10);
    if (op < 3) {  // an ordinary event (ids >= 1'000'000)
      const SimTime t = now + SimTime::ns(pick(50));
      const int id = 1'000'000 + next_id++;
      with_timers.schedule(t, id);
      reference.schedule(t, id);
    } else if (op < 7) {  // (re)set a timer
      const int slot = pick(kSlots);
      const SimTime t = now + SimTime::ns(pick(50));
      const int id = slot * 100'000 + next_id++ % 100'000;
      with_timers.set_timer(static_cast<std::size_t>(slot), t, id);
      reference.schedule(t, id);
      live_id_of_slot[slot] = id;
    } else if (!with_timers.empty()) {
      const auto a = with_timers.pop();
      now = a.time;
      ran_timers.push_back(a.payload);
      // The reference runs its next event that was not superseded: the same one, at the
      // same (time, sequence).
      for (;;) {
        const auto b = reference.pop();
        const bool timer = b.payload < 1'000'000;
        const auto live = live_id_of_slot.find(b.payload / 100'000);
        if (timer && (live == live_id_of_slot.end() || live->second != b.payload)) continue;  // superseded
        REQUIRE(b.payload == a.payload);
        REQUIRE(b.time == a.time);
        REQUIRE(b.seq == a.seq);
        ran_reference.push_back(b.payload);
        break;
      }
      if (a.payload < 1'000'000) live_id_of_slot.erase(a.payload / 100'000);
    }
  }
  CHECK(ran_timers == ran_reference);
  CHECK(ran_timers.size() > 50'000);
}
