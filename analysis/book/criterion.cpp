#include "analysis/book/criterion.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/format.hpp"
#include "analysis/probability.hpp"
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

double binomial_test_p_value(std::int64_t successes, std::int64_t trials, double p0) {
  if (trials <= 0) return 1;
  const auto k = static_cast<double>(successes);
  const double below = binomial_at_most(static_cast<double>(trials), p0, k);   // P(X <= k)
  const double above = binomial_at_least(static_cast<double>(trials), p0, k);  // P(X >= k)
  return std::min(1.0, 2 * std::min(below, above));
}

bool in_family(Test t) { return t == Test::kPublishedNotInTail || t == Test::kPublishedProbability; }

namespace {

// Median, range, mean and its 99% interval of the defined values.
void summarise(Spread& s, const std::vector<double>& defined) {
  if (defined.empty()) return;
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
    const double half = students_t_upper_quantile(n - 1, 0.005) * std::sqrt(ss / (n - 1)) / std::sqrt(n);
    s.ci99_low = s.mean - half;
    s.ci99_high = s.mean + half;
  }
}

}  // namespace

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
    s.at_or_below = static_cast<std::size_t>(std::count_if(defined.begin(), defined.end(),
                                                           [&](double x) { return x <= *published; }));
    s.at_or_above = static_cast<std::size_t>(std::count_if(defined.begin(), defined.end(),
                                                           [&](double x) { return x >= *published; }));
    s.p_interval = p_value_interval(s.at_or_below, s.at_or_above, defined.size());
  }
  summarise(s, defined);
  return s;
}

Spread spread(std::span<const std::optional<Tally>> tallies, double published) {
  Spread s;
  s.replications = tallies.size();
  std::vector<double> shares;
  for (const auto& t : tallies) {
    if (!t || t->trials <= 0) {
      ++s.undefined;
      continue;
    }
    shares.push_back(static_cast<double>(t->successes) / static_cast<double>(t->trials));
    s.successes += t->successes;
    s.trials += t->trials;
  }
  const double p = binomial_test_p_value(s.successes, s.trials, published);
  s.p_value = p;
  s.p_interval = {p, p};  // exact: no Monte Carlo error to resolve
  summarise(s, shares);
  return s;
}

std::string describe(const Criterion& c, int decimals) {
  switch (c.test) {
    case Test::kPublishedNotInTail:
    case Test::kPublishedProbability:
      return "p >= " + fixed(c.threshold, 4) + " (" + fixed(kFamilyAlpha, 2) + " / " + std::to_string(c.family) + ")";
    case Test::kMedianIn: return "median in " + c.interval.to_string(decimals);
    case Test::kEveryIn: return "every replication in " + c.interval.to_string(decimals);
  }
  return {};
}

std::string describe(const Spread& s, const Criterion& c, int decimals) {
  if (s.undefined > 0) return "undefined in " + std::to_string(s.undefined) + " of " + std::to_string(s.replications);
  if (s.replications == 0) return "no replications";
  if (c.test == Test::kPublishedProbability)
    return fixed(static_cast<double>(s.successes) / static_cast<double>(std::max<std::int64_t>(1, s.trials)),
                 decimals) +
           ": " + std::to_string(s.successes) + " of " + std::to_string(s.trials);
  if (c.test == Test::kEveryIn)
    return fixed(s.median, decimals) + " [min " + fixed(s.min, decimals) + ", max " + fixed(s.max, decimals) + "]";
  return fixed(s.median, decimals) + " [" + fixed(s.q025, decimals) + ", " + fixed(s.q975, decimals) + "]";
}

std::string describe_p(const Spread& s, const Criterion& c) {
  if (!in_family(c.test) || !s.p_value || s.undefined > 0 || s.replications == 0) return {};
  if (c.test == Test::kPublishedProbability) return fixed(*s.p_value, 4) + " exact";
  return fixed(*s.p_value, 4) + " [" + fixed(s.p_interval.lo, 4) + ", " + fixed(s.p_interval.hi, 4) + "]";
}

Verdict verdict(const Criterion& c, const Spread& s) {
  if (s.undefined > 0 || s.replications == 0) return Verdict::kFail;
  auto of = [](bool pass) { return pass ? Verdict::kPass : Verdict::kFail; };
  switch (c.test) {
    case Test::kPublishedNotInTail:
    case Test::kPublishedProbability:
      if (!(c.threshold > 0) || !s.p_value) return Verdict::kFail;  // an unset threshold tests nothing
      switch (decide(s.p_interval, c.threshold)) {
        case Decision::kPass: return Verdict::kPass;
        case Decision::kFail: return Verdict::kFail;
        case Decision::kUndecided: return Verdict::kUndecided;
      }
      return Verdict::kFail;
    case Test::kMedianIn: return of(c.interval.contains(s.median));
    case Test::kEveryIn: return of(c.interval.contains(s.min) && c.interval.contains(s.max));
  }
  return Verdict::kFail;
}

}  // namespace partsim::analysis::book
