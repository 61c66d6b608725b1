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
#include "cli/run_files.hpp"
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
    "usage: partsim run SCENARIO.yaml [--seed N] [--set PATH=VALUE ...] [--replications R] [--format table|json|csv]\n"
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
  std::string scenario_path;
  std::string seed_text;
  std::vector<std::string> sets;
  std::string format_text = "table";
  std::string out_dir, plot_dir, timeseries_text;
  std::string replications_text = "1", threads_text = "0";
  po::options_description desc("run options");
  desc.add_options()
      ("help,h", "show this help")
      ("seed", po::value<std::string>(&seed_text), "master seed (default: the scenario's run.seed)")
      ("set", po::value<std::vector<std::string>>(&sets), "override a scenario field, e.g. producers.0.config.linger.ms=0 (repeatable)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, json or csv (csv: one row per partition)")
      ("replications", po::value<std::string>(&replications_text), "independent replications R (default 1): mean and 95% CI per metric")
      ("threads", po::value<std::string>(&threads_text), "threads for replications (default 0 = all cores); output does not depend on it")
      ("timeseries", po::value<std::string>(&timeseries_text), "sample queues, in-flight requests, buffer use every MS of simulated time")
      ("plot", po::value<std::string>(&plot_dir), "draw PNG charts into DIR (gnuplot)")
      ("out", po::value<std::string>(&out_dir), "write summary.json, partitions.csv, batches.csv, timeseries.csv, manifest.json into DIR");
  po::options_description hidden;
  hidden.add_options()("scenario", po::value<std::string>(&scenario_path), "scenario file");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("scenario", 1);
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << kRunUsage << desc;
      return kExitOk;
    }
  parse_command_line(args, all, &pos);
  if (scenario_path.empty()) throw UsageError("no scenario file: partsim run SCENARIO.yaml");
  const auto format = parse_format(format_text);
  const auto replications = static_cast<std::size_t>(parse_int(replications_text, "--replications", 1, 100000));
  const auto threads = static_cast<unsigned>(parse_int(threads_text, "--threads", 0, 1024));
  model::RunOptions options;
  if (!timeseries_text.empty()) {
    const double ms = parse_number(timeseries_text, "--timeseries", 0.001, 1e9);
    options.timeseries = model::SimTime::from_ms(ms);
  }
  auto scenario = scenarios::load_scenario_file(scenario_path, sets);
  if (!seed_text.empty())
    scenario.run.seed = static_cast<std::uint64_t>(parse_int(seed_text, "--seed", 0, std::numeric_limits<std::int64_t>::max()));
  for (const auto& dir : {out_dir, plot_dir}) {
    if (dir.empty()) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw UsageError("cannot create directory '" + dir + "': " + ec.message());
  }
  if (!plot_dir.empty() && options.timeseries == model::SimTime::zero())
    // The queue chart needs samples: 200 over the run when its length is known, else every 10 ms.
    options.timeseries = scenario.run.duration ? model::SimTime::ns(std::max<std::int64_t>(1, scenario.run.duration->count_ns() / 200))
                                               : model::SimTime::ms(10);
  options.batches = !out_dir.empty();

  Progress progress("replications");
  const auto reps = sim::run_replications<model::RunResult>(
      replications, threads,
      [&](std::size_t i) {
        // Per-batch rows and samples are kept for the first replication only.
        model::RunOptions o = options;
        if (i > 0) o = model::RunOptions{};
        return model::run_scenario(scenario, scenario.run.seed, i, o);
      },
      [&](std::size_t done, std::size_t total) { if (total > 1) progress.update(done, total); });
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
  if (!out_dir.empty()) {
    write_file_atomically(out_dir + "/summary.json", json.dump(2) + "\n");
    write_file_atomically(out_dir + "/partitions.csv", analysis::partitions_to_csv(first));
    write_file_atomically(out_dir + "/batches.csv", analysis::batches_to_csv(first));
    if (!first.timeseries.time_ms.empty()) write_file_atomically(out_dir + "/timeseries.csv", analysis::timeseries_to_csv(first));
    if (replications > 1) write_file_atomically(out_dir + "/metrics.csv", analysis::replicated_to_csv(reps));
    std::vector<std::string> command{"partsim", "run"};
    command.insert(command.end(), args.begin(), args.end());
    write_manifest(out_dir, scenario_path, scenario, replications, command);
  }
  if (!timeseries_text.empty() && out_dir.empty() && format == OutputFormat::kCsv) stdout_text = analysis::timeseries_to_csv(first);
  if (!plot_dir.empty()) plot_run(plot_dir, reps);
  write_stdout(stdout_text);
  return kExitOk;
}

}  // namespace partsim::cli
