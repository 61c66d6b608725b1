#pragma once
// A metric over replications: mean with a 95% Student t confidence interval, and the
// order statistics where the spread matters.

#include <span>
#include <string>
#include <vector>

namespace partsim::analysis {

struct Summary {
  std::size_t n = 0;
  double mean = 0;
  double ci_low = 0, ci_high = 0;  ///< 95% Student t interval for the mean (= mean when n < 2)
  double min = 0, median = 0, max = 0;
  double q025 = 0, q975 = 0;  ///< 2.5% and 97.5% empirical quantiles (linear interpolation)
};

Summary summarize(std::span<const double> values);

/// Empirical quantile with linear interpolation between order statistics (type 7).
double quantile(std::vector<double> values, double q);

}  // namespace partsim::analysis
