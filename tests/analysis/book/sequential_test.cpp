// The sequential Monte Carlo rule of the book's outcome rows: the Clopper-Pearson interval
// of the ideal p-value, the decision it gives against a threshold, the looks, and the
// smallest cap at which a row can fail. Reference bounds computed by bisection on the
// binomial cdf (mpmath, 30 digits).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "analysis/book/sequential.hpp"

using namespace partsim::analysis::book;

TEST_CASE("the p-value interval doubles the Clopper-Pearson 99.9% bounds of the smaller tail") {
  // 0 of 800 beyond the published value: [0, 2 (1 - 0.0005^(1/800))] = [0, 0.0189].
  auto p = p_value_interval(0, 800, 800);
  CHECK(p.lo == 0.0);
  CHECK(p.hi == doctest::Approx(2 * (1 - std::pow(0.0005, 1.0 / 800))).epsilon(1e-9));
  CHECK(p.hi == doctest::Approx(0.0189122699298667).epsilon(1e-9));
  // 10 of 1600: [0.00338, 0.03142] around p = 2 (11 / 1601) = 0.0137.
  p = p_value_interval(10, 1590, 1600);
  CHECK(p.lo == doctest::Approx(0.00338045367092295).epsilon(1e-6));
  CHECK(p.hi == doctest::Approx(0.0314191992262688).epsilon(1e-6));
  // Either tail may be the smaller one: the interval is symmetric in them.
  const auto q = p_value_interval(1590, 10, 1600);
  CHECK(q.lo == p.lo);
  CHECK(q.hi == p.hi);
  // In the middle the interval is capped at 1.
  p = p_value_interval(400, 400, 800);
  CHECK(p.hi == 1.0);
  CHECK(p.lo > 0.8);
  // No replications: nothing is known.
  p = p_value_interval(0, 0, 0);
  CHECK(p.lo == 0.0);
  CHECK(p.hi == 1.0);
}

TEST_CASE("the interval always contains the Monte Carlo p-value it is printed with") {
  for (const std::size_t r : std::initializer_list<std::size_t>{10, 59, 800, 12800})
    for (std::size_t b = 0; b <= r; b += (r / 7 + 1)) {
      const std::size_t a = r - b + (b > 0 ? 1 : 0);  // one tie when b > 0
      const auto p = p_value_interval(b, a, r);
      const double mc = std::min(1.0, 2 * std::min(1.0 + static_cast<double>(b), 1.0 + static_cast<double>(a)) /
                                          static_cast<double>(r + 1));
      CAPTURE(r);
      CAPTURE(b);
      CHECK(p.lo <= mc);
      CHECK(mc <= p.hi);
    }
}

TEST_CASE("a decision needs the whole interval on one side of the threshold") {
  CHECK(decide({0.006, 0.01}, 0.005) == Decision::kPass);
  CHECK(decide({0.005, 0.01}, 0.005) == Decision::kPass);  // p >= threshold passes
  CHECK(decide({0.001, 0.0049}, 0.005) == Decision::kFail);
  CHECK(decide({0.001, 0.005}, 0.005) == Decision::kUndecided);
  CHECK(decide({0.004, 0.006}, 0.005) == Decision::kUndecided);
}

TEST_CASE("looks double up to the cap, and the cap must let a row fail") {
  CHECK(next_look(800, 102400) == 1600);
  CHECK(next_look(51200, 102400) == 102400);
  CHECK(next_look(800, 1000) == 1000);  // the last look is the cap itself
  CHECK(next_look(1000, 1000) == 1000);
  // 2 (1 - 0.0005^(1/R)) < t: 0.05 / 10 from 3,037 on, 0.05 / 11 from 3,341, 0.05 from 301.
  CHECK(minimum_cap(0.005) == 3037);
  CHECK(minimum_cap(0.05 / 11) == 3341);
  CHECK(minimum_cap(0.05) == 301);
  CHECK(decide(p_value_interval(0, 3037, 3037), 0.005) == Decision::kFail);
  CHECK(decide(p_value_interval(0, 3036, 3036), 0.005) == Decision::kUndecided);
}
