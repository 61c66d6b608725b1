#include "analysis/book_criterion.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/students_t.hpp>

#include "analysis/format.hpp"
#include "analysis/summary_stats.hpp"

namespace partsim::analysis::book {

bool Interval::contains(double v) const {
  const bool above = lo_open ? v > lo : v >= lo;
  const bool below = hi_open ? v < hi : v <= hi;
  return above && below;
}

std::string Interval::to_string(int decimals) const {
  return std::string(lo_open ? "(" : "[") + fixed(lo, decimals) + ", " + fixed(hi, decimals) + (hi_open ? ")" : "]");
}

Interval about(double x) {
  const double d = std::fabs(x) * kAboutTolerance;
  return {x - d, x + d, false, false};
}

Interval above_about(double x, double max) { return {x + std::fabs(x) * kAboutTolerance, max, true, false}; }

Interval below_about(double x, double min) { return {min, x - std::fabs(x) * kAboutTolerance, false, true}; }

double monte_carlo_p_value(std::span<const double> x, double v) {
  const auto below = static_cast<double>(std::count_if(x.begin(), x.end(), [v](double xi) { return xi <= v; }));
  const auto above = static_cast<double>(std::count_if(x.begin(), x.end(), [v](double xi) { return xi >= v; }));
  const double n = static_cast<double>(x.size()) + 1;
  return std::min(1.0, 2 * std::min((1 + below) / n, (1 + above) / n));
}

std::size_t minimum_replications(double threshold) {
  // 2 / (R + 1) < threshold  <=>  R > 2 / threshold - 1; start just below and step up so
  // that rounding in 2 / threshold cannot give an R one short.
  const double guess = std::floor(2 / threshold) - 2;
  auto r = static_cast<std::size_t>(std::max(0.0, guess));
  while (!(2.0 / static_cast<double>(r + 1) < threshold)) ++r;
  return r;
}

Spread spread(std::span<const Sample> values, std::optional<double> published) {
  Spread s;
  s.replications = values.size();
  std::vector<double> defined;
  for (const auto& v : values) {
    if (v) defined.push_back(*v);
    else ++s.undefined;
  }
  if (published) {
    s.p_value = monte_carlo_p_value(defined, *published);
    s.at_or_below = static_cast<std::size_t>(std::count_if(defined.begin(), defined.end(), [&](double x) { return x <= *published; }));
    s.at_or_above = static_cast<std::size_t>(std::count_if(defined.begin(), defined.end(), [&](double x) { return x >= *published; }));
  }
  if (defined.empty()) return s;
  const auto sum = summarize(defined);
  s.median = sum.median;
  s.q025 = sum.q025;
  s.q975 = sum.q975;
  s.min = sum.min;
  s.max = sum.max;
  s.mean = sum.mean;
  s.ci99_low = s.ci99_high = s.mean;
  if (defined.size() >= 2) {
    double ss = 0;
    for (double v : defined) ss += (v - s.mean) * (v - s.mean);
    const double n = static_cast<double>(defined.size());
    const boost::math::students_t t(n - 1);
    const double half = boost::math::quantile(boost::math::complement(t, 0.005)) * std::sqrt(ss / (n - 1)) / std::sqrt(n);
    s.ci99_low = s.mean - half;
    s.ci99_high = s.mean + half;
  }
  return s;
}

std::string describe(const Criterion& c, int decimals) {
  switch (c.test) {
    case Test::kPublishedNotInTail:
      return "p of published " + fixed(c.published, decimals) + " >= " + fixed(c.threshold, 4) + " (" + fixed(kFamilyAlpha, 2) +
             " / " + std::to_string(c.family) + ")";
    case Test::kPublishedInMeanCi:
      return "published " + fixed(c.published, decimals) + " inside the 99% CI of partsim's mean";
    case Test::kMedianIn:
      return "median in " + c.interval.to_string(decimals);
    case Test::kEveryIn:
      return "every replication in " + c.interval.to_string(decimals);
  }
  return {};
}

std::string describe(const Spread& s, const Criterion& c, int decimals) {
  if (s.undefined > 0)
    return "undefined in " + std::to_string(s.undefined) + " of " + std::to_string(s.replications);
  if (s.replications == 0) return "no replications";
  if (c.test == Test::kPublishedInMeanCi)
    return "mean " + fixed(s.mean, decimals) + " [" + fixed(s.ci99_low, decimals) + ", " + fixed(s.ci99_high, decimals) + "]";
  if (c.test == Test::kEveryIn)
    return fixed(s.median, decimals) + " [min " + fixed(s.min, decimals) + ", max " + fixed(s.max, decimals) + "]";
  const std::string range = fixed(s.median, decimals) + " [" + fixed(s.q025, decimals) + ", " + fixed(s.q975, decimals) + "]";
  if (c.test == Test::kPublishedNotInTail && s.p_value) return range + ", p " + fixed(*s.p_value, 4);
  return range;
}

bool passes(const Criterion& c, const Spread& s) {
  if (s.undefined > 0 || s.replications == 0) return false;
  switch (c.test) {
    case Test::kPublishedNotInTail:
      return c.threshold > 0 && s.p_value && *s.p_value >= c.threshold;  // an unset threshold never passes
    case Test::kPublishedInMeanCi:
      return Interval{s.ci99_low, s.ci99_high}.contains(c.published);
    case Test::kMedianIn:
      return c.interval.contains(s.median);
    case Test::kEveryIn:
      return c.interval.contains(s.min) && c.interval.contains(s.max);
  }
  return false;
}

}  // namespace partsim::analysis::book
