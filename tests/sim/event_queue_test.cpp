#include "sim/event_queue.hpp"

#include <doctest/doctest.h>

#include <vector>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

using partsim::sim::CalendarStore;
using partsim::sim::EventQueue;
using partsim::sim::HeapStore;
using partsim::sim::SimTime;

// Every case runs against both stores: they must be interchangeable.
#define QUEUE_TYPES EventQueue<int, HeapStore<int>>, EventQueue<int, CalendarStore<int>>

TEST_CASE_TEMPLATE("events at equal times pop in the order they were scheduled", Q, QUEUE_TYPES) {
  Q q;
  for (int i = 0; i < 100; ++i) q.schedule(SimTime::ms(5), i);
  q.schedule(SimTime::ms(1), -1);
  CHECK(q.pop().payload == -1);
  for (int i = 0; i < 100; ++i) CHECK(q.pop().payload == i);
  CHECK(q.empty());
}

TEST_CASE_TEMPLATE("pops come out in time order for random schedules", Q, QUEUE_TYPES) {
  Q q;
  boost::random::mt19937 rng(7);
  boost::random::uniform_int_distribution<int> d(0, 1000);
  for (int i = 0; i < 5000; ++i) q.schedule(SimTime::us(d(rng)), i);
  SimTime last = SimTime::zero();
  std::uint64_t last_seq = 0;
  while (!q.empty()) {
    auto e = q.pop();
    CHECK(e.time >= last);
    if (e.time == last) CHECK(e.seq > last_seq);
    last = e.time;
    last_seq = e.seq;
  }
}

TEST_CASE_TEMPLATE("a cancelled event never surfaces and the rest keep their order", Q, QUEUE_TYPES) {
  Q q;
  auto a = q.schedule(SimTime::ms(1), 1);
  q.schedule(SimTime::ms(2), 2);
  auto c = q.schedule(SimTime::ms(2), 3);
  q.schedule(SimTime::ms(3), 4);
  q.cancel(a);
  q.cancel(c);
  q.cancel(c);  // twice is harmless
  CHECK(q.next_time() == SimTime::ms(2));
  CHECK(q.pop().payload == 2);
  CHECK(q.pop().payload == 4);
  CHECK(q.empty());
}

TEST_CASE_TEMPLATE("cancelling the only event leaves the queue empty", Q, QUEUE_TYPES) {
  Q q;
  auto a = q.schedule(SimTime::ms(1), 1);
  q.cancel(a);
  CHECK(q.empty());
}

TEST_CASE_TEMPLATE("the hold model keeps time order across resizes and sparse far-off events", Q, QUEUE_TYPES) {
  Q q;
  boost::random::mt19937 rng(11);
  boost::random::uniform_int_distribution<int> small(0, 2000), coin(0, 9);
  for (int i = 0; i < 3000; ++i) q.schedule(SimTime::us(small(rng)), i);
  SimTime last = SimTime::zero();
  std::uint64_t last_seq = 0;
  std::size_t popped = 0;
  const std::size_t scheduled = 3000 + 15000;
  for (int step = 0; step < 20000 && !q.empty(); ++step) {
    auto e = q.pop();
    ++popped;
    CHECK((e.time > last || (e.time == last && e.seq > last_seq)));
    last = e.time;
    last_seq = e.seq;
    // Mostly near-future events, sometimes equal times, sometimes far away; shrink at the end.
    if (step < 15000) {
      const int c = coin(rng);
      const SimTime t = c == 0 ? last : c == 1 ? last + SimTime::sec(100) : last + SimTime::us(small(rng));
      q.schedule(t, step);
    }
  }
  while (!q.empty()) {
    auto e = q.pop();
    ++popped;
    CHECK((e.time > last || (e.time == last && e.seq > last_seq)));
    last = e.time;
    last_seq = e.seq;
  }
  CHECK(popped == scheduled);
}

TEST_CASE("both stores pop the same sequence for the same schedule") {
  EventQueue<int, HeapStore<int>> heap;
  EventQueue<int, CalendarStore<int>> calendar;
  boost::random::mt19937 rng(5);
  boost::random::uniform_int_distribution<int> d(0, 5000);
  for (int i = 0; i < 2000; ++i) {
    const auto t = SimTime::us(d(rng));
    heap.schedule(t, i);
    calendar.schedule(t, i);
  }
  for (int i = 0; i < 2000; ++i) CHECK(heap.pop().payload == calendar.pop().payload);
}

TEST_CASE_TEMPLATE("next_payload shows what pop will return, timers and cancelled events included", Q, QUEUE_TYPES) {
  Q q;
  CHECK(q.next_payload() == nullptr);
  q.resize_timers(4);
  boost::random::mt19937 rng(11);
  boost::random::uniform_int_distribution<int> d(0, 50);
  std::vector<partsim::sim::EventId> ids;
  for (int i = 0; i < 300; ++i) {
    if (i % 3 == 0) q.set_timer(static_cast<std::size_t>(i % 4), SimTime::ms(d(rng)), 1000 + i);
    else ids.push_back(q.schedule(SimTime::ms(d(rng)), i));
    if (i % 7 == 0 && !ids.empty()) q.cancel(ids[ids.size() / 2]);
  }
  while (!q.empty()) {
    const int* next = q.next_payload();
    REQUIRE(next != nullptr);
    const int want = *next;
    CHECK(q.pop().payload == want);
  }
  CHECK(q.next_payload() == nullptr);
}
