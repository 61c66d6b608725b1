#pragma once
// Checks of a sample's quantiles against a closed form, for the tests of the model's
// random draws (workload, broker jitter). The tolerance is derived from the sample size:
// the empirical p-quantile of n independent draws is asymptotically normal around the
// true quantile q with standard error sqrt(p (1 - p) / n) / f(q), f the density at q
// (Bahadur). A check allows 5 standard errors (a fresh seed fails with probability below
// 1e-6; the tests use fixed seeds, so they are deterministic) plus what rounding the draws
// adds.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace partsim::model::test {

/// The empirical p-quantile of a sorted sample: the smallest value whose empirical CDF
/// reaches p.
inline double empirical_quantile(const std::vector<double>& sorted, double p) {
  const auto n = static_cast<double>(sorted.size());
  const auto i = static_cast<std::size_t>(std::max(1.0, std::ceil(p * n))) - 1;
  return sorted[i];
}

/// 5 standard errors of the empirical p-quantile of n draws from a law with density
/// `density` at its true p-quantile.
inline double quantile_tolerance(double p, std::size_t n, double density) {
  return 5.0 * std::sqrt(p * (1.0 - p) / static_cast<double>(n)) / density;
}

/// 5 standard errors of an observed share of n draws whose true probability is p.
inline double share_tolerance(double p, std::size_t n) {
  return 5.0 * std::sqrt(p * (1.0 - p) / static_cast<double>(n));
}

/// CHECKs that the sorted sample's p-quantile is `expected` within quantile_tolerance plus
/// `rounding` (half a unit where the draws are rounded to whole units).
inline void check_quantile(const std::vector<double>& sorted, double p, double expected, double density,
                           double rounding = 0.0) {
  const double got = empirical_quantile(sorted, p);
  const double tolerance = quantile_tolerance(p, sorted.size(), density) + rounding;
  INFO("quantile ", p, " of ", sorted.size(), " draws: ", got, ", closed form ", expected, ", tolerance ", tolerance);
  CHECK(std::abs(got - expected) <= tolerance);
}

/// check_quantile for the median and the 0.9-quantile of a continuous Boost.Math law.
template <typename Law>
void check_median_and_q90(const std::vector<double>& sorted, const Law& law, double rounding = 0.0) {
  for (const double p : {0.5, 0.9}) {
    const double q = quantile(law, p);
    check_quantile(sorted, p, q, pdf(law, q), rounding);
  }
}

}  // namespace partsim::model::test
