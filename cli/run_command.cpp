// partsim run: one scenario, one seed; results as tables, JSON or CSV, and files with --out.

#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "analysis/replicated_report.hpp"
#include "analysis/run_report.hpp"
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
    "usage: partsim run SCENARIO.yaml [--seed N] [--set PATH=VALUE ...] [--format table|json|csv] [--out DIR]\n"
    "Runs a scenario until every record sent is acknowledged or has failed.\n";

}  // namespace

int run_run_command(const Args& args) {
  std::string scenario_path;
  std::string seed_text;
  std::vector<std::string> sets;
  std::string format_text = "table";
  std::string out_dir;
  std::string replications_text = "1", threads_text = "0";
  po::options_description desc("run options");
  desc.add_options()
      ("help,h", "show this help")
      ("seed", po::value<std::string>(&seed_text), "master seed (default: the scenario's run.seed)")
      ("set", po::value<std::vector<std::string>>(&sets), "override a scenario field, e.g. producers.0.config.linger.ms=0 (repeatable)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, json or csv (csv: one row per partition)")
      ("replications", po::value<std::string>(&replications_text), "independent replications R (default 1): mean and 95% CI per metric")
      ("threads", po::value<std::string>(&threads_text), "threads for replications (default 0 = all cores); output does not depend on it")
      ("out", po::value<std::string>(&out_dir), "also write summary.json and partitions.csv into DIR");
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
  auto scenario = scenarios::load_scenario_file(scenario_path, sets);
  if (!seed_text.empty())
    scenario.run.seed = static_cast<std::uint64_t>(parse_int(seed_text, "--seed", 0, std::numeric_limits<std::int64_t>::max()));
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw UsageError("--out: cannot create directory '" + out_dir + "': " + ec.message());
  }

  const auto replications = static_cast<std::size_t>(parse_int(replications_text, "--replications", 1, 100000));
  const auto threads = static_cast<unsigned>(parse_int(threads_text, "--threads", 0, 1024));
  if (replications > 1) {
    Progress progress("replications");
    const auto reps = sim::run_replications<model::RunResult>(
        replications, threads, [&](std::size_t i) { return model::run_scenario(scenario, scenario.run.seed, i); },
        [&](std::size_t done, std::size_t total) { progress.update(done, total); });
    const auto json = analysis::replicated_to_json(reps);
    if (!out_dir.empty()) {
      write_file_atomically(out_dir + "/summary.json", json.dump(2) + "\n");
      write_file_atomically(out_dir + "/metrics.csv", analysis::replicated_to_csv(reps));
    }
    switch (format) {
      case OutputFormat::kTable: write_stdout(analysis::replicated_to_text(reps)); break;
      case OutputFormat::kJson: write_stdout(json.dump(2) + "\n"); break;
      case OutputFormat::kCsv: write_stdout(analysis::replicated_to_csv(reps)); break;
    }
    return kExitOk;
  }

  const auto result = model::run_scenario(scenario, scenario.run.seed);

  const auto json = analysis::run_to_json(result);
  if (!out_dir.empty()) {
    write_file_atomically(out_dir + "/summary.json", json.dump(2) + "\n");
    write_file_atomically(out_dir + "/partitions.csv", analysis::partitions_to_csv(result));
  }
  switch (format) {
    case OutputFormat::kTable: write_stdout(analysis::run_to_text(result)); break;
    case OutputFormat::kJson: write_stdout(json.dump(2) + "\n"); break;
    case OutputFormat::kCsv: write_stdout(analysis::partitions_to_csv(result)); break;
  }
  return kExitOk;
}

}  // namespace partsim::cli
