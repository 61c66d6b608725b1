// partsim book: every entry of the book's tables (../shared/book-tables.md) run through
// partsim and set beside the published figure. Exact entries must match to the record;
// entries from runs with random choices must contain the published figure in the 95%
// range partsim reports over its replications.

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/summary_stats.hpp"
#include "analysis/table.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "model/cluster_simulation.hpp"
#include "model/partitioners/key_hash.hpp"
#include "model/partitioners/key_movement.hpp"
#include "model/placement/replica_placement.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "sim/replications.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

// A ratio with an empty bin counts as this (shown "inf"): quantiles stay finite.
constexpr double kInfinite = 1e9;

struct Entry {
  std::string id, figure, published, ours, verdict;
};

std::string join(const std::vector<std::int64_t>& v, const char* sep = ",") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}
std::string join_assignment(const model::Assignment& a) {
  std::string s;
  for (std::size_t p = 0; p < a.size(); ++p) {
    s += (p ? " " : "") + std::string("p") + std::to_string(p) + "[";
    for (std::size_t j = 0; j < a[p].size(); ++j) s += (j ? "," : "") + std::to_string(a[p][j]);
    s += "]";
  }
  return s;
}
std::vector<std::int64_t> counts(const model::RunResult& r) {
  std::vector<std::int64_t> c;
  for (const auto& p : r.partitions) c.push_back(p.records);
  return c;
}

class Book {
public:
  Book(std::string dir, std::size_t replications, unsigned threads)
      : dir_(std::move(dir)), reps_(replications), threads_(threads), progress_("book runs") {}

  std::vector<Entry> entries;

  void exact(const std::string& id, const std::string& figure, const std::string& published, const std::string& ours) {
    entries.push_back({id, figure, published, ours, published == ours ? "exact" : "differs"});
  }

  // A random entry: the published value against partsim's median and 95% range of `stat`.
  void ranged(const std::string& id, const std::string& figure, double published, const std::vector<double>& values, int decimals) {
    const auto s = analysis::summarize(values);
    const bool inside = published >= s.q025 - 1e-9 && published <= s.q975 + 1e-9;
    auto show = [decimals](double v) { return v >= kInfinite / 1000 ? std::string("inf") : analysis::fixed(v, decimals); };
    entries.push_back({id, figure, show(published), show(s.median) + " [" + show(s.q025) + ", " + show(s.q975) + "]",
                       inside ? "within range" : "outside range"});
  }

  // A published claim as an interval: partsim's median must satisfy it.
  void claim(const std::string& id, const std::string& figure, const std::string& published, double lo, double hi,
             const std::vector<double>& values) {
    const auto s = analysis::summarize(values);
    const bool ok = s.median > lo && s.median < hi;
    entries.push_back({id, figure, published,
                       analysis::fixed(s.median, 3) + " [" + analysis::fixed(s.q025, 3) + ", " + analysis::fixed(s.q975, 3) + "]",
                       ok ? "within range" : "outside range"});
  }

  model::RunResult once(const std::string& rel, const std::vector<std::string>& sets = {}) {
    const auto s = scenarios::load_scenario_file(dir_ + "/" + rel, sets);
    return model::run_scenario(s, s.run.seed);
  }

  std::vector<model::RunResult> replicated(const std::string& rel, const std::vector<std::string>& sets = {}) {
    const auto s = scenarios::load_scenario_file(dir_ + "/" + rel, sets);
    return sim::run_replications<model::RunResult>(reps_, threads_, [&](std::size_t i) { return model::run_scenario(s, s.run.seed, i); });
  }

  template <class F>
  static std::vector<double> each(const std::vector<model::RunResult>& runs, F&& f) {
    std::vector<double> v;
    for (const auto& r : runs) v.push_back(f(r));
    return v;
  }

private:
  std::string dir_;
  std::size_t reps_;
  unsigned threads_;
  Progress progress_;
};

double max_over_min(const model::RunResult& r) {
  const auto c = counts(r);
  const auto [mn, mx] = std::minmax_element(c.begin(), c.end());
  return *mn == 0 ? kInfinite : static_cast<double>(*mx) / static_cast<double>(*mn);
}
double cv_of(const std::vector<std::int64_t>& c) {
  double mean = 0;
  for (auto v : c) mean += static_cast<double>(v);
  mean /= static_cast<double>(c.size());
  double ss = 0;
  for (auto v : c) ss += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  return std::sqrt(ss / static_cast<double>(c.size())) / mean;
}
double cv(const model::RunResult& r) { return cv_of(counts(r)); }
double slow_share(const model::RunResult& r) {
  std::int64_t total = 0;
  for (const auto& b : r.brokers) total += b.records;
  return static_cast<double>(r.brokers.back().records) / static_cast<double>(total);
}
// Lengths of the complete runs of equal partitions in the trace (first and last left out).
std::vector<int> complete_runs(const std::vector<std::int32_t>& trace) {
  std::vector<int> runs;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i == 0 || trace[i] != trace[i - 1]) runs.push_back(0);
    ++runs.back();
  }
  if (runs.size() <= 2) return {};
  return std::vector<int>(runs.begin() + 1, runs.end() - 1);
}

void exact_entries(Book& b) {
  // T1
  for (const char* key : {"book-0", "book-1", "book-2", "book-3", "book-4"}) {
    static const std::map<std::string, std::string> published{
        {"book-0", "-2108685004 38798644 1"}, {"book-1", "-928100454 1219383194 2"}, {"book-2", "-1365223455 782260193 2"},
        {"book-3", "1793899242 1793899242 0"}, {"book-4", "-1799749327 347734321 1"}};
    const auto h = model::murmur2(key);
    b.exact("T1", std::string("murmur2, toPositive, partition of 3: ") + key, published.at(key),
            std::to_string(h) + " " + std::to_string(model::to_positive(h)) + " " + std::to_string(model::to_positive(h) % 3));
  }
  // T2, T3, T4
  b.exact("T2", "keys book-0..299 over 6 partitions", "56,63,45,52,43,41", join(counts(b.once("book/keyed.yaml"))));
  const auto t3 = b.once("book/low-cardinality.yaml");
  b.exact("T3", "5 keys cycling, partition sequence", "4,2,5,0,1",
          join(std::vector<std::int64_t>(t3.trace.begin(), t3.trace.begin() + 5)));
  b.exact("T3", "5 keys cycling, records per partition", "60,60,60,0,60,60", join(counts(t3)));
  b.exact("T4", "hot-key partitioner, records per partition", "150,30,30,30,30,30",
          join(counts(b.once("book/hot-key-partitioner.yaml"))));
  // T5
  std::vector<std::int32_t> hashes;
  for (int i = 0; i < 20000; ++i) hashes.push_back(model::to_positive(model::murmur2("book-B" + std::to_string(i))));
  struct Row { int from, to; const char* published; };
  for (const Row& row : {Row{4, 8, "9837 0.4919 20000 book-B1:0->4"}, Row{4, 5, "16034 0.8017 5001 book-B0:0->2"},
                         Row{8, 16, "10044 0.5022 20000 book-B3:5->13"}, Row{8, 12, "13309 0.6655 10062 book-B0:0->8"},
                         Row{12, 6, "9990 0.4995 10010 book-B0:8->2"}}) {
    const auto m = model::measure_key_movement(hashes, {row.from, row.to}, false);
    b.exact("T5", "book-B0..19999, " + std::to_string(row.from) + " -> " + std::to_string(row.to) + ": changed ratio moduloStable example",
            row.published,
            std::to_string(m.changed) + " " + analysis::exact_ratio(m.changed, m.keys, 4) + " " + std::to_string(m.modulo_stable) +
                " book-B" + std::to_string(*m.example_index) + ":" + std::to_string(m.example_old) + "->" + std::to_string(m.example_new));
  }
  const auto first3000 = model::measure_key_movement(std::span(hashes).first(3000), {4, 8}, false);
  b.exact("T5", "book-B0..2999, 4 -> 8: changed ratio", "1479 0.4930",
          std::to_string(first3000.changed) + " " + analysis::exact_ratio(first3000.changed, 3000, 4));
  // T6
  const std::vector<std::int32_t> brokers{0, 1, 2, 3};
  b.exact("T6", "4 brokers, 6 partitions, rf 2, as published (round-robin)", "p0[0,1] p1[1,2] p2[2,3] p3[3,0] p4[0,1] p5[1,2]",
          join_assignment(model::round_robin_assignment(brokers, 6, 2)));
  b.exact("T6", "Kafka's rack-unaware placer, start index 0 (shift after each round)", "p0[0,1] p1[1,2] p2[2,3] p3[3,0] p4[0,2] p5[1,3]",
          join_assignment(model::admin_rack_unaware(brokers, 6, 2, 0, 0)));
  // T7
  const auto one = model::partition_cost(1, 1);
  const auto thirty = model::partition_cost(30, 1);
  const auto replicated = model::partition_cost(30, 3);
  b.exact("T7", "files in a new partition directory", "5", std::to_string(one.files));
  b.exact("T7", "30 partitions: directories, files", "30 150", std::to_string(thirty.directories) + " " + std::to_string(thirty.files));
  b.exact("T7", "30 partitions x 3 replicas: logs, segment files (at least)", "90 270",
          std::to_string(replicated.logs) + " " + std::to_string(replicated.min_segment_files));
  // T8
  const auto t8 = b.once("round-robin/new-batch-per-record.yaml");
  b.exact("T8", "round-robin, a new batch per record, topic t6: partitions", "2,0,4,2,0,4",
          join(std::vector<std::int64_t>(t8.trace.begin(), t8.trace.begin() + 6)));
}

void random_entries(Book& b) {
  // R1
  const auto r1 = b.replicated("book/null-key-sticky.yaml", {"run.trace=300"});
  std::vector<double> run_ok;
  for (const auto& r : r1) {
    const auto runs = complete_runs(r.trace);
    run_ok.push_back(std::all_of(runs.begin(), runs.end(), [](int n) { return n % 14 == 0; }) ? 14 : 0);
  }
  b.ranged("R1", "null key, batch.size 1024: complete run length (multiples when redrawn)", 14, run_ok, 0);
  b.ranged("R1", "records per partition (26..93): max/min", 93.0 / 26.0, Book::each(r1, max_over_min), 2);
  b.ranged("R1", "records per partition (26..93): coefficient of variation", cv_of({28, 93, 74, 40, 39, 26}), Book::each(r1, cv), 3);
  // R2
  const auto r2 = b.replicated("book/ignore-keys.yaml");
  b.ranged("R2", "ignore.keys: records per partition (30..61), max/min", 61.0 / 30.0, Book::each(r2, max_over_min), 2);
  b.ranged("R2", "ignore.keys: records per partition, coefficient of variation", cv_of({50, 50, 49, 30, 61, 60}), Book::each(r2, cv), 3);
  // R3
  const auto r3 = b.replicated("book/hot-key.yaml");
  b.ranged("R3", "hot key 80%: records on p5", 251, Book::each(r3, [](const auto& r) { return static_cast<double>(r.partitions[5].records); }), 0);
  b.ranged("R3", "hot key 80%: largest other partition", 13, Book::each(r3, [](const auto& r) {
             std::int64_t m = 0;
             for (std::size_t p = 0; p < 5; ++p) m = std::max(m, r.partitions[p].records);
             return static_cast<double>(m);
           }), 0);
  b.ranged("R3", "hot key 80%: smallest other partition", 5, Book::each(r3, [](const auto& r) {
             std::int64_t m = r.partitions[0].records;
             for (std::size_t p = 0; p < 5; ++p) m = std::min(m, r.partitions[p].records);
             return static_cast<double>(m);
           }), 0);
  // R4
  const std::string kip480 = "producers.0.config.partitioner=sticky-kip480";
  const std::string off = "producers.0.config.partitioner.adaptive.partitioning.enable=false";
  auto rate = [](int r) { return "producers.0.workload.arrivals.rate=" + std::to_string(r); };
  b.claim("R4", "slow broker share at 100 records/s: even", "about 1/3", 0.25, 0.42,
          Book::each(b.replicated("kip794/slow-broker.yaml", {rate(100), "run.records=6000"}), slow_share));
  b.claim("R4", "slow broker share, sticky-kip480, 1,000 records/s", "most (> 0.5)", 0.5, 1.0,
          Book::each(b.replicated("kip794/slow-broker.yaml", {rate(1000), kip480}), slow_share));
  const auto on3000 = b.replicated("kip794/slow-broker.yaml", {rate(3000)});
  const auto off3000 = b.replicated("kip794/slow-broker.yaml", {rate(3000), off});
  b.claim("R4", "slow broker share, builtin, 3,000 records/s", "> 1/3, far below KIP-480", 1.0 / 3, 0.6, Book::each(on3000, slow_share));
  std::vector<double> lowered;
  for (std::size_t i = 0; i < on3000.size(); ++i) lowered.push_back(slow_share(off3000[i]) - slow_share(on3000[i]));
  b.claim("R4", "builtin, 3,000 records/s: adaptive off minus on", "adaptive lowers a little (0..0.1)", 0.0, 0.1, lowered);
  const std::vector<std::string> flat{"producers.0.workload.arrivals.kind=flat-out", "producers.0.workload.arrivals.send.cost.us=1",
                                      "run.records=~", "run.duration.ms=3000", "run.warmup.ms=1000"};
  auto with = [](std::vector<std::string> v, const std::string& extra) {
    v.push_back(extra);
    return v;
  };
  b.claim("R4", "flat out, builtin adaptive: slow broker share", "clearly < 1/3", 0.0, 0.3,
          Book::each(b.replicated("kip794/slow-broker.yaml", flat), slow_share));
  b.claim("R4", "flat out, builtin adaptive off: slow broker share", "about 1/3", 0.28, 0.40,
          Book::each(b.replicated("kip794/slow-broker.yaml", with(flat, off)), slow_share));
  // R5
  const auto aligned = b.replicated("kip794/fragmentation.yaml", {"run.duration.ms=20000"});
  const auto unaligned = b.replicated("kip794/fragmentation.yaml", {"run.duration.ms=20000", "producers.0.config.partsim.sticky.align-batches=false"});
  auto kb = [](double q) {
    return [q](const model::RunResult& r) { return static_cast<double>(r.batch_bytes.quantile(q)) / 1024.0; };
  };
  b.claim("R5", "with the rule: batches (10th percentile), KB", "one ~12 KB batch per window", 11, 13, Book::each(aligned, kb(0.1)));
  b.claim("R5", "without the rule: small batches (10th percentile), KB", "4 KB among the 12 KB", 3, 5, Book::each(unaligned, kb(0.1)));
  b.claim("R5", "without the rule: large batches (90th percentile), KB", "12 KB", 11, 13, Book::each(unaligned, kb(0.9)));
  // R6
  const auto r6 = b.replicated("round-robin/kafka-9965-production.yaml");
  auto half_mean = [](const model::RunResult& r, bool low) {
    auto c = counts(r);
    std::sort(c.begin(), c.end());
    double s = 0;
    for (std::size_t i = low ? 0 : c.size() / 2; i < (low ? c.size() / 2 : c.size()); ++i) s += static_cast<double>(c[i]);
    return s / static_cast<double>(c.size() / 2);
  };
  b.ranged("R6", "round-robin, 48 partitions: mean records, lower half", 1129, Book::each(r6, [&](const auto& r) { return half_mean(r, true); }), 0);
  b.ranged("R6", "round-robin, 48 partitions: mean records, upper half", 2970, Book::each(r6, [&](const auto& r) { return half_mean(r, false); }), 0);
}

}  // namespace

int run_book_command(const Args& args) {
  std::string format_text = "table", scenarios_dir = PARTSIM_SCENARIO_DIR, replications_text = "100", threads_text = "0";
  po::options_description desc("book options");
  desc.add_options()
      ("help,h", "show this help")
      ("replications", po::value<std::string>(&replications_text), "replications for entries with random choices (default 100)")
      ("threads", po::value<std::string>(&threads_text), "threads (default 0 = all cores)")
      ("scenarios", po::value<std::string>(&scenarios_dir), "folder of the shipped scenarios")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table or json");
  if (help_requested(args,
                     "usage: partsim book [--replications R] [--format table|json]\n"
                     "Runs every published table through partsim and sets it beside the published figure.\n",
                     desc))
    return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  Book book(scenarios_dir, static_cast<std::size_t>(parse_int(replications_text, "--replications", 2, 100000)),
            static_cast<unsigned>(parse_int(threads_text, "--threads", 0, 1024)));
  exact_entries(book);
  random_entries(book);

  bool all_ok = true;
  for (const auto& e : book.entries) all_ok = all_ok && (e.verdict == "exact" || e.verdict == "within range");
  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["replications"] = parse_int(replications_text, "--replications", 2, 100000);
    auto& arr = j["entries"] = nlohmann::ordered_json::array();
    for (const auto& e : book.entries)
      arr.push_back({{"entry", e.id}, {"figure", e.figure}, {"published", e.published}, {"partsim", e.ours}, {"verdict", e.verdict}});
    j["all_reproduced"] = all_ok;
    write_stdout(j.dump(2) + "\n");
  } else {
    analysis::Table t({{"entry", analysis::Align::kLeft}, {"figure", analysis::Align::kLeft}, {"published", analysis::Align::kLeft},
                       {"partsim", analysis::Align::kLeft}, {"verdict", analysis::Align::kLeft}});
    for (const auto& e : book.entries) t.add_row({e.id, e.figure, e.published, e.ours, e.verdict});
    write_stdout(t.to_text() + "\nrandom entries: partsim's median [95% range] over " + replications_text +
                 " replications; a published claim is met when partsim's median satisfies it.\n");
  }
  return all_ok ? kExitOk : kExitRunFailed;
}

}  // namespace partsim::cli
