#include "analysis/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "analysis/probability.hpp"

namespace partsim::analysis {

DistributionStats distribution_stats(std::span<const std::int64_t> counts) {
  const std::vector<double> uniform(counts.size(), 1.0);
  return distribution_stats(counts, uniform);
}

DistributionStats distribution_stats(std::span<const std::int64_t> counts, std::span<const double> weights) {
  DistributionStats d;
  if (counts.empty() || weights.size() != counts.size()) return d;
  const auto [mn, mx] = std::minmax_element(counts.begin(), counts.end());
  d.has_empty_bin = *mn == 0;
  d.max_over_min = *mn == 0 ? std::numeric_limits<double>::infinity()
                            : static_cast<double>(*mx) / static_cast<double>(*mn);
  double total = 0, sum_sq = 0, weight_total = 0;
  for (auto c : counts) {
    total += static_cast<double>(c);
    sum_sq += static_cast<double>(c) * static_cast<double>(c);
  }
  for (double w : weights) weight_total += w;
  const double k = static_cast<double>(counts.size());
  const double mean = total / k;
  if (mean <= 0 || weight_total <= 0) return d;
  double ss = 0;
  for (auto c : counts) ss += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean);
  d.cv = std::sqrt(ss / k) / mean;
  d.jain = total * total / (k * sum_sq);
  std::size_t bins = 0;
  bool impossible = false;  // a count where the weights gave no chance at all
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double expected = total * weights[i] / weight_total;
    const double observed = static_cast<double>(counts[i]);
    if (expected <= 0) {
      impossible = impossible || observed > 0;
      continue;
    }
    ++bins;
    d.chi_square += (observed - expected) * (observed - expected) / expected;
    const double p = observed / total;
    if (p > 0) d.kl_divergence += p * std::log(p / (weights[i] / weight_total));
  }
  if (bins >= 2) {
    d.p_value = chi_square_upper_tail(static_cast<double>(bins - 1), d.chi_square);
  }
  if (impossible) {  // outcomes the weights rule out refute them whatever the other bins say
    d.chi_square = std::numeric_limits<double>::infinity();
    d.p_value = 0;
  }
  return d;
}

DistributionStats distribution_stats_exposed(std::span<const std::int64_t> counts, std::span<const double> exposure) {
  if (counts.empty() || exposure.size() != counts.size()) return {};
  if (std::all_of(exposure.begin(), exposure.end(), [&](double e) { return e == exposure.front(); }))
    return distribution_stats(counts);
  DistributionStats d = distribution_stats(counts, exposure);  // chi-square, p, KL against the time-weighted shares
  std::vector<double> rates;
  rates.reserve(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) rates.push_back(static_cast<double>(counts[i]) / exposure[i]);
  const auto [mn, mx] = std::minmax_element(rates.begin(), rates.end());
  d.max_over_min = *mn == 0 ? std::numeric_limits<double>::infinity() : *mx / *mn;
  double total = 0, sum_sq = 0;
  for (double r : rates) {
    total += r;
    sum_sq += r * r;
  }
  const double k = static_cast<double>(rates.size());
  const double mean = total / k;
  if (mean <= 0) return d;
  double ss = 0;
  for (double r : rates) ss += (r - mean) * (r - mean);
  d.cv = std::sqrt(ss / k) / mean;
  d.jain = total * total / (k * sum_sq);
  return d;
}

}  // namespace partsim::analysis
