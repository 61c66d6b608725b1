#include "analysis/theory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/probability.hpp"

namespace partsim::analysis {

std::vector<double> poisson_batch_pmf(double m, std::int32_t cap) {
  std::vector<double> pmf(static_cast<std::size_t>(cap) + 1, 0.0);
  if (cap < 1) return pmf;
  double below = 0;
  for (std::int32_t k = 1; k < cap; ++k) {
    pmf[static_cast<std::size_t>(k)] = poisson_pmf(m, k - 1);
    below += pmf[static_cast<std::size_t>(k)];
  }
  pmf[static_cast<std::size_t>(cap)] = std::max(0.0, 1.0 - below);  // P(Poisson >= cap - 1)
  return pmf;
}

double mg1_mean_wait_ms(double per_ms, const ServiceMoments& service) {
  const double rho = per_ms * service.mean_ms;
  if (rho >= 1) return std::numeric_limits<double>::infinity();
  return per_ms * service.second_ms2 / (2 * (1 - rho));
}

MeanTest one_sample_t_test(const std::vector<double>& values, double expected) {
  MeanTest m;
  m.n = values.size();
  if (m.n == 0) return m;
  for (double v : values) m.mean += v;
  m.mean /= static_cast<double>(m.n);
  if (m.n < 2) return m;
  double squares = 0;
  for (double v : values) squares += (v - m.mean) * (v - m.mean);
  m.std_error = std::sqrt(squares / static_cast<double>(m.n - 1) / static_cast<double>(m.n));
  if (m.std_error == 0) {  // no spread: equal or not
    m.p_value = m.mean == expected ? 1.0 : 0.0;
    return m;
  }
  m.t = (m.mean - expected) / m.std_error;
  m.p_value = students_t_two_sided_p(static_cast<double>(m.n - 1), m.t);
  return m;
}

GoodnessOfFit chi_square_goodness_of_fit(const std::vector<std::int64_t>& observed,
                                         const std::vector<double>& probabilities) {
  GoodnessOfFit g;
  std::int64_t total = 0;
  for (auto c : observed) total += c;
  const std::size_t n = std::max(observed.size(), probabilities.size());
  // Walk the values, closing a bin once it expects at least 5 (the last bin takes the rest).
  std::int32_t first = -1;
  std::int64_t obs = 0;
  double exp = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double p = k < probabilities.size() ? probabilities[k] : 0.0;
    const std::int64_t o = k < observed.size() ? observed[k] : 0;
    if (p <= 0 && o == 0) continue;
    if (first < 0) first = static_cast<std::int32_t>(k);
    obs += o;
    exp += p * static_cast<double>(total);
    if (exp >= 5) {
      g.bin_first.push_back(first);
      g.bin_last.push_back(static_cast<std::int32_t>(k));
      g.observed.push_back(obs);
      g.expected.push_back(exp);
      first = -1;
      obs = 0;
      exp = 0;
    }
  }
  if (first >= 0 && !g.expected.empty()) {  // a short tail joins the last bin
    g.bin_last.back() = static_cast<std::int32_t>(n - 1);
    g.observed.back() += obs;
    g.expected.back() += exp;
  }
  for (std::size_t i = 0; i < g.expected.size(); ++i) {
    const double d = static_cast<double>(g.observed[i]) - g.expected[i];
    g.chi_square += d * d / g.expected[i];
  }
  g.degrees_of_freedom = static_cast<std::int32_t>(g.expected.size()) - 1;
  if (g.degrees_of_freedom >= 1) {
    g.p_value = chi_square_upper_tail(g.degrees_of_freedom, g.chi_square);
  }
  return g;
}

}  // namespace partsim::analysis
