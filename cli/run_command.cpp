// partsim run: one scenario, one seed; results as tables, JSON or CSV, and files with --out.

#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "analysis/replicated_report.hpp"
#include "analysis/plots.hpp"
#include "analysis/run_report.hpp"
#include "analysis/run_tables.hpp"
#include "analysis/summary_stats.hpp"
#include "analysis/table.hpp"
#include "analysis/theory.hpp"
#include "analysis/format.hpp"
#include "model/producer/record_size.hpp"
#include "cli/interrupt.hpp"
#include "cli/run_files.hpp"
#include "model/run_estimate.hpp"
#include "cli/progress.hpp"
#include "sim/replications.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kRunUsage =
    "partsim run SCENARIO.yaml [--seed N] [--set PATH=VALUE ...] [--replications R] [--format table|json|csv]\n"
    "                  [--timeseries MS] [--plot DIR] [--out DIR]\n"
    "Runs a scenario until every record sent is acknowledged or has failed.\n";

}  // namespace

namespace {

std::vector<analysis::PartitionBar> bars_of(const std::vector<model::RunResult>& reps) {
  std::vector<analysis::PartitionBar> bars;
  for (std::size_t p = 0; p < reps.front().partitions.size(); ++p) {
    std::vector<double> v;
    for (const auto& r : reps) v.push_back(static_cast<double>(r.partitions[p].records));
    const auto s = analysis::summarize(v);
    const auto& part = reps.front().partitions[p];
    bars.push_back({reps.front().partitions.size() > 1 && part.topic.size() < 12 ? part.topic + "." + std::to_string(part.partition)
                                                                                 : std::to_string(part.partition),
                    s.mean, s.ci_low, s.ci_high});
  }
  return bars;
}

// The closed-form batch size distribution beside the simulated one (run.check:
// poisson-batching), over all replications' measured batches.
void poisson_batching_check(const model::Scenario& s, const std::vector<model::RunResult>& reps, std::string& text,
                            nlohmann::ordered_json& json) {
  const auto& p = s.producers.front();
  model::RecordShape shape;
  shape.value_bytes = p.workload.values.null_value ? -1 : p.workload.values.size_bytes;
  shape.header_count = p.workload.header_count;
  shape.header_key_bytes = p.workload.header_key_bytes;
  shape.header_value_bytes = p.workload.header_value_bytes;
  const std::int32_t cap = model::records_per_full_batch(p.config.batch_size_bytes, shape.payload_part());
  const double mean = p.workload.arrivals.records_per_second * p.config.linger.to_ms() / 1000.0;
  std::vector<std::int64_t> observed;
  for (const auto& r : reps) {
    if (observed.size() < r.batch_records.size()) observed.resize(r.batch_records.size(), 0);
    for (std::size_t k = 0; k < r.batch_records.size(); ++k) observed[k] += r.batch_records[k];
  }
  const auto pmf = analysis::poisson_batch_pmf(mean, cap);
  const auto fit = analysis::chi_square_goodness_of_fit(observed, pmf);
  std::int64_t total = 0;
  for (auto c : observed) total += c;
  analysis::Table t({{"records/batch"}, {"simulated"}, {"theory"}, {"sim share"}, {"theory share"}});
  auto& rows = json["theory"]["rows"] = nlohmann::ordered_json::array();
  for (std::int32_t k = 1; k <= cap; ++k) {
    const std::int64_t o = static_cast<std::size_t>(k) < observed.size() ? observed[static_cast<std::size_t>(k)] : 0;
    const double e = pmf[static_cast<std::size_t>(k)] * static_cast<double>(total);
    t.add_row({std::to_string(k), std::to_string(o), analysis::fixed(e, 1),
               analysis::fixed(total ? static_cast<double>(o) / static_cast<double>(total) : 0.0, 4),
               analysis::fixed(pmf[static_cast<std::size_t>(k)], 4)});
    rows.push_back({{"records", k}, {"simulated", o}, {"theory", analysis::round_to(e, 3)}});
  }
  text += "\nPoisson batching check: rate " + analysis::fixed(p.workload.arrivals.records_per_second, 1) + "/s x linger " +
          analysis::fixed(p.config.linger.to_ms(), 1) + " ms = " + analysis::fixed(mean, 3) + " arrivals per linger, cap " +
          std::to_string(cap) + " records per batch (batch.size " + std::to_string(p.config.batch_size_bytes) + ")\n" + t.to_text() +
          "chi-square " + analysis::fixed(fit.chi_square, 3) + " on " + std::to_string(fit.degrees_of_freedom) +
          " degrees of freedom: p = " + analysis::fixed(fit.p_value, 4) + "\n";
  json["theory"]["check"] = "poisson-batching";
  json["theory"]["mean_arrivals_per_linger"] = mean;
  json["theory"]["cap_records"] = cap;
  json["theory"]["batches"] = total;
  json["theory"]["chi_square"] = analysis::round_to(fit.chi_square, 4);
  json["theory"]["degrees_of_freedom"] = fit.degrees_of_freedom;
  json["theory"]["p_value"] = analysis::round_to(fit.p_value, 6);
}

void plot_run(const std::string& dir, const std::vector<model::RunResult>& reps) {
  analysis::Plotter plot(dir);
  const auto& first = reps.front();
  const std::string name = first.scenario;
  plot.records_per_partition(name + ": records per partition" + (reps.size() > 1 ? " (" + std::to_string(reps.size()) + " replications)" : ""),
                             bars_of(reps));
  if (!first.trace.empty()) plot.partition_strip(name + ": first " + std::to_string(first.trace.size()) + " partition choices", first.trace);
  if (!first.timeseries.time_ms.empty()) plot.broker_queues(name + ": undrained batches per broker", first);
  plot.latency_cdf(name + ": latency", {{name, &first.latency}});
  plot.batch_size_histogram(name + ": records per batch", first.batch_records);
}

}  // namespace

int run_run_command(const Args& args) {
  ScenarioCommandOptions common;
  std::string out_dir, plot_dir, timeseries_text;
  po::options_description desc("run options");
  desc.add_options()("help,h", "show this help");
  add_scenario_options(desc, common);
  desc.add_options()
      ("timeseries", po::value<std::string>(&timeseries_text), "sample queues, in-flight requests, buffer use every MS of simulated time")
      ("plot", po::value<std::string>(&plot_dir), "draw PNG charts into DIR (gnuplot)")
      ("out", po::value<std::string>(&out_dir), "write summary.json, partitions.csv, batches.csv, timeseries.csv, manifest.json into DIR");
  if (!parse_scenario_command(args, desc, common, kRunUsage, "partsim run SCENARIO.yaml")) return kExitOk;
  const std::string& scenario_path = common.scenario_path;
  const std::string& seed_text = common.seed_text;
  const auto& sets = common.sets;
  const std::string& format_text = common.format_text;
  const std::string& replications_text = common.replications_text;
  const std::string& threads_text = common.threads_text;
  const bool allow_large = common.allow_large;
  const auto format = parse_format(format_text);
  const auto replications = static_cast<std::size_t>(parse_int(replications_text, "--replications", 1, 100000));
  const auto threads = static_cast<unsigned>(parse_int(threads_text, "--threads", 0, 1024));
  model::RunOptions options;
  if (!timeseries_text.empty()) {
    const double ms = parse_number(timeseries_text, "--timeseries", 0.001, 1e9);
    options.timeseries = model::SimTime::from_ms(ms);
  }
  auto scenario = load_scenario_with_warnings("run", scenario_path, sets);
  if (!seed_text.empty())
    scenario.run.seed = static_cast<std::uint64_t>(parse_int(seed_text, "--seed", 0, std::numeric_limits<std::int64_t>::max()));
  refuse_if_too_large(scenario, scenario_path, allow_large);
  for (const auto& [option, dir] : {std::pair{"--out", out_dir}, std::pair{"--plot", plot_dir}}) {
    if (dir.empty()) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw UsageError(std::string(option) + ": cannot create directory '" + dir + "': " + ec.message());
  }
  if (!plot_dir.empty() && options.timeseries == model::SimTime::zero())
    // The queue chart needs samples: 200 over the run when its length is known, else every 10 ms.
    options.timeseries = scenario.run.duration ? model::SimTime::ns(std::max<std::int64_t>(1, scenario.run.duration->count_ns() / 200))
                                               : model::SimTime::ms(10);
  options.batches = !out_dir.empty();
  options.cancel = &interrupted();

  Progress progress("replications");
  const auto reps = sim::run_replications<model::RunResult>(
      replications, threads,
      [&](std::size_t i) {
        // Per-batch rows and samples are kept for the first replication only.
        model::RunOptions o = options;
        if (i > 0) o = model::RunOptions{};
        return model::run_scenario(scenario, scenario.run.seed, i, o);
      },
      [&](std::size_t done, std::size_t total) { if (total > 1) progress.update(done, total); }, &interrupted());
  if (reps.empty()) throw std::runtime_error("interrupted before any replication finished; nothing written");
  const auto& first = reps.front();

  std::string stdout_text;
  nlohmann::ordered_json json;
  if (replications > 1) {
    json = analysis::replicated_to_json(reps);
    switch (format) {
      case OutputFormat::kTable: stdout_text = analysis::replicated_to_text(reps); break;
      case OutputFormat::kJson: stdout_text = json.dump(2) + "\n"; break;
      case OutputFormat::kCsv: stdout_text = analysis::replicated_to_csv(reps); break;
    }
  } else {
    json = analysis::run_to_json(first);
    switch (format) {
      case OutputFormat::kTable: stdout_text = analysis::run_to_text(first); break;
      case OutputFormat::kJson: stdout_text = json.dump(2) + "\n"; break;
      case OutputFormat::kCsv: stdout_text = analysis::partitions_to_csv(first); break;
    }
  }
  if (scenario.run.check == model::RunSpec::Check::kPoissonBatching) {
    std::string extra;
    poisson_batching_check(scenario, reps, extra, json);
    if (format == OutputFormat::kTable) stdout_text += extra;
    if (format == OutputFormat::kJson) stdout_text = json.dump(2) + "\n";
  }
  if (!out_dir.empty()) {
    write_file_atomically(out_dir + "/summary.json", json.dump(2) + "\n");
    write_file_atomically(out_dir + "/partitions.csv", analysis::partitions_to_csv(first));
    write_file_atomically(out_dir + "/batches.csv", analysis::batches_to_csv(first));
    if (!first.timeseries.time_ms.empty()) write_file_atomically(out_dir + "/timeseries.csv", analysis::timeseries_to_csv(first));
    if (replications > 1) write_file_atomically(out_dir + "/metrics.csv", analysis::replicated_to_csv(reps));
    std::vector<std::string> command{"partsim", "run"};
    command.insert(command.end(), args.begin(), args.end());
    write_manifest(out_dir, scenario_path, scenario, replications, command,
                   timeseries_text.empty() ? "" : " --timeseries " + timeseries_text);
  }
  if (!timeseries_text.empty() && out_dir.empty() && format == OutputFormat::kCsv) stdout_text = analysis::timeseries_to_csv(first);
  if (!plot_dir.empty()) plot_run(plot_dir, reps);
  write_stdout(stdout_text);
  if (interrupted().load()) {
    std::fprintf(stderr, "partsim run: interrupted: the results above are partial (\"partial\": true)\n");
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace partsim::cli
