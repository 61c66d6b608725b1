#include "analysis/probability.hpp"

#include <cmath>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace partsim::analysis {

double students_t_upper_quantile(double dof, double upper_tail) {
  return boost::math::quantile(boost::math::complement(boost::math::students_t(dof), upper_tail));
}

double students_t_two_sided_p(double dof, double t) {
  return 2 * boost::math::cdf(boost::math::complement(boost::math::students_t(dof), std::abs(t)));
}

double chi_square_upper_tail(double dof, double x) {
  return boost::math::cdf(boost::math::complement(boost::math::chi_squared(dof), x));
}

double poisson_pmf(double mean, std::int64_t k) {
  return boost::math::pdf(boost::math::poisson_distribution<double>(mean), static_cast<double>(k));
}

double binomial_at_most(double trials, double p, double k) {
  return boost::math::cdf(boost::math::binomial_distribution<>(trials, p), k);
}

double binomial_at_least(double trials, double p, double k) {
  if (k <= 0) return 1.0;
  return boost::math::cdf(boost::math::complement(boost::math::binomial_distribution<>(trials, p), k - 1));
}

double binomial_lower_bound_on_p(double trials, double successes, double alpha) {
  return boost::math::binomial_distribution<>::find_lower_bound_on_p(trials, successes, alpha);
}

double binomial_upper_bound_on_p(double trials, double successes, double alpha) {
  return boost::math::binomial_distribution<>::find_upper_bound_on_p(trials, successes, alpha);
}

}  // namespace partsim::analysis
