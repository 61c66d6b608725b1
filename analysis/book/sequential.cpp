#include "analysis/book/sequential.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/probability.hpp"

namespace partsim::analysis::book {
namespace {

// One-sided miss probability of each Clopper-Pearson bound.
constexpr double kTailAlpha = (1 - kDecisionConfidence) / 2;

double lower_bound(std::size_t successes, std::size_t trials) {
  return binomial_lower_bound_on_p(static_cast<double>(trials), static_cast<double>(successes), kTailAlpha);
}

double upper_bound(std::size_t successes, std::size_t trials) {
  return binomial_upper_bound_on_p(static_cast<double>(trials), static_cast<double>(successes), kTailAlpha);
}

}  // namespace

PInterval p_value_interval(std::size_t at_or_below, std::size_t at_or_above, std::size_t r) {
  if (r == 0) return {};
  // The ideal p is 2 min(q_below, q_above); with each tail probability inside its bounds,
  // the minimum lies between the minima of the bounds.
  const double lo = 2 * std::min(lower_bound(at_or_below, r), lower_bound(at_or_above, r));
  const double hi = 2 * std::min(upper_bound(at_or_below, r), upper_bound(at_or_above, r));
  return {std::min(1.0, lo), std::min(1.0, hi)};
}

Decision decide(PInterval p, double threshold) {
  if (p.lo >= threshold) return Decision::kPass;
  if (p.hi < threshold) return Decision::kFail;
  return Decision::kUndecided;
}

std::size_t next_look(std::size_t r, std::size_t cap) { return std::min(2 * r, cap); }

std::size_t minimum_cap(double threshold) {
  // 2 (1 - a^(1/R)) < t  <=>  R > ln a / ln(1 - t/2); start just below the closed form and
  // step up on Boost's bound itself, so that rounding cannot give an R one short.
  const double guess = std::floor(std::log(kTailAlpha) / std::log1p(-threshold / 2)) - 2;
  auto r = static_cast<std::size_t>(std::max(1.0, guess));
  while (!(2 * upper_bound(0, r) < threshold)) ++r;
  return r;
}

}  // namespace partsim::analysis::book
