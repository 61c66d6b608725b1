#pragma once
// How evenly counts spread over bins (records per partition): max/min, coefficient of
// variation, and Pearson's chi-square test against uniform.

#include <cstdint>
#include <span>

namespace partsim::analysis {

struct DistributionStats {
  double max_over_min = 0;   ///< infinity when some bin is empty (reported as null in JSON)
  double cv = 0;             ///< population standard deviation / mean
  double chi_square = 0;     ///< sum (observed - expected)^2 / expected, expected = mean
  double p_value = 1;        ///< P(chi2 with k-1 degrees of freedom >= statistic)
  bool has_empty_bin = false;
};

DistributionStats distribution_stats(std::span<const std::int64_t> counts);

}  // namespace partsim::analysis
