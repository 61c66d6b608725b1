#pragma once
// The probability functions the reports and the book need, from Boost.Math. Boost's
// distributions are templates that take tens of seconds to compile for each translation
// unit that instantiates them (the Student t quantile alone: an inverse incomplete beta),
// so they are instantiated once, in probability.cpp, and every caller includes this header.
#include <cstdint>

namespace partsim::analysis {

/// The t with P(T > t) = upper_tail for Student's t with `dof` degrees of freedom (the
/// half-width factor of a two-sided interval of level 1 - 2 upper_tail).
double students_t_upper_quantile(double dof, double upper_tail);

/// P(|T| >= |t|) for Student's t with `dof` degrees of freedom.
double students_t_two_sided_p(double dof, double t);

/// P(X >= x) for a chi-square variable with `dof` degrees of freedom.
double chi_square_upper_tail(double dof, double x);

/// P(X = k) for a Poisson variable of mean `mean`.
double poisson_pmf(double mean, std::int64_t k);

/// P(X <= k) and P(X >= k) for a binomial variable of `trials` trials and probability p.
double binomial_at_most(double trials, double p, double k);
double binomial_at_least(double trials, double p, double k);

/// Clopper-Pearson bounds on a binomial probability from `successes` of `trials`: the
/// lower bound is missed (the true p lies below it) with probability at most `alpha`, and
/// likewise the upper.
double binomial_lower_bound_on_p(double trials, double successes, double alpha);
double binomial_upper_bound_on_p(double trials, double successes, double alpha);

}  // namespace partsim::analysis
