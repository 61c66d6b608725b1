// The book's entries from runs with random choices (book-tables.md R1-R6): for each, the
// statistic partsim measures per replication and the criterion that reads the book's
// figure or claim (criterion.hpp: one run's outcome -> the published value not in
// the tails of partsim's runs, by its Monte Carlo p-value; a probability -> a binomial test
// on partsim's pooled counts; words -> median in an interval with the one "about"
// tolerance; a rule -> every replication).

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analysis/book/rows.hpp"
#include "analysis/book/statistics.hpp"
#include "analysis/format.hpp"
#include "model/partitioners/key_hash.hpp"

namespace partsim::analysis::book {
namespace {

constexpr double kThird = 1.0 / 3;  // an even split over R4's three brokers
constexpr const char* kOneRun = "one run's outcome: not in the tails of partsim's runs";

// The threshold (0.05 / the rows tested against a published value) is set by the runner once rows are selected.
Criterion not_in_tail(double published, std::string reason) {
  return {Test::kPublishedNotInTail, published, {}, std::move(reason)};
}
Criterion probability(double published, std::string reason) {
  return {Test::kPublishedProbability, published, {}, std::move(reason)};
}
Criterion median_in(Interval i, std::string reason) { return {Test::kMedianIn, 0, i, std::move(reason)}; }
Criterion every_in(Interval i, std::string reason) { return {Test::kEveryIn, 0, i, std::move(reason)}; }

// A statistic of the row's first setup's run.
template <class F>
std::function<Sample(const Replication&)> of_run(F f) {
  return [f](const Replication& r) { return f(*r.runs[0]); };
}
template <class F>
std::function<Sample(const Replication&)> of_counts(F f) {
  return [f](const Replication& r) { return f(partition_records(*r.runs[0])); };
}

std::string ratio_text(double num, double den, double value, int decimals) {
  return fixed(value, decimals) + " (" + fixed(num, 0) + " / " + fixed(den, 0) + ")";
}

// max/mean, min/mean and CV of records per partition against the book's counts. max/min
// is left out on purpose: it is undefined when a partition gets nothing (11% of R1's runs).
void count_rows(std::vector<RandomRow>& rows, const std::string& id, const Setup& setup,
                const std::vector<double>& published) {
  const std::vector<std::int64_t> c(published.begin(), published.end());
  const double mean = std::accumulate(published.begin(), published.end(), 0.0) / static_cast<double>(published.size());
  const double mx = *std::max_element(published.begin(), published.end());
  const double mn = *std::min_element(published.begin(), published.end());
  rows.push_back({id,
                  id + ".max-over-mean",
                  "records per partition: max / mean",
                  ratio_text(mx, mean, *max_over_mean(c), 2),
                  not_in_tail(*max_over_mean(c), kOneRun),
                  2,
                  {setup},
                  of_counts(max_over_mean)});
  rows.push_back({id,
                  id + ".min-over-mean",
                  "records per partition: min / mean",
                  ratio_text(mn, mean, *min_over_mean(c), 2),
                  not_in_tail(*min_over_mean(c), kOneRun),
                  2,
                  {setup},
                  of_counts(min_over_mean)});
  rows.push_back({id,
                  id + ".cv",
                  "records per partition: coefficient of variation",
                  fixed(*coefficient_of_variation(c), 3),
                  not_in_tail(*coefficient_of_variation(c), kOneRun),
                  3,
                  {setup},
                  of_counts(coefficient_of_variation)});
}

void r1_r2_r3(std::vector<RandomRow>& rows, const PublishedFigures& pub) {
  // R1: null keys, batch.size 1024, synchronous sends: every record opens a batch and
  // charges 61 B of header plus its bytes, so a stick lasts 14 records (spec §2.4, §3.3, §5).
  const Setup r1{"book/null-key-sticky.yaml", {"run.trace=300"}};
  const auto run_length = static_cast<std::int64_t>(std::llround(pub.value("R1.run-length")));
  const std::string len = std::to_string(run_length);
  rows.push_back({"R1",
                  "R1.run-length",
                  "complete runs in the first 300 choices: share a multiple of " + len + " long",
                  len + " (28, 42 when redrawn)",
                  every_in({1, 1}, "a rule: no exceptions (no complete run: undefined)"),
                  3,
                  {r1},
                  of_run([run_length](const model::RunResult& r) {
                    return share_multiple_of(complete_runs(r.trace), run_length);
                  })});
  // Each stick ends in a uniform draw over the 6 partitions, which keeps the partition with
  // probability 1/6 (a run of 28, 42, ...). The draws at records 14, 28, ... are counted,
  // not the complete runs longer than 14: those are biased low (kept_draws).
  rows.push_back(
      {"R1",
       "R1.same-partition",
       "switch draws (records " + len + ", " + std::to_string(2 * run_length) + ", ...) that keep the partition: share",
       fixed(pub.value("R1.same-partition"), 3) + " (1 in 6)",
       probability(pub.value("R1.same-partition"), "a probability (spec §2.2: the current partition may be redrawn)"),
       3,
       {r1},
       {},
       [run_length](const Replication& r) { return kept_draws(r.runs[0]->trace, run_length); }});
  count_rows(rows, "R1", r1, pub.values("R1.counts"));
  // R2: partitioner.ignore.keys makes keyed records sticky like null-key records (spec §1.3).
  count_rows(rows, "R2", {"book/ignore-keys.yaml", {}}, pub.values("R2.counts"));
  // R3: 80% of the records carry one key; its partition takes them, the rest spread.
  const Setup r3{"book/hot-key.yaml", {}};
  auto pc = pub.values("R3.counts");
  std::sort(pc.begin(), pc.end());
  auto hot_partition = [](const Replication& r) {
    const auto& s = *r.scenarios[0];
    return static_cast<std::size_t>(model::partition_for_key(s.producers[0].workload.keys.hot_key,
                                                             s.topics[0].partitions));
  };
  auto others = [hot_partition](const Replication& r) {
    auto c = partition_records(*r.runs[0]);
    c.erase(c.begin() + static_cast<std::ptrdiff_t>(hot_partition(r)));
    return c;
  };
  rows.push_back({"R3",
                  "R3.hot",
                  "records on the hot key's partition",
                  fixed(pc.back(), 0),
                  not_in_tail(pc.back(), kOneRun),
                  0,
                  {r3},
                  [hot_partition](const Replication& r) -> Sample {
                    return static_cast<double>(r.runs[0]->partitions[hot_partition(r)].records);
                  }});
  rows.push_back({"R3",
                  "R3.largest-other",
                  "largest other partition, records",
                  fixed(pc[pc.size() - 2], 0),
                  not_in_tail(pc[pc.size() - 2], kOneRun),
                  0,
                  {r3},
                  [others](const Replication& r) -> Sample {
                    const auto c = others(r);
                    return static_cast<double>(*std::max_element(c.begin(), c.end()));
                  }});
  rows.push_back({"R3",
                  "R3.smallest-other",
                  "smallest other partition, records",
                  fixed(pc.front(), 0),
                  not_in_tail(pc.front(), kOneRun),
                  0,
                  {r3},
                  [others](const Replication& r) -> Sample {
                    const auto c = others(r);
                    return static_cast<double>(*std::min_element(c.begin(), c.end()));
                  }});
}

void r4(std::vector<RandomRow>& rows) {
  // R4: broker 2 of 3 is 50 ms slower; the share of records it gets, by send rate.
  const std::string path = "kip794/slow-broker.yaml";
  const std::string kip480 = "producers.0.config.partitioner=sticky-kip480";
  const std::string off = "producers.0.config.partitioner.adaptive.partitioning.enable=false";
  auto rate = [](int r) { return "producers.0.workload.arrivals.rate=" + std::to_string(r); };
  auto flat = [](std::vector<std::string> extra) {
    std::vector<std::string> v{"producers.0.workload.arrivals.kind=flat-out",
                               "producers.0.workload.arrivals.send.cost.us=1", "run.records=~", "run.duration.ms=3000",
                               "run.warmup.ms=1000"};
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  const Setup b100{path, {rate(100), "run.records=6000"}}, k100{path, {rate(100), "run.records=6000", kip480}};
  const Setup k1000{path, {rate(1000), kip480}};
  const Setup b3000{path, {rate(3000)}}, off3000{path, {rate(3000), off}}, k3000{path, {rate(3000), kip480}};
  const Setup fb{path, flat({})}, foff{path, flat({off})}, fk{path, flat({kip480})};
  const auto share = of_run(last_broker_share);
  const std::string about_third = "'about a third': 1/3 ± 10%";
  rows.push_back({"R4",
                  "R4.even-100",
                  "slow broker's share, builtin, 100 records/s",
                  "even (1/3)",
                  median_in(about(kThird), about_third),
                  3,
                  {b100},
                  share});
  rows.push_back({"R4",
                  "R4.even-100-kip480",
                  "slow broker's share, sticky-kip480, 100 records/s",
                  "even (1/3)",
                  median_in(about(kThird), about_third),
                  3,
                  {k100},
                  share});
  rows.push_back({"R4",
                  "R4.most-1000-kip480",
                  "slow broker's share, sticky-kip480, 1,000 records/s",
                  "most",
                  median_in({0.5, 1, true, false}, "'most': more than half"),
                  3,
                  {k1000},
                  share});
  rows.push_back({"R4",
                  "R4.above-3000",
                  "slow broker's share, builtin, 3,000 records/s",
                  "more than a third",
                  median_in(above_about(kThird, 1), "above the 'about a third' band"),
                  3,
                  {b3000},
                  share});
  rows.push_back({"R4",
                  "R4.far-below-3000",
                  "builtin's share above 1/3 as a share of sticky-kip480's, 3,000 records/s, same seeds",
                  "far below KIP-480",
                  median_in({0, 0.5, false, true}, "'far below': less than half of KIP-480's excess"),
                  3,
                  {b3000, k3000},
                  [](const Replication& r) {
                    return excess_ratio(last_broker_share(*r.runs[0]), last_broker_share(*r.runs[1]), kThird);
                  }});
  rows.push_back(
      {"R4",
       "R4.adaptive-3000",
       "slow broker's share adaptive on / off, builtin, 3,000 records/s, same seeds",
       "adaptive lowers it a little",
       median_in({1 - kAboutTolerance, 1, false, true}, "'a little': lower, by less than the 10% of 'about'"),
       3,
       {b3000, off3000},
       [](const Replication& r) { return ratio(last_broker_share(*r.runs[0]), last_broker_share(*r.runs[1])); }});
  rows.push_back({"R4",
                  "R4.flat-adaptive",
                  "slow broker's share, builtin, flat out (1 us a send)",
                  "clearly below a third",
                  median_in(below_about(kThird, 0), "below the 'about a third' band"),
                  3,
                  {fb},
                  share});
  rows.push_back({"R4",
                  "R4.flat-off",
                  "slow broker's share, builtin adaptive off, flat out",
                  "about a third",
                  median_in(about(kThird), about_third),
                  3,
                  {foff},
                  share});
  rows.push_back({"R4",
                  "R4.flat-kip480",
                  "slow broker's share, sticky-kip480, flat out",
                  "about a third",
                  median_in(about(kThird), about_third),
                  3,
                  {fk},
                  share});
}

void r5(std::vector<RandomRow>& rows, const PublishedFigures& pub) {
  // R5: linger.ms 500, ~24 KB/s: one linger window holds ~12 KB (KAFKA-14156).
  const std::vector<std::string> base{"run.duration.ms=20000", "run.trace=5000"};
  auto with = [&](std::string extra) {
    auto v = base;
    v.push_back(std::move(extra));
    return v;
  };
  const Setup aligned{"kip794/fragmentation.yaml", base};
  const Setup unaligned{"kip794/fragmentation.yaml", with("producers.0.config.partsim.sticky.align-batches=false")};
  const Setup kip480{"kip794/fragmentation.yaml", with("producers.0.config.partitioner=sticky-kip480")};
  auto kib = [](double q) {
    return of_run([q](const model::RunResult& r) -> Sample {
      if (r.batch_bytes.count() == 0) return std::nullopt;
      return static_cast<double>(r.batch_bytes.quantile(q)) / 1024.0;
    });
  };
  // Records per linger window: the send rate times linger.ms of the scenario as loaded.
  auto windows = [](const Replication& r) -> Sample {
    const auto& p = r.scenarios[0]->producers[0];
    const double per_window = p.workload.arrivals.records_per_second * p.config.linger.to_ms() / 1000.0;
    const auto m = median_run(complete_runs(r.runs[0]->trace));
    if (!m || per_window <= 0) return std::nullopt;
    return *m / per_window;
  };
  const double window = pub.value("R5.window-kb"), fragment = pub.value("R5.fragment-kb");
  const std::string about_kb = "'about': ± 10%; 9 batches in 10 at least this";
  rows.push_back({"R5",
                  "R5.batch-kb",
                  "builtin: batch bytes, 10th percentile, KB (1024 B)",
                  fixed(window, 0) + " (one per window)",
                  median_in(about(window), about_kb),
                  2,
                  {aligned},
                  kib(0.1)});
  rows.push_back({"R5",
                  "R5.kip480-batch-kb",
                  "sticky-kip480: batch bytes, 10th percentile, KB",
                  fixed(window, 0) + " (one per window)",
                  median_in(about(window), about_kb),
                  2,
                  {kip480},
                  kib(0.1)});
  rows.push_back({"R5",
                  "R5.builtin-windows",
                  "builtin: median complete run of one partition, in linger windows",
                  fixed(pub.value("R5.builtin-windows"), 0),
                  median_in(about(pub.value("R5.builtin-windows")), "'about': ± 10%"),
                  2,
                  {aligned},
                  windows});
  rows.push_back({"R5",
                  "R5.kip480-windows",
                  "sticky-kip480: median complete run of one partition, in linger windows",
                  fixed(pub.value("R5.kip480-windows"), 0),
                  median_in(about(pub.value("R5.kip480-windows")), "'about': ± 10%"),
                  2,
                  {kip480},
                  windows});
  rows.push_back({"R5",
                  "R5.fragment-kb",
                  "without the batch-boundary rule: batch bytes, 10th percentile, KB",
                  fixed(fragment, 0),
                  median_in(about(fragment), "'about': ± 10%; the small batches of the mix"),
                  2,
                  {unaligned},
                  kib(0.1)});
  rows.push_back({"R5",
                  "R5.fragment-large-kb",
                  "without the batch-boundary rule: batch bytes, 90th percentile, KB",
                  fixed(window, 0),
                  median_in(about(window), "'about': ± 10%; the large batches of the mix"),
                  2,
                  {unaligned},
                  kib(0.9)});
}

void r6(std::vector<RandomRow>& rows, const PublishedFigures& pub) {
  // R6: RoundRobinPartitioner, 48 partitions, 8 application threads (KAFKA-9965, spec §7).
  const Setup s{"round-robin/kafka-9965-production.yaml", {}};
  rows.push_back({"R6",
                  "R6.lower-half",
                  "mean records of the lower half of the partitions (the upper half is the rest)",
                  fixed(pub.value("R6.lower-half"), 0),
                  not_in_tail(pub.value("R6.lower-half"), kOneRun),
                  0,
                  {s},
                  of_counts(lower_half_mean)});
  rows.push_back({"R6",
                  "R6.split",
                  "share of partitions below the largest gap between sorted counts",
                  fixed(pub.value("R6.split"), 3) + " (half)",
                  median_in({pub.value("R6.split"), pub.value("R6.split")},
                            "'half of the partitions': the median replication splits there"),
                  3,
                  {s},
                  of_counts(share_below_largest_gap)});
}

}  // namespace

std::vector<RandomRow> random_rows(const PublishedFigures& published) {
  std::vector<RandomRow> rows;
  r1_r2_r3(rows, published);
  r4(rows);
  r5(rows, published);
  r6(rows, published);
  return rows;
}

}  // namespace partsim::analysis::book
