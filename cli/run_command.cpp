// partsim run: one scenario, one seed; results as tables, JSON or CSV, and files with --out.
// Replications are summarized as they finish (in replication order) and each one's full
// result streams to the JSON output, so memory does not grow with their number.

#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/consumer_groups_report.hpp"
#include "analysis/format.hpp"
#include "analysis/plots.hpp"
#include "analysis/replicated_report.hpp"
#include "analysis/replication_summary.hpp"
#include "analysis/run_producer_metrics.hpp"
#include "analysis/run_report.hpp"
#include "analysis/run_tables.hpp"
#include "analysis/theory_report.hpp"
#include "analysis/traffic_report.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/run_files.hpp"
#include "model/cluster_simulation.hpp"
#include "model/run_estimate.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "sim/replications.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kRunUsage =
    "partsim run SCENARIO.yaml [--seed N] [--set PATH=VALUE ...] [--replications R] [--format table|json|csv]\n"
    "                  [--timeseries MS] [--plot DIR] [--out DIR]\n"
    "Runs a scenario until every record sent is acknowledged or has failed.\n";

struct RunSettings {
  std::string scenario_path;
  model::Scenario scenario;
  OutputFormat format = OutputFormat::kTable;
  std::size_t replications = 1;
  unsigned threads = 0;
  std::string out_dir, plot_dir, timeseries_text;
  model::RunOptions options;  // for the first replication (time series, batch rows)
  Args args;
};

// The warning for a run that measured nothing, naming what to change.
void warn_unmeasured(const RunSettings& rs, const model::RunResult& r) {
  std::string why = analysis::unmeasured_reason(r);
  if (r.records_acked > 0)
    why += " (run.warmup.ms " + analysis::fixed(rs.scenario.run.warmup.to_ms(), 1) + ", last acknowledgement at " +
           analysis::fixed(r.simulated_ms, 1) + " ms): lower run.warmup.ms or lengthen the run";
  std::fprintf(stderr,
               "partsim run: warning: no records measured: %s; every statistic is null in JSON and empty in CSV\n",
               why.c_str());
}

double duration_ms(const model::Scenario& s) { return s.run.duration ? s.run.duration->to_ms() : 0; }

// `until_ms`: the scenario's run.duration.ms (0: none), where the time charts end.
void plot_run(const std::string& dir, const model::RunResult& first, const analysis::ReplicationSummary* summary,
              double until_ms) {
  analysis::Plotter plot(dir);
  const std::string name = first.scenario;
  std::vector<analysis::PartitionBar> bars;
  for (std::size_t p = 0; p < first.partitions.size(); ++p) {
    const auto& part = first.partitions[p];
    analysis::PartitionBar bar{first.partitions.size() > 1 && part.topic.size() < 12
                                   ? part.topic + "." + std::to_string(part.partition)
                                   : std::to_string(part.partition),
                               static_cast<double>(part.records), static_cast<double>(part.records),
                               static_cast<double>(part.records)};
    if (summary) {
      const auto s = summary->summary(summary->registry().find(analysis::MetricScope::kPartition, p, "records"));
      bar.value = s.mean;
      bar.low = s.ci_low;
      bar.high = s.ci_high;
    }
    bars.push_back(std::move(bar));
  }
  const std::string reps = summary ? " (" + std::to_string(summary->replications()) + " replications)" : "";
  if (abandoned()) return;
  plot.records_per_partition(name + ": records per partition" + reps, bars);
  if (!first.trace.empty() && !abandoned())
    plot.partition_strip(name + ": first " + std::to_string(first.trace.size()) + " partition choices", first.trace);
  if (!first.timeseries.time_ms.empty() && !abandoned())
    plot.broker_queues(name + ": undrained batches per broker", first);
  if (!abandoned()) plot.latency_cdf(name + ": latency", {{name, &first.latency}});
  if (!abandoned()) plot.batch_size_histogram(name + ": records per batch", first.batch_records);
  if (!abandoned()) plot.consumer_lag(name + ": consumer lag and latency", first);
  if (!abandoned()) plot.reassignment_by_run(name + ": reassignment", {{name, &first.replication.reassignment}});
  if (!abandoned()) plot.disks_by_run(name + ": disks", {{name, &first.replication.disks}}, until_ms);
  if (analysis::shows_traffic(first.traffic) && !abandoned())
    plot.cross_rack_traffic(name + ": traffic crossing racks", first.traffic);
}

// The files of the first replication (--out), then the manifest; each skipped once the
// user asked to abandon (a second Ctrl-C).
void write_run_files(const RunSettings& rs, const model::RunResult& first) {
  if (rs.out_dir.empty()) return;
  const std::string& dir = rs.out_dir;
  if (!abandoned()) write_file_atomically(dir + "/partitions.csv", analysis::partitions_to_csv(first));
  if (!abandoned()) write_file_atomically(dir + "/producer_metrics.csv", analysis::producer_metrics_to_csv(first));
  // The two tables that grow with the run go to their files a piece at a time.
  auto stream_to = [](const std::string& path, void (*write)(const model::RunResult&, const analysis::TextSink&),
                      const model::RunResult& r) {
    AtomicFile f(path);
    write(r, [&f](std::string_view piece) { f.write(piece); });
    f.commit();
  };
  if (!abandoned()) stream_to(dir + "/batches.csv", analysis::write_batches_csv, first);
  if (!first.timeseries.time_ms.empty() && !abandoned())
    stream_to(dir + "/timeseries.csv", analysis::write_timeseries_csv, first);
  if (!first.consumer_groups.empty() && !abandoned())
    write_file_atomically(dir + "/consumer_groups.csv", analysis::consumer_groups_to_csv(first));
  if (!first.consumer_groups.empty() && !first.consumer_groups.front().lag_time_ms.empty() && !abandoned())
    stream_to(dir + "/consumer_lag.csv", analysis::write_consumer_lag_csv, first);
  if (analysis::shows_traffic(first.traffic) && !abandoned())
    write_file_atomically(dir + "/traffic.csv", analysis::traffic_to_csv(first.traffic));
  if (abandoned()) return;
  std::vector<std::string> command{"partsim", "run"};
  command.insert(command.end(), rs.args.begin(), rs.args.end());
  write_manifest(dir, rs.scenario_path, rs.scenario, rs.replications, command,
                 rs.timeseries_text.empty() ? "" : " --timeseries " + rs.timeseries_text);
}

int finish(bool partial, const std::string& what) {
  if (abandoned()) {
    std::fprintf(stderr, "partsim run: interrupted twice: %s; the outputs not yet begun were not written\n",
                 what.c_str());
    return signal_exit_code();
  }
  if (partial) {
    std::fprintf(stderr, "partsim run: interrupted: %s (\"partial\": true)\n", what.c_str());
    return kExitRunFailed;
  }
  return kExitOk;
}

// run.check's report: the replications' batch counts (summed) or broker queue samples.
std::optional<analysis::TheoryReport> theory_check(const model::Scenario& s,
                                                   const std::vector<std::int64_t>& batch_records,
                                                   const std::vector<analysis::QueueSample>& queue_samples) {
  switch (s.run.check) {
    case model::RunSpec::Check::kNone: break;
    case model::RunSpec::Check::kPoissonBatching: return analysis::poisson_batching_report(s, batch_records);
    case model::RunSpec::Check::kBrokerQueue: return analysis::broker_queue_report(s, queue_samples);
  }
  return std::nullopt;
}

int run_single(const RunSettings& rs) {
  auto r = model::run_scenario(rs.scenario, rs.scenario.run.seed, 0, rs.options);
  if (!analysis::measured_anything(r)) warn_unmeasured(rs, r);
  // The JSON only where it is written (a million partitions' rows cost seconds).
  const bool wants_json = rs.format == OutputFormat::kJson || !rs.out_dir.empty();
  nlohmann::ordered_json json;
  if (wants_json) json = analysis::run_to_json(r);
  std::string theory;
  if (auto report = theory_check(rs.scenario, r.batch_records, {analysis::queue_sample(r)})) {
    theory = std::move(report->text);
    if (wants_json) json["theory"] = std::move(report->json);
  }
  if (!rs.out_dir.empty() && !abandoned())
    write_file_atomically(rs.out_dir + "/summary.json", analysis::dump_json(json));
  write_run_files(rs, r);
  if (!rs.plot_dir.empty()) plot_run(rs.plot_dir, r, nullptr, duration_ms(rs.scenario));
  if (!abandoned()) {
    switch (rs.format) {
      case OutputFormat::kTable: write_stdout(analysis::run_to_text(r) + theory); break;
      case OutputFormat::kJson: write_stdout(analysis::dump_json(json)); break;
      case OutputFormat::kCsv:
        // With --timeseries and no --out, the samples are the CSV (there is no file for them).
        if (!rs.timeseries_text.empty() && rs.out_dir.empty())
          analysis::write_timeseries_csv(r, [](std::string_view piece) { write_stdout(piece); });
        else write_stdout(analysis::partitions_to_csv(r));
        break;
    }
  }
  return finish(r.partial, "the results are partial");
}

int run_replicated(const RunSettings& rs) {
  std::optional<model::RunResult> first;
  std::optional<analysis::ReplicationSummary> summary;
  std::optional<AtomicFile> summary_file;
  std::vector<std::int64_t> batch_records;           // summed over replications (run.check)
  std::vector<analysis::QueueSample> queue_samples;  // one per replication (run.check)
  std::size_t done = 0;
  bool cut = false;  // a replication was cut short: the results are the ones before it
  const bool json_stdout = rs.format == OutputFormat::kJson;
  auto emit = [&](const std::string& piece) {
    if (json_stdout) write_stdout(piece);
    if (summary_file) summary_file->write(piece);
  };

  Progress progress("replications");
  sim::for_each_replication<model::RunResult>(
      rs.replications, rs.threads,
      [&](std::size_t i) {
        // Per-batch rows and samples are kept for the first replication only.
        return model::run_scenario(rs.scenario, rs.scenario.run.seed, i,
                                   i == 0 ? rs.options : model::RunOptions{.cancel = rs.options.cancel});
      },
      [&](std::size_t i, model::RunResult&& r) {
        // An interrupted replication is not one: the results are those of replications
        // 0..done-1, exactly what --replications done would give.
        if (cut || r.partial) {
          cut = true;
          return;
        }
        if (!summary) {
          summary.emplace(r, rs.replications);
          if (!rs.out_dir.empty()) summary_file.emplace(rs.out_dir + "/summary.json");
          emit(analysis::replicated_json_head(r));
        }
        summary->add(r);
        if (batch_records.size() < r.batch_records.size()) batch_records.resize(r.batch_records.size(), 0);
        for (std::size_t k = 0; k < r.batch_records.size(); ++k) batch_records[k] += r.batch_records[k];
        queue_samples.push_back(analysis::queue_sample(r));
        emit(analysis::replicated_json_run(r, i, done == 0));
        ++done;
        if (!first) first = std::move(r);
      },
      [&](std::size_t n, std::size_t total) { progress.update(n, total); }, &interrupted());
  if (!first) throw std::runtime_error("interrupted before any replication finished; nothing written");

  const analysis::ReplicationCount count{rs.replications, done};
  if (summary->unmeasured() > 0)
    std::fprintf(
        stderr,
        "partsim run: warning: no records measured in %zu of %zu replications (is run.warmup.ms longer than the run?); "
        "their statistics are left out\n",
        summary->unmeasured(), done);
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  std::string theory;
  if (auto report = theory_check(rs.scenario, batch_records, queue_samples)) {
    theory = std::move(report->text);
    extra["theory"] = std::move(report->json);
  }
  // The JSON has begun: it is finished even after a second Ctrl-C.
  emit(analysis::replicated_json_tail(*summary, count, extra));
  if (summary_file) summary_file->commit();
  write_run_files(rs, *first);
  if (!rs.out_dir.empty() && !abandoned())
    write_file_atomically(rs.out_dir + "/metrics.csv", analysis::replicated_to_csv(*summary));
  if (!rs.plot_dir.empty()) plot_run(rs.plot_dir, *first, &*summary, duration_ms(rs.scenario));
  if (!abandoned()) {
    if (rs.format == OutputFormat::kTable) write_stdout(analysis::replicated_to_text(*summary, *first, count) + theory);
    if (rs.format == OutputFormat::kCsv) write_stdout(analysis::replicated_to_csv(*summary));
  }
  return finish(count.partial(), "the results are those of the first " + std::to_string(done) + " of " +
                                     std::to_string(rs.replications) + " replications");
}

}  // namespace

int run_run_command(const Args& args) {
  ScenarioCommandOptions common;
  RunSettings rs;
  po::options_description desc("run options");
  desc.add_options()("help,h", "show this help");
  add_scenario_options(desc, common);
  // clang-format off
  desc.add_options()
      ("timeseries", po::value<std::string>(&rs.timeseries_text), "sample queues, in-flight requests, buffer use every MS of simulated time")
      ("plot", po::value<std::string>(&rs.plot_dir), "draw PNG charts into DIR (gnuplot)")
      ("out", po::value<std::string>(&rs.out_dir), "write summary.json, partitions.csv, producer_metrics.csv, batches.csv, timeseries.csv, consumer_groups.csv, consumer_lag.csv, traffic.csv, manifest.json into DIR");
  // clang-format on
  if (!parse_scenario_command(args, desc, common, kRunUsage, "partsim run SCENARIO.yaml")) return kExitOk;
  rs.args = args;
  rs.scenario_path = common.scenario_path;
  rs.format = parse_format(common.format_text);
  rs.replications = static_cast<std::size_t>(parse_int(common.replications_text, "--replications", 1, 100000));
  rs.threads = static_cast<unsigned>(parse_int(common.threads_text, "--threads", 0, 1024));
  if (!rs.timeseries_text.empty())
    rs.options.timeseries = model::SimTime::from_ms(parse_number(rs.timeseries_text, "--timeseries", 0.001, 1e9));
  rs.scenario = load_scenario_with_warnings("run", rs.scenario_path, common.sets);
  if (!common.seed_text.empty())
    rs.scenario.run.seed =
        static_cast<std::uint64_t>(parse_int(common.seed_text, "--seed", 0, std::numeric_limits<std::int64_t>::max()));
  if (!rs.plot_dir.empty() && rs.options.timeseries == model::SimTime::zero())
    // The queue chart needs samples: 2,000 over the run when its length is known (the chart
    // shows 200 intervals of 10), else every 10 ms.
    rs.options.timeseries =
        rs.scenario.run.duration
            ? model::SimTime::ns(std::max<std::int64_t>(1, rs.scenario.run.duration->count_ns() / 2000))
            : model::SimTime::ms(10);
  rs.options.batches = !rs.out_dir.empty();
  model::RunPlan plan;
  plan.timeseries = rs.options.timeseries;
  plan.batches = rs.options.batches;
  plan.replications = rs.replications;
  plan.concurrent = sim::replication_threads(rs.threads, rs.replications);
  refuse_if_too_large(rs.scenario, rs.scenario_path, common.allow_large, plan);
  for (const auto& [option, dir] : {std::pair{"--out", rs.out_dir}, std::pair{"--plot", rs.plot_dir}}) {
    if (dir.empty()) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw UsageError(std::string(option) + ": cannot create directory '" + dir + "': " + ec.message());
  }
  enable_graceful_stop();
  rs.options.cancel = &interrupted();
  return rs.replications > 1 ? run_replicated(rs) : run_single(rs);
}

}  // namespace partsim::cli
