// The statistics of the book's random entries on hand-made counts and traces.

#include <doctest/doctest.h>

#include <vector>

#include "analysis/book/statistics.hpp"
#include "analysis/distribution.hpp"

using namespace partsim::analysis::book;

TEST_CASE("complete runs leave out the last run, which the trace's end may cut") {
  const std::vector<std::int32_t> trace{3, 3, 2, 2, 2, 5};
  CHECK(complete_runs(trace) == std::vector<std::int64_t>{2, 3});
  CHECK(complete_runs(std::vector<std::int32_t>{4, 4, 4}).empty());
  CHECK(complete_runs(std::vector<std::int32_t>{}).empty());
}

TEST_CASE("run shares are undefined without a complete run, never a pass") {
  const std::vector<std::int64_t> runs{14, 28, 13, 14};
  CHECK(*share_multiple_of(runs, 14) == doctest::Approx(0.75));
  CHECK(*median_run(runs) == doctest::Approx(14));
  CHECK(*share_multiple_of(runs, 0) == 0);
  const std::vector<std::int64_t> none;
  CHECK_FALSE(share_multiple_of(none, 14));
  CHECK_FALSE(median_run(none));
}

TEST_CASE("switch draws are read at every stick boundary, the last run's included") {
  // Draws at records 2, 4, 6: 3 -> 3 kept, 3 -> 2 switched, 2 -> 5 switched.
  const std::vector<std::int32_t> trace{3, 3, 3, 3, 2, 2, 5};
  const auto t = kept_draws(trace, 2);
  REQUIRE(t);
  CHECK(t->trials == 3);
  CHECK(t->successes == 1);
  // The cut last run counts: 4,4 | 4,4 | 4: draws at 2 and 4 both kept, though no run is complete.
  const auto cut = kept_draws(std::vector<std::int32_t>{4, 4, 4, 4, 4}, 2);
  REQUIRE(cut);
  CHECK(cut->trials == 2);
  CHECK(cut->successes == 2);
  // 300 records with sticks of 14: draws at 14, 28, ..., 294.
  const std::vector<std::int32_t> r1(300, 0);
  CHECK(kept_draws(r1, 14)->trials == 21);
  CHECK_FALSE(kept_draws(std::vector<std::int32_t>{1, 1}, 2));  // no draw inside the trace
  CHECK_FALSE(kept_draws(trace, 0));
}

TEST_CASE("max/mean and min/mean stay defined with an empty partition") {
  const std::vector<std::int64_t> c{0, 10, 20};
  CHECK(*max_over_mean(c) == doctest::Approx(2.0));
  CHECK(*min_over_mean(c) == 0.0);
  CHECK(*coefficient_of_variation(c) == doctest::Approx(partsim::analysis::distribution_stats(c).cv));
  const std::vector<std::int64_t> nothing{0, 0, 0};
  CHECK_FALSE(max_over_mean(nothing));
  CHECK_FALSE(min_over_mean(nothing));
  CHECK_FALSE(coefficient_of_variation(nothing));
}

TEST_CASE("halves and the largest gap of sorted counts") {
  const std::vector<std::int64_t> two_groups{52, 1, 50, 2};
  CHECK(*lower_half_mean(two_groups) == doctest::Approx(1.5));
  CHECK(*share_below_largest_gap(two_groups) == doctest::Approx(0.5));
  CHECK(*share_below_largest_gap(std::vector<std::int64_t>{10, 10, 10, 100}) == doctest::Approx(0.75));
  CHECK(*lower_half_mean(std::vector<std::int64_t>{5, 1, 9}) == doctest::Approx(1.0));  // the lower n/2 of an odd count
  CHECK_FALSE(lower_half_mean(std::vector<std::int64_t>{7}));
  CHECK_FALSE(share_below_largest_gap(std::vector<std::int64_t>{7}));
}

TEST_CASE("paired ratios are undefined where there is nothing to compare with") {
  CHECK(*excess_ratio(0.4, 0.9, 0.3) == doctest::Approx(0.1 / 0.6));
  CHECK_FALSE(excess_ratio(0.4, 0.3, 0.3));  // KIP-480 with no excess over a third
  CHECK_FALSE(excess_ratio(std::nullopt, 0.9, 0.3));
  CHECK(*ratio(0.39, 0.42) == doctest::Approx(0.39 / 0.42));
  CHECK_FALSE(ratio(0.4, 0.0));
}
