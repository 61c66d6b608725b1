#pragma once
// How evenly counts spread over bins (records per partition): max/min, coefficient of
// variation, Jain's fairness index, Pearson's chi-square test and the Kullback-Leibler
// divergence, against uniform or against expected weights.

#include <cstdint>
#include <span>

namespace partsim::analysis {

struct DistributionStats {
  double max_over_min = 0;   ///< infinity when some bin is empty (reported as null in JSON)
  double cv = 0;             ///< population standard deviation / mean
  double jain = 1;           ///< (sum x)^2 / (n sum x^2): 1 = perfectly even, 1/n = all in one bin
  double chi_square = 0;     ///< sum (observed - expected)^2 / expected
  double p_value = 1;        ///< P(chi2 with k-1 degrees of freedom >= statistic)
  double kl_divergence = 0;  ///< sum p log(p / q) in nats, p observed shares, q expected shares
  bool has_empty_bin = false;
};

/// Against uniform expectations.
DistributionStats distribution_stats(std::span<const std::int64_t> counts);
/// Against expected shares proportional to `weights` (same length as counts, > 0 where
/// anything is expected; bins with weight 0 must be empty).
DistributionStats distribution_stats(std::span<const std::int64_t> counts, std::span<const double> weights);
/// Over bins that existed for different times (`exposure`, > 0; partitions a topic's
/// schedule added): max/min, cv and Jain are of the rates count / exposure, chi-square and
/// KL against shares proportional to exposure. Equal exposures give distribution_stats(counts).
DistributionStats distribution_stats_exposed(std::span<const std::int64_t> counts, std::span<const double> exposure);

}  // namespace partsim::analysis
