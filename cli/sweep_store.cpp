#include "cli/sweep_store.hpp"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_error.hpp"
#include "cli/interrupt.hpp"

namespace partsim::cli {
namespace {

constexpr const char* kSchema =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE points(point INTEGER PRIMARY KEY, partitioner TEXT, params TEXT, label TEXT, variant_params TEXT, seed INTEGER);"
    "CREATE TABLE results(point INTEGER, replication INTEGER, metric TEXT, value REAL, PRIMARY KEY(point, replication, metric));"
    "CREATE TABLE done(point INTEGER, replication INTEGER, PRIMARY KEY(point, replication));";

// A prepared statement, finalized on scope exit.
class Statement {
public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int i, const std::string& s) {
    check(sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT));
  }
  void bind(int i, std::int64_t v) { check(sqlite3_bind_int64(stmt_, i, static_cast<sqlite3_int64>(v))); }
  void bind_real(int i, double v) {
    check(std::isnan(v) ? sqlite3_bind_null(stmt_, i) : sqlite3_bind_double(stmt_, i, v));
  }
  /// True while there is a row.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  void run() {
    step();
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string text(int i) const {
    const auto* p = sqlite3_column_text(stmt_, i);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::int64_t integer(int i) const { return sqlite3_column_int64(stmt_, i); }
  double real(int i) const {
    return sqlite3_column_type(stmt_, i) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(stmt_, i);
  }

private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail("bind");
  }
  [[noreturn]] void fail(const char* what) {
    throw std::runtime_error("store " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  std::string path_;
  sqlite3_stmt* stmt_ = nullptr;
};

sqlite3* open_db(const std::string& path, int flags) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw UsageError("store " + path + ": cannot open: " + msg);
  }
  sqlite3_busy_timeout(db, 10000);
  return db;
}

std::string format_shard_mismatch(const std::string& path, const std::string& have, const std::string& want) {
  return "store " + path + " holds shard " + have + " of the sweep, this run is shard " + want +
         ": give each shard its own --store (e.g. --store DIR/shard-%a.sqlite)";
}

}  // namespace

StoreLock::StoreLock(const std::string& store_path, const std::string& option) : path_(store_path + ".lock") {
  for (;;) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw UsageError("store " + store_path + ": cannot make its lock file " + path_ + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      std::string holder(200, '\0');
      const ssize_t n = err == EWOULDBLOCK ? ::pread(fd, holder.data(), holder.size(), 0) : 0;
      ::close(fd);
      if (err != EWOULDBLOCK)
        throw UsageError("store " + store_path + ": cannot lock " + path_ + ": " + std::strerror(err));
      holder.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
      throw UsageError("store " + store_path + " is being written by another partsim (" +
                       (holder.empty() ? "pid unknown" : holder) +
                       "): one partsim writes a store at a time; wait for it to end (or stop it), or give another " +
                       option);
    }
    // Locked; but a holder that was ending may have removed the file after this one opened
    // it: the lock counts only on the file that is still at the path.
    struct stat held {};
    struct stat now {};
    if (::fstat(fd, &held) == 0 && ::stat(path_.c_str(), &now) == 0 && held.st_ino == now.st_ino &&
        held.st_dev == now.st_dev) {
      fd_ = fd;
      break;
    }
    ::close(fd);
  }
  char host[256] = "";
  ::gethostname(host, sizeof host - 1);
  const std::time_t t = std::time(nullptr);
  char since[32] = "";
  std::strftime(since, sizeof since, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
  const std::string who = "pid " + std::to_string(::getpid()) + " on " + host + ", since " + since + "\n";
  // Without the note the lock holds all the same (a refused writer then reads "pid unknown").
  const bool noted = ::ftruncate(fd_, 0) == 0 &&
                     ::pwrite(fd_, who.data(), who.size(), 0) == static_cast<ssize_t>(who.size());
  (void)noted;
}

StoreLock::~StoreLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still locked: a waiter that opened it sees it gone and retries
  ::close(fd_);
}

SweepStore::SweepStore(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
SweepStore::SweepStore(SweepStore&& o) noexcept
    : path_(std::move(o.path_)), db_(o.db_), in_transaction_(o.in_transaction_) {
  o.db_ = nullptr;
}
SweepStore& SweepStore::operator=(SweepStore&& o) noexcept {
  if (this != &o) {
    sqlite3_close(db_);
    path_ = std::move(o.path_);
    db_ = o.db_;
    in_transaction_ = o.in_transaction_;
    o.db_ = nullptr;
  }
  return *this;
}
SweepStore::~SweepStore() { sqlite3_close(db_); }

void SweepStore::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw std::runtime_error("store " + path_ + ": " + msg);
  }
}

SweepStore create_store(const std::string& tmp_path, const StoreMeta& meta, const std::vector<StorePoint>& points) {
  SweepStore store(tmp_path, open_db(tmp_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  store.exec("PRAGMA synchronous=NORMAL; BEGIN;");
  store.exec(kSchema);
  {
    Statement m(store.db_, "INSERT INTO meta(key, value) VALUES(?, ?)", tmp_path);
    const std::pair<const char*, std::string> rows[] = {{"sweep_hash", meta.sweep_hash},
                                                        {"partsim_version", meta.partsim_version},
                                                        {"sweep_yaml", meta.sweep_yaml},
                                                        {"shard", meta.shard},
                                                        {"replications", std::to_string(meta.replications)},
                                                        {"sweep_name", meta.sweep_name},
                                                        {"scenario", meta.scenario}};
    for (const auto& [k, v] : rows) {
      m.bind(1, std::string(k));
      m.bind(2, v);
      m.run();
    }
    Statement p(store.db_,
                "INSERT INTO points(point, partitioner, params, label, variant_params, seed) VALUES(?, ?, ?, ?, ?, ?)",
                tmp_path);
    for (const auto& pt : points) {
      p.bind(1, pt.point);
      p.bind(2, pt.partitioner);
      p.bind(3, pt.params);
      p.bind(4, pt.label);
      p.bind(5, pt.variant_params);
      p.bind(6, static_cast<std::int64_t>(pt.seed));  // sqlite integers are signed 64-bit
      p.run();
    }
  }
  store.exec("COMMIT;");
  return store;
}

SweepStore SweepStore::open_existing(const std::string& path, Access access) {
  if (!std::filesystem::is_regular_file(path)) throw UsageError("store " + path + ": no such file");
  // A writer killed inside a transaction leaves a hot journal that the next opener must roll
  // back, which a read-only handle cannot (SQLITE_READONLY_ROLLBACK): a reader then opens
  // the store to write, as the writer's own resume would.
  std::error_code ec;
  if (access == Access::kRead && std::filesystem::file_size(path + "-journal", ec) > 0 && !ec) access = Access::kWrite;
  SweepStore store(path, open_db(path, access == Access::kWrite ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY));
  try {
    if (access == Access::kWrite) store.exec("PRAGMA synchronous=NORMAL;");
    Statement check(
        store.db_,
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('meta','points','results','done')", path);
    if (!check.step() || check.integer(0) != 4)
      throw UsageError("store " + path + ": not a partsim sweep store (no meta/points/results/done tables)");
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const UsageError*>(&e)) throw;
    throw UsageError("store " + path + ": not a partsim sweep store (" + e.what() + ")");
  }
  return store;
}

SweepStore SweepStore::open_for(const std::string& path, const StoreMeta& meta, const std::vector<StorePoint>& points) {
  // An empty file (touched, or opened by a reader before the store was made) is no store yet.
  std::error_code size_ec;
  if (!std::filesystem::exists(path) ||
      (std::filesystem::is_regular_file(path) && std::filesystem::file_size(path, size_ec) == 0 && !size_ec)) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
      TempFileGuard guard(tmp);
      std::filesystem::remove(tmp);
      { create_store(tmp, meta, points); }
      std::error_code ec;
      std::filesystem::rename(tmp, path, ec);
      if (ec) {
        std::filesystem::remove(tmp, ec);
        throw UsageError("store " + path + ": cannot create: " + ec.message());
      }
    }
    return open_existing(path, Access::kWrite);
  }
  SweepStore store = open_existing(path, Access::kWrite);
  const StoreMeta have = store.meta();
  if (have.sweep_hash != meta.sweep_hash)
    throw UsageError("store " + path + " holds another sweep ('" + have.sweep_name + "', hash " + have.sweep_hash +
                     "; this sweep '" + meta.sweep_name + "' has hash " + meta.sweep_hash +
                     "): its rows cannot be resumed by this one; give another --store or remove that file");
  if (have.partsim_version != meta.partsim_version)
    throw UsageError("store " + path + " was made by partsim " + have.partsim_version + ", this is partsim " +
                     meta.partsim_version + ": rows of different versions are not mixed; give another --store");
  if (have.shard != meta.shard) throw UsageError(format_shard_mismatch(path, have.shard, meta.shard));
  return store;
}

std::vector<SweepStore> open_same_sweep(const std::vector<std::string>& paths, const std::string& consequence) {
  std::vector<SweepStore> stores;
  for (const auto& path : paths) stores.push_back(SweepStore::open_existing(path, SweepStore::Access::kRead));
  const StoreMeta first = stores.front().meta();
  for (auto& st : stores) {
    const StoreMeta m = st.meta();
    if (m.sweep_hash != first.sweep_hash)
      throw UsageError("store " + st.path() + " holds another sweep ('" + m.sweep_name + "', hash " + m.sweep_hash +
                       ") than " + stores.front().path() + " ('" + first.sweep_name + "', hash " + first.sweep_hash +
                       "): " + consequence);
    if (m.partsim_version != first.partsim_version)
      throw UsageError("store " + st.path() + " was made by partsim " + m.partsim_version + ", " +
                       stores.front().path() + " by " + first.partsim_version + ": " + consequence);
  }
  return stores;
}

StoreMeta SweepStore::meta() const {
  StoreMeta m;
  Statement s(db_, "SELECT key, value FROM meta", path_);
  while (s.step()) {
    const std::string k = s.text(0), v = s.text(1);
    if (k == "sweep_hash") m.sweep_hash = v;
    else if (k == "partsim_version") m.partsim_version = v;
    else if (k == "sweep_yaml") m.sweep_yaml = v;
    else if (k == "shard") m.shard = v;
    else if (k == "sweep_name") m.sweep_name = v;
    else if (k == "scenario") m.scenario = v;
    else if (k == "replications") m.replications = static_cast<std::size_t>(std::stoull(v.empty() ? "0" : v));
  }
  return m;
}

std::vector<StorePoint> SweepStore::points() const {
  std::vector<StorePoint> out;
  Statement s(db_, "SELECT point, partitioner, params, label, variant_params, seed FROM points ORDER BY point", path_);
  while (s.step())
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), static_cast<std::uint64_t>(s.integer(5))});
  return out;
}

std::set<RowId> SweepStore::done() const {
  std::set<RowId> out;
  Statement s(db_, "SELECT point, replication FROM done", path_);
  while (s.step()) out.emplace(s.integer(0), s.integer(1));
  return out;
}

std::vector<StoredMetric> SweepStore::results(const RowId& row) const {
  std::vector<StoredMetric> out;
  Statement s(db_, "SELECT metric, value FROM results WHERE point = ? AND replication = ? ORDER BY rowid", path_);
  s.bind(1, row.first);
  s.bind(2, row.second);
  while (s.step()) out.push_back({s.text(0), s.real(1)});
  return out;
}

void SweepStore::begin() {
  exec("BEGIN IMMEDIATE;");
  in_transaction_ = true;
}

void SweepStore::commit() {
  exec("COMMIT;");
  in_transaction_ = false;
}

void SweepStore::write_row(const RowId& row, const std::vector<StoredMetric>& metrics) {
  const bool own = !in_transaction_;
  if (own) exec("BEGIN IMMEDIATE;");
  try {
    Statement r(db_, "INSERT INTO results(point, replication, metric, value) VALUES(?, ?, ?, ?)", path_);
    for (const auto& m : metrics) {
      r.bind(1, row.first);
      r.bind(2, row.second);
      r.bind(3, m.name);
      r.bind_real(4, m.value);
      r.run();
    }
    Statement d(db_, "INSERT INTO done(point, replication) VALUES(?, ?)", path_);
    d.bind(1, row.first);
    d.bind(2, row.second);
    d.run();
    if (own) exec("COMMIT;");
  } catch (...) {
    if (own) sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace partsim::cli
