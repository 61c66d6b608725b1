#pragma once
// Closed-form results to check the simulation against.
//
// Poisson batching: records arrive as a Poisson process of rate lambda into one partition;
// a batch starts with a record and takes every record arriving within linger T, up to a
// cap of N records. Its size is 1 + Poisson(lambda T) truncated at N:
//   P(K = k) = e^-m m^(k-1) / (k-1)!  for k < N,   P(K = N) = P(Poisson(m) >= N - 1),  m = lambda T.
// (Equivalently the time to fill a batch is Erlang(N - 1) truncated at T.)
//
// M/G/1 queue (a broker's FIFO server): requests arrive as a Poisson process of rate lambda
// and take a service time S of any distribution (fixed costs plus a random jitter). The
// Pollaczek-Khinchine formula gives the mean wait in the queue before service,
//   Wq = lambda E[S^2] / (2 (1 - rho)),   rho = lambda E[S] < 1,
// and by PASTA a request finds the server idle with probability 1 - rho.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace partsim::analysis {

/// pmf[k] for k = 0..n (pmf[0] = 0): records per batch.
std::vector<double> poisson_batch_pmf(double mean_arrivals_in_linger, std::int32_t cap);

struct GoodnessOfFit {
  double chi_square = 0;
  std::int32_t degrees_of_freedom = 0;
  double p_value = 1;
  /// The bins tested, after merging neighbours until each expects at least 5.
  std::vector<std::int32_t> bin_first, bin_last;
  std::vector<std::int64_t> observed;
  std::vector<double> expected;
};

/// A service time S = fixed + jitter: its first two moments (ms, ms^2).
struct ServiceMoments {
  double mean_ms = 0;
  double second_ms2 = 0;
};

/// Pollaczek-Khinchine: the mean wait in queue (ms) of an M/G/1 server with arrival rate
/// `per_ms` (requests per ms); infinite when rho = per_ms * mean >= 1.
double mg1_mean_wait_ms(double per_ms, const ServiceMoments& service);

struct MeanTest {
  std::size_t n = 0;
  double mean = 0, std_error = 0;
  double t = 0;        ///< (mean - expected) / std_error
  double p_value = 1;  ///< two-sided, Student t with n - 1 degrees of freedom
};

/// One-sample Student t test of independent `values` (replications) against `expected`;
/// needs n >= 2 (else p_value stays 1 and t 0).
MeanTest one_sample_t_test(const std::vector<double>& values, double expected);

/// Pearson's chi-square test of observed counts (index = value) against probabilities
/// (same indexing, summing to 1).
GoodnessOfFit chi_square_goodness_of_fit(const std::vector<std::int64_t>& observed,
                                         const std::vector<double>& probabilities);

}  // namespace partsim::analysis
