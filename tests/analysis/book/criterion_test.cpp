// The book's criteria: intervals, the one "about" tolerance, the summary over
// replications, the Monte Carlo p-value of one run's outcome and the interval its verdict
// reads, the binomial test of a probability, and the rule that an undefined value never
// passes.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "analysis/book/criterion.hpp"
#include "analysis/format.hpp"

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
  CHECK(s.q025 == doctest::Approx(1.1));  // type 7: 1 + 0.025 * 4 * (2 - 1)
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

TEST_CASE("the binomial test doubles the smaller exact tail and is capped at 1") {
  // Hand-computed over exact fractions: X ~ Binomial(n, p0).
  CHECK(binomial_test_p_value(0, 4, 0.5) == doctest::Approx(0.125));  // 2 (1/2)^4
  CHECK(binomial_test_p_value(4, 4, 0.5) == doctest::Approx(0.125));
  CHECK(binomial_test_p_value(2, 4, 0.5) == 1.0);  // 2 (11/16), capped
  // 2 of 21 at 1/6: 2 P(X <= 2) = 2 (5^21 + 21 5^20 + 210 5^19) / 6^21 = 0.591239.
  CHECK(binomial_test_p_value(2, 21, 1.0 / 6) == doctest::Approx(0.5912385415706801).epsilon(1e-9));
  // 7 of 21 at 1/6: the upper tail, 2 P(X >= 7) = 0.095839.
  CHECK(binomial_test_p_value(7, 21, 1.0 / 6) == doctest::Approx(0.09583906807384322).epsilon(1e-9));
  // R1's size, 21 draws x 100 replications: 300 and 400 kept of 2100 lie in the tails.
  CHECK(binomial_test_p_value(300, 2100, 1.0 / 6) == doctest::Approx(0.0031760644534930727).epsilon(1e-7));
  CHECK(binomial_test_p_value(400, 2100, 1.0 / 6) == doctest::Approx(0.004326217577316308).epsilon(1e-7));
  CHECK(binomial_test_p_value(350, 2100, 1.0 / 6) == 1.0);  // the mean itself
  CHECK(binomial_test_p_value(0, 0, 1.0 / 6) == 1.0);       // no trials, no evidence
  CHECK(binomial_test_p_value(0, 10, 0.0) == 1.0);          // a certain outcome
  CHECK(binomial_test_p_value(1, 10, 0.0) == 0.0);          // an impossible one
}

TEST_CASE("a probability row pools the replications' counts and tests them in the family") {
  const std::vector<std::optional<Tally>> t{Tally{150, 1000}, Tally{150, 1100}};
  const auto s = spread(t, 1.0 / 6);
  CHECK(s.successes == 300);
  CHECK(s.trials == 2100);
  REQUIRE(s.p_value);
  CHECK(*s.p_value == doctest::Approx(0.0031760644534930727).epsilon(1e-7));
  CHECK(s.p_interval.lo == *s.p_value);  // exact: nothing left to resolve
  CHECK(s.p_interval.hi == *s.p_value);
  CHECK(s.mean == doctest::Approx((0.15 + 150.0 / 1100) / 2));  // the shares, summarised as for any row
  const Criterion alone{Test::kPublishedProbability, 1.0 / 6, {}, "", 0.05, 1};
  const Criterion among_11{Test::kPublishedProbability, 1.0 / 6, {}, "", 0.05 / 11, 11};
  CHECK(verdict(alone, s) == Verdict::kFail);                                     // 0.0032 < 0.05
  CHECK(verdict(among_11, s) == Verdict::kFail);                                  // 0.0032 < 0.0045
  const std::vector<std::optional<Tally>> u{Tally{200, 1000}, Tally{200, 1100}};  // 400 of 2100: p 0.0043
  CHECK(verdict(among_11, spread(u, 1.0 / 6)) == Verdict::kFail);
  CHECK(verdict({Test::kPublishedProbability, 1.0 / 6, {}, "", 0.004, 12}, spread(u, 1.0 / 6)) == Verdict::kPass);
  CHECK(describe(s, alone, 3) == "0.143: 300 of 2100");
  CHECK(describe_p(s, alone) == "0.0032 exact");
  CHECK(describe(alone, 3) == "p >= 0.0500 (0.05 / 1)");
  // A replication without a draw is undefined, and fails the row.
  const std::vector<std::optional<Tally>> gap{Tally{3, 21}, std::nullopt, Tally{0, 0}};
  const auto g = spread(gap, 1.0 / 6);
  CHECK(g.undefined == 2);
  CHECK(g.trials == 21);
  CHECK(verdict(alone, g) == Verdict::kFail);
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
  // The verdict reads the 99.9% interval of the ideal p: 0 of 59 beyond 60 cannot tell a
  // true p of 0.01 from one of 0.2.
  CHECK(beyond.p_interval.lo == 0.0);
  CHECK(beyond.p_interval.hi == doctest::Approx(2 * (1 - std::pow(0.0005, 1.0 / 59))));
  CHECK(beyond.p_interval.hi == doctest::Approx(0.241751179596380).epsilon(1e-6));
  const Criterion alone = {Test::kPublishedNotInTail, 60, {}, "", kFamilyAlpha / 1, 1};
  CHECK(verdict(alone, beyond) == Verdict::kUndecided);
  CHECK_FALSE(passes(alone, beyond));
  // 2 of 59 at or below 1: interval [0.0011, 0.3754] around p = 0.1 (Clopper-Pearson,
  // computed by bisection on the binomial cdf), so a threshold of 0.001 is passed and one
  // of 0.05 is undecided.
  CHECK(inside.p_interval.lo == doctest::Approx(0.00109242640249164).epsilon(1e-6));
  CHECK(inside.p_interval.hi == doctest::Approx(0.375367259364089).epsilon(1e-6));
  CHECK(verdict({Test::kPublishedNotInTail, 1, {}, "", 0.001, 50}, inside) == Verdict::kPass);
  CHECK(verdict({Test::kPublishedNotInTail, 1, {}, "", 0.05, 1}, inside) == Verdict::kUndecided);
  // The rule is "passes when the interval lies at or above the threshold": its bottom passes.
  CHECK(verdict({Test::kPublishedNotInTail, 1, {}, "", inside.p_interval.lo, 1}, inside) == Verdict::kPass);
  CHECK(verdict({Test::kPublishedNotInTail, 1, {}, "", inside.p_interval.lo * 1.000001, 1}, inside) ==
        Verdict::kUndecided);
  // A criterion whose threshold the runner never set cannot pass: it would test nothing.
  CHECK(verdict({Test::kPublishedNotInTail, 1, {}, "", 0, 0}, inside) == Verdict::kFail);
  const Criterion among_5 = {Test::kPublishedNotInTail, 60, {}, "", kFamilyAlpha / 5, 5};
  CHECK(describe(among_5, 2) == "p >= 0.0100 (0.05 / 5)");
  CHECK(describe(beyond, among_5, 1) == "29.0 [1.5, 56.5]");
  CHECK(describe_p(beyond, among_5) == "0.0333 [0.0000, " + partsim::analysis::fixed(beyond.p_interval.hi, 4) + "]");
  CHECK(describe_p(beyond, {Test::kMedianIn, 0, {}, ""}).empty());
}

TEST_CASE("a clear outcome row is decided: far below the threshold fails, far above passes") {
  std::vector<Sample> v;
  for (int i = 0; i < 4000; ++i) v.emplace_back(i);
  const Criterion c{Test::kPublishedNotInTail, 0, {}, "", 0.005, 10};
  // Published -1: below all 4000, p = 2 / 4001 and the interval's top 2 (1 - 0.0005^(1/4000)) = 0.0038.
  auto s = spread(v, -1.0);
  CHECK(s.p_interval.hi == doctest::Approx(0.00379684265844536).epsilon(1e-6));
  CHECK(verdict(c, s) == Verdict::kFail);
  s = spread(v, 2000.0);  // the median: p = 1
  CHECK(verdict(c, s) == Verdict::kPass);
}

TEST_CASE("each test reads the spread as stated") {
  const std::vector<Sample> v{0.30, 0.32, 0.33, 0.34, 0.36};
  const auto s = spread(v);
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
  for (const Test t : {Test::kPublishedNotInTail, Test::kMedianIn, Test::kEveryIn})
    CHECK(verdict({t, 2.0, {0, 1e9, false, false}, "", 1e-9, 1}, spread(v, 2.0)) == Verdict::kFail);
  CHECK_FALSE(passes({Test::kMedianIn, 0, {0, 1e9, false, false}, ""}, spread(std::vector<Sample>{})));
}
