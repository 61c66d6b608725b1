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

Spread spread(std::span<const Sample> values) {
  Spread s;
  s.replications = values.size();
  std::vector<double> defined;
  for (const auto& v : values) {
    if (v) defined.push_back(*v);
    else ++s.undefined;
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
    case Test::kPublishedInRange:
      return "published " + fixed(c.published, decimals) + " inside partsim's 2.5%..97.5% range";
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
  return fixed(s.median, decimals) + " [" + fixed(s.q025, decimals) + ", " + fixed(s.q975, decimals) + "]";
}

bool passes(const Criterion& c, const Spread& s) {
  if (s.undefined > 0 || s.replications == 0) return false;
  switch (c.test) {
    case Test::kPublishedInRange:
      return Interval{s.q025, s.q975}.contains(c.published);
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
