#include "model/partitioners/key_movement.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include "model/partitioners/key_hash.hpp"

using namespace partsim::model;

namespace {
std::vector<std::int32_t> book_b_hashes(int count) {
  std::vector<std::int32_t> h;
  for (int i = 0; i < count; ++i) h.push_back(to_positive(murmur2("book-B" + std::to_string(i))));
  return h;
}
}  // namespace

TEST_CASE("table T5: key movement for book-B0..book-B19999") {
  const auto hashes = book_b_hashes(20000);
  struct Row {
    int from, to;
    std::uint64_t changed, modulo_stable;
    std::size_t example;
    int old_p, new_p;
  };
  const Row rows[] = {
      {4, 8, 9837, 20000, 1, 0, 4},   {4, 5, 16034, 5001, 0, 0, 2},  {8, 16, 10044, 20000, 3, 5, 13},
      {8, 12, 13309, 10062, 0, 0, 8}, {12, 6, 9990, 10010, 0, 8, 2},
  };
  for (const auto& r : rows) {
    CAPTURE(r.from);
    CAPTURE(r.to);
    const auto m = measure_key_movement(hashes, {r.from, r.to}, false);
    CHECK(m.keys == 20000);
    CHECK(m.changed == r.changed);
    CHECK(m.modulo_stable == r.modulo_stable);
    REQUIRE(m.example_index.has_value());
    CHECK(*m.example_index == r.example);
    CHECK(m.example_old == r.old_p);
    CHECK(m.example_new == r.new_p);
  }
}

TEST_CASE("table T5: the first 3000 keys, 4 -> 8") {
  const auto m = measure_key_movement(book_b_hashes(3000), {4, 8}, true);
  CHECK(m.changed == 1479);
  // Every key keeps a single partition in the new topic: old p goes only to p and p+4.
  for (int o = 0; o < 4; ++o)
    for (int n = 0; n < 8; ++n)
      if (n % 4 != o) CHECK(m.flow[static_cast<std::size_t>(o * 8 + n)] == 0);
}

TEST_CASE("flow rows add up to the old partition counts") {
  const auto hashes = book_b_hashes(1000);
  const auto m = measure_key_movement(hashes, {5, 7}, true);
  std::uint64_t total = 0;
  for (auto v : m.flow) total += v;
  CHECK(total == 1000);
}

TEST_CASE("predicted unchanged share is gcd/max") {
  CHECK(predicted_unchanged_share({4, 8}) == doctest::Approx(0.5));
  CHECK(predicted_unchanged_share({4, 5}) == doctest::Approx(0.2));
  CHECK(predicted_unchanged_share({8, 12}) == doctest::Approx(1.0 / 3));
  CHECK(predicted_unchanged_share({12, 6}) == doctest::Approx(0.5));
}

TEST_CASE("no key moves when the count stays the same") {
  const auto m = measure_key_movement(book_b_hashes(100), {6, 6}, false);
  CHECK(m.changed == 0);
  CHECK_FALSE(m.example_index.has_value());
}

TEST_CASE("two_rule_window: the formulas at Kafka's default metadata.max.age.ms") {
  const auto one = partsim::model::two_rule_window(300000, 1, 1000);
  CHECK(one.producer_expected_ms == 150000);
  CHECK(one.producer_max_ms == 300000);
  CHECK(one.all_expected_ms == 150000);
  CHECK(one.records_old_rule_expected == 150000);
  CHECK(one.records_old_rule_max == 300000);
  const auto three = partsim::model::two_rule_window(300000, 3, 1000);
  CHECK(three.all_expected_ms == 225000);            // 3/4 of T
  CHECK(three.records_old_rule_expected == 150000);  // whatever the producer count
}

TEST_CASE("two_rule_window agrees with a simulation of producers' refresh phases") {
  // Independent check: draw each producer's wait uniformly on [0, T) and average the last
  // one's wait and the records sent meanwhile (each producer sending rate/n).
  boost::random::mt19937_64 rng(42);
  boost::random::uniform_real_distribution<double> phase(0.0, 1000.0);
  for (const int n : {1, 2, 5}) {
    double last = 0, records = 0;
    const int trials = 200000;
    for (int t = 0; t < trials; ++t) {
      double m = 0;
      for (int i = 0; i < n; ++i) {
        const double u = phase(rng);
        m = std::max(m, u);
        records += 600.0 / n * u / 1000;
      }
      last += m;
    }
    const auto w = partsim::model::two_rule_window(1000, n, 600);
    CHECK(last / trials == doctest::Approx(w.all_expected_ms).epsilon(0.01));
    CHECK(records / trials == doctest::Approx(w.records_old_rule_expected).epsilon(0.01));
  }
}
