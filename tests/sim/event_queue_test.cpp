#include "sim/event_queue.hpp"

#include <doctest/doctest.h>

#include <vector>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

using partsim::sim::EventQueue;
using partsim::sim::SimTime;

TEST_CASE("events at equal times pop in the order they were scheduled") {
  EventQueue<int> q;
  for (int i = 0; i < 100; ++i) q.schedule(SimTime::ms(5), i);
  q.schedule(SimTime::ms(1), -1);
  CHECK(q.pop().payload == -1);
  for (int i = 0; i < 100; ++i) CHECK(q.pop().payload == i);
  CHECK(q.empty());
}

TEST_CASE("pops come out in time order for random schedules") {
  EventQueue<int> q;
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

TEST_CASE("a cancelled event never surfaces and the rest keep their order") {
  EventQueue<int> q;
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

TEST_CASE("cancelling the only event leaves the queue empty") {
  EventQueue<int> q;
  auto a = q.schedule(SimTime::ms(1), 1);
  q.cancel(a);
  CHECK(q.empty());
}
