// partsim status STORE... [--every S]: the progress of a sweep across its shards, read
// from their stores while they run (on a Slurm array, a Kubernetes Job, or here): rows
// done of the total, per shard, and with --every the rate and ETA measured between reads.

#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <thread>

#include <boost/program_options.hpp>

#include "analysis/format.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/options.hpp"
#include "cli/sweep_store.hpp"

namespace partsim::cli {
namespace {

namespace po = boost::program_options;

constexpr const char* kStatusUsage =
    "partsim status STORE.sqlite... [--every SECONDS]\n"
    "A sweep's progress across its shards' stores: rows done of the total, per shard; with\n"
    "--every, read again every SECONDS with the rate (over the last minute) and ETA until\n"
    "every row is done, or every store given holds all its shard's rows.\n"
    "  partsim status stores/shard-*.sqlite --every 30\n";

// A store's shard: "I/N", "all", or a merge of shards "0/3+2/3". Its rows and the shard
// indexes it covers.
struct StoreShards {
  std::size_t rows = 0, count = 0;  ///< count: N of "I/N" (0 for "all")
  std::set<std::size_t> indexes;
};

StoreShards parse_shards(const std::string& text, std::size_t total) {
  StoreShards s;
  if (text == "all") {
    s.rows = total;
    return s;
  }
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t plus = std::min(text.find('+', from), text.size());
    const std::string one = text.substr(from, plus - from);
    const auto slash = one.find('/');
    std::size_t index = 0, count = 0;
    try {
      if (slash == std::string::npos) throw std::invalid_argument(one);
      index = std::stoul(one.substr(0, slash));
      count = std::stoul(one.substr(slash + 1));
    } catch (const std::exception&) {
      count = 0;
    }
    if (count == 0 || index >= count) throw UsageError("a store's shard '" + text + "' is not I/N, all, or I/N+J/N");
    s.count = count;
    if (s.indexes.insert(index).second && index < total)
      s.rows += (total - index + count - 1) / count;  // r = I, I + N, ...
    from = plus + 1;
  }
  return s;
}

struct Reading {
  std::size_t done = 0, total = 0;
  bool stores_complete = true;  ///< every store given holds all its shard's rows
  std::string line;
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now();
};

Reading read_progress(std::vector<SweepStore>& stores) {
  Reading r;
  const StoreMeta meta = stores.front().meta();
  r.total = stores.front().points().size() * meta.replications;
  std::set<RowId> all;
  std::string shards;
  std::set<std::size_t> seen;
  std::size_t count = 0;
  bool whole = false;  // a store holds every shard
  for (auto& st : stores) {
    const auto done = st.done();
    all.insert(done.begin(), done.end());
    const std::string shard = st.meta().shard;
    const StoreShards sh = parse_shards(shard, r.total);
    const std::size_t mine = sh.rows;
    r.stores_complete = r.stores_complete && done.size() >= mine;
    seen.insert(sh.indexes.begin(), sh.indexes.end());
    if (sh.count > 0) count = sh.count;
    if (sh.count == 0) whole = true;
    shards += (shards.empty() ? "" : ", ") + shard + " " + std::to_string(done.size()) + "/" + std::to_string(mine);
  }
  r.done = all.size();
  char head[160];
  std::snprintf(head, sizeof head, "sweep '%s': %zu/%zu rows done (%.1f%%) in %zu store%s", meta.sweep_name.c_str(),
                r.done, r.total, r.total ? 100.0 * static_cast<double>(r.done) / static_cast<double>(r.total) : 100.0,
                stores.size(), stores.size() == 1 ? "" : "s");
  r.line = std::string(head) + " [" + shards + "]";
  if (!whole && count > 0 && seen.size() < count) {
    std::string missing;
    for (std::size_t i = 0; i < count; ++i)
      if (!seen.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(count);
    r.line += "; no store given for shard " + missing;
  }
  return r;
}

}  // namespace

int run_status_command(const Args& args) {
  std::vector<std::string> paths;
  std::string every_text;
  po::options_description desc("status options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("every", po::value<std::string>(&every_text), "read again every SECONDS (1 to 86400), with rate and ETA, until the stores given are complete")
      ("stores", po::value<std::vector<std::string>>(&paths), "the shards' stores (positional)");
  // clang-format on
  if (help_requested(args, kStatusUsage, desc)) return kExitOk;
  po::positional_options_description pos;
  pos.add("stores", -1);
  parse_command_line(args, desc, &pos);
  if (paths.empty()) throw UsageError("give the sweep's stores: partsim status stores/shard-*.sqlite");
  const auto every = every_text.empty() ? 0 : parse_int(every_text, "--every", 1, 86400);

  auto stores = open_same_sweep(paths, "not one sweep's progress");
  Reading first = read_progress(stores);
  std::printf("%s\n", first.line.c_str());
  std::fflush(stdout);
  if (every == 0) return kExitOk;
  enable_graceful_stop();
  // The rate over the last readings (up to a minute's worth): shards start and finish at
  // different times, so the rate since the first reading would mislead.
  std::deque<Reading> window{first};
  Reading now = first;
  while (now.done < now.total && !now.stores_complete && !interrupted().load()) {
    const auto wake = std::chrono::steady_clock::now() + std::chrono::seconds(every);
    while (std::chrono::steady_clock::now() < wake && !interrupted().load())
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (interrupted().load()) break;
    now = read_progress(stores);
    window.push_back(now);
    while (window.size() > 2 && now.at - window.front().at > std::chrono::seconds(60)) window.pop_front();
    const double elapsed = std::chrono::duration<double>(now.at - window.front().at).count();
    const double rate = static_cast<double>(now.done - std::min(now.done, window.front().done)) / elapsed;
    std::string eta = "?";
    if (now.done >= now.total) eta = "0 s";
    else if (rate > 0) eta = std::to_string(std::llround(static_cast<double>(now.total - now.done) / rate)) + " s";
    std::printf("%s  %.2f runs/s  ETA %s\n", now.line.c_str(), rate, eta.c_str());
    std::fflush(stdout);
  }
  if (now.done < now.total && now.stores_complete) {
    const std::size_t left = now.total - now.done;
    std::printf("every store given holds all its shard's rows; the %s left %s to shards with no store given\n",
                analysis::count_of(static_cast<std::int64_t>(left), "row").c_str(), left == 1 ? "belongs" : "belong");
  }
  return interrupted().load() ? kExitRunFailed : kExitOk;
}

}  // namespace partsim::cli
