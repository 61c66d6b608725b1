#include "analysis/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/chi_squared.hpp>

namespace partsim::analysis {

DistributionStats distribution_stats(std::span<const std::int64_t> counts) {
  DistributionStats d;
  if (counts.empty()) return d;
  const auto [mn, mx] = std::minmax_element(counts.begin(), counts.end());
  d.has_empty_bin = *mn == 0;
  d.max_over_min = *mn == 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(*mx) / static_cast<double>(*mn);
  double total = 0;
  for (auto c : counts) total += static_cast<double>(c);
  const double k = static_cast<double>(counts.size());
  const double mean = total / k;
  if (mean <= 0) return d;
  double ss = 0;
  for (auto c : counts) ss += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean);
  d.cv = std::sqrt(ss / k) / mean;
  d.chi_square = ss / mean;
  if (counts.size() >= 2) {
    const boost::math::chi_squared chi(k - 1);
    d.p_value = boost::math::cdf(boost::math::complement(chi, d.chi_square));
  }
  return d;
}

}  // namespace partsim::analysis
