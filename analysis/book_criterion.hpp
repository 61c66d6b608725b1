#pragma once
// How an entry of the book from runs with random choices passes or fails. partsim measures
// a statistic in each of R replications; a criterion, stated in numbers and in words,
// decides from those R values. Four tests, chosen by what the book's figure is:
//
// - one run's outcome (final counts, a hot partition's records): the published value, one
//   observation, must not lie in the tails of partsim's distribution of the statistic:
//   its two-sided Monte Carlo p-value (monte_carlo_p_value) must be at least the
//   family-wise threshold kFamilyAlpha / k, k = the outcome rows run (Bonferroni), so a
//   correct model fails one of the book's outcome rows in at most 5% of books;
// - a probability ("1 in 6"): the published value must lie inside the 99% confidence
//   interval of partsim's mean (Student t over replications);
// - a claim in words ("about a third", "most"): partsim's median must lie in an interval
//   read from the words with one tolerance (about(), above_about(), below_about());
// - a rule without exceptions ("every complete run is 14 long"): every replication's value
//   must lie in the interval.
// A value undefined in some replication (nullopt: no complete run, nothing to compare
// with) fails every test: an undefined figure is never "within range".

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace partsim::analysis::book {

/// A statistic's value in one replication; nullopt where it is undefined there.
using Sample = std::optional<double>;

/// A finite interval with open or closed ends, printed "[0.300, 0.367]" or "(0.500, 1.000]".
struct Interval {
  double lo = 0, hi = 0;
  bool lo_open = false, hi_open = false;

  bool contains(double v) const;
  std::string to_string(int decimals) const;
};

/// "About x" in the book reads as x ± kAboutTolerance·x. One tolerance for every claim:
/// the book gives these figures in words or to two digits; 10% of a third (0.033) is more
/// than three times the sampling error of partsim's median share over 100 replications
/// (at most 0.009 in R4, by bootstrap), and "more than a third" and "clearly below a
/// third" are read as outside the same band, so the three claims cannot overlap.
inline constexpr double kAboutTolerance = 0.10;

/// [x - 10%, x + 10%]: "about x".
Interval about(double x);
/// (x + 10%, max]: "more than x", beyond the band where it would still be "about x".
Interval above_about(double x, double max);
/// [min, x - 10%): "clearly below x", under the band where it would still be "about x".
Interval below_about(double x, double min);

/// The family-wise error rate of the outcome rows: the chance that a correct model fails
/// at least one of them in one `partsim book`.
inline constexpr double kFamilyAlpha = 0.05;

/// Monte Carlo two-sided p-value of one observed value `v` against R simulated values x:
///   p = min(1, 2 min((1 + #{x_i <= v}) / (R + 1), (1 + #{x_i >= v}) / (R + 1))).
/// The +1 counts the observation itself among the R + 1 exchangeable values under the null
/// hypothesis (the book's run is one more run of partsim's model), which makes the test
/// exact: P(p <= a) <= a for every a (Davison & Hinkley 1997, Bootstrap Methods and their
/// Application, ch. 4, Monte Carlo tests; North, Curtis & Sham 2002, Am. J. Hum. Genet.
/// 71:439). Ties count on both sides, which only makes it more conservative. The smallest
/// p is 2 / (R + 1). Example: x = {1, 2, 2, 3, 5}, v = 6: min(1 + 5, 1 + 0) / 6 = 1/6,
/// p = 1/3; v = 2: min(1 + 3, 1 + 4) / 6 = 2/3, doubled past 1, p = 1. No values: p = 1.
double monte_carlo_p_value(std::span<const double> x, double v);

/// The smallest R with 2 / (R + 1) < threshold: fewer replications cannot give a p-value
/// below the threshold, so the test could never fail. 0.05 / 10 -> 400.
std::size_t minimum_replications(double threshold);

enum class Test {
  kPublishedNotInTail,  ///< published value's two-sided Monte Carlo p-value >= threshold
  kPublishedInMeanCi,  ///< published value in the 99% confidence interval of partsim's mean
  kMedianIn,           ///< partsim's median in `interval`
  kEveryIn,            ///< every replication's value in `interval`
};

struct Criterion {
  Test test = Test::kPublishedNotInTail;
  double published = 0;  ///< kPublishedNotInTail, kPublishedInMeanCi
  Interval interval;     ///< kMedianIn, kEveryIn
  std::string reason;    ///< why this test reads the book's figure, in words
  /// kPublishedNotInTail: fails when p < threshold = kFamilyAlpha / family, family = the
  /// outcome rows run together (set by the runner once the rows are selected).
  double threshold = 0;
  std::size_t family = 0;
};

/// The defined values of a statistic over replications, summarised.
struct Spread {
  std::size_t replications = 0;  ///< values given (defined or not)
  std::size_t undefined = 0;     ///< of which undefined
  double median = 0, q025 = 0, q975 = 0, min = 0, max = 0;
  double mean = 0, ci99_low = 0, ci99_high = 0;  ///< mean and its 99% Student t interval
  /// With a published value: its two-sided Monte Carlo p-value among the defined values,
  /// and how many of them lie at or below / at or above it.
  std::optional<double> p_value;
  std::size_t at_or_below = 0, at_or_above = 0;
};

/// Summarises `values`; with `published`, also its Monte Carlo p-value among them.
Spread spread(std::span<const Sample> values, std::optional<double> published = std::nullopt);

/// The criterion in numbers, before any result: "median in [0.300, 0.367]",
/// "p of published 1.22 >= 0.0050 (0.05 / 10)".
std::string describe(const Criterion& c, int decimals);

/// partsim's side as the criterion reads it: "0.338 [0.220, 0.440]" (median and 95% range),
/// "1.56 [1.30, 2.23], p 0.0062" (and the published value's p-value) for an outcome,
/// "mean 0.166 [0.142, 0.190]" (mean and 99% CI) for a mean, "1.000 [min 1.000, max 1.000]"
/// for every replication, "undefined in 3 of 100" when undefined somewhere.
std::string describe(const Spread& s, const Criterion& c, int decimals);

/// True when the criterion holds for `s` (never when some replication is undefined).
bool passes(const Criterion& c, const Spread& s);

}  // namespace partsim::analysis::book
