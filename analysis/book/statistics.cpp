#include "analysis/book/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analysis/distribution.hpp"
#include "analysis/summary_stats.hpp"

namespace partsim::analysis::book {
namespace {

double total_of(std::span<const std::int64_t> c) {
  return static_cast<double>(std::accumulate(c.begin(), c.end(), std::int64_t{0}));
}

std::optional<double> mean_of(std::span<const std::int64_t> c) {
  const double total = total_of(c);
  if (c.empty() || total <= 0) return std::nullopt;
  return total / static_cast<double>(c.size());
}

Sample share_where(std::span<const std::int64_t> runs, auto&& predicate) {
  if (runs.empty()) return std::nullopt;
  const auto n = std::count_if(runs.begin(), runs.end(), predicate);
  return static_cast<double>(n) / static_cast<double>(runs.size());
}

}  // namespace

std::vector<std::int64_t> partition_records(const model::RunResult& r) {
  std::vector<std::int64_t> c;
  c.reserve(r.partitions.size());
  for (const auto& p : r.partitions) c.push_back(p.records);
  return c;
}

std::vector<std::int64_t> complete_runs(std::span<const std::int32_t> trace) {
  std::vector<std::int64_t> runs;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i == 0 || trace[i] != trace[i - 1]) runs.push_back(0);
    ++runs.back();
  }
  if (!runs.empty()) runs.pop_back();
  return runs;
}

Sample share_multiple_of(std::span<const std::int64_t> runs, std::int64_t length) {
  return share_where(runs, [length](std::int64_t n) { return length > 0 && n % length == 0; });
}

std::optional<Tally> kept_draws(std::span<const std::int32_t> trace, std::int64_t stick) {
  if (stick <= 0) return std::nullopt;
  Tally t;
  for (auto at = static_cast<std::size_t>(stick); at < trace.size(); at += static_cast<std::size_t>(stick)) {
    ++t.trials;
    if (trace[at] == trace[at - 1]) ++t.successes;
  }
  if (t.trials == 0) return std::nullopt;
  return t;
}

Sample median_run(std::span<const std::int64_t> runs) {
  if (runs.empty()) return std::nullopt;
  return quantile(std::vector<double>(runs.begin(), runs.end()), 0.5);
}

Sample max_over_mean(std::span<const std::int64_t> counts) {
  const auto mean = mean_of(counts);
  if (!mean) return std::nullopt;
  return static_cast<double>(*std::max_element(counts.begin(), counts.end())) / *mean;
}

Sample min_over_mean(std::span<const std::int64_t> counts) {
  const auto mean = mean_of(counts);
  if (!mean) return std::nullopt;
  return static_cast<double>(*std::min_element(counts.begin(), counts.end())) / *mean;
}

Sample coefficient_of_variation(std::span<const std::int64_t> counts) {
  if (!mean_of(counts)) return std::nullopt;
  return distribution_stats(counts).cv;
}

Sample last_broker_share(const model::RunResult& r) {
  std::int64_t total = 0;
  for (const auto& b : r.brokers) total += b.records;
  if (r.brokers.empty() || total == 0) return std::nullopt;
  return static_cast<double>(r.brokers.back().records) / static_cast<double>(total);
}

Sample lower_half_mean(std::span<const std::int64_t> counts) {
  if (counts.size() < 2) return std::nullopt;
  std::vector<std::int64_t> c(counts.begin(), counts.end());
  std::sort(c.begin(), c.end());
  const std::size_t half = c.size() / 2;
  return total_of(std::span(c).first(half)) / static_cast<double>(half);
}

Sample share_below_largest_gap(std::span<const std::int64_t> counts) {
  if (counts.size() < 2) return std::nullopt;
  std::vector<std::int64_t> c(counts.begin(), counts.end());
  std::sort(c.begin(), c.end());
  std::size_t below = 1;  // the first largest gap wins a tie
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i] - c[i - 1] > c[below] - c[below - 1]) below = i;
  return static_cast<double>(below) / static_cast<double>(c.size());
}

Sample excess_ratio(Sample a, Sample b, double x) {
  if (!a || !b || !(*b > x)) return std::nullopt;
  return (*a - x) / (*b - x);
}

Sample ratio(Sample a, Sample b) {
  if (!a || !b || !(*b > 0)) return std::nullopt;
  return *a / *b;
}

}  // namespace partsim::analysis::book
