// The reference client (scenarios/reference-client/java-3.6-mock.yaml) against the issue's
// targets, typed in from the measurements (../shared/measurements/java-3.6.2-calibration.md,
// tables A and B; not from partsim's output): medians over 5 replications of each
// configuration of java-3.6-mock.csv. Every target is required: b1's share inside the
// measured min..max at each rate, records per batch within 10% at each rate, and flat out
// (CONTROL) records per batch and per request within 5%, request latency within 25%.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {

constexpr int kReplications = 5;
const std::string kScenario = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/reference-client/java-3.6-mock.yaml";

std::vector<model::RunResult> runs(const std::vector<std::string>& sets) {
  const auto s = scenarios::load_scenario_file(kScenario, sets);
  std::vector<model::RunResult> out;
  for (int r = 0; r < kReplications; ++r)
    out.push_back(model::run_scenario(s, s.run.seed, static_cast<std::uint64_t>(r)));
  return out;
}

double median(const std::vector<model::RunResult>& rs, const std::function<double(const model::RunResult&)>& f) {
  std::vector<double> v;
  for (const auto& r : rs) v.push_back(f(r));
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double share(const model::RunResult& r, std::size_t b) {
  double total = 0;
  for (const auto& x : r.brokers) total += static_cast<double>(x.records);
  return static_cast<double>(r.brokers[b].records) / total;
}

double per_batch(const model::RunResult& r, std::size_t b) {
  return static_cast<double>(r.brokers[b].records) / static_cast<double>(r.brokers[b].batches);
}

double all_per_batch(const model::RunResult& r) {
  double records = 0, n = 0;
  for (const auto& b : r.brokers) {
    records += static_cast<double>(b.records);
    n += static_cast<double>(b.batches);
  }
  return records / n;
}

bool within(double simulated, double measured, double tolerance) {
  return std::abs(simulated - measured) <= tolerance * measured;
}

struct RateRow {
  const char* rate;
  double lo, hi;                // b1 share, measured min..max
  double b1_batch, fast_batch;  // records per batch, b1 and b2+b3
};
constexpr RateRow kRows[] = {{"100", 0.2220, 0.3980, 1.07, 1.00},
                             {"1000", 0.3396, 0.4634, 10.04, 1.03},
                             {"10000", 0.4465, 0.4833, 55.63, 1.32}};

std::vector<model::RunResult> rate_runs(const RateRow& row) {
  return runs({std::string("producers.0.workload.arrivals.rate=") + row.rate});
}

std::vector<model::RunResult> control_runs() {
  return runs({"cluster.brokers.0.rtt.ms=0.2", "producers.0.workload.arrivals.kind=flat-out", "run.duration.ms=~",
               "run.records=50000"});
}

}  // namespace

TEST_CASE(
    "the reference client meets every target: b1's share and records per batch at 100, 1,000 and 10,000 rec/s; CONTROL batching and latency") {
  for (const RateRow& row : kRows) {
    CAPTURE(std::string(row.rate));
    const auto rs = rate_runs(row);
    const double b1 = median(rs, [](const auto& r) { return share(r, 0); });
    CHECK(b1 >= row.lo);
    CHECK(b1 <= row.hi);
    CHECK(within(median(rs, [](const auto& r) { return per_batch(r, 0); }), row.b1_batch, 0.10));
    CHECK(within(median(rs, [](const auto& r) { return per_batch(r, 1); }), row.fast_batch, 0.10));
    CHECK(within(median(rs, [](const auto& r) { return per_batch(r, 2); }), row.fast_batch, 0.10));
  }
  const auto rs = control_runs();
  const double latency[] = {22.0, 23.7, 24.2};
  for (std::size_t n = 0; n < 3; ++n) {
    CAPTURE(n);
    CHECK(within(median(rs, [n](const auto& r) { return r.producer_metrics[0].nodes[n].request_latency_avg_ms; }),
                 latency[n], 0.25));
  }
  CHECK(within(median(rs, all_per_batch), 146.34, 0.05));
  CHECK(within(median(rs, [](const auto& r) { return r.producer_metrics[0].records_per_request_avg; }), 259.9, 0.05));
}
