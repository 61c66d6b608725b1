// The book's criteria: intervals, the one "about" tolerance, the summary over
// replications, the Monte Carlo p-value of one run's outcome and its Bonferroni threshold,
// and the rule that an undefined value never passes.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "analysis/book_criterion.hpp"

using namespace partsim::analysis::book;

TEST_CASE("intervals keep their open and closed ends") {
  const Interval most{0.5, 1, true, false};
  CHECK_FALSE(most.contains(0.5));
  CHECK(most.contains(0.5000001));
  CHECK(most.contains(1.0));
  CHECK(most.to_string(3) == "(0.500, 1.000]");
  CHECK(Interval{0.9, 1, false, true}.to_string(2) == "[0.90, 1.00)");
}

TEST_CASE("about a third is 1/3 plus or minus 10%, and the bands beside it do not overlap it") {
  const auto a = about(1.0 / 3);
  CHECK(a.lo == doctest::Approx(0.3));
  CHECK(a.hi == doctest::Approx(0.36667).epsilon(1e-4));
  const auto above = above_about(1.0 / 3, 1);
  const auto below = below_about(1.0 / 3, 0);
  CHECK_FALSE(above.contains(a.hi));
  CHECK_FALSE(below.contains(a.lo));
  CHECK(above.contains(0.367));
  CHECK(below.contains(0.299));
  CHECK(about(12).to_string(2) == "[10.80, 13.20]");
}

TEST_CASE("the spread summarises defined values and counts undefined ones") {
  const std::vector<Sample> v{1.0, 2.0, std::nullopt, 3.0, 4.0, 5.0};
  const auto s = spread(v);
  CHECK(s.replications == 6);
  CHECK(s.undefined == 1);
  CHECK(s.median == doctest::Approx(3.0));
  CHECK(s.min == 1.0);
  CHECK(s.max == 5.0);
  CHECK(s.q025 == doctest::Approx(1.1));   // type 7: 1 + 0.025 * 4 * (2 - 1)
  CHECK(s.q975 == doctest::Approx(4.9));
  // 99% Student t interval with 4 degrees of freedom: t = 4.604095, sd = sqrt(2.5).
  CHECK(s.mean == doctest::Approx(3.0));
  CHECK(s.ci99_high - s.mean == doctest::Approx(4.604095 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-5));
}

TEST_CASE("the Monte Carlo p-value counts the observation itself, counts ties on both sides, and is capped at 1") {
  const std::vector<double> x{1, 2, 2, 3, 5};  // R = 5, so p is a multiple of 2/6
  // Beyond every value: min(1 + 5, 1 + 0) / 6 = 1/6, two-sided 1/3 (not 0: the +1).
  CHECK(monte_carlo_p_value(x, 6) == doctest::Approx(1.0 / 3));
  CHECK(monte_carlo_p_value(x, 0) == doctest::Approx(1.0 / 3));
  // On the smallest value: #{x <= 1} = 1 (the tie counts), min(2, 6) / 6, p = 2/3.
  CHECK(monte_carlo_p_value(x, 1) == doctest::Approx(2.0 / 3));
  CHECK(monte_carlo_p_value(x, 5) == doctest::Approx(2.0 / 3));
  // In the middle: min(1 + 3, 1 + 4) / 6 = 2/3, doubled to 4/3, capped at 1.
  CHECK(monte_carlo_p_value(x, 2) == 1.0);
  CHECK(monte_carlo_p_value(x, 2.5) == 1.0);
  // 0..19: v = 1 has 2 values at or below it: 2 (1 + 2) / 21 = 6/21; v = 2.5: 2 (1 + 3) / 21.
  std::vector<double> y(20);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i);
  CHECK(monte_carlo_p_value(y, 1) == doctest::Approx(6.0 / 21));
  CHECK(monte_carlo_p_value(y, 2.5) == doctest::Approx(8.0 / 21));
  CHECK(monte_carlo_p_value(y, 17) == doctest::Approx(8.0 / 21));  // 1 + 3 at or above 17
  // All values tied: on them p = 1; beside them the smallest p, 2 / (R + 1).
  const std::vector<double> tied(10, 3.0);
  CHECK(monte_carlo_p_value(tied, 3) == 1.0);
  CHECK(monte_carlo_p_value(tied, 4) == doctest::Approx(2.0 / 11));
  CHECK(monte_carlo_p_value(std::vector<double>{}, 4) == 1.0);  // no values, no evidence
}

TEST_CASE("the replications needed to resolve a threshold: the smallest p, 2 / (R + 1), below it") {
  CHECK(minimum_replications(0.05 / 10) == 400);  // 2/401 = 0.00499 < 0.005 = 2/400
  CHECK(minimum_replications(0.05 / 3) == 120);
  CHECK(minimum_replications(0.05) == 40);
  CHECK(minimum_replications(0.05 / 12) == 480);
  CHECK(minimum_replications(0.004) == 500);
  CHECK(minimum_replications(0.0041) == 487);     // 2/488 = 0.0040984 < 0.0041 <= 2/487
}

TEST_CASE("one run's outcome fails when its p-value is below the family's threshold") {
  std::vector<Sample> v;
  for (int i = 0; i < 59; ++i) v.emplace_back(i);  // R = 59: p is a multiple of 2/60
  const auto inside = spread(v, 1.0);
  REQUIRE(inside.p_value);
  CHECK(*inside.p_value == doctest::Approx(0.1));  // 2 (1 + 2) / 60
  CHECK(inside.at_or_below == 2);
  CHECK(inside.at_or_above == 58);
  const auto beyond = spread(v, 60.0);
  CHECK(*beyond.p_value == doctest::Approx(2.0 / 60));
  CHECK(beyond.at_or_above == 0);
  const Criterion alone = {Test::kPublishedNotInTail, 60, {}, "", kFamilyAlpha / 1, 1};
  const Criterion among_5 = {Test::kPublishedNotInTail, 60, {}, "", kFamilyAlpha / 5, 5};
  // p = 0.033 fails a row tested alone (0.05) and passes among five (0.05 / 5 = 0.01).
  CHECK_FALSE(passes(alone, beyond));
  CHECK(passes(among_5, beyond));
  CHECK(passes(alone, inside));
  // The rule is "fails when p < threshold": p at the threshold passes.
  CHECK(passes({Test::kPublishedNotInTail, 1, {}, "", 0.1, 1}, inside));
  CHECK_FALSE(passes({Test::kPublishedNotInTail, 1, {}, "", 0.1000001, 1}, inside));
  // A criterion whose threshold the runner never set cannot pass: it would test nothing.
  CHECK_FALSE(passes({Test::kPublishedNotInTail, 1, {}, "", 0, 0}, inside));
  CHECK(describe(among_5, 2) == "p of published 60.00 >= 0.0100 (0.05 / 5)");
  CHECK(describe(beyond, among_5, 1) == "29.0 [1.5, 56.5], p 0.0333");
}

TEST_CASE("each test reads the spread as stated") {
  const std::vector<Sample> v{0.30, 0.32, 0.33, 0.34, 0.36};
  const auto s = spread(v);
  CHECK(passes({Test::kPublishedInMeanCi, 0.33, {}, ""}, s));
  CHECK_FALSE(passes({Test::kPublishedInMeanCi, 0.40, {}, ""}, s));
  CHECK(passes({Test::kMedianIn, 0, about(1.0 / 3), ""}, s));
  CHECK_FALSE(passes({Test::kMedianIn, 0, {0.5, 1, true, false}, ""}, s));
  CHECK(passes({Test::kEveryIn, 0, about(1.0 / 3), ""}, s));
  const std::vector<Sample> one_out{0.30, 0.32, 0.33, 0.34, 0.37};
  CHECK(passes({Test::kMedianIn, 0, about(1.0 / 3), ""}, spread(one_out)));
  CHECK_FALSE(passes({Test::kEveryIn, 0, about(1.0 / 3), ""}, spread(one_out)));
  CHECK(describe({Test::kMedianIn, 0, about(1.0 / 3), ""}, 3) == "median in [0.300, 0.367]");
  CHECK(describe(s, {Test::kMedianIn, 0, {}, ""}, 2) == "0.33 [0.30, 0.36]");
}

TEST_CASE("an undefined value in any replication fails every test, however wide the rest") {
  // The old book counted an empty partition's max/min as 1e9: the range became
  // [x, 1e9] and every published value "passed". Undefined is not a number here.
  const std::vector<Sample> v{1.0, 2.0, 3.0, std::nullopt};
  const auto s = spread(v);
  CHECK(describe(s, {Test::kPublishedNotInTail, 2, {}, ""}, 1) == "undefined in 1 of 4");
  for (const Test t : {Test::kPublishedNotInTail, Test::kPublishedInMeanCi, Test::kMedianIn, Test::kEveryIn})
    CHECK_FALSE(passes({t, 2.0, {0, 1e9, false, false}, "", 1, 1}, spread(v, 2.0)));
  CHECK_FALSE(passes({Test::kMedianIn, 0, {0, 1e9, false, false}, ""}, spread(std::vector<Sample>{})));
}
