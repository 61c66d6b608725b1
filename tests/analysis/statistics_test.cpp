// Statistics against values computed by hand.

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "analysis/distribution.hpp"
#include "analysis/summary_stats.hpp"
#include "analysis/theory.hpp"

using namespace partsim::analysis;

TEST_CASE("chi-square, Jain and KL against hand-computed values") {
  // Counts 10, 20, 30 against uniform: expected 20 each, chi2 = (100 + 0 + 100) / 20 = 10
  // with 2 degrees of freedom: p = exp(-10/2) = e^-5.
  const std::vector<std::int64_t> c{10, 20, 30};
  const auto d = distribution_stats(c);
  CHECK(d.chi_square == doctest::Approx(10.0));
  CHECK(d.p_value == doctest::Approx(std::exp(-5.0)).epsilon(1e-9));
  CHECK(d.jain == doctest::Approx(3600.0 / 4200.0));  // (sum)^2 / (n sum x^2)
  CHECK(d.max_over_min == doctest::Approx(3.0));
  CHECK(d.cv == doctest::Approx(std::sqrt(200.0 / 3) / 20));
  const double kl = (1.0 / 6) * std::log(0.5) + (1.0 / 3) * std::log(1.0) + 0.5 * std::log(1.5);
  CHECK(d.kl_divergence == doctest::Approx(kl));
}

TEST_CASE("chi-square against expected weights, and an empty bin") {
  // Expected shares 1:1:2 of 40 -> 10, 10, 20; observed 10, 10, 20 fits exactly.
  const std::vector<std::int64_t> c{10, 10, 20};
  const std::vector<double> w{1, 1, 2};
  const auto d = distribution_stats(c, w);
  CHECK(d.chi_square == doctest::Approx(0.0));
  CHECK(d.p_value == doctest::Approx(1.0));
  CHECK(d.kl_divergence == doctest::Approx(0.0));
  const std::vector<std::int64_t> empty{0, 5};
  CHECK(distribution_stats(empty).has_empty_bin);
  CHECK(std::isinf(distribution_stats(empty).max_over_min));
}

TEST_CASE("a count where the weights give no chance refutes them: p = 0") {
  // The adaptive check's expected weights can be 0 for a partition left out of the table;
  // a choice there must not vanish from the statistic.
  const std::vector<std::int64_t> c{10, 10, 1};
  const std::vector<double> w{1, 1, 0};
  const auto d = distribution_stats(c, w);
  CHECK(d.p_value == 0.0);
  CHECK(std::isinf(d.chi_square));
  const std::vector<std::int64_t> fits{10, 10, 0};
  CHECK(distribution_stats(fits, w).p_value == doctest::Approx(1.0));
}

TEST_CASE("mean and Student t confidence interval") {
  // 1..5: mean 3, sd sqrt(2.5); t(4, 0.975) = 2.776445; half-width = t sd / sqrt(5).
  const std::vector<double> v{1, 2, 3, 4, 5};
  const auto s = summarize(v);
  const double half = 2.7764451051977987 * std::sqrt(2.5) / std::sqrt(5.0);
  CHECK(s.mean == doctest::Approx(3.0));
  CHECK(s.ci_low == doctest::Approx(3.0 - half));
  CHECK(s.ci_high == doctest::Approx(3.0 + half));
  CHECK(s.median == doctest::Approx(3.0));
  CHECK(s.min == 1.0);
  CHECK(s.max == 5.0);
  CHECK(s.q025 == doctest::Approx(1.1));  // linear interpolation: 1 + 0.025 * 4
  const std::vector<double> one{7};
  CHECK(summarize(one).ci_low == 7.0);
}

TEST_CASE("the Poisson batching pmf sums to one and truncates at the cap") {
  const auto pmf = poisson_batch_pmf(10.0, 15);
  double sum = 0;
  for (double p : pmf) sum += p;
  CHECK(sum == doctest::Approx(1.0));
  CHECK(pmf[0] == 0.0);
  CHECK(pmf[1] == doctest::Approx(std::exp(-10.0)));  // no arrival within linger
  CHECK(pmf[11] == doctest::Approx(std::exp(-10.0) * std::pow(10.0, 10) / 3628800.0));
  // With a cap of 1 every batch holds one record.
  CHECK(poisson_batch_pmf(3.0, 1)[1] == doctest::Approx(1.0));
}

TEST_CASE("goodness of fit merges sparse bins and accepts an exact match") {
  const std::vector<double> p{0.0, 0.5, 0.3, 0.15, 0.04, 0.01};
  const std::vector<std::int64_t> exact{0, 500, 300, 150, 40, 10};
  const auto g = chi_square_goodness_of_fit(exact, p);
  CHECK(g.chi_square == doctest::Approx(0.0));
  CHECK(g.p_value == doctest::Approx(1.0));
  CHECK(g.degrees_of_freedom == 4);
  const std::vector<std::int64_t> skewed{0, 700, 200, 80, 15, 5};
  CHECK(chi_square_goodness_of_fit(skewed, p).p_value < 1e-6);
}

TEST_CASE("Pollaczek-Khinchine: M/D/1 and M/M/1 mean waits") {
  // M/D/1, lambda 0.5/ms, S = 1 ms: Wq = rho D / (2 (1 - rho)) = 0.5 ms.
  CHECK(mg1_mean_wait_ms(0.5, {1.0, 1.0}) == doctest::Approx(0.5));
  // M/M/1, mean 1 ms (E[S^2] = 2): Wq = rho / (mu - lambda) = 0.5 / 0.5 = 1 ms.
  CHECK(mg1_mean_wait_ms(0.5, {1.0, 2.0}) == doctest::Approx(1.0));
  CHECK(std::isinf(mg1_mean_wait_ms(1.0, {1.0, 1.0})));  // rho = 1: no steady state
}

TEST_CASE("one-sample t test against hand-computed values") {
  const std::vector<double> v{1, 2, 3, 4, 5};
  const auto same = one_sample_t_test(v, 3.0);
  CHECK(same.t == doctest::Approx(0.0));
  CHECK(same.p_value == doctest::Approx(1.0));
  // mean 3, s = sqrt(2.5), standard error sqrt(0.5): t = 4.2426 on 4 degrees of freedom;
  // two-sided p = 0.013236 (the t density integrated numerically).
  const auto off = one_sample_t_test(v, 0.0);
  CHECK(off.std_error == doctest::Approx(std::sqrt(0.5)));
  CHECK(off.t == doctest::Approx(4.242641));
  CHECK(off.p_value == doctest::Approx(0.013236).epsilon(1e-4));
  CHECK(one_sample_t_test({2.0}, 0.0).p_value == 1.0);  // one value: no test
}
