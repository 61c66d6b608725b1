// partsim sweep: a sweep file's runs (points x replications) into a resumable SQLite store,
// on one machine or as shards of a Slurm array or a Kubernetes Indexed Job (partsim merge,
// in merge_command.cpp, joins the shards' stores).

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/run_metrics.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/sweep_store.hpp"
#include "model/cluster_simulation.hpp"
#include "model/run_estimate.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/sweep_reader.hpp"
#include "sim/random_streams.hpp"
#include "sim/replications.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kSweepUsage =
    "partsim sweep SWEEP.yaml [--store FILE.sqlite] [--threads T] [--shard I/N | --shards N] [options]\n"
    "partsim sweep SWEEP.yaml --emit slurm|k8s --shards N [--store PATTERN] [--out FILE] [--image IMG --volume CLAIM]\n"
    "Runs every point of the sweep file (a base scenario; grid:, points: or sample:; partitioners and variants;\n"
    "replications) into a SQLite store, resuming a store made by the same sweep: finished rows are skipped.\n"
    "Shards: --shard I/N (0-based; row r belongs to shard r mod N), else SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of\n"
    "SLURM_ARRAY_TASK_COUNT, else JOB_COMPLETION_INDEX of --shards N. '%a' in --store is the shard index.\n";

std::string partsim_version() { return std::string(PARTSIM_VERSION) + " (" + PARTSIM_GIT_REVISION + ")"; }

struct Shard {
  std::size_t index = 0, count = 1;
  bool all() const { return count == 1; }
  std::string text() const { return all() ? "all" : std::to_string(index) + "/" + std::to_string(count); }
};

struct SweepSettings {
  std::string sweep_path, store, emit, out, image, volume, partsim;
  std::vector<std::string> sbatch;
  std::string shard_text, shards_text, threads_text = "0";
  unsigned threads = 0;
  std::optional<std::size_t> shards;  // --shards
  bool allow_large = false;
};

// One point of the sweep, ready to run.
struct Point {
  StorePoint stored;
  model::Scenario scenario;
};

std::size_t parse_count(const std::string& text, const std::string& what, std::size_t lo) {
  return static_cast<std::size_t>(parse_int(text, what, static_cast<std::int64_t>(lo), 1'000'000));
}

std::optional<SweepSettings> parse_sweep_args(const Args& args) {
  SweepSettings s;
  po::options_description desc("sweep options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("sweep", po::value<std::string>(&s.sweep_path), "the sweep file (positional)")
      ("store", po::value<std::string>(&s.store), "the SQLite store (default NAME.sqlite, NAME-shard-%a.sqlite for a shard)")
      ("threads", po::value<std::string>(&s.threads_text), "runs at once (0 = every core); the store is the same for any T")
      ("shard", po::value<std::string>(&s.shard_text), "I/N: run shard I (0-based) of N")
      ("shards", po::value<std::string>(&s.shards_text), "N: the shard count (with --emit, or with JOB_COMPLETION_INDEX)")
      ("emit", po::value<std::string>(&s.emit), "slurm | k8s: write an sbatch array script or an Indexed Job manifest, run nothing")
      ("out", po::value<std::string>(&s.out), "with --emit: the file to write (default stdout)")
      ("image", po::value<std::string>(&s.image), "with --emit k8s: the container image holding partsim and the sweep files")
      ("volume", po::value<std::string>(&s.volume), "with --emit k8s: the PersistentVolumeClaim for the stores (mounted at /stores)")
      ("sbatch", po::value<std::vector<std::string>>(&s.sbatch), "with --emit slurm: an extra #SBATCH option, e.g. --partition=debug (repeatable)")
      ("partsim", po::value<std::string>(&s.partsim), "with --emit: the partsim program the jobs run (default this one for slurm, 'partsim' for k8s)")
      ("allow-large", po::bool_switch(&s.allow_large), "run points beyond partsim's size limits");
  // clang-format on
  if (help_requested(args, kSweepUsage, desc)) return std::nullopt;
  po::positional_options_description pos;
  pos.add("sweep", 1);
  parse_command_line(args, desc, &pos);
  if (s.sweep_path.empty()) throw UsageError("give the sweep file: partsim sweep SWEEP.yaml");
  s.threads = static_cast<unsigned>(parse_int(s.threads_text, "--threads", 0, 1024));
  if (!s.shards_text.empty()) s.shards = parse_count(s.shards_text, "--shards", 1);
  if (!s.emit.empty() && s.emit != "slurm" && s.emit != "k8s")
    throw UsageError("--emit: must be slurm or k8s, got '" + s.emit + "'");
  if (s.emit.empty())
    for (const auto& [given, name] : {std::pair{!s.out.empty(), "--out"},
                                      {!s.image.empty(), "--image"},
                                      {!s.volume.empty(), "--volume"},
                                      {!s.sbatch.empty(), "--sbatch"},
                                      {!s.partsim.empty(), "--partsim"}})
      if (given) throw UsageError(std::string(name) + ": only with --emit slurm|k8s");
  return s;
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// --shard I/N, else Slurm's array index, else Kubernetes' completion index with --shards.
Shard resolve_shard(const SweepSettings& s) {
  Shard sh;
  if (!s.shard_text.empty()) {
    const auto slash = s.shard_text.find('/');
    if (slash == std::string::npos)
      throw UsageError("--shard: must be I/N (0-based shard I of N), got '" + s.shard_text + "'");
    sh.count = parse_count(s.shard_text.substr(slash + 1), "--shard (N)", 1);
    sh.index = static_cast<std::size_t>(parse_int(s.shard_text.substr(0, slash), "--shard (I)", 0,
                                                  static_cast<std::int64_t>(sh.count) - 1));
    if (s.shards && *s.shards != sh.count)
      throw UsageError("--shards " + std::to_string(*s.shards) + " contradicts --shard " + s.shard_text);
    return sh;
  }
  if (const char* id = env("SLURM_ARRAY_TASK_ID")) {
    const char* count = env("SLURM_ARRAY_TASK_COUNT");
    if (!count) throw UsageError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard I/N");
    const char* min = env("SLURM_ARRAY_TASK_MIN");
    sh.count = parse_count(count, "SLURM_ARRAY_TASK_COUNT", 1);
    const std::int64_t i = parse_int(id, "SLURM_ARRAY_TASK_ID", 0, 100'000'000) -
                           (min ? parse_int(min, "SLURM_ARRAY_TASK_MIN", 0, 100'000'000) : 0);
    if (i < 0 || i >= static_cast<std::int64_t>(sh.count))
      throw UsageError("SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN = " + std::to_string(i) + " is not a shard of " +
                       std::to_string(sh.count) + " (partsim needs a contiguous array such as --array=0-" +
                       std::to_string(sh.count - 1) + ")");
    if (s.shards && *s.shards != sh.count)
      throw UsageError("--shards " + std::to_string(*s.shards) + " contradicts SLURM_ARRAY_TASK_COUNT " + count);
    sh.index = static_cast<std::size_t>(i);
    return sh;
  }
  if (const char* index = env("JOB_COMPLETION_INDEX")) {
    if (!s.shards)
      throw UsageError("JOB_COMPLETION_INDEX is set: give the shard count with --shards N (the Job's completions)");
    sh.count = *s.shards;
    sh.index =
        static_cast<std::size_t>(parse_int(index, "JOB_COMPLETION_INDEX", 0, static_cast<std::int64_t>(sh.count) - 1));
    return sh;
  }
  if (s.shards && *s.shards > 1)
    throw UsageError("--shards " + s.shards_text +
                     ": which shard is this? give --shard I/N, or run as a Slurm array or a Kubernetes Indexed Job");
  return sh;
}

std::string store_path(const SweepSettings& s, const scenarios::SweepDefinition& d, const Shard& sh) {
  std::string path = s.store.empty() ? d.name + (sh.all() ? ".sqlite" : "-shard-%a.sqlite") : s.store;
  const auto at = path.find("%a");
  if (at != std::string::npos) {
    if (sh.all())
      throw UsageError("--store: '%a' stands for the shard index, but this run is not a shard (give --shard I/N)");
    path.replace(at, 2, std::to_string(sh.index));
  }
  return path;
}

std::string json_of(const std::vector<scenarios::SweepAssignment>& sets) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& a : sets) j[a.path] = a.value;
  return j.dump();
}

// The assignment a loader's message is about ("--set PATH=VALUE: ..."), if any.
const scenarios::SweepAssignment* assignment_of(
    const std::string& message, const std::vector<const std::vector<scenarios::SweepAssignment>*>& lists) {
  for (const auto* list : lists)
    for (const auto& a : *list)
      if (message.rfind("--set " + a.set() + ":", 0) == 0) return &a;
  return nullptr;
}

std::string located(const scenarios::SweepDefinition& d, const scenarios::SweepAssignment* a) {
  return d.file + (a ? ":" + std::to_string(a->line) + ":" + std::to_string(a->column) : "");
}

// Every point (workload-major, arms inner), its scenario loaded and checked before anything
// runs. An error names the sweep file's line of the assignment it is about (set:, the arm's
// or the point's), else of the point's first assignment. The size limits apply to what a
// sweep holds: its points, and `--threads` runs at once whose rows go to the store as they
// come (nothing of a run is kept, unlike compare's side-by-side results).
std::vector<Point> load_points(const scenarios::SweepDefinition& d, const SweepSettings& s) {
  std::vector<Point> points;
  std::set<std::string> warned;
  const std::size_t count = d.workloads.size() * d.arms.size();
  model::RunPlan plan;
  plan.sweep = true;
  plan.sweep_points = count;
  plan.concurrent = sim::replication_threads(s.threads, d.replications * count);
  // Checking a large sweep takes a while (100,000 points: about half a minute): progress.
  Progress progress("partsim sweep " + d.name + ": checking " + std::to_string(count) + " points", true);
  points.reserve(count);
  for (const auto& w : d.workloads) {
    const std::string key = scenarios::workload_key(w);
    // The workload's seed: the sweep's seed mixed with its assignments, not with the arm,
    // so every arm at a point sees the same random numbers (as in compare). Kept below 2^63
    // so it is a valid --seed and an SQLite integer.
    const std::uint64_t seed = sim::splitmix64(d.seed ^ sim::stable_name_hash(key)) & 0x7fffffffffffffffULL;
    std::string params_label;
    for (const auto& a : w) params_label += (params_label.empty() ? "" : ", ") + a.path + "=" + a.value;
    for (const auto& arm : d.arms) {
      std::vector<std::string> sets;
      for (const auto& a : d.sets) sets.push_back(a.set());
      for (const auto& a : arm.sets) sets.push_back(a.set());
      for (const auto& a : w) sets.push_back(a.set());
      Point p;
      p.stored.point = static_cast<std::int64_t>(points.size());
      p.stored.partitioner = arm.name;
      p.stored.params = json_of(w);
      p.stored.variant_params = json_of(arm.sets);
      p.stored.label = arm.name + (params_label.empty() ? "" : " @ " + params_label);
      p.stored.seed = seed;
      const auto* first = !w.empty() ? &w.front() : !arm.sets.empty() ? &arm.sets.front() : nullptr;
      const std::string what = "point " + std::to_string(p.stored.point) + " (" + p.stored.label + ")";
      try {
        p.scenario = load_scenario_with_warnings("sweep", d.scenario_path, sets, &warned, &d.scenario_text);
      } catch (const scenarios::InputError& e) {
        std::vector<std::string> msgs;
        for (const auto& m : e.messages()) {
          // set: is every point's: its error is the sweep file's, not a point's.
          if (const auto* a = assignment_of(m, {&d.sets}))
            msgs.push_back(located(d, a) + ": set." + a->path + ": " + m);
          else
            msgs.push_back(located(d, assignment_of(m, {&arm.sets, &w}) ? assignment_of(m, {&arm.sets, &w}) : first) +
                           ": " + what + " does not load: " + m);
        }
        throw scenarios::InputError(msgs);
      }
      if (!s.allow_large)
        if (const std::string why = model::check_run_limits(p.scenario, plan); !why.empty())
          throw UsageError(located(d, first) + ": " + what + ": refused: " + why + ", or pass --allow-large");
      points.push_back(std::move(p));
      progress.update(points.size(), count);
    }
  }
  return points;
}

// done/total, rate and ETA on stderr: a line updated in place on a terminal, a line every
// 10 s otherwise (a batch job's log; PARTSIM_PROGRESS_SECONDS sets it), and a summary at the end.
class SweepProgress {
public:
  SweepProgress(std::string what, std::size_t total, std::size_t already)
      : what_(std::move(what)), total_(total), already_(already), tty_(::isatty(STDERR_FILENO) == 1) {}

  void update(std::size_t run) {
    const double t = elapsed();
    if (!tty_ && t - last_ < every_) return;
    last_ = t;
    std::fprintf(stderr, "%s%s   ", tty_ ? "\r" : "", line(run, t).c_str());
    if (!tty_) std::fputc('\n', stderr);
    std::fflush(stderr);
    shown_ = true;
  }
  void finish(std::size_t run) {
    if (tty_ && shown_) std::fputc('\n', stderr);
    std::fprintf(stderr, "%s\n", line(run, elapsed()).c_str());
  }

private:
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  std::string line(std::size_t run, double t) const {
    const std::size_t done = already_ + run;
    const double rate = t > 0 ? static_cast<double>(run) / t : 0.0;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: %zu/%zu rows done (%zu this time, %zu before)  %.1f s  %.2f runs/s  ETA %s",
                  what_.c_str(), done, total_, run, already_, t, rate,
                  done >= total_ ? "0 s"
                  : rate > 0 ? (std::to_string(std::lround(static_cast<double>(total_ - done) / rate)) + " s").c_str()
                             : "?");
    return buf;
  }
  std::string what_;
  std::size_t total_, already_;
  bool tty_, shown_ = false;
  double every_ = progress_seconds(10.0);
  double last_ = -1e9;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The one thread that writes rows to the store, in the order they are handed over, while
// the runs go on (a commit waits for the disk: with it on its own thread, even --threads 1
// keeps computing meanwhile). At most kQueue rows wait; push() blocks beyond.
class RowWriter {
public:
  RowWriter(SweepStore& store, SweepProgress& progress)
      : store_(store), progress_(progress), thread_([this] { loop(); }) {}
  ~RowWriter() {  // after an error elsewhere: what was handed over is still written
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      closed_ = true;
      work_.notify_one();
    }
    thread_.join();
  }
  void push(RowId row, std::vector<StoredMetric> metrics) {
    std::unique_lock<std::mutex> lock(mu_);
    room_.wait(lock, [&] { return queue_.size() < kQueue || error_; });
    if (error_) std::rethrow_exception(error_);
    queue_.emplace_back(row, std::move(metrics));
    work_.notify_one();
  }
  /// Waits for every row handed over to be written; rethrows a write's error.
  std::size_t finish() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      closed_ = true;
      work_.notify_one();
    }
    thread_.join();
    if (error_) std::rethrow_exception(error_);
    return written_;
  }

private:
  static constexpr std::size_t kQueue = 64;
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      work_.wait(lock, [&] { return !queue_.empty() || closed_; });
      if (queue_.empty()) return;
      auto [row, metrics] = std::move(queue_.front());
      queue_.pop_front();
      room_.notify_all();
      lock.unlock();
      try {
        store_.write_row(row, metrics);
        progress_.update(++written_);
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        room_.notify_all();
        return;
      }
      lock.lock();
    }
  }
  SweepStore& store_;
  SweepProgress& progress_;
  std::mutex mu_;
  std::condition_variable work_, room_;
  std::deque<std::pair<RowId, std::vector<StoredMetric>>> queue_;
  bool closed_ = false;
  std::exception_ptr error_;
  std::size_t written_ = 0;
  std::thread thread_;  // last: starts once the rest is built
};

// The machine metrics of compare's CSV (every metric but the per-partition ones).
std::vector<StoredMetric> row_metrics(const model::RunResult& r) {
  const analysis::MetricRegistry reg(r);
  const auto values = reg.values(r);
  std::vector<StoredMetric> out;
  for (std::size_t m = 0; m < reg.size(); ++m)
    if (reg[m].scope != analysis::MetricScope::kPartition) out.push_back({reg[m].name, values[m]});
  return out;
}

// `text` in single quotes for sh.
std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string self_path() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "partsim" : p.string();
}

std::string job_name(const std::string& name) {
  std::string out = "partsim-";
  for (char c : name) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (std::isalnum(static_cast<unsigned char>(l)) != 0) ? l : '-';
  }
  out = out.substr(0, 63);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string emit_slurm(const SweepSettings& s, const scenarios::SweepDefinition& d, std::size_t shards) {
  const std::string pattern = s.store.empty() ? d.name + "-shard-%a.sqlite" : s.store;
  if (pattern.find("%a") == std::string::npos)
    throw UsageError(
        "--store: with --emit each shard needs its own store: put '%a' (the shard index) in the name, e.g. stores/shard-%a.sqlite");
  const auto store = std::filesystem::absolute(pattern).lexically_normal();
  const auto dir = store.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // Slurm opens --output before the script runs
  if (ec) throw UsageError("--store: cannot create the folder '" + dir.string() + "': " + ec.message());
  const std::string program = s.partsim.empty() ? self_path() : s.partsim;
  const std::string sweep = std::filesystem::absolute(d.file).lexically_normal().string();
  std::string out = "#!/bin/bash\n";
  out +=
      "# partsim sweep '" + d.name + "' as a Slurm array of " + std::to_string(shards) + " tasks (sweep hash " +
      scenarios::sweep_hash(d) +
      ").\n# Submit with sbatch; each task writes its own store (resubmitting it, e.g. sbatch --array=2, resumes it); then\n#   " +
      program + " merge " + (dir / "*.sqlite").string() + " --out ALL.sqlite\n";
  out += "#SBATCH --job-name=" + job_name(d.name) + "\n";
  out += "#SBATCH --array=0-" + std::to_string(shards - 1) + "\n";
  out += "#SBATCH --output=" + (dir / "slurm-%A_%a.out").string() + "\n";
  for (const auto& line : s.sbatch) out += "#SBATCH " + line + "\n";
  out += "set -euo pipefail\n";
  // The shard is the task id itself, not SLURM_ARRAY_TASK_ID - MIN of COUNT: a task resubmitted
  // alone (sbatch --array=2) is then still shard 2 of N and resumes its own store.
  out += "exec " + shell_quote(program) + " sweep " + shell_quote(sweep) +
         " --shard \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}/" + std::to_string(shards) + "\" --store " +
         shell_quote(store.string()) + " --threads \"${SLURM_CPUS_PER_TASK:-1}\"" +
         (s.allow_large ? " --allow-large" : "") + "\n";
  return out;
}

std::string emit_k8s(const SweepSettings& s, const scenarios::SweepDefinition& d, std::size_t shards) {
  if (s.image.empty())
    throw UsageError("--emit k8s: give --image IMAGE (holding partsim and the sweep and scenario files)");
  if (s.volume.empty())
    throw UsageError("--emit k8s: give --volume CLAIM (the PersistentVolumeClaim the stores go to)");
  const std::string pattern =
      std::filesystem::path(s.store.empty() ? d.name + "-shard-%a.sqlite" : s.store).filename().string();
  if (pattern.find("%a") == std::string::npos)
    throw UsageError(
        "--store: with --emit each shard needs its own store: put '%a' (the shard index) in the name, e.g. shard-%a.sqlite");
  scenarios::IndexedJob job;
  job.name = job_name(d.name);
  job.comment = "partsim sweep '" + d.name + "' as a Kubernetes Indexed Job of " + std::to_string(shards) +
                " completions (sweep hash " + scenarios::sweep_hash(d) + "); a restarted pod resumes its store";
  job.completions = shards;
  job.image = s.image;
  job.claim = s.volume;
  job.mount = "/stores";
  job.command = {s.partsim.empty() ? "partsim" : s.partsim,
                 "sweep",
                 d.file,
                 "--store",
                 "/stores/" + pattern,
                 "--shards",
                 std::to_string(shards),
                 "--threads",
                 "1"};
  if (s.allow_large) job.command.push_back("--allow-large");
  return scenarios::indexed_job_manifest(job);
}

int emit(const SweepSettings& s, const scenarios::SweepDefinition& d) {
  if (!s.shards) throw UsageError("--emit " + s.emit + ": give the shard count with --shards N");
  if (!s.shard_text.empty()) throw UsageError("--shard: not with --emit (every shard is emitted)");
  const std::string text = s.emit == "slurm" ? emit_slurm(s, d, *s.shards) : emit_k8s(s, d, *s.shards);
  if (s.out.empty()) write_stdout(text);
  else write_file_atomically(s.out, text);
  return kExitOk;
}

}  // namespace

int run_sweep_command(const Args& args) {
  const auto settings = parse_sweep_args(args);
  if (!settings) return kExitOk;
  const SweepSettings& s = *settings;
  const auto def = scenarios::load_sweep_file(s.sweep_path);
  const auto points = load_points(def, s);
  if (!s.emit.empty()) return emit(s, def);
  const Shard shard = resolve_shard(s);
  const std::string path = store_path(s, def, shard);

  StoreMeta meta{scenarios::sweep_hash(def), partsim_version(), def.text, shard.text(), def.name,
                 def.scenario_path,          def.replications};
  std::vector<StorePoint> stored;
  for (const auto& p : points) stored.push_back(p.stored);
  // The store's folder is made (a shard's `stores/shard-%a.sqlite` in a fresh folder), and
  // the store locked before it is opened or made: two sweeps never write one store.
  if (const auto dir = std::filesystem::path(path).parent_path(); !dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      throw UsageError("--store: cannot create the folder '" + dir.string() + "' for " + path + ": " + ec.message());
  }
  const StoreLock lock(path);
  SweepStore store = SweepStore::open_for(path, meta, stored);

  // Rows r = point * replications + replication; shard I of N owns r mod N == I.
  const std::size_t reps = def.replications, total_rows = points.size() * reps;
  const auto done = store.done();
  std::vector<RowId> pending;
  std::size_t mine = 0;
  for (std::size_t r = shard.index; r < total_rows; r += shard.count) {
    ++mine;
    const RowId row{static_cast<std::int64_t>(r / reps), static_cast<std::int64_t>(r % reps)};
    if (!done.count(row)) pending.push_back(row);
  }
  enable_graceful_stop();
  SweepProgress progress("partsim sweep " + def.name + " shard " + shard.text() + " -> " + path, mine,
                         mine - pending.size());
  RowWriter writer(store, progress);
  sim::for_each_replication<model::RunResult>(
      pending.size(), s.threads,
      [&](std::size_t k) {
        const auto& [point, rep] = pending[k];
        const Point& p = points[static_cast<std::size_t>(point)];
        model::RunOptions options;
        options.cancel = &interrupted();
        return model::run_scenario(p.scenario, p.stored.seed, static_cast<std::uint64_t>(rep), options);
      },
      [&](std::size_t k, model::RunResult&& r) {
        if (r.partial) return;  // stopped by a signal: left for the next run to redo
        writer.push(pending[k], row_metrics(r));
      },
      {}, &interrupted());
  const std::size_t written = writer.finish();
  progress.finish(written);
  if (interrupted().load()) {
    std::fprintf(
        stderr,
        "partsim sweep: interrupted: %zu of %zu rows of this shard are in %s; run the same command again to resume\n",
        mine - pending.size() + written, mine, path.c_str());
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace partsim::cli
