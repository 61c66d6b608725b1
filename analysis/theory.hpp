#pragma once
// Closed-form results to check the simulation against.
//
// Poisson batching: records arrive as a Poisson process of rate lambda into one partition;
// a batch starts with a record and takes every record arriving within linger T, up to a
// cap of N records. Its size is 1 + Poisson(lambda T) truncated at N:
//   P(K = k) = e^-m m^(k-1) / (k-1)!  for k < N,   P(K = N) = P(Poisson(m) >= N - 1),  m = lambda T.
// (Equivalently the time to fill a batch is Erlang(N - 1) truncated at T.)

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

/// Pearson's chi-square test of observed counts (index = value) against probabilities
/// (same indexing, summing to 1).
GoodnessOfFit chi_square_goodness_of_fit(const std::vector<std::int64_t>& observed, const std::vector<double>& probabilities);

}  // namespace partsim::analysis
