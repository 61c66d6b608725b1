// CountMap: counts against a std::map through random adds and removals, with keys chosen
// to collide (backward-shift deletion must keep every key reachable), and its size.

#include "model/producer/detail/count_map.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>

using partsim::model::detail::CountMap;

TEST_CASE("a count map agrees with a std::map through adds that reach zero, growth and colliding keys") {
  CountMap counts;
  std::map<std::int32_t, std::int32_t> expected;
  std::mt19937 rng(7);
  // Few distinct keys, many of them multiples of 16 (the same home slot in a 16-slot table
  // whatever the multiplier), so that probe runs form and holes open inside them.
  std::uniform_int_distribution<std::int32_t> pick(0, 63);
  for (int step = 0; step < 20000; ++step) {
    const std::int32_t k = pick(rng);
    const std::int32_t key = k < 32 ? k * 16 : k * 1000003;
    const std::int32_t delta = expected[key] > 0 && rng() % 2 ? -1 : 1;
    const std::int32_t now = counts.add(key, delta);
    expected[key] += delta;
    REQUIRE(now == expected[key]);
    if (expected[key] == 0) expected.erase(key);
    if (step % 97 == 0)
      for (std::int32_t j = 0; j < 64; ++j) {
        const std::int32_t probe = j < 32 ? j * 16 : j * 1000003;
        const auto it = expected.find(probe);
        REQUIRE(counts.get(probe) == (it == expected.end() ? 0 : it->second));
      }
    REQUIRE(counts.size() == expected.size());
  }
}

TEST_CASE("a count map forgets a key whose count returns to zero") {
  CountMap counts;
  CHECK(counts.get(5) == 0);
  CHECK(counts.add(5, 2) == 2);
  CHECK(counts.add(5, -2) == 0);
  CHECK(counts.size() == 0);
  CHECK(counts.get(5) == 0);
  CHECK(counts.add(5, 0) == 0);
  CHECK(counts.size() == 0);
}
