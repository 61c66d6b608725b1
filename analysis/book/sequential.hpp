#pragma once
// The sequential Monte Carlo rule of `partsim book`'s outcome rows: how many replications
// a row needs before "p < threshold" is decided. A Monte Carlo p-value from R runs
// estimates the p-value an unlimited R would give (the ideal p); near the threshold a
// fixed R decides by luck (R2's max / mean: ideal p about 0.0078, threshold 0.005, and 800
// runs put it below 0.005 about 18% of the time). So a row starts at R0 runs and doubles
// R while the exact (Clopper-Pearson) 99.9% interval of the ideal p still contains the
// threshold, up to a cap; it stops as soon as the interval lies on one side. In the spirit
// of Besag & Clifford (1991), "Sequential Monte Carlo p-values", Biometrika 78(2):301-304
// (stop sampling once the answer is clear), with the stopping rule of an interval around
// the ideal p as in Gandy (2009), "Sequential implementation of Monte Carlo tests with
// uniformly bounded resampling risk", JASA 104(488):1504-1511.
//
// Each look's interval covers the ideal p with probability at least 0.999 (0.9995 per
// tail), so the verdict differs from the ideal p's verdict with probability at most 0.001
// per look, whatever the ideal p (8 looks from 800 to 102,400: at most 0.008), and only
// when the ideal p lies within the interval's width of the threshold. A row whose interval
// still contains the threshold at the cap is undecided.

#include <cstddef>

namespace partsim::analysis::book {

/// Confidence of the interval each look reads: two-sided, 0.0005 in each tail.
inline constexpr double kDecisionConfidence = 0.999;

/// A p-value's interval: [lo, hi], lo == hi for an exact p-value.
struct PInterval {
  double lo = 0, hi = 1;
};

/// The 99.9% interval of the ideal two-sided p-value 2 min(P(X <= v), P(X >= v)), from
/// `at_or_below` and `at_or_above` of `r` replications: Clopper-Pearson bounds (Boost.Math
/// binomial_distribution) on each tail probability, doubled and capped at 1. Example:
/// 0 of 800 at or below, 800 at or above -> [0, 0.0189]: 0 of 800 cannot tell a true p of
/// 0.0025 from one of 0.015. No replications: [0, 1].
PInterval p_value_interval(std::size_t at_or_below, std::size_t at_or_above, std::size_t r);

/// Where an interval lies against the threshold: a p-value fails below it.
enum class Decision {
  kPass,       ///< lo >= threshold
  kFail,       ///< hi < threshold
  kUndecided,  ///< the interval contains the threshold
};
Decision decide(PInterval p, double threshold);

/// The next look after `r` replications: min(2r, cap). 800, cap 102,400: 1,600, ..., 102,400.
std::size_t next_look(std::size_t r, std::size_t cap);

/// The smallest cap at which a row can fail: with no replication beyond the published
/// value the interval's top, 2 (1 - 0.0005^(1/R)), must fall below the threshold.
/// 0.05 / 10 -> 3,037; 0.05 / 11 -> 3,341; 0.05 -> 302.
std::size_t minimum_cap(double threshold);

}  // namespace partsim::analysis::book
