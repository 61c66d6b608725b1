// partsim merge: joins the stores of one sweep's shards into one store, written whole or
// not at all; a row held by several stores must hold the same values in each.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "analysis/format.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/sweep_store.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kMergeUsage =
    "partsim merge STORE.sqlite... --out ALL.sqlite\n"
    "Joins the stores of one sweep's shards into one store (written whole or not at all).\n";

}  // namespace

int run_merge_command(const Args& args) {
  std::vector<std::string> inputs;
  std::string out;
  po::options_description desc("merge options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("out", po::value<std::string>(&out), "the merged store (required; replaced whole)")
      ("stores", po::value<std::vector<std::string>>(&inputs), "the shards' stores (positional)");
  // clang-format on
  if (help_requested(args, kMergeUsage, desc)) return kExitOk;
  po::positional_options_description pos;
  pos.add("stores", -1);
  parse_command_line(args, desc, &pos);
  if (inputs.empty()) throw UsageError("give the stores to merge: partsim merge A.sqlite B.sqlite --out ALL.sqlite");
  if (out.empty()) throw UsageError("--out: required: the merged store to write");
  for (const auto& in : inputs)
    if (std::filesystem::exists(out) && std::filesystem::equivalent(in, out))
      throw UsageError("--out: '" + out + "' is also an input");
  // --out is replaced whole: not while a sweep writes it (its rows would go to a file unlinked).
  const StoreLock lock(out, "--out");

  std::vector<SweepStore> stores = open_same_sweep(inputs, "not merged");
  const StoreMeta first = stores.front().meta();
  const auto points = stores.front().points();
  std::set<std::string> shards;
  for (auto& st : stores) shards.insert(st.meta().shard);
  // Rows in (point, replication) order, as one process writes them; a row in several
  // stores (a shard merged twice) must hold the same values.
  std::map<RowId, std::size_t> owner;
  for (std::size_t i = 0; i < stores.size(); ++i)
    for (const auto& row : stores[i].done()) {
      const auto [it, fresh] = owner.emplace(row, i);
      if (!fresh) {
        const auto a = stores[it->second].results(row), b = stores[i].results(row);
        const bool same = a.size() == b.size() &&
                          std::equal(a.begin(), a.end(), b.begin(), [](const StoredMetric& x, const StoredMetric& y) {
                            return x.name == y.name &&
                                   (x.value == y.value || (std::isnan(x.value) && std::isnan(y.value)));
                          });
        if (!same)
          throw UsageError("stores " + stores[it->second].path() + " and " + stores[i].path() + " disagree on point " +
                           std::to_string(row.first) + " replication " + std::to_string(row.second) + ": not merged");
      }
    }
  StoreMeta meta = first;
  const std::size_t total = points.size() * first.replications;
  if (owner.size() == total) {
    meta.shard = "all";
  } else {
    meta.shard.clear();
    for (const auto& sh : shards) meta.shard += (meta.shard.empty() ? "" : "+") + sh;
  }
  const std::string tmp = out + ".tmp." + std::to_string(::getpid());
  {
    TempFileGuard guard(tmp);
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    try {
      SweepStore merged = create_store(tmp, meta, points);
      merged.begin();
      for (const auto& [row, i] : owner) merged.write_row(row, stores[i].results(row));
      merged.commit();
    } catch (...) {
      std::filesystem::remove(tmp, ec);
      std::filesystem::remove(tmp + "-journal", ec);
      throw;
    }
    std::filesystem::rename(tmp, out, ec);
    if (ec) {
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error("--out: cannot write '" + out + "': " + ec.message());
    }
  }
  std::fprintf(stderr, "partsim merge: %s of sweep '%s' -> %s: %zu/%zu rows done (shard %s)\n",
               analysis::count_of(static_cast<std::int64_t>(stores.size()), "store").c_str(), first.sweep_name.c_str(),
               out.c_str(), owner.size(), total, meta.shard.c_str());
  return kExitOk;
}

}  // namespace partsim::cli
