#include "model/producer/hot_keys.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

using partsim::model::HotKeys;

namespace {

using Pair = std::pair<std::size_t, std::string>;

// A Zipf(s) stream over `keys` keys by inverse CDF; each key lives on one of `partitions`
// partitions (key i on i % partitions, as a hash would put it).
std::vector<Pair> zipf_stream(std::size_t n, std::size_t keys, double s, std::size_t partitions, std::uint64_t seed) {
  std::vector<double> cdf(keys);
  double sum = 0;
  for (std::size_t i = 0; i < keys; ++i) cdf[i] = sum += 1.0 / std::pow(static_cast<double>(i + 1), s);
  for (auto& c : cdf) c /= sum;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Pair> out;
  out.reserve(n);
  for (std::size_t j = 0; j < n; ++j) {
    const auto i = static_cast<std::size_t>(std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin());
    const std::size_t k = std::min(i, keys - 1);
    out.emplace_back(k % partitions, "key-" + std::to_string(k));
  }
  return out;
}

}  // namespace

TEST_CASE("Space-Saving on a Zipf stream: every count brackets the exact one and the heavy keys are all held") {
  const std::size_t n = 200000, capacity = 256;
  const auto stream = zipf_stream(n, 20000, 1.1, 12, 42);
  std::map<Pair, std::int64_t> exact;
  HotKeys hot(capacity);
  for (const auto& [p, k] : stream) {
    ++exact[{p, k}];
    hot.add(p, k);
  }
  const auto r = hot.result();
  CHECK(r.counted == static_cast<std::int64_t>(n));
  CHECK(r.capacity == static_cast<std::int64_t>(capacity));
  REQUIRE(r.keys.size() == capacity);
  std::map<Pair, std::int64_t> held;
  for (std::size_t i = 0; i < r.keys.size(); ++i) {
    const auto& h = r.keys[i];
    const std::int64_t truth = exact[{h.partition, h.key}];
    CAPTURE(h.key);
    CHECK(h.records >= truth);            // never undercounts
    CHECK(h.records - h.error <= truth);  // and overcounts by at most its error
    CHECK(h.error <= static_cast<std::int64_t>(n / capacity));
    if (i > 0) CHECK(r.keys[i - 1].records >= h.records);  // highest count first
    held[{h.partition, h.key}] = h.records;
  }
  // Every pair seen more than N / capacity times is held.
  std::vector<std::pair<std::int64_t, Pair>> by_count;
  for (const auto& [pair, c] : exact) {
    if (c > static_cast<std::int64_t>(n / capacity)) CHECK(held.count(pair) == 1);
    by_count.emplace_back(c, pair);
  }
  // The ten most frequent keys of the stream come out as the first ten, in order.
  std::sort(by_count.rbegin(), by_count.rend());
  for (std::size_t i = 0; i < 10; ++i) {
    CAPTURE(i);
    CHECK(r.keys[i].key == by_count[i].second.second);
    CHECK(r.keys[i].partition == by_count[i].second.first);
  }
}

TEST_CASE("with fewer pairs than counters the counts are exact, and one key on two partitions is two pairs") {
  HotKeys hot(8);
  for (int i = 0; i < 5; ++i) hot.add(0, "a");
  for (int i = 0; i < 3; ++i) hot.add(1, "a");
  hot.add(2, "");
  hot.add(0, "b");
  const auto r = hot.result();
  REQUIRE(r.keys.size() == 4);
  CHECK(r.keys[0].key == "a");
  CHECK(r.keys[0].partition == 0);
  CHECK(r.keys[0].records == 5);
  CHECK(r.keys[1].partition == 1);
  CHECK(r.keys[1].records == 3);
  for (const auto& k : r.keys) CHECK(k.error == 0);
  CHECK(r.partition_counted == std::vector<std::int64_t>{6, 3, 1});
  CHECK(r.keys[2].key == "b");  // equal counts: by partition, then key
  CHECK(r.keys[3].key == "");
}

TEST_CASE("counters taken over many times keep the table consistent") {
  // A capacity of 3 and a cycle of 5 keys: every add evicts, exercising deletion from the
  // probe table; the repeated key is still found and counted.
  HotKeys hot(3);
  for (int round = 0; round < 1000; ++round) {
    hot.add(0, "hot");
    hot.add(0, "hot");
    hot.add(0, "cold-" + std::to_string(round % 5));
  }
  const auto r = hot.result();
  REQUIRE(r.keys.size() == 3);
  CHECK(r.keys[0].key == "hot");
  CHECK(r.keys[0].records == 2000);
  CHECK(r.keys[0].error == 0);
}
