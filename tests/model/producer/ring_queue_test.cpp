// RingQueue: FIFO order across growth, and push_back_pruning's bound (the accumulator's
// expiry ring holds the batches alive, not every batch a long run created).

#include "model/producer/detail/ring_queue.hpp"

#include <doctest/doctest.h>

#include <vector>

using partsim::model::detail::RingQueue;

TEST_CASE("a ring queue is a FIFO across its growth and wrap-around") {
  RingQueue<int> q;
  int next_in = 0, next_out = 0;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 7 + round; ++i) q.push_back(next_in++);
    for (int i = 0; i < 5 + round / 2 && !q.empty(); ++i) {
      CHECK(q.front() == next_out++);
      q.pop_front();
    }
  }
  CHECK(q.size() == static_cast<std::size_t>(next_in - next_out));
  for (std::size_t i = 0; i < q.size(); ++i) CHECK(q[i] == next_out + static_cast<int>(i));
}

TEST_CASE("push_back_pruning keeps the ring near its live entries, in order, behind a live front") {
  // Entry 0 stays live for the whole run (a batch stuck at a deque's head); every other entry
  // is live only while it is among the last 10 pushed (batches drained soon after creation).
  RingQueue<int> q;
  int pushed = 0;
  auto live = [&](int v) { return v == 0 || v >= pushed - 10; };
  for (; pushed < 100'000;) {
    const int v = pushed++;
    q.push_back_pruning(v, live);
  }
  CHECK(q.capacity() <= 64);  // plain push_back: 131,072
  CHECK(q.front() == 0);
  std::vector<int> kept;
  for (std::size_t i = 0; i < q.size(); ++i)
    if (live(q[i])) kept.push_back(q[i]);
  REQUIRE(kept.size() == 11);
  for (std::size_t i = 1; i < kept.size(); ++i) CHECK(kept[i] == 100'000 - 11 + static_cast<int>(i));
}

TEST_CASE("push_back_pruning grows when most entries are live, and loses none") {
  RingQueue<int> q;
  for (int v = 0; v < 1000; ++v) q.push_back_pruning(v, [](int) { return true; });
  REQUIRE(q.size() == 1000);
  for (int v = 0; v < 1000; ++v) CHECK(q[static_cast<std::size_t>(v)] == v);
}
