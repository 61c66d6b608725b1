#include "sim/replications.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

using partsim::sim::for_each_replication;
using partsim::sim::replication_window;
using partsim::sim::run_replications;

namespace {

// A result that counts how many of its kind are alive, to check the memory bound.
std::atomic<int> g_alive{0};
std::atomic<int> g_peak{0};
struct Counted {
  std::size_t index = 0;
  bool live = false;
  Counted() = default;
  explicit Counted(std::size_t i) : index(i), live(true) { note(++g_alive); }
  Counted(Counted&& o) noexcept : index(o.index), live(o.live) { o.live = false; }
  Counted& operator=(Counted&& o) noexcept {
    if (live) --g_alive;
    index = o.index;
    live = o.live;
    o.live = false;
    return *this;
  }
  ~Counted() {
    if (live) --g_alive;
  }
  static void note(int n) {
    int peak = g_peak.load();
    while (n > peak && !g_peak.compare_exchange_weak(peak, n)) {
    }
  }
};

// Replication i takes longer the smaller i is in each group of 5, so later ones finish first.
void work(std::size_t i) { std::this_thread::sleep_for(std::chrono::microseconds(200 * (5 - i % 5))); }

}  // namespace

TEST_CASE("replications are consumed in index order whatever the thread count") {
  for (unsigned threads : {1u, 2u, 4u, 7u}) {
    CAPTURE(threads);
    std::vector<std::size_t> seen;
    const auto n = for_each_replication<std::size_t>(
        40, threads,
        [](std::size_t i) {
          work(i);
          return i * i;
        },
        [&](std::size_t i, std::size_t&& v) {
          CHECK(v == i * i);
          seen.push_back(i);
        });
    CHECK(n == 40);
    REQUIRE(seen.size() == 40);
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i);
  }
}

TEST_CASE("results held at once stay within the window, not the replication count") {
  for (unsigned threads : {1u, 3u}) {
    CAPTURE(threads);
    g_alive = 0;
    g_peak = 0;
    std::size_t consumed = 0;
    for_each_replication<Counted>(
        200, threads,
        [](std::size_t i) {
          work(i);
          return Counted(i);
        },
        [&](std::size_t i, Counted&& c) {
          CHECK(c.index == i);
          ++consumed;
        });
    CHECK(consumed == 200);
    CHECK(g_alive.load() == 0);
    CHECK(g_peak.load() >= 1);
    CHECK(static_cast<std::size_t>(g_peak.load()) <= replication_window(threads));
  }
}

TEST_CASE("after cancel no replication starts, and those that ran are consumed as a prefix") {
  std::atomic<bool> cancel{false};
  std::vector<std::size_t> seen;
  std::atomic<int> started{0};
  for_each_replication<std::size_t>(
      1000, 3,
      [&](std::size_t i) {
        if (++started == 10) cancel = true;
        work(i);
        return i;
      },
      [&](std::size_t i, std::size_t&&) { seen.push_back(i); }, {}, &cancel);
  CHECK(seen.size() >= 10);
  CHECK(seen.size() < 1000);
  CHECK(static_cast<int>(seen.size()) == started.load());
  for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i);
}

TEST_CASE("an exception in a replication or in the consumer is rethrown") {
  CHECK_THROWS_WITH(for_each_replication<int>(
                        50, 2,
                        [](std::size_t i) -> int {
                          if (i == 17) throw std::runtime_error("replication 17 failed");
                          return 0;
                        },
                        [](std::size_t, int&&) {}),
                    "replication 17 failed");
  std::size_t consumed = 0;
  CHECK_THROWS_WITH(for_each_replication<int>(
                        50, 2, [](std::size_t) { return 0; },
                        [&](std::size_t i, int&&) {
                          if (i == 5) throw std::runtime_error("disk full");
                          ++consumed;
                        }),
                    "disk full");
  CHECK(consumed == 5);
}

TEST_CASE("run_replications collects the results in index order") {
  const auto r = run_replications<std::size_t>(25, 4, [](std::size_t i) {
    work(i);
    return i + 100;
  });
  REQUIRE(r.size() == 25);
  for (std::size_t i = 0; i < r.size(); ++i) CHECK(r[i] == i + 100);
}
