// partsim compare: one scenario and seed, once per partitioner or variant (and per sweep
// value), with common random numbers for the workload, side by side.

#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare_report.hpp"
#include "analysis/plots.hpp"
#include "analysis/run_report.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress.hpp"
#include "sim/replications.hpp"
#include "model/cluster_simulation.hpp"
#include "model/run_estimate.hpp"
#include "model/partitioners/partitioner.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kCompareUsage =
    "partsim compare SCENARIO.yaml (--partitioners A,B,... | --variant NAME:KEY=VALUE,...)... [options]\n"
    "Runs the scenario once per partitioner or variant on the same seed and prints them side by side.\n"
    "A KEY without a section (producers., cluster., topics., run.) applies to every producer: workload.X\n"
    "to its workload, anything else to its config: --variant lazy:linger.ms=50 sets\n"
    "producers.*.config.linger.ms=50; --sweep workload.arrivals.rate=100,1000 sets the send rate.\n";

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t pos = 0;
  for (;;) {
    const auto at = text.find(sep, pos);
    parts.push_back(text.substr(pos, at == std::string::npos ? std::string::npos : at - pos));
    if (at == std::string::npos) break;
    pos = at + 1;
  }
  return parts;
}

// "linger.ms=5" -> "producers.*.config.linger.ms=5"; full paths stay as they are.
std::string expand_assignment(const std::string& a, const std::string& option) {
  const auto eq = a.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError(option + ": must be KEY=VALUE, got '" + a + "'");
  for (const char* section : {"producers.", "cluster.", "topics.", "run."})
    if (a.rfind(section, 0) == 0) return a;
  if (a.rfind("workload.", 0) == 0 || a.rfind("config.", 0) == 0) return "producers.*." + a;
  return "producers.*.config." + a;
}

struct RunPlan {
  std::string name;
  std::vector<std::string> sets;
};

}  // namespace

int run_compare_command(const Args& args) {
  ScenarioCommandOptions common;
  std::string partitioners_text, sweep_text, out_dir, plot_dir;
  std::vector<std::string> variants;
  po::options_description desc("compare options");
  desc.add_options()
      ("help,h", "show this help")
      ("partitioners", po::value<std::string>(&partitioners_text), "comma-separated partitioners to compare")
      ("variant", po::value<std::vector<std::string>>(&variants), "NAME:KEY=VALUE[,KEY=VALUE...] (repeatable)")
      ("sweep", po::value<std::string>(&sweep_text), "KEY=V1,V2,...: repeat the comparison for each value");
  add_scenario_options(desc, common);
  desc.add_options()
      ("plot", po::value<std::string>(&plot_dir), "draw the latency CDF of every run into DIR (gnuplot)")
      ("out", po::value<std::string>(&out_dir), "also write compare.json and compare.csv into DIR");
  if (!parse_scenario_command(args, desc, common, kCompareUsage, "partsim compare SCENARIO.yaml --partitioners A,B")) return kExitOk;
  const std::string& scenario_path = common.scenario_path;
  const std::string& seed_text = common.seed_text;
  const auto& sets = common.sets;
  const std::string& replications_text = common.replications_text;
  const std::string& threads_text = common.threads_text;
  const bool allow_large = common.allow_large;
  const auto format = parse_format(common.format_text);

  std::vector<std::string> partitioners;
  if (!partitioners_text.empty()) {
    const auto& known = model::partitioner_names();
    for (const auto& p : split(partitioners_text, ',')) {
      if (std::find(known.begin(), known.end(), p) == known.end()) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        throw UsageError("--partitioners: unknown partitioner '" + p + "' (known: " + list + ")");
      }
      partitioners.push_back(p);
    }
  }
  std::vector<RunPlan> variant_plans;
  for (const auto& v : variants) {
    const auto colon = v.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= v.size())
      throw UsageError("--variant: must be NAME:KEY=VALUE[,KEY=VALUE...], got '" + v + "'");
    RunPlan plan{v.substr(0, colon), {}};
    for (const auto& a : split(v.substr(colon + 1), ',')) plan.sets.push_back(expand_assignment(a, "--variant"));
    variant_plans.push_back(std::move(plan));
  }
  if (partitioners.empty() && variant_plans.empty()) throw UsageError("nothing to compare: give --partitioners A,B,... or --variant NAME:KEY=VALUE");

  std::vector<RunPlan> plans;
  if (variant_plans.empty()) {
    for (const auto& p : partitioners) plans.push_back({p, {"producers.*.config.partitioner=" + p}});
  } else if (partitioners.empty()) {
    plans = variant_plans;
  } else {
    for (const auto& p : partitioners)
      for (const auto& v : variant_plans) {
        RunPlan plan{p + "/" + v.name, {"producers.*.config.partitioner=" + p}};
        plan.sets.insert(plan.sets.end(), v.sets.begin(), v.sets.end());
        plans.push_back(std::move(plan));
      }
  }

  std::string sweep_path;
  std::vector<std::string> sweep_values{""};
  if (!sweep_text.empty()) {
    const auto eq = sweep_text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= sweep_text.size())
      throw UsageError("--sweep: must be KEY=V1,V2,..., got '" + sweep_text + "'");
    sweep_path = expand_assignment(sweep_text.substr(0, eq) + "=x", "--sweep");
    sweep_path = sweep_path.substr(0, sweep_path.size() - 2);
    sweep_values = split(sweep_text.substr(eq + 1), ',');
  }
  std::optional<std::uint64_t> seed;
  if (!seed_text.empty())
    seed = static_cast<std::uint64_t>(parse_int(seed_text, "--seed", 0, std::numeric_limits<std::int64_t>::max()));
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw UsageError("--out: cannot create directory '" + out_dir + "': " + ec.message());
  }

  const auto replications = static_cast<std::size_t>(parse_int(replications_text, "--replications", 1, 100000));
  const auto threads = static_cast<unsigned>(parse_int(threads_text, "--threads", 0, 1024));
  // Every scenario is loaded (and checked) before anything runs.
  struct Job {
    std::string name, sweep_value;
    model::Scenario scenario;
    std::uint64_t seed;
  };
  std::vector<Job> jobs;
  std::set<std::string> warned;  // a warning of the file prints once, not once per run
  for (const auto& value : sweep_values) {
    for (const auto& plan : plans) {
      std::vector<std::string> run_sets = sets;
      run_sets.insert(run_sets.end(), plan.sets.begin(), plan.sets.end());
      if (!sweep_path.empty()) run_sets.push_back(sweep_path + "=" + value);
      auto scenario = load_scenario_with_warnings("compare", scenario_path, run_sets, &warned);
      const std::uint64_t run_seed = seed.value_or(scenario.run.seed);
      jobs.push_back({plan.name, value, std::move(scenario), run_seed});
    }
  }
  model::RunPlan plan;
  plan.replications = replications;
  plan.concurrent = sim::replication_threads(threads, jobs.size() * replications);
  plan.runs = jobs.size();
  for (const auto& job : jobs) refuse_if_too_large(job.scenario, scenario_path, allow_large, plan);
  enable_graceful_stop();

  // Results arrive in job order, replications of a job together: a job's runs are
  // summarized as they come (its first replication's latency is kept for the chart).
  std::vector<std::optional<model::RunResult>> singles(replications == 1 ? jobs.size() : 0);
  std::vector<std::optional<analysis::ReplicationSummary>> summaries(replications > 1 ? jobs.size() : 0);
  std::vector<model::LatencyHistogram> first_latency(plot_dir.empty() ? 0 : jobs.size());
  std::vector<std::string> unmeasured;
  Progress progress("runs");
  sim::for_each_replication<model::RunResult>(
      jobs.size() * replications, threads,
      [&](std::size_t k) {
        const Job& job = jobs[k / replications];
        model::RunOptions options;
        options.cancel = &interrupted();
        return model::run_scenario(job.scenario, job.seed, k % replications, options);
      },
      [&](std::size_t k, model::RunResult&& r) {
        const std::size_t j = k / replications;
        if (r.records_measured == 0)
          unmeasured.push_back("'" + jobs[j].name + "'" + (jobs[j].sweep_value.empty() ? "" : " at " + jobs[j].sweep_value) +
                               (replications > 1 ? " replication " + std::to_string(k % replications) : ""));
        if (!plot_dir.empty() && k % replications == 0) first_latency[j] = r.latency;
        if (replications == 1) {
          singles[j] = std::move(r);
          return;
        }
        if (!summaries[j]) summaries[j].emplace(r, replications);
        summaries[j]->add(r);
      },
      [&](std::size_t done, std::size_t total) { progress.update(done, total); }, &interrupted());
  if (interrupted().load())
    throw std::runtime_error("interrupted: a comparison needs every run; nothing written");
  for (const auto& u : unmeasured)
    std::fprintf(stderr, "partsim compare: warning: run %s measured no records (is run.warmup.ms longer than the run?); its statistics are "
                         "null in JSON, empty in CSV and '-' in the table\n", u.c_str());

  if (!plot_dir.empty()) {
    // One curve per run (its first replication), in run order.
    analysis::Plotter plot(plot_dir);
    std::vector<analysis::LatencyCurve> curves;
    for (std::size_t k = 0; k < jobs.size(); ++k)
      curves.push_back({jobs[k].name + (jobs[k].sweep_value.empty() ? "" : " @ " + jobs[k].sweep_value), &first_latency[k]});
    plot.latency_cdf(jobs.front().scenario.name + ": latency by run", curves);
  }
  if (replications > 1) {
    std::vector<analysis::NamedReplications> reps;
    for (std::size_t k = 0; k < jobs.size(); ++k) reps.push_back({jobs[k].name, jobs[k].sweep_value, std::move(*summaries[k])});
    const auto json = analysis::compare_replicated_to_json(reps, sweep_path, jobs.front().scenario.name, jobs.front().seed);
    if (!out_dir.empty()) {
      write_file_atomically(out_dir + "/compare.json", analysis::dump_json(json));
      write_file_atomically(out_dir + "/compare.csv", analysis::compare_replicated_to_csv(reps));
    }
    switch (format) {
      case OutputFormat::kTable: write_stdout(analysis::compare_replicated_to_text(reps, sweep_path)); break;
      case OutputFormat::kJson: write_stdout(analysis::dump_json(json)); break;
      case OutputFormat::kCsv: write_stdout(analysis::compare_replicated_to_csv(reps)); break;
    }
    return kExitOk;
  }
  std::vector<analysis::NamedRun> runs;
  for (std::size_t k = 0; k < jobs.size(); ++k) runs.push_back({jobs[k].name, jobs[k].sweep_value, std::move(*singles[k])});

  const auto json = analysis::compare_to_json(runs, sweep_path);
  if (!out_dir.empty()) {
    write_file_atomically(out_dir + "/compare.json", analysis::dump_json(json));
    write_file_atomically(out_dir + "/compare.csv", analysis::compare_to_csv(runs));
  }
  switch (format) {
    case OutputFormat::kTable: write_stdout(analysis::compare_to_text(runs, sweep_path)); break;
    case OutputFormat::kJson: write_stdout(analysis::dump_json(json)); break;
    case OutputFormat::kCsv: write_stdout(analysis::compare_to_csv(runs)); break;
  }
  return kExitOk;
}

}  // namespace partsim::cli
