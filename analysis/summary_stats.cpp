#include "analysis/summary_stats.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/probability.hpp"

namespace partsim::analysis {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double h = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

Summary summarize(std::span<const double> values) {
  Summary s;
  s.n = values.size();
  if (s.n == 0) return s;
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(s.n);
  s.ci_low = s.ci_high = s.mean;
  if (s.n >= 2) {
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    const double sd = std::sqrt(ss / static_cast<double>(s.n - 1));
    const double half =
        students_t_upper_quantile(static_cast<double>(s.n - 1), 0.025) * sd / std::sqrt(static_cast<double>(s.n));
    s.ci_low = s.mean - half;
    s.ci_high = s.mean + half;
  }
  std::vector<double> v(values.begin(), values.end());
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  s.median = quantile(v, 0.5);
  s.q025 = quantile(v, 0.025);
  s.q975 = quantile(v, 0.975);
  return s;
}

}  // namespace partsim::analysis
