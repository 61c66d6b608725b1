// partsim status: a sweep's progress across its shards' stores.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <sqlite3.h>

#include "cli/cli_runner.hpp"

using partsim::testing::q;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;

namespace {

// 2 rates x 2 partitioners x 3 replications: 12 rows.
std::string two_by_two_sweep() {
  return "name: st\nscenario: " + std::string(PARTSIM_SOURCE_DIR) +
         "/scenarios/kip794/slow-broker.yaml\nseed: 3\nreplications: 3\n"
         "set:\n  run.records: 1000\n  run.warmup.ms: 0\npartitioners: [builtin, sticky-kip480]\n"
         "grid:\n  workload.arrivals.rate: [3000, 300]\n";
}

}  // namespace

TEST_CASE("partsim status: rows done of the total across the shards given, per shard, and the shards missing") {
  ScratchDir dir;
  const auto sweep = dir.write("st.yaml", two_by_two_sweep());
  const auto s0 = dir.path / "s0.sqlite", s1 = dir.path / "s1.sqlite";
  REQUIRE(run_cli("sweep " + q(sweep) + " --shard 0/2 --store " + q(s0)).exit_code == 0);

  const auto one = run_cli("status " + q(s0));
  CHECK(one.exit_code == 0);
  CHECK(one.out == "sweep 'st': 6/12 rows done (50.0%) in 1 store [0/2 6/6]; no store given for shard 1/2\n");
  // --every stops at once when every store given is complete, and says what is left.
  const auto watch = run_cli("status " + q(s0) + " --every 1");
  CHECK(watch.exit_code == 0);
  CHECK(watch.out.find("the 6 rows left belong to shards with no store given") != std::string::npos);

  REQUIRE(run_cli("sweep " + q(sweep) + " --shard 1/2 --store " + q(s1)).exit_code == 0);
  // Shard 1 lost two rows (as after a crash): 4 of its 6.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(s1.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "DELETE FROM done WHERE point = 3; DELETE FROM results WHERE point = 3", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(db);
  const auto both = run_cli("status " + q(s0) + " " + q(s1));
  CHECK(both.exit_code == 0);
  CHECK(both.out == "sweep 'st': 10/12 rows done (83.3%) in 2 stores [0/2 6/6, 1/2 4/6]\n");
  REQUIRE(run_cli("sweep " + q(sweep) + " --shard 1/2 --store " + q(s1)).exit_code == 0);  // resumed
  const auto all = run_cli("status " + q(s0) + " " + q(s1) + " --every 1");
  CHECK(all.exit_code == 0);
  CHECK(all.out == "sweep 'st': 12/12 rows done (100.0%) in 2 stores [0/2 6/6, 1/2 6/6]\n");
}

TEST_CASE("partsim status: a merged store counts for every shard it holds") {
  ScratchDir dir;
  const auto sweep = dir.write("st.yaml", two_by_two_sweep());
  for (int i = 0; i < 2; ++i)
    REQUIRE(run_cli("sweep " + q(sweep) + " --shard " + std::to_string(i) + "/3 --store " +
                    q(dir.path / ("s" + std::to_string(i) + ".sqlite")))
                .exit_code == 0);
  const auto merged = dir.path / "m01.sqlite";
  REQUIRE(run_cli("merge " + q(dir.path / "s0.sqlite") + " " + q(dir.path / "s1.sqlite") + " --out " + q(merged))
              .exit_code == 0);
  const auto watch = run_cli("status " + q(merged) + " --every 1");  // complete: it stops at once
  CHECK(watch.exit_code == 0);
  CHECK(watch.out ==
        "sweep 'st': 8/12 rows done (66.7%) in 1 store [0/3+1/3 8/8]; no store given for shard 2/3\n"
        "every store given holds all its shard's rows; the 4 rows left belong to shards with no store given\n");
  const auto with_shard = run_cli("status " + q(merged) + " " + q(dir.path / "s0.sqlite"));
  CHECK(with_shard.out ==
        "sweep 'st': 8/12 rows done (66.7%) in 2 stores [0/3+1/3 8/8, 0/3 4/4]; no store given for shard 2/3\n");
}

TEST_CASE("the sweep commands run without their files say what to give, prefixed once with the command") {
  for (const std::string command : {"sweep", "status", "merge", "report"}) {
    CAPTURE(command);
    const auto r = run_cli(command);
    CHECK(r.exit_code == 2);
    CHECK(r.err.rfind("partsim " + command + ": give the ", 0) == 0);
    CHECK(r.err.find("partsim " + command + ": partsim") == std::string::npos);
  }
}

TEST_CASE("partsim status: errors name the option") {
  const auto none = run_cli("status");
  CHECK(none.exit_code == 2);
  CHECK(none.err == "partsim status: give the sweep's stores: partsim status stores/shard-*.sqlite\n");
  ScratchDir dir;
  const auto s = dir.path / "s.sqlite";
  REQUIRE(run_cli("sweep " + q(dir.write("st.yaml", two_by_two_sweep())) + " --store " + q(s)).exit_code == 0);
  const auto zero = run_cli("status " + q(s) + " --every 0");
  CHECK(zero.exit_code == 2);
  CHECK(zero.err.find("--every") != std::string::npos);
  const auto missing = run_cli("status " + q(dir.path / "none.sqlite"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("none.sqlite: no such file") != std::string::npos);
}
