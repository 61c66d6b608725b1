#pragma once
// The result store of a sweep: one SQLite file (Debian's libsqlite3). Schema (other tools,
// `partsim report` among them, read it; add, never rename):
//   meta(key TEXT PRIMARY KEY, value TEXT)    sweep_hash, partsim_version, sweep_yaml,
//                                             shard ("I/N" or "all"), replications,
//                                             sweep_name, scenario
//   points(point INTEGER PRIMARY KEY, partitioner TEXT, params TEXT, label TEXT,
//          variant_params TEXT, seed INTEGER)
//       partitioner: the arm compared (a partitioner's or variant's name); params: a JSON
//       object of the point's workload assignments, path -> value as written in the sweep
//       file (both strings); variant_params: the same for the arm's own assignments;
//       seed: the master seed its runs use (replication r is run_scenario(seed, r))
//   results(point INTEGER, replication INTEGER, metric TEXT, value REAL,
//           PRIMARY KEY(point, replication, metric))
//       compare's CSV metrics by machine name; value NULL where undefined (nothing measured)
//   done(point INTEGER, replication INTEGER, PRIMARY KEY(point, replication))
// A row's results and its done row are one transaction: after a crash (even SIGKILL) a
// row is either whole and done, or absent.

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace partsim::cli {

struct StoreMeta {
  std::string sweep_hash, partsim_version, sweep_yaml, shard, sweep_name, scenario;
  std::size_t replications = 1;
};

struct StorePoint {
  std::int64_t point = 0;
  std::string partitioner, params, label, variant_params;
  std::uint64_t seed = 0;
};

using RowId = std::pair<std::int64_t, std::int64_t>;  // (point, replication)

/// One metric of a row: its value, or nullopt-like NaN for undefined (stored as NULL).
struct StoredMetric {
  std::string name;
  double value;
};

class SweepStore {
public:
  /// Opens `path` for the sweep `meta` describes, creating it (with `points`) when absent;
  /// a store made by another sweep, partsim version, shard or replication count is refused
  /// (UsageError naming what differs).
  static SweepStore open_for(const std::string& path, const StoreMeta& meta, const std::vector<StorePoint>& points);
  /// Opens an existing store; UsageError when it is not a sweep store. Readers (report,
  /// status, merge's inputs) open it read-only: they cannot change a store a sweep is
  /// still writing, nor need write access to its file.
  enum class Access { kRead, kWrite };
  static SweepStore open_existing(const std::string& path, Access access);

  SweepStore(SweepStore&&) noexcept;
  SweepStore& operator=(SweepStore&&) noexcept;
  ~SweepStore();

  const std::string& path() const { return path_; }
  StoreMeta meta() const;
  std::vector<StorePoint> points() const;
  std::set<RowId> done() const;
  /// The results of a done row, in the order written.
  std::vector<StoredMetric> results(const RowId& row) const;
  /// Writes a row's metrics and its done mark in one transaction (its own, unless inside
  /// begin()/commit()).
  void write_row(const RowId& row, const std::vector<StoredMetric>& metrics);
  /// One transaction around many write_row calls (merge).
  void begin();
  void commit();

private:
  friend SweepStore create_store(const std::string&, const StoreMeta&, const std::vector<StorePoint>&);
  SweepStore(std::string path, sqlite3* db);
  void exec(const std::string& sql) const;

  std::string path_;
  sqlite3* db_ = nullptr;
  bool in_transaction_ = false;
};

/// One writer per store: an exclusive lock (flock) on STORE.lock, which holds the writer's
/// pid and host, taken before the store is opened or made and let go (the file removed) by
/// the destructor. The kernel lets it go when the process dies, even by SIGKILL: a stale
/// file locks nothing. Readers (report, status, merge's inputs) take no lock.
class StoreLock {
public:
  /// Takes the lock of `store_path`; UsageError naming the holder (pid, host, since when)
  /// when another process has it, and `option`, the one that named the store (sweep's
  /// --store, merge's --out).
  explicit StoreLock(const std::string& store_path, const std::string& option = "--store");
  ~StoreLock();
  StoreLock(const StoreLock&) = delete;
  StoreLock& operator=(const StoreLock&) = delete;

private:
  std::string path_;
  int fd_ = -1;
};

/// Opens the stores of one sweep (its shards) to read; UsageError when one is not a store,
/// or holds another sweep or was made by another partsim version (the message ends with
/// `consequence`, e.g. "not merged").
std::vector<SweepStore> open_same_sweep(const std::vector<std::string>& paths, const std::string& consequence);

/// Creates a store at `tmp_path` (which must not exist) with the schema, `meta` and `points`.
SweepStore create_store(const std::string& tmp_path, const StoreMeta& meta, const std::vector<StorePoint>& points);

}  // namespace partsim::cli
