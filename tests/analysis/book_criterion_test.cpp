// The book's criteria: intervals, the one "about" tolerance, the summary over
// replications, and the rule that an undefined value never passes.

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

TEST_CASE("each test reads the spread as stated") {
  const std::vector<Sample> v{0.30, 0.32, 0.33, 0.34, 0.36};
  const auto s = spread(v);
  CHECK(passes({Test::kPublishedInRange, 0.35, {}, ""}, s));
  CHECK_FALSE(passes({Test::kPublishedInRange, 0.37, {}, ""}, s));
  CHECK_FALSE(passes({Test::kPublishedInRange, 0.29, {}, ""}, s));
  CHECK(passes({Test::kPublishedInMeanCi, 0.33, {}, ""}, s));
  CHECK_FALSE(passes({Test::kPublishedInMeanCi, 0.40, {}, ""}, s));
  CHECK(passes({Test::kMedianIn, 0, about(1.0 / 3), ""}, s));
  CHECK_FALSE(passes({Test::kMedianIn, 0, {0.5, 1, true, false}, ""}, s));
  CHECK(passes({Test::kEveryIn, 0, about(1.0 / 3), ""}, s));
  const std::vector<Sample> one_out{0.30, 0.32, 0.33, 0.34, 0.37};
  CHECK(passes({Test::kMedianIn, 0, about(1.0 / 3), ""}, spread(one_out)));
  CHECK_FALSE(passes({Test::kEveryIn, 0, about(1.0 / 3), ""}, spread(one_out)));
  CHECK(describe({Test::kMedianIn, 0, about(1.0 / 3), ""}, 3) == "median in [0.300, 0.367]");
  CHECK(describe({Test::kPublishedInRange, 3.58, {}, ""}, 2) == "published 3.58 inside partsim's 2.5%..97.5% range");
  CHECK(describe(s, {Test::kPublishedInRange, 0, {}, ""}, 2) == "0.33 [0.30, 0.36]");
}

TEST_CASE("an undefined value in any replication fails every test, however wide the rest") {
  // The old book counted an empty partition's max/min as 1e9: the range became
  // [x, 1e9] and every published value "passed". Undefined is not a number here.
  const std::vector<Sample> v{1.0, 2.0, 3.0, std::nullopt};
  const auto s = spread(v);
  CHECK(describe(s, {Test::kPublishedInRange, 2, {}, ""}, 1) == "undefined in 1 of 4");
  for (const Test t : {Test::kPublishedInRange, Test::kPublishedInMeanCi, Test::kMedianIn, Test::kEveryIn})
    CHECK_FALSE(passes({t, 2.0, {0, 1e9, false, false}, ""}, s));
  CHECK_FALSE(passes({Test::kMedianIn, 0, {0, 1e9, false, false}, ""}, spread(std::vector<Sample>{})));
}
