#pragma once
// The statistics the book's random entries are judged on, each a function of one run's
// result (or of a pair of runs on the same seeds). Undefined values are nullopt, never a
// large stand-in number: a ratio with an empty partition or a share of no runs has no
// value, and the criterion that reads it fails (criterion.hpp).

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/book/criterion.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis::book {

/// Records per partition, in partition order.
std::vector<std::int64_t> partition_records(const model::RunResult& r);

/// Lengths of the complete runs of equal partitions in a trace of partition choices: the
/// last run is left out (the trace's end may cut it); the first starts with the first
/// record, so it is complete. Trace 3,3,2,2,2,5 -> {2, 3}.
std::vector<std::int64_t> complete_runs(std::span<const std::int32_t> trace);

/// Share of `runs` whose length is a multiple of `length`; undefined without runs.
Sample share_multiple_of(std::span<const std::int64_t> runs, std::int64_t length);

/// The switch draws of a sticky partitioner whose stick is `stick` records: one at each
/// record stick, 2 stick, ... of the trace; a draw kept the partition when that record's
/// partition equals the one before it. Every draw counts, including those in the last run
/// the trace's end cuts, so under a uniform draw over n partitions the kept draws are
/// Binomial(draws, 1/n); the share of complete runs longer than `stick` is not (a run that
/// was redrawn is more likely to be cut: about (20/21) / 6 for R1's 21 draws in 300
/// records). Trace 3,3,3,3,2,2,5 with stick 2: draws at records 2, 4, 6 -> 1 kept of 3.
/// Undefined without a draw or with stick <= 0.
std::optional<Tally> kept_draws(std::span<const std::int32_t> trace, std::int64_t stick);

/// Median of `runs` (type-7 interpolation); undefined without runs.
Sample median_run(std::span<const std::int64_t> runs);

/// max / mean and min / mean of counts: both defined whenever the total is > 0, so an
/// empty partition gives min/mean 0, not an infinite max/min.
Sample max_over_mean(std::span<const std::int64_t> counts);
Sample min_over_mean(std::span<const std::int64_t> counts);

/// Coefficient of variation (population standard deviation / mean); undefined at total 0.
Sample coefficient_of_variation(std::span<const std::int64_t> counts);

/// Share of acknowledged records on the last broker of the result (the slow one in R4).
Sample last_broker_share(const model::RunResult& r);

/// Mean of the lower half of the sorted counts (the lower n/2 when n is odd).
Sample lower_half_mean(std::span<const std::int64_t> counts);

/// Share of the counts below the largest gap between consecutive sorted counts: 0.5 when
/// the counts form two equal groups (1,2,50,52 -> 0.5). Undefined with fewer than 2.
Sample share_below_largest_gap(std::span<const std::int64_t> counts);

/// (a - x) / (b - x): a's excess over x as a share of b's. Undefined unless b > x.
Sample excess_ratio(Sample a, Sample b, double x);

/// a / b; undefined unless b > 0.
Sample ratio(Sample a, Sample b);

}  // namespace partsim::analysis::book
