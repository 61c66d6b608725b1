// partsim compare: one scenario and seed, once per partitioner or variant (and per sweep
// value), with common random numbers for the workload, side by side.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/compare_report.hpp"
#include "analysis/plots.hpp"
#include "analysis/run_report.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "model/client_version.hpp"
#include "model/cluster_simulation.hpp"
#include "model/partitioners/partitioner.hpp"
#include "model/run_estimate.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "sim/replications.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kCompareUsage =
    "partsim compare SCENARIO.yaml (--partitioners A,B,... | --variant NAME:KEY=VALUE,... | --clients A,B,...)... [options]\n"
    "Runs the scenario once per partitioner or variant on the same seed and prints them side by side.\n"
    "A KEY without a section (producers., cluster., topics., run., consumers.) applies to every producer: workload.X\n"
    "to its workload, anything else to its config: --variant lazy:linger.ms=50 sets\n"
    "producers.*.config.linger.ms=50; --sweep workload.arrivals.rate=100,1000 sets the send rate;\n"
    "client=kafka-3.6 sets the scenario's client (what an upgrade changes: --variant 3.6:client=kafka-3.6\n"
    "--variant 4.3:client=kafka-4.3); --clients kafka-4.3,librdkafka-2.x,franz-go,sarama,kafkajs,kafka-go runs\n"
    "the workload from each client, the others with their own defaults.\n";

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
  for (const char* section : {"producers.", "cluster.", "topics.", "run.", "consumers.", "migration.", "client="})
    if (a.rfind(section, 0) == 0) return a;
  if (a.rfind("workload.", 0) == 0 || a.rfind("config.", 0) == 0) return "producers.*." + a;
  return "producers.*.config." + a;
}

struct RunPlan {
  std::string name;
  std::vector<std::string> sets;
  std::vector<std::string> pre_sets{};  ///< applied before the command line's --set (which may refine them)
};

// What the command line asks for, checked.
struct CompareSettings {
  ScenarioCommandOptions common;
  OutputFormat format = OutputFormat::kTable;
  std::vector<RunPlan> plans;
  std::string sweep_path;  // empty without --sweep
  std::vector<std::string> sweep_values{""};
  std::optional<std::uint64_t> seed;  // else each scenario's run.seed
  std::size_t replications = 1;
  unsigned threads = 0;
  std::string out_dir, plot_dir;
  bool key_agreement = false;  // --clients: every run counts its keyed records placed as Java places them
};

// One run of the comparison: a plan at a sweep value, its scenario loaded and checked.
struct Job {
  std::string name, sweep_value;
  model::Scenario scenario;
  std::uint64_t seed;
};

// What the runs gave, by job: the results (one replication) or their summaries (several),
// and the first replication's latency for the chart.
struct CompareResults {
  std::vector<std::optional<model::RunResult>> singles;
  std::vector<std::optional<analysis::ReplicationSummary>> summaries;
  std::vector<model::LatencyHistogram> first_latency;
  std::vector<model::TrafficResult> first_traffic;            // --plot: the traffic of each run's first replication
  std::vector<model::ReassignmentResult> first_reassignment;  // --plot: and its reassignment
  std::vector<model::DiskResult> first_disks;                 // ... and its disks
};

std::vector<std::string> parse_partitioners(const std::string& text) {
  std::vector<std::string> partitioners;
  if (text.empty()) return partitioners;
  const auto& known = model::partitioner_names();
  for (const auto& p : split(text, ',')) {
    if (std::find(known.begin(), known.end(), p) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UsageError("--partitioners: unknown partitioner '" + p + "' (known: " + list + ")");
    }
    partitioners.push_back(p);
  }
  return partitioners;
}

std::vector<RunPlan> parse_variants(const std::vector<std::string>& variants) {
  std::vector<RunPlan> plans;
  for (const auto& v : variants) {
    const auto colon = v.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= v.size())
      throw UsageError("--variant: must be NAME:KEY=VALUE[,KEY=VALUE...], got '" + v + "'");
    RunPlan plan{v.substr(0, colon), {}};
    for (const auto& a : split(v.substr(colon + 1), ',')) plan.sets.push_back(expand_assignment(a, "--variant"));
    plans.push_back(std::move(plan));
  }
  return plans;
}

// --clients kafka-4.3,librdkafka-2.x,...: a run per client, every producer on it. Another
// client's profile runs with its own defaults: the scenario's producer config is written under
// Kafka's names and applies to the Java arms only.
std::vector<RunPlan> parse_clients(const std::string& text, bool& drops_config) {
  std::vector<RunPlan> plans;
  drops_config = false;
  if (text.empty()) return plans;
  std::set<std::string> seen;
  for (const auto& name : split(text, ',')) {
    std::string why;
    const std::optional<model::ClientVersion> v = model::parse_client(name, why);
    if (!v) {
      std::string profiles;
      for (const auto& p : model::client_profile_names()) profiles += ", " + p;
      throw UsageError("--clients: '" + name + "' " + why + " (the clients: kafka-2.4 ... kafka-4.4" + profiles + ")");
    }
    if (!seen.insert(v->name()).second) throw UsageError("--clients: '" + name + "' is given twice");
    RunPlan plan{name, {"client=" + name, "producers.*.client=" + name}, {}};
    if (!v->java()) {  // the scenario's config, not a --set of the command line
      plan.pre_sets.push_back("producers.*.config=~");
      drops_config = true;
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

// The runs: one per partitioner, one per variant, or every partitioner with every variant.
std::vector<RunPlan> combine_plans(const std::vector<std::string>& partitioners, const std::vector<RunPlan>& variants) {
  if (partitioners.empty() && variants.empty())
    throw UsageError("nothing to compare: give --partitioners A,B,..., --variant NAME:KEY=VALUE or --clients A,B,...");
  if (partitioners.empty()) return variants;
  std::vector<RunPlan> plans;
  for (const auto& p : partitioners) {
    if (variants.empty()) plans.push_back({p, {"producers.*.config.partitioner=" + p}});
    for (const auto& v : variants) {
      RunPlan plan{p + "/" + v.name, {"producers.*.config.partitioner=" + p}};
      plan.sets.insert(plan.sets.end(), v.sets.begin(), v.sets.end());
      plans.push_back(std::move(plan));
    }
  }
  return plans;
}

// "--sweep linger.ms=0,5" -> the path "producers.*.config.linger.ms" and values {"0", "5"}.
void parse_sweep(const std::string& text, CompareSettings& s) {
  if (text.empty()) return;
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 >= text.size())
    throw UsageError("--sweep: must be KEY=V1,V2,..., got '" + text + "'");
  s.sweep_path = expand_assignment(text.substr(0, eq) + "=x", "--sweep");
  s.sweep_path = s.sweep_path.substr(0, s.sweep_path.size() - 2);
  s.sweep_values = split(text.substr(eq + 1), ',');
}

// The settings, or nothing after --help.
std::optional<CompareSettings> parse_compare_args(const Args& args) {
  CompareSettings s;
  std::string partitioners_text, sweep_text, clients_text;
  std::vector<std::string> variants;
  po::options_description desc("compare options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("partitioners", po::value<std::string>(&partitioners_text), "comma-separated partitioners to compare")
      ("variant", po::value<std::vector<std::string>>(&variants), "NAME:KEY=VALUE[,KEY=VALUE...] (repeatable)")
      ("clients", po::value<std::string>(&clients_text),
       "comma-separated clients: kafka-X.Y releases and librdkafka-2.x, franz-go, sarama, kafkajs, kafka-go")
      ("sweep", po::value<std::string>(&sweep_text), "KEY=V1,V2,...: repeat the comparison for each value");
  // clang-format on
  add_scenario_options(desc, s.common);
  // clang-format off
  desc.add_options()
      ("plot", po::value<std::string>(&s.plot_dir), "draw the latency CDF of every run, and with racks the traffic crossing them, into DIR (gnuplot)")
      ("out", po::value<std::string>(&s.out_dir), "also write compare.json and compare.csv into DIR");
  // clang-format on
  if (!parse_scenario_command(args, desc, s.common, kCompareUsage, "partsim compare SCENARIO.yaml --partitioners A,B"))
    return std::nullopt;
  s.format = parse_format(s.common.format_text);
  const auto partitioners = parse_partitioners(partitioners_text);
  bool drops_config = false;
  const std::vector<RunPlan> clients = parse_clients(clients_text, drops_config);
  if (!clients.empty()) {
    if (!partitioners.empty() || !variants.empty())
      throw UsageError("--clients: give it alone (each client has its own partitioners and config names)");
    s.plans = clients;
    s.key_agreement = true;
    if (!sweep_text.empty()) {
      const std::string path = expand_assignment(sweep_text.substr(0, sweep_text.find('=')) + "=x", "--sweep");
      if (path.rfind("client=", 0) == 0 || path.find(".client=") != std::string::npos)
        throw UsageError("--sweep: --clients already sets every producer's client; sweep something else");
      if (drops_config && path.rfind("producers.", 0) == 0 && path.find(".config.") != std::string::npos)
        throw UsageError("--sweep: each client spells its producer config its own way: with another client's "
                         "profile in --clients, sweep a workload, cluster, topic or consumer key");
    }
    if (drops_config)
      std::fprintf(stderr,
                   "partsim compare: note: a producer config in the scenario (Kafka's names) applies to the Java "
                   "clients only; the other clients run with their own defaults (docs/clients.md)\n");
  } else {
    s.plans = combine_plans(partitioners, parse_variants(variants));
  }
  parse_sweep(sweep_text, s);
  if (!s.common.seed_text.empty())
    s.seed = static_cast<std::uint64_t>(parse_int(s.common.seed_text, "--seed", 0,
                                                  std::numeric_limits<std::int64_t>::max()));
  if (!s.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(s.out_dir, ec);
    if (ec) throw UsageError("--out: cannot create directory '" + s.out_dir + "': " + ec.message());
  }
  s.replications = static_cast<std::size_t>(parse_int(s.common.replications_text, "--replications", 1, 100000));
  s.threads = static_cast<unsigned>(parse_int(s.common.threads_text, "--threads", 0, 1024));
  return s;
}

// Every scenario is loaded (and checked) before anything runs; the comparison as a whole
// is refused when too large.
std::vector<Job> load_jobs(const CompareSettings& s) {
  std::vector<Job> jobs;
  std::set<std::string> warned;  // a warning of the file prints once, not once per run
  for (const auto& value : s.sweep_values) {
    for (const auto& plan : s.plans) {
      std::vector<std::string> run_sets = plan.pre_sets;
      run_sets.insert(run_sets.end(), s.common.sets.begin(), s.common.sets.end());
      run_sets.insert(run_sets.end(), plan.sets.begin(), plan.sets.end());
      if (!s.sweep_path.empty()) run_sets.push_back(s.sweep_path + "=" + value);
      auto scenario = load_scenario_with_warnings("compare", s.common.scenario_path, run_sets, &warned);
      const std::uint64_t run_seed = s.seed.value_or(scenario.run.seed);
      jobs.push_back({plan.name, value, std::move(scenario), run_seed});
    }
  }
  model::RunPlan plan;
  plan.replications = s.replications;
  plan.concurrent = sim::replication_threads(s.threads, jobs.size() * s.replications);
  plan.runs = jobs.size();
  for (const auto& job : jobs) refuse_if_too_large(job.scenario, s.common.scenario_path, s.common.allow_large, plan);
  return jobs;
}

// Results arrive in job order, replications of a job together: a job's runs are
// summarized as they come (its first replication's latency is kept for the chart).
CompareResults run_jobs(const std::vector<Job>& jobs, const CompareSettings& s) {
  const std::size_t replications = s.replications;
  CompareResults out;
  out.singles.resize(replications == 1 ? jobs.size() : 0);
  out.summaries.resize(replications > 1 ? jobs.size() : 0);
  out.first_latency.resize(s.plot_dir.empty() ? 0 : jobs.size());
  out.first_traffic.resize(out.first_latency.size());
  out.first_reassignment.resize(out.first_latency.size());
  out.first_disks.resize(out.first_latency.size());
  std::vector<std::string> unmeasured;
  Progress progress("runs");
  sim::for_each_replication<model::RunResult>(
      jobs.size() * replications, s.threads,
      [&](std::size_t k) {
        const Job& job = jobs[k / replications];
        model::RunOptions options;
        options.cancel = &interrupted();
        options.key_agreement = s.key_agreement;
        return model::run_scenario(job.scenario, job.seed, k % replications, options);
      },
      [&](std::size_t k, model::RunResult&& r) {
        const std::size_t j = k / replications;
        if (r.records_measured == 0)
          unmeasured.push_back("'" + jobs[j].name + "'" +
                               (jobs[j].sweep_value.empty() ? "" : " at " + jobs[j].sweep_value) +
                               (replications > 1 ? " replication " + std::to_string(k % replications) : ""));
        if (!s.plot_dir.empty() && k % replications == 0) {
          out.first_latency[j] = r.latency;
          out.first_traffic[j] = r.traffic;
          out.first_reassignment[j] = r.replication.reassignment;
          out.first_disks[j] = r.replication.disks;
        }
        if (replications == 1) {
          out.singles[j] = std::move(r);
          return;
        }
        if (!out.summaries[j]) out.summaries[j].emplace(r, replications);
        out.summaries[j]->add(r);
      },
      [&](std::size_t done, std::size_t total) { progress.update(done, total); }, &interrupted());
  if (interrupted().load()) throw std::runtime_error("interrupted: a comparison needs every run; nothing written");
  for (const auto& u : unmeasured)
    std::fprintf(
        stderr,
        "partsim compare: warning: run %s measured no records (is run.warmup.ms longer than the run?); its statistics are "
        "null in JSON, empty in CSV and '-' in the table\n",
        u.c_str());
  return out;
}

// One curve per run (its first replication), in run order; with traffic between racks, a
// bar per run of what crosses them.
void plot_compare(const std::string& dir, const std::vector<Job>& jobs, const CompareResults& results) {
  analysis::Plotter plot(dir);
  std::vector<analysis::LatencyCurve> curves;
  std::vector<std::pair<std::string, const model::TrafficResult*>> traffic;
  std::vector<std::pair<std::string, const model::ReassignmentResult*>> moves;
  std::vector<std::pair<std::string, const model::DiskResult*>> disks;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const std::string name = jobs[k].name + (jobs[k].sweep_value.empty() ? "" : " @ " + jobs[k].sweep_value);
    curves.push_back({name, &results.first_latency[k]});
    traffic.emplace_back(name, &results.first_traffic[k]);
    moves.emplace_back(name, &results.first_reassignment[k]);
    disks.emplace_back(name, &results.first_disks[k]);
  }
  plot.latency_cdf(jobs.front().scenario.name + ": latency by run", curves);
  plot.cross_rack_traffic_by_run(jobs.front().scenario.name + ": traffic crossing racks by run", traffic);
  plot.reassignment_by_run(jobs.front().scenario.name + ": reassignment by run", moves);
  // The time axis ends with the longest run.duration.ms (a run without one: wherever it ends).
  double until_ms = 0;
  for (const auto& job : jobs) {
    if (!job.scenario.run.duration) {
      until_ms = 0;
      break;
    }
    until_ms = std::max(until_ms, job.scenario.run.duration->to_ms());
  }
  plot.disks_by_run(jobs.front().scenario.name + ": disks by run", disks, until_ms);
}

// compare.json and compare.csv with --out, and the chosen format on stdout; `text` and
// `csv` make their output only when it is written.
template <class Text, class Csv>
void write_comparison(const CompareSettings& s, const nlohmann::ordered_json& json, Text text, Csv csv) {
  if (!s.out_dir.empty()) {
    write_file_atomically(s.out_dir + "/compare.json", analysis::dump_json(json));
    write_file_atomically(s.out_dir + "/compare.csv", csv());
  }
  switch (s.format) {
    case OutputFormat::kTable: write_stdout(text()); break;
    case OutputFormat::kJson: write_stdout(analysis::dump_json(json)); break;
    case OutputFormat::kCsv: write_stdout(csv()); break;
  }
}

void write_replicated(const std::vector<Job>& jobs, CompareResults& results, const CompareSettings& s) {
  std::vector<analysis::NamedReplications> reps;
  for (std::size_t k = 0; k < jobs.size(); ++k)
    reps.push_back({jobs[k].name, jobs[k].sweep_value, std::move(*results.summaries[k])});
  write_comparison(
      s, analysis::compare_replicated_to_json(reps, s.sweep_path, jobs.front().scenario.name, jobs.front().seed),
      [&] { return analysis::compare_replicated_to_text(reps, s.sweep_path); },
      [&] { return analysis::compare_replicated_to_csv(reps); });
}

void write_singles(const std::vector<Job>& jobs, CompareResults& results, const CompareSettings& s) {
  std::vector<analysis::NamedRun> runs;
  for (std::size_t k = 0; k < jobs.size(); ++k)
    runs.push_back({jobs[k].name, jobs[k].sweep_value, std::move(*results.singles[k])});
  write_comparison(
      s, analysis::compare_to_json(runs, s.sweep_path), [&] { return analysis::compare_to_text(runs, s.sweep_path); },
      [&] { return analysis::compare_to_csv(runs); });
}

}  // namespace

int run_compare_command(const Args& args) {
  const auto settings = parse_compare_args(args);
  if (!settings) return kExitOk;
  const auto jobs = load_jobs(*settings);
  enable_graceful_stop();
  auto results = run_jobs(jobs, *settings);
  if (!settings->plot_dir.empty()) plot_compare(settings->plot_dir, jobs, results);
  if (settings->replications > 1) write_replicated(jobs, results, *settings);
  else write_singles(jobs, results, *settings);
  return kExitOk;
}

}  // namespace partsim::cli
