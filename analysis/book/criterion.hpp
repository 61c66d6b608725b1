#pragma once
// How an entry of the book from runs with random choices passes or fails. partsim measures
// a statistic in each of R replications; a criterion, stated in numbers and in words,
// decides from those R values. Four tests, chosen by what the book's figure is:
//
// - one run's outcome (final counts, a hot partition's records): the published value, one
//   observation, must not lie in the tails of partsim's distribution of the statistic:
//   its two-sided Monte Carlo p-value (monte_carlo_p_value) must be at least the
//   family-wise threshold kFamilyAlpha / k, k = the rows tested against a published value
//   (Bonferroni), so a correct model fails one of them in at most 5% of books; the
//   replications grow until the 99.9% interval of the p-value lies on one side of the
//   threshold (sequential.hpp), or the row is undecided;
// - a probability ("1 in 6"): an exact two-sided binomial test of the published
//   probability against partsim's successes in trials pooled over the replications
//   (binomial_test_p_value), in the same Bonferroni family;
// - a claim in words ("about a third", "most"): partsim's median must lie in an interval
//   read from the words with one tolerance (about(), above_about(), below_about());
// - a rule without exceptions ("every complete run is 14 long"): every replication's value
//   must lie in the interval.
// A value undefined in some replication (nullopt: no complete run, nothing to compare
// with) fails every test: an undefined figure is never "within range".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/book/sequential.hpp"

namespace partsim::analysis::book {

/// A statistic's value in one replication; nullopt where it is undefined there.
using Sample = std::optional<double>;

/// One replication's successes in its trials, for a probability row (switch draws that
/// kept the partition, of the draws).
struct Tally {
  std::int64_t successes = 0, trials = 0;
};

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

/// The family-wise error rate of the rows tested against a published value (outcome rows
/// and probabilities): the chance that a correct model fails at least one of them in one
/// `partsim book`.
inline constexpr double kFamilyAlpha = 0.05;

/// Monte Carlo two-sided p-value of one observed value `v` against R simulated values x:
///   p = min(1, 2 min((1 + #{x_i <= v}) / (R + 1), (1 + #{x_i >= v}) / (R + 1))).
/// The +1 counts the observation itself among the R + 1 exchangeable values under the null
/// hypothesis (the book's run is one more run of partsim's model), which makes the test
/// exact: P(p <= a) <= a for every a (Davison & Hinkley 1997, Bootstrap Methods and their
/// Application, ch. 4, Monte Carlo tests; North, Curtis & Sham 2002, Am. J. Hum. Genet.
/// 71:439). Ties count on both sides, which only makes it more conservative. The smallest
/// p is 2 / (R + 1). This is the p printed for R replications; the verdict reads the
/// interval of the ideal p around it (sequential.hpp), which contains it. Example: x = {1, 2, 2, 3, 5}, v = 6:
/// min(1 + 5, 1 + 0) / 6 = 1/6, p = 1/3; v = 2: min(1 + 3, 1 + 4) / 6 = 2/3, doubled past 1, p = 1. No values: p = 1.
double monte_carlo_p_value(std::span<const double> x, double v);

/// Exact two-sided binomial test of the probability p0 against `successes` of `trials`:
///   p = min(1, 2 min(P(X <= successes), P(X >= successes))), X ~ Binomial(trials, p0),
/// the equal-tailed p-value, as the Monte Carlo p-value doubles its smaller tail.
/// Example: 0 of 4 at p0 = 1/2: 2 (1/16) = 0.125; 2 of 4: 1. No trials: 1.
double binomial_test_p_value(std::int64_t successes, std::int64_t trials, double p0);

enum class Test {
  kPublishedNotInTail,    ///< published value's two-sided Monte Carlo p-value >= threshold, decided sequentially
  kPublishedProbability,  ///< binomial test of the published probability: p-value >= threshold
  kMedianIn,              ///< partsim's median in `interval`
  kEveryIn,               ///< every replication's value in `interval`
};

/// True for the tests in the Bonferroni family (a p-value against the threshold).
bool in_family(Test t);

struct Criterion {
  Test test = Test::kPublishedNotInTail;
  double published = 0;  ///< kPublishedNotInTail, kPublishedProbability
  Interval interval;     ///< kMedianIn, kEveryIn
  std::string reason;    ///< why this test reads the book's figure, in words
  /// In the family: fails when p < threshold = kFamilyAlpha / family, family = the rows
  /// tested against a published value together (set by the runner once rows are selected).
  double threshold = 0;
  std::size_t family = 0;
};

/// The defined values of a statistic over replications, summarised.
struct Spread {
  std::size_t replications = 0;  ///< values given (defined or not)
  std::size_t undefined = 0;     ///< of which undefined
  double median = 0, q025 = 0, q975 = 0, min = 0, max = 0;
  double mean = 0, ci99_low = 0, ci99_high = 0;  ///< mean and its 99% Student t interval
  /// With a published value: its p-value (Monte Carlo among the defined values, or the
  /// binomial test) and the 99.9% interval of the p-value an unlimited R would give
  /// (p_value_interval; lo == hi == p for the exact binomial p-value).
  std::optional<double> p_value;
  PInterval p_interval;
  /// Monte Carlo: how many defined values lie at or below / at or above the published one.
  std::size_t at_or_below = 0, at_or_above = 0;
  /// Binomial: successes and trials pooled over the replications.
  std::int64_t successes = 0, trials = 0;
};

/// Summarises `values`; with `published`, also its Monte Carlo p-value among them.
Spread spread(std::span<const Sample> values, std::optional<double> published = std::nullopt);

/// Summarises the share successes / trials of each replication (undefined without
/// trials) and tests the probability `published` on the pooled counts.
Spread spread(std::span<const std::optional<Tally>> tallies, double published);

/// The criterion in numbers, before any result: "median in [0.300, 0.367]",
/// "p >= 0.0045 (0.05 / 11)".
std::string describe(const Criterion& c, int decimals);

/// partsim's side as the criterion reads it: "0.338 [0.220, 0.440]" (median and 95% range),
/// "0.163: 342 of 2100" (pooled share: successes of trials) for a probability,
/// "1.000 [min 1.000, max 1.000]" for every replication, "undefined in 3 of 100" when
/// undefined somewhere.
std::string describe(const Spread& s, const Criterion& c, int decimals);

/// The p-value as the criterion reads it: "0.0078 [0.0061, 0.0098]" (Monte Carlo, with the
/// 99.9% interval of the ideal p), "0.6215 exact" (binomial); empty outside the family.
std::string describe_p(const Spread& s, const Criterion& c);

enum class Verdict { kPass, kFail, kUndecided };

/// The criterion's verdict on `s`: a row in the family passes when its p-value's interval
/// lies at or above the threshold, fails when it lies below, and is undecided when it
/// contains it; any other test passes or fails. Some replication undefined: kFail.
Verdict verdict(const Criterion& c, const Spread& s);

/// True when the criterion holds for `s` (never when some replication is undefined).
inline bool passes(const Criterion& c, const Spread& s) { return verdict(c, s) == Verdict::kPass; }

}  // namespace partsim::analysis::book
