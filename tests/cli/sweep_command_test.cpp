// partsim sweep and partsim merge, end to end: the store's rows whatever the thread count
// or sharding, resume after SIGKILL, refusal of a foreign store, the emitted Slurm script
// and Kubernetes manifest, and the sweep file's errors.

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include "cli/cli_runner.hpp"
#include "cli/sweep_store.hpp"

using partsim::testing::q;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {

std::string base_scenario() { return std::string(PARTSIM_SOURCE_DIR) + "/scenarios/kip794/slow-broker.yaml"; }

// A small KIP-794 sweep: 2 rates x 3 arms x `reps` replications.
std::string small_sweep(int reps = 3, const std::string& rates = "[300, 3000]", const std::string& records = "3000") {
  return "scenario: " + base_scenario() + "\nseed: 11\nreplications: " + std::to_string(reps) +
         "\nset:\n  run.records: " + records +
         "\n  run.warmup.ms: 0\npartitioners: [builtin, sticky-kip480]\n"
         "variants:\n  adaptive-off: {partitioner: builtin, partitioner.adaptive.partitioning.enable: false}\n"
         "grid:\n  workload.arrivals.rate: " +
         rates + "\n";
}

// Everything a store holds but ids: meta (but the shard), points, done rows and results,
// each sorted.
std::string dump(const std::filesystem::path& path) {
  auto store = partsim::cli::SweepStore::open_existing(path.string(), partsim::cli::SweepStore::Access::kRead);
  const auto meta = store.meta();
  std::string out = meta.sweep_hash + "|" + meta.partsim_version + "|" + std::to_string(meta.replications) + "|" +
                    meta.sweep_yaml + "\n";
  for (const auto& p : store.points())
    out += std::to_string(p.point) + "|" + p.partitioner + "|" + p.params + "|" + p.label + "|" + p.variant_params +
           "|" + std::to_string(p.seed) + "\n";
  std::set<std::string> rows;
  for (const auto& row : store.done()) {
    std::string r = std::to_string(row.first) + "/" + std::to_string(row.second) + ":";
    std::set<std::string> metrics;
    for (const auto& m : store.results(row)) metrics.insert(m.name + "=" + std::to_string(m.value));
    for (const auto& m : metrics) r += m + ";";
    rows.insert(r);
  }
  for (const auto& r : rows) out += r + "\n";
  return out;
}

std::size_t done_rows(const std::filesystem::path& path) {
  return partsim::cli::SweepStore::open_existing(path.string(), partsim::cli::SweepStore::Access::kRead).done().size();
}

void sql(const std::filesystem::path& path, const std::string& statement) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  CHECK(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace

TEST_CASE(
    "partsim sweep: any thread count gives the same store, byte for byte; the metrics are compare's CSV columns") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", small_sweep());
  const auto one = run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "one.sqlite") + " --threads 1");
  REQUIRE(one.exit_code == 0);
  CHECK(one.err.find("18/18 rows done") != std::string::npos);
  CHECK(one.err.find("runs/s") != std::string::npos);
  const auto two = run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "two.sqlite") + " --threads 2");
  REQUIRE(two.exit_code == 0);
  CHECK(slurp(dir.path / "one.sqlite") == slurp(dir.path / "two.sqlite"));

  auto store = partsim::cli::SweepStore::open_existing((dir.path / "one.sqlite").string(),
                                                       partsim::cli::SweepStore::Access::kRead);
  CHECK(store.meta().shard == "all");
  CHECK(store.meta().replications == 3);
  const auto points = store.points();
  REQUIRE(points.size() == 6);
  CHECK(points[0].partitioner == "builtin");
  CHECK(points[2].partitioner == "adaptive-off");
  CHECK(points[0].params == R"({"workload.arrivals.rate":"300"})");
  CHECK(points[2].variant_params == R"({"partitioner":"builtin","partitioner.adaptive.partitioning.enable":"false"})");
  // The arms at one rate share the workload's seed; another rate has another.
  CHECK(points[0].seed == points[1].seed);
  CHECK(points[0].seed == points[2].seed);
  CHECK(points[0].seed != points[3].seed);
  // Readers open stores read-only: a write through such a handle is refused, the file unchanged.
  const std::string before = slurp(dir.path / "one.sqlite");
  CHECK_THROWS_WITH(store.write_row({0, 99}, {}), doctest::Contains("readonly"));
  CHECK(slurp(dir.path / "one.sqlite") == before);

  // The row's metrics are the columns of compare's CSV, with the same values; replication 0
  // of a point is compare's run on the point's seed.
  ScratchDir cdir;
  const auto c = run_cli("compare " + q(base_scenario()) +
                         " --partitioners sticky-kip480 --set run.records=3000 --set run.warmup.ms=0 "
                         "--set producers.*.workload.arrivals.rate=3000 --seed " +
                         std::to_string(points[4].seed) + " --format csv --out " + q(cdir.path));
  REQUIRE(c.exit_code == 0);
  const auto header = c.out.substr(0, c.out.find('\n'));
  const auto values = c.out.substr(header.size() + 1, c.out.find('\n', header.size() + 1) - header.size() - 1);
  std::vector<std::string> names, cells;
  for (std::size_t p = 0, e; p <= header.size(); p = e + 1)
    names.push_back(header.substr(p, (e = std::min(header.find(',', p), header.size())) - p));
  for (std::size_t p = 0, e; p <= values.size(); p = e + 1)
    cells.push_back(values.substr(p, (e = std::min(values.find(',', p), values.size())) - p));
  REQUIRE(names.size() == cells.size());
  const auto row = store.results({4, 0});
  REQUIRE(row.size() == names.size() - 2);  // compare's CSV starts with sweep,name
  for (std::size_t i = 0; i < row.size(); ++i) {
    CHECK(row[i].name == names[i + 2]);
    // The store keeps full precision; the CSV rounds to each metric's decimals.
    if (!cells[i + 2].empty() && cells[i + 2] != "inf")
      CHECK(row[i].value == doctest::Approx(std::stod(cells[i + 2])).epsilon(1e-3));
  }
}

TEST_CASE("partsim sweep: three shards merged hold the single process's rows; merge refuses another sweep") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", small_sweep());
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "all.sqlite")).exit_code == 0);
  for (int i = 0; i < 3; ++i) {
    const auto r = run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "shard-%a.sqlite") + " --shard " +
                           std::to_string(i) + "/3");
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("6/6 rows done") != std::string::npos);
    CHECK(partsim::cli::SweepStore::open_existing((dir.path / ("shard-" + std::to_string(i) + ".sqlite")).string(),
                                                  partsim::cli::SweepStore::Access::kRead)
              .meta()
              .shard == std::to_string(i) + "/3");
  }
  // Interleaved: shard 1 of 3 holds rows 1, 4, 7, ... (row = point * 3 + replication).
  const auto done1 = partsim::cli::SweepStore::open_existing((dir.path / "shard-1.sqlite").string(),
                                                             partsim::cli::SweepStore::Access::kRead)
                         .done();
  CHECK(done1.count({0, 1}) == 1);
  CHECK(done1.count({1, 1}) == 1);
  CHECK(done1.count({0, 0}) == 0);

  const auto m = run_cli("merge " + q(dir.path / "shard-0.sqlite") + " " + q(dir.path / "shard-1.sqlite") + " " +
                         q(dir.path / "shard-2.sqlite") + " --out " + q(dir.path / "merged.sqlite"));
  REQUIRE(m.exit_code == 0);
  CHECK(m.err.find("18/18 rows done (shard all)") != std::string::npos);
  CHECK(dump(dir.path / "merged.sqlite") == dump(dir.path / "all.sqlite"));
  CHECK(partsim::cli::SweepStore::open_existing((dir.path / "merged.sqlite").string(),
                                                partsim::cli::SweepStore::Access::kRead)
            .meta()
            .shard == "all");

  // Two of three shards merge into a partial store that says so.
  REQUIRE(run_cli("merge " + q(dir.path / "shard-0.sqlite") + " " + q(dir.path / "shard-2.sqlite") + " --out " +
                  q(dir.path / "part.sqlite"))
              .exit_code == 0);
  CHECK(partsim::cli::SweepStore::open_existing((dir.path / "part.sqlite").string(),
                                                partsim::cli::SweepStore::Access::kRead)
            .meta()
            .shard == "0/3+2/3");
  CHECK(done_rows(dir.path / "part.sqlite") == 12);

  // A store of another sweep is not merged, and the output is not written.
  const auto other = dir.write("o.yaml", small_sweep(3, "[300, 1000]"));
  REQUIRE(run_cli("sweep " + q(other) + " --store " + q(dir.path / "other.sqlite")).exit_code == 0);
  const auto bad = run_cli("merge " + q(dir.path / "shard-0.sqlite") + " " + q(dir.path / "other.sqlite") + " --out " +
                           q(dir.path / "bad.sqlite"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("holds another sweep") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path / "bad.sqlite"));
}

TEST_CASE("sweep store: a reader opens a store whose writer died inside a transaction") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", small_sweep(1));
  const auto store = dir.path / "s.sqlite";
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(store)).exit_code == 0);
  const std::size_t rows = done_rows(store);
  REQUIRE(rows > 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // a writer that dies half-way through deleting every row
    sqlite3* db = nullptr;
    if (sqlite3_open(store.c_str(), &db) != SQLITE_OK) ::_exit(1);
    sqlite3_exec(db, "PRAGMA cache_size=1; BEGIN; DELETE FROM results; DELETE FROM done;", nullptr, nullptr, nullptr);
    ::raise(SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(std::filesystem::file_size(store.string() + "-journal") > 0);  // a hot journal
  CHECK(done_rows(store) == rows);                                       // rolled back, every row there
  const auto status_run = run_cli("status " + q(store));
  CHECK(status_run.exit_code == 0);
}

TEST_CASE("partsim sweep: killed with SIGKILL half-way and resumed, no row is lost or repeated") {
  ScratchDir dir;
  // 60 rows of ~10-30 ms each: long enough to kill it half-way.
  const auto sweep = dir.write("s.yaml", small_sweep(10, "[1000, 3000]", "30000"));
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "whole.sqlite") + " --threads 2").exit_code == 0);
  const auto store = dir.path / "killed.sqlite";
  // One attempt: start the sweep, kill it once 8 rows are in (at_kill: the rows counted
  // then); true when the kill ended it.
  std::size_t at_kill = 0;
  const auto attempt = [&] {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, STDERR_FILENO);
      ::execl(PARTSIM_BINARY, PARTSIM_BINARY, "sweep", sweep.c_str(), "--store", store.c_str(), "--threads", "2",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // The kill must land half-way on any machine, however fast or loaded. The test stops the
    // sweep (SIGSTOP) and reads the count of done rows while it cannot commit another; once 8
    // rows are in, it is killed before it runs again, else let go on (SIGCONT). A stop that
    // lands inside a commit finds the store locked: that read gives up at once (no busy wait)
    // and the next stop tries again. (Waiting on the store's lock instead starves the reader
    // when rows come faster than commits: the writer then holds the lock almost always.)
    sqlite3* gate = nullptr;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int status = 0;
    bool reaped = false;  // it ended on its own while the test looked
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::filesystem::exists(store) && gate == nullptr)
        REQUIRE(sqlite3_open_v2(store.c_str(), &gate, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
      if (gate != nullptr) {
        ::kill(pid, SIGSTOP);
        if (::waitpid(pid, &status, WUNTRACED) == pid && !WIFSTOPPED(status)) {
          reaped = true;  // it ended before the stop
          break;
        }
        sqlite3_stmt* count = nullptr;
        if (sqlite3_prepare_v2(gate, "SELECT count(*) FROM done", -1, &count, nullptr) == SQLITE_OK &&
            sqlite3_step(count) == SQLITE_ROW)
          at_kill = static_cast<std::size_t>(sqlite3_column_int64(count, 0));
        sqlite3_finalize(count);
        if (at_kill >= 8) break;  // still stopped: killed below with no further commit
        ::kill(pid, SIGCONT);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    if (!reaped) {
      ::kill(pid, SIGKILL);  // a stopped process dies of it too
      ::waitpid(pid, &status, 0);
    }
    sqlite3_close(gate);
    return WIFSIGNALED(status);
  };
  // A sweep that ends between two looks (a machine too loaded to give the test a turn for the
  // sweep's last 52 rows) proves nothing: that attempt is made again (at most 3 times).
  bool killed = false;
  std::string attempts;
  for (int i = 0; i < 3 && !killed; ++i) {
    std::filesystem::remove(store);
    std::filesystem::remove(store.string() + "-journal");
    at_kill = 0;
    killed = attempt();
    attempts += " attempt " + std::to_string(i + 1) + ": " + (killed ? "killed" : "ended") + " with " +
                std::to_string(at_kill) + " rows counted;";
  }
  INFO(attempts);
  REQUIRE(killed);  // killed, not finished
  const std::size_t kept = done_rows(store);
  CHECK(kept == at_kill);  // stopped: no row was committed after the count
  CHECK(kept >= 8);
  CHECK(kept < 60);
  const auto resumed = run_cli("sweep " + q(sweep) + " --store " + q(store) + " --threads 1");
  REQUIRE(resumed.exit_code == 0);
  CHECK(resumed.err.find("60/60 rows done (" + std::to_string(60 - kept) + " this time, " + std::to_string(kept) +
                         " before)") != std::string::npos);
  CHECK(dump(store) == dump(dir.path / "whole.sqlite"));
  // Run again: nothing left to do, nothing changes.
  const auto again = run_cli("sweep " + q(sweep) + " --store " + q(store));
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("(0 this time, 60 before)") != std::string::npos);
}

TEST_CASE("partsim sweep refuses a store of another sweep, another partsim version or another shard") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", small_sweep(1));
  const auto store = dir.path / "s.sqlite";
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(store)).exit_code == 0);
  const std::string before = slurp(store);

  const auto other = dir.write("o.yaml", small_sweep(2));
  const auto r1 = run_cli("sweep " + q(other) + " --store " + q(store));
  CHECK(r1.exit_code == 2);
  CHECK(r1.err.find("holds another sweep") != std::string::npos);
  // The base scenario's content is part of the sweep: a changed copy is another sweep.
  const auto copy = dir.write("base.yaml", slurp(base_scenario()) + "# changed\n");
  std::string moved = small_sweep(1);
  moved.replace(moved.find(base_scenario()), base_scenario().size(), copy.string());
  const auto r2 = run_cli("sweep " + q(dir.write("m.yaml", moved)) + " --store " + q(store));
  CHECK(r2.exit_code == 2);
  CHECK(r2.err.find("holds another sweep") != std::string::npos);
  const auto r3 = run_cli("sweep " + q(sweep) + " --store " + q(store) + " --shard 1/2");
  CHECK(r3.exit_code == 2);
  CHECK(r3.err.find("holds shard all of the sweep, this run is shard 1/2") != std::string::npos);
  CHECK(slurp(store) == before);

  sql(store, "UPDATE meta SET value = '0.0.1 (000000000000)' WHERE key = 'partsim_version'");
  const auto r4 = run_cli("sweep " + q(sweep) + " --store " + q(store));
  CHECK(r4.exit_code == 2);
  CHECK(r4.err.find("was made by partsim 0.0.1 (000000000000), this is partsim") != std::string::npos);

  // An empty file is no store yet: it becomes one.
  const auto empty = dir.write("empty.sqlite", "");
  CHECK(run_cli("sweep " + q(sweep) + " --store " + q(empty)).exit_code == 0);
  CHECK(done_rows(empty) == 6);

  const auto junk =
      dir.write("junk.sqlite", "not a database at all, just text that is long enough to be a header........\n");
  const auto r5 = run_cli("sweep " + q(sweep) + " --store " + q(junk));
  CHECK(r5.exit_code == 2);
  CHECK(r5.err.find("not a partsim sweep store") != std::string::npos);
}

TEST_CASE("partsim sweep takes its shard from Slurm's array or Kubernetes' completion index") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", small_sweep(1));
  const auto unsharded = run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "x-%a.sqlite"));
  CHECK(unsharded.exit_code == 2);  // %a without a shard
  CHECK(unsharded.err.find("'%a' stands for the shard index") != std::string::npos);
  const auto s1 = std::system(("SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_MIN=6 SLURM_ARRAY_TASK_COUNT=3 '" +
                               std::string(PARTSIM_BINARY) + "' sweep " + q(sweep) + " --store " +
                               q(dir.path / "slurm-%a.sqlite") + " 2>/dev/null")
                                  .c_str());
  CHECK(s1 == 0);
  CHECK(partsim::cli::SweepStore::open_existing((dir.path / "slurm-1.sqlite").string(),
                                                partsim::cli::SweepStore::Access::kRead)
            .meta()
            .shard == "1/3");
  CHECK(done_rows(dir.path / "slurm-1.sqlite") == 2);  // rows 1 and 4 of 6
  const auto k1 = std::system(("JOB_COMPLETION_INDEX=2 '" + std::string(PARTSIM_BINARY) + "' sweep " + q(sweep) +
                               " --shards 3 --store " + q(dir.path / "k8s-%a.sqlite") + " 2>/dev/null")
                                  .c_str());
  CHECK(k1 == 0);
  CHECK(partsim::cli::SweepStore::open_existing((dir.path / "k8s-2.sqlite").string(),
                                                partsim::cli::SweepStore::Access::kRead)
            .meta()
            .shard == "2/3");
  const auto k2 = run_cli("sweep " + q(sweep) + " --shards 3");
  CHECK(k2.exit_code == 2);
  CHECK(k2.err.find("which shard is this?") != std::string::npos);
  const auto bad = run_cli("sweep " + q(sweep) + " --shard 3/3");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--shard (I)") != std::string::npos);
}

TEST_CASE("partsim sweep --emit writes an sbatch array script and a Kubernetes Indexed Job that parse") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", "name: My_Study\n" + small_sweep(1));
  const auto s =
      run_cli("sweep " + q(sweep) + " --emit slurm --shards 4 --store " + q(dir.path / "stores/shard-%a.sqlite") +
              " --sbatch --partition=debug --out " + q(dir.path / "job.sh"));
  REQUIRE(s.exit_code == 0);
  const std::string script = slurp(dir.path / "job.sh");
  CHECK(script.rfind("#!/bin/bash\n", 0) == 0);
  CHECK(script.find("#SBATCH --array=0-3\n") != std::string::npos);
  CHECK(script.find("#SBATCH --partition=debug\n") != std::string::npos);
  CHECK(script.find("#SBATCH --job-name=partsim-my-study\n") != std::string::npos);
  CHECK(script.find(" sweep '" + sweep.string() +
                    "' --shard \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}/4\" --store '" +
                    (dir.path / "stores/shard-%a.sqlite").string() + "'") != std::string::npos);
  CHECK(std::filesystem::is_directory(dir.path / "stores"));
  // The script's command, run as array task 2 of 4 would run it, writes shard 2's store.
  const auto exec_at = script.find("exec ");
  REQUIRE(exec_at != std::string::npos);
  const std::string command = script.substr(exec_at + 5, script.find('\n', exec_at) - exec_at - 5);
  CHECK(std::system(("export SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4; " + command +
                     " 2>/dev/null")
                        .c_str()) == 0);
  CHECK(partsim::cli::SweepStore::open_existing((dir.path / "stores/shard-2.sqlite").string(),
                                                partsim::cli::SweepStore::Access::kRead)
            .meta()
            .shard == "2/4");
  // A task resubmitted alone (sbatch --array=3: an array of one, MIN 3, COUNT 1) is still shard 3 of 4.
  CHECK(std::system(("export SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=1; " + command +
                     " 2>/dev/null")
                        .c_str()) == 0);
  CHECK(partsim::cli::SweepStore::open_existing((dir.path / "stores/shard-3.sqlite").string(),
                                                partsim::cli::SweepStore::Access::kRead)
            .meta()
            .shard == "3/4");
  // Outside Slurm the script says so instead of running the whole sweep into a shard's store.
  CHECK(std::system(("unset SLURM_ARRAY_TASK_ID; " + command + " 2>/dev/null").c_str()) != 0);

  const auto k =
      run_cli("sweep " + q(sweep) + " --emit k8s --shards 5 --image registry.example/partsim:1 --volume sweep-stores");
  REQUIRE(k.exit_code == 0);
  const YAML::Node job = YAML::Load(k.out);
  CHECK(job["kind"].as<std::string>() == "Job");
  CHECK(job["metadata"]["name"].as<std::string>() == "partsim-my-study");
  CHECK(job["spec"]["completionMode"].as<std::string>() == "Indexed");
  CHECK(job["spec"]["completions"].as<int>() == 5);
  CHECK(job["spec"]["parallelism"].as<int>() == 5);
  const YAML::Node pod = job["spec"]["template"]["spec"];
  const YAML::Node container = pod["containers"][0];
  CHECK(container["image"].as<std::string>() == "registry.example/partsim:1");
  std::vector<std::string> cmd;
  for (const auto& w : container["command"]) cmd.push_back(w.as<std::string>());
  REQUIRE(cmd.size() >= 7);
  CHECK(cmd[1] == "sweep");
  CHECK(cmd[2] == sweep.string());
  CHECK(cmd[4] == "/stores/My_Study-shard-%a.sqlite");
  CHECK(cmd[5] == "--shards");
  CHECK(cmd[6] == "5");
  CHECK(container["volumeMounts"][0]["mountPath"].as<std::string>() == "/stores");
  CHECK(pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as<std::string>() == "sweep-stores");

  // The shipped sweep file loads (every point's scenario is checked before emitting).
  const auto kip = run_cli("sweep '" + std::string(PARTSIM_SOURCE_DIR) +
                           "/scenarios/sweeps/kip794.yaml' --emit k8s --shards 4 --image i --volume v");
  CHECK(kip.exit_code == 0);
  CHECK(YAML::Load(kip.out)["spec"]["completions"].as<int>() == 4);

  const auto no_image = run_cli("sweep " + q(sweep) + " --emit k8s --shards 5 --volume v");
  CHECK(no_image.exit_code == 2);
  CHECK(no_image.err.find("--image") != std::string::npos);
  const auto no_shards = run_cli("sweep " + q(sweep) + " --emit slurm");
  CHECK(no_shards.exit_code == 2);
  CHECK(no_shards.err.find("--shards N") != std::string::npos);
  const auto no_pattern =
      run_cli("sweep " + q(sweep) + " --emit slurm --shards 2 --store " + q(dir.path / "one.sqlite"));
  CHECK(no_pattern.exit_code == 2);
  CHECK(no_pattern.err.find("'%a'") != std::string::npos);
}

TEST_CASE("partsim sweep: points: and sample: (a Latin hypercube, seeded)") {
  ScratchDir dir;
  const std::string head = "scenario: " + base_scenario() + "\nseed: 3\nset: {run.records: 500, run.warmup.ms: 0}\n";
  const auto pts = dir.write(
      "p.yaml",
      head +
          "points:\n  - {workload.arrivals.rate: 1000}\n  - {workload.arrivals.kind: flat-out, workload.arrivals.send.cost.us: 1}\n");
  REQUIRE(run_cli("sweep " + q(pts) + " --store " + q(dir.path / "p.sqlite")).exit_code == 0);
  const auto p =
      partsim::cli::SweepStore::open_existing((dir.path / "p.sqlite").string(), partsim::cli::SweepStore::Access::kRead)
          .points();
  REQUIRE(p.size() == 2);
  CHECK(p[1].params == R"({"workload.arrivals.kind":"flat-out","workload.arrivals.send.cost.us":"1"})");
  CHECK(p[1].partitioner == "scenario");

  const std::string sample = head + "sample:\n  n: 5\n  ranges:\n    workload.arrivals.rate: {min: 1000, max: 2000}\n"
                                    "    linger.ms: {min: 1, max: 100000, scale: log, integer: true}\n";
  const auto sm = dir.write("sm.yaml", sample);
  REQUIRE(run_cli("sweep " + q(sm) + " --store " + q(dir.path / "sm.sqlite")).exit_code == 0);
  const auto s = partsim::cli::SweepStore::open_existing((dir.path / "sm.sqlite").string(),
                                                         partsim::cli::SweepStore::Access::kRead)
                     .points();
  REQUIRE(s.size() == 5);
  std::set<int> rate_strata, linger_strata;
  for (const auto& point : s) {
    const auto j = YAML::Load(point.params);  // JSON is YAML
    const double rate = std::stod(j["workload.arrivals.rate"].as<std::string>());
    const double linger = std::stod(j["linger.ms"].as<std::string>());
    CHECK(rate >= 1000);
    CHECK(rate <= 2000);
    rate_strata.insert(static_cast<int>((rate - 1000) / 200));
    linger_strata.insert(static_cast<int>(std::log10(linger)));              // decades: 5 strata of [1, 1e5]
    CHECK(j["linger.ms"].as<std::string>().find('.') == std::string::npos);  // integer: true
  }
  CHECK(rate_strata == std::set<int>{0, 1, 2, 3, 4});
  CHECK(linger_strata == std::set<int>{0, 1, 2, 3, 4});
  // The same sample again: the same store (seeded), so it resumes instead of refusing.
  const auto again = run_cli("sweep " + q(sm) + " --store " + q(dir.path / "sm.sqlite"));
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("(0 this time, 5 before)") != std::string::npos);
}

TEST_CASE("partsim sweep: errors in the sweep file name file:line:col") {
  ScratchDir dir;
  const auto check = [&](const std::string& body, const std::string& where, const std::string& what) {
    const auto f = dir.write("bad.yaml", body);
    const auto r = run_cli("sweep " + q(f) + " --store " + q(dir.path / "bad.sqlite"));
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find(f.string() + ":" + where) != std::string::npos, r.err);
    CHECK_MESSAGE(r.err.find(what) != std::string::npos, r.err);
    CHECK_FALSE(std::filesystem::exists(dir.path / "bad.sqlite"));
  };
  const std::string s = "scenario: " + base_scenario() + "\n";
  check(s + "replicatons: 3\ngrid: {linger.ms: [0]}\n", "2:1", "unknown key (did you mean 'replications'?)");
  check(s + "grid:\n  workload.arrivals.rat: [1, 2]\n", "3:3", "workload.arrivals.rat");
  check(s + "grid:\n  workload.arrivals.rate: [100, fast]\n", "3:33",
        "point 1 (scenario @ workload.arrivals.rate=fast) does not load");
  check(s + "grid:\n  linger.ms: 5\n", "3:14", "must be a non-empty list");
  check(s + "grid: {linger.ms: [0]}\npoints: [{linger.ms: 1}]\n", "", "exactly one of grid, points or sample");
  check(s + "partitioners: [builtin, nosuch]\ngrid: {linger.ms: [0]}\n", "2:25", "must be a partitioner");
  check(s + "grid: {linger.ms: [0]\n", "3:1", "invalid YAML");
  check("scenario: nowhere.yaml\ngrid: {linger.ms: [0]}\n", "1:11", "cannot read the base scenario");
  check(s + "sample: {n: 3, ranges: {linger.ms: {min: 5, max: 1}}}\n", "2:", "min must be below max");
  check(s + "replications: 0\ngrid: {linger.ms: [0]}\n", "2:15", "replications");
}

TEST_CASE(
    "partsim sweep: a sweep streams to its store: its estimate is one run at a time per thread and the points it holds") {
  ScratchDir dir;
  // 1,000 points of a 10,000-partition topic: as compared results kept side by side they
  // would be 10 GB; a sweep writes each row to its store and keeps nothing of it.
  std::string rates;
  for (int i = 0; i < 1000; ++i) rates += (i ? ", " : "") + std::to_string(100 + i);
  const auto big = dir.write("big.yaml", "scenario: " + base_scenario() +
                                             "\nset: {topics.*.partitions: 10000, run.records: 1000}\n"
                                             "grid:\n  workload.arrivals.rate: [" +
                                             rates + "]\n");
  // Checking the points shows its progress, in a log too (there a line every
  // PARTSIM_PROGRESS_SECONDS, default 5 s; 0: a line a point).
  ::setenv("PARTSIM_PROGRESS_SECONDS", "0", 1);
  const auto r = run_cli("sweep " + q(big) + " --emit k8s --shards 2 --image i --volume v");
  ::unsetenv("PARTSIM_PROGRESS_SECONDS");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK_MESSAGE(r.err.find("partsim sweep big: checking 1000 points 1000/1000") != std::string::npos,
                r.err.substr(0, 2000));

  // What does not fit is refused naming the sweep file and the point, with the sweep's own
  // remedy: 32 runs at once of a million partitions.
  const auto huge = dir.write("huge.yaml", "scenario: " + base_scenario() +
                                               "\nreplications: 32\nset:\n  topics.*.partitions: 1000000\n"
                                               "grid:\n  workload.arrivals.rate: [100, 200]\n");
  const auto h = run_cli("sweep " + q(huge) + " --threads 32 --store " + q(dir.path / "huge.sqlite"));
  CHECK(h.exit_code == 2);
  CHECK_MESSAGE(h.err.find(huge.string() +
                           ":6:28: point 0 (scenario @ workload.arrivals.rate=100): refused: estimated") !=
                    std::string::npos,
                h.err);
  CHECK_MESSAGE(h.err.find("1e+06 partitions x 32 runs at once") != std::string::npos, h.err);
  CHECK_MESSAGE(h.err.find("lower --threads, or pass --allow-large") != std::string::npos, h.err);
  CHECK_FALSE(std::filesystem::exists(dir.path / "huge.sqlite"));
}

TEST_CASE(
    "partsim sweep: a store's missing folder is made; two sweeps on one store: the second is refused naming the first's pid") {
  ScratchDir dir;
  const auto sweep = dir.write("s.yaml", small_sweep(1));
  const auto made =
      run_cli("sweep " + q(sweep) + " --shard 1/2 --store " + q(dir.path / "stores/deeper/shard-%a.sqlite"));
  CHECK_MESSAGE(made.exit_code == 0, made.err);
  CHECK(done_rows(dir.path / "stores/deeper/shard-1.sqlite") == 3);
  // A folder that cannot be made is named.
  dir.write("file", "not a folder");
  const auto blocked = run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "file/s.sqlite"));
  CHECK(blocked.exit_code == 2);
  CHECK_MESSAGE(blocked.err.find("--store: cannot create the folder '" + (dir.path / "file").string() + "'") !=
                    std::string::npos,
                blocked.err);

  // A sweep of 60 rows, stopped (SIGSTOP) once its store exists: a second sweep on the
  // store is refused at once, naming the first; the first then finishes alone.
  const auto slow = dir.write("slow.yaml", small_sweep(10, "[1000, 3000]", "30000"));
  const auto store = dir.path / "one.sqlite";
  const pid_t first = ::fork();
  REQUIRE(first >= 0);
  if (first == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDERR_FILENO);
    ::execl(PARTSIM_BINARY, PARTSIM_BINARY, "sweep", slow.c_str(), "--store", store.c_str(), "--threads", "1",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(store) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ::kill(first, SIGSTOP);
  const auto second = run_cli("sweep " + q(slow) + " --store " + q(store) + " --threads 1");
  // Nor does merge replace it (--out is written whole, by a rename over the sweep's file).
  const auto other = dir.path / "other.sqlite";
  REQUIRE(run_cli("sweep " + q(dir.write("tiny.yaml", small_sweep(1, "[300]", "300"))) + " --store " + q(other))
              .exit_code == 0);
  const auto merged = run_cli("merge " + q(other) + " --out " + q(store));
  ::kill(first, SIGCONT);
  int status = 0;
  REQUIRE(::waitpid(first, &status, 0) == first);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(second.exit_code == 2);
  CHECK_MESSAGE(second.err.find("store " + store.string() + " is being written by another partsim (pid " +
                                std::to_string(first)) != std::string::npos,
                second.err);
  CHECK(second.err.find("UNIQUE") == std::string::npos);
  CHECK(merged.exit_code == 2);
  CHECK_MESSAGE(merged.err.find("is being written by another partsim (pid " + std::to_string(first)) !=
                    std::string::npos,
                merged.err);
  CHECK(second.err.find("or give another --store") != std::string::npos);
  CHECK(merged.err.find("or give another --out") != std::string::npos);  // merge names its own option
  CHECK(second.err.find("readonly") == std::string::npos);
  CHECK(done_rows(store) == 60);
  // The lock goes with its holder: the store is free again.
  CHECK_FALSE(std::filesystem::exists(store.string() + ".lock"));
  const auto again = run_cli("sweep " + q(slow) + " --store " + q(store));
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("(0 this time, 60 before)") != std::string::npos);
}

TEST_CASE(
    "partsim sweep: an empty list, a repeated grid value or point, and a set: that does not load are one located error each") {
  ScratchDir dir;
  const auto errors = [&](const std::string& body) {
    const auto f = dir.write("bad.yaml", body);
    const auto r = run_cli("sweep " + q(f) + " --store " + q(dir.path / "bad.sqlite"));
    CHECK(r.exit_code == 2);
    CHECK_FALSE(std::filesystem::exists(dir.path / "bad.sqlite"));
    std::vector<std::string> lines;
    for (std::size_t at = 0, end; at < r.err.size(); at = end + 1)
      lines.push_back(r.err.substr(at, (end = r.err.find('\n', at)) - at));
    for (auto& l : lines) {
      if (l.rfind("partsim sweep: " + f.string() + ":", 0) == 0)
        l = l.substr(std::string("partsim sweep: ").size() + f.string().size());
    }
    return lines;
  };
  const std::string s = "scenario: " + base_scenario() + "\n";
  CHECK(errors(s + "grid:\n  linger.ms: []\n") ==
        std::vector<std::string>{
            ":3:14: grid.linger.ms: must be a non-empty list of values ([100, 1000]), got an empty list"});
  CHECK(errors(s + "grid:\n  linger.ms: [0, 5, 0]\n") ==
        std::vector<std::string>{
            ":3:21: grid.linger.ms: 0 is listed twice (first at 3:15): the same point would run twice"});
  CHECK(errors(s + "grid:\n  workload.arrivals.rate: [1000, 300, 1e3]\n") ==
        std::vector<std::string>{
            ":3:39: grid.workload.arrivals.rate: 1e3 is listed twice (first at 3:28): the same point would run twice"});
  CHECK(
      errors(
          s +
          "points:\n  - {linger.ms: 5, batch.size: 100}\n  - {linger.ms: 1}\n  - {batch.size: 100, linger.ms: 5}\n") ==
      std::vector<std::string>{":5:5: points.2: is the same point as points.0 (3:5): it would run twice"});
  // A value of set: that the scenario refuses: one error, at set:'s line (every point has
  // it), not a second one from a check that read the value's default instead.
  const std::string theory = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/theory/poisson-batching.yaml";
  const auto one = errors("scenario: " + theory + "\nset:\n  topics.*.partitions: 1e9\ngrid:\n  linger.ms: [0, 5]\n");
  REQUIRE(one.size() == 1);
  CHECK_MESSAGE(
      one[0].rfind(
          ":3:24: set.topics.*.partitions: --set topics.*.partitions=1e9: topics.0.partitions: must be an integer",
          0) == 0,
      one[0]);
}
