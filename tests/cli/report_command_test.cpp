// partsim report, end to end: a small sweep's store -> summary.csv (checked against the
// store's own rows, read with SQLite), the charts, report.html; shards read together;
// the errors.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "cli/cli_runner.hpp"

using partsim::testing::q;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {

// 2 rates x 2 partitioners x 3 replications.
std::string sweep_file(int seed = 3) {
  return "name: r\nscenario: " + std::string(PARTSIM_SOURCE_DIR) +
         "/scenarios/kip794/slow-broker.yaml\nseed: " + std::to_string(seed) +
         "\nreplications: 3\n"
         "set:\n  run.records: 2000\n  run.warmup.ms: 0\npartitioners: [builtin, sticky-kip480]\n"
         "grid:\n  workload.arrivals.rate: [3000, 300]\n";
}

// A metric's values at one point, straight from the store.
std::vector<double> stored_values(const std::filesystem::path& store, int point, const std::string& metric) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(store.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT value FROM results WHERE point = ? AND metric = ? ORDER BY replication", -1,
                             &st, nullptr) == SQLITE_OK);
  sqlite3_bind_int(st, 1, point);
  sqlite3_bind_text(st, 2, metric.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<double> out;
  while (sqlite3_step(st) == SQLITE_ROW) out.push_back(sqlite3_column_double(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

// The summary.csv line of `point` and `metric`, split at commas.
std::vector<std::string> csv_row(const std::string& csv, int point, const std::string& metric) {
  std::size_t pos = 0;
  while (pos < csv.size()) {
    const std::size_t end = csv.find('\n', pos);
    const std::string line = csv.substr(pos, end - pos);
    pos = end + 1;
    std::vector<std::string> cells;
    std::size_t a = 0;
    for (std::size_t b; (b = line.find(',', a)) != std::string::npos; a = b + 1) cells.push_back(line.substr(a, b - a));
    cells.push_back(line.substr(a));
    if (cells.size() > 3 && cells[0] == std::to_string(point) && cells[3] == metric) return cells;
  }
  return {};
}

}  // namespace

TEST_CASE(
    "partsim report: summary.csv holds each point's mean of the store's values; charts and a page with them inline") {
  ScratchDir dir;
  const auto sweep = dir.write("r.yaml", sweep_file());
  const auto store = dir.path / "r.sqlite";
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(store)).exit_code == 0);
  const auto out = dir.path / "rep";
  const auto r = run_cli("report " + q(store) + " --out " + q(out));
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("12/12 rows done") != std::string::npos);

  const std::string csv = slurp(out / "summary.csv");
  CHECK(csv.rfind("point,arm,workload.arrivals.rate,metric,n,mean,ci95_low,ci95_high,min,max\n", 0) == 0);
  // Point 1 is sticky-kip480 at 3,000/s (points list rates, then partitioners): its share
  // on the slow broker, averaged here from the store's three rows.
  for (const std::string metric : {"broker.2.records_share", "latency.p99_ms", "records_acked"}) {
    const auto values = stored_values(store, 1, metric);
    REQUIRE(values.size() == 3);
    const double mean = (values[0] + values[1] + values[2]) / 3;
    const auto row = csv_row(csv, 1, metric);
    REQUIRE(row.size() == 10);
    CHECK(row[1] == "sticky-kip480");
    CHECK(row[2] == "3000");
    CHECK(row[4] == "3");
    CHECK(std::stod(row[5]) == doctest::Approx(mean).epsilon(1e-12));
    CHECK(std::stod(row[6]) <= std::stod(row[5]));
    CHECK(std::stod(row[7]) >= std::stod(row[5]));
  }

  // A chart per metric that has a value, with its script and data to redraw it.
  CHECK(std::filesystem::exists(out / "charts" / "broker.2.records_share.svg"));
  CHECK(std::filesystem::exists(out / "charts" / "broker.2.records_share.gp"));
  CHECK(std::filesystem::exists(out / "charts" / "broker.2.records_share.dat"));
  const std::string gp = slurp(out / "charts" / "broker.2.records_share.gp");
  CHECK(gp.find("set output 'broker.2.records_share.svg'") != std::string::npos);
  CHECK(gp.find("datafile = 'broker.2.records_share.dat'") != std::string::npos);
  std::size_t charts = 0;
  for (const auto& e : std::filesystem::directory_iterator(out / "charts")) charts += e.path().extension() == ".svg";
  const std::string html = slurp(out / "report.html");
  std::size_t inline_svgs = 0;
  for (std::size_t p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1)) ++inline_svgs;
  CHECK(charts > 20);
  CHECK(inline_svgs == charts);
  // The interval is the Student t one over the three values (t(0.975, 2) = 4.302652729749464).
  {
    const auto values = stored_values(store, 1, "latency.p99_ms");
    const double mean = (values[0] + values[1] + values[2]) / 3;
    double ss = 0;
    for (double v : values) ss += (v - mean) * (v - mean);
    const double half = 4.302652729749464 * std::sqrt(ss / 2) / std::sqrt(3.0);
    const auto row = csv_row(csv, 1, "latency.p99_ms");
    REQUIRE(row.size() == 10);
    CHECK(std::stod(row[6]) == doctest::Approx(mean - half).epsilon(1e-9));
    CHECK(std::stod(row[7]) == doctest::Approx(mean + half).epsilon(1e-9));
  }
  CHECK(html.find("12 of 12") != std::string::npos);
  CHECK(html.find("<th>sticky-kip480</th>") != std::string::npos);

  // Asked for two metrics: the others' charts of the earlier report go, a file of the
  // user's in charts/ stays, and nothing is left of the scratch folder.
  dir.write("rep/charts/mine.svg", "<svg/>");
  REQUIRE(run_cli("report " + q(store) + " --out " + q(out) +
                  " --metrics ' latency.p99_ms, records_acked,latency.p99_ms'")
              .exit_code == 0);
  charts = 0;
  for (const auto& e : std::filesystem::directory_iterator(out / "charts")) charts += e.path().extension() == ".svg";
  CHECK(charts == 3);
  CHECK(std::filesystem::exists(out / "charts" / "mine.svg"));
  CHECK(std::filesystem::exists(out / "charts" / "records_acked.svg"));
  CHECK_FALSE(std::filesystem::exists(out / "charts" / "broker.2.records_share.svg"));
  for (const auto& e : std::filesystem::directory_iterator(out))
    CHECK(e.path().filename().string().rfind(".partsim-report", 0) != 0);
}

TEST_CASE("partsim report reads the shards of a sweep together, finished or not") {
  ScratchDir dir;
  const auto sweep = dir.write("r.yaml", sweep_file());
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(dir.path / "all.sqlite")).exit_code == 0);
  REQUIRE(run_cli("sweep " + q(sweep) + " --shard 0/2 --store " + q(dir.path / "s0.sqlite")).exit_code == 0);
  // One shard: half the rows, said on the page.
  const auto half = run_cli("report " + q(dir.path / "s0.sqlite") + " --out " + q(dir.path / "half"));
  REQUIRE(half.exit_code == 0);
  CHECK(half.err.find("6/12 rows done") != std::string::npos);
  CHECK(slurp(dir.path / "half" / "report.html").find("incomplete") != std::string::npos);
  // Both shards: the same summary as the one-process store.
  REQUIRE(run_cli("sweep " + q(sweep) + " --shard 1/2 --store " + q(dir.path / "s1.sqlite")).exit_code == 0);
  REQUIRE(run_cli("report " + q(dir.path / "s0.sqlite") + " " + q(dir.path / "s1.sqlite") + " --out " +
                  q(dir.path / "both"))
              .exit_code == 0);
  REQUIRE(run_cli("report " + q(dir.path / "all.sqlite") + " --out " + q(dir.path / "one")).exit_code == 0);
  CHECK(slurp(dir.path / "both" / "summary.csv") == slurp(dir.path / "one" / "summary.csv"));
}

TEST_CASE("partsim report: errors name the option or the store, and write nothing") {
  ScratchDir dir;
  const auto store = dir.path / "r.sqlite";
  REQUIRE(run_cli("sweep " + q(dir.write("r.yaml", sweep_file())) + " --store " + q(store)).exit_code == 0);
  const auto out = dir.path / "rep";

  const auto no_out = run_cli("report " + q(store));
  CHECK(no_out.exit_code == 2);
  CHECK(no_out.err.find("--out: required") != std::string::npos);
  const auto bad_x = run_cli("report " + q(store) + " --out " + q(out) + " --x workload.rate");
  CHECK(bad_x.exit_code == 2);
  CHECK(
      bad_x.err.find("--x: 'workload.rate' is not swept in this store; the axis can be: arm, workload.arrivals.rate") !=
      std::string::npos);
  const auto bad_metric = run_cli("report " + q(store) + " --out " + q(out) + " --metrics latency.p99");
  CHECK(bad_metric.exit_code == 2);
  CHECK(bad_metric.err.find("--metrics: the store has no metric 'latency.p99'; it has: records_sent,") !=
        std::string::npos);
  const auto missing = run_cli("report " + q(dir.path / "none.sqlite") + " --out " + q(out));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("none.sqlite: no such file") != std::string::npos);
  const auto not_store =
      run_cli("report " + q(dir.write("x.sqlite", "not a database, just text\n")) + " --out " + q(out));
  CHECK(not_store.exit_code == 2);
  CHECK(not_store.err.find("not a partsim sweep store") != std::string::npos);
  REQUIRE(run_cli("sweep " + q(dir.write("o.yaml", sweep_file(4))) + " --store " + q(dir.path / "o.sqlite"))
              .exit_code == 0);
  const auto mixed = run_cli("report " + q(store) + " " + q(dir.path / "o.sqlite") + " --out " + q(out));
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("holds another sweep") != std::string::npos);
  CHECK(mixed.err.find("not reported together") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto file_out = run_cli("report " + q(store) + " --out " + q(dir.write("f", "x")));
  CHECK(file_out.exit_code == 2);
  CHECK(file_out.err.find("exists and is not a folder") != std::string::npos);
  const auto under_file = run_cli("report " + q(store) + " --out " + q(dir.path / "f" / "sub"));
  CHECK(under_file.exit_code == 2);
  CHECK(under_file.err.find("--out: cannot create") != std::string::npos);
  // A name that the shell would run, as --out: only a folder of that name is made.
  const auto odd =
      run_cli("report " + q(store) + " --out " + q(dir.path / "o$(touch PWNED)") + " --metrics latency.p99_ms");
  CHECK(odd.exit_code == 0);
  CHECK(std::filesystem::exists(dir.path / "o$(touch PWNED)" / "report.html"));
  CHECK_FALSE(std::filesystem::exists("PWNED"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "PWNED"));
}

TEST_CASE("partsim report shows its progress on stderr also in a log (not a terminal)") {
  ScratchDir dir;
  const auto sweep = dir.write("r.yaml", sweep_file());
  const auto store = dir.path / "r.sqlite";
  REQUIRE(run_cli("sweep " + q(sweep) + " --store " + q(store)).exit_code == 0);
  // A line every PARTSIM_PROGRESS_SECONDS (default 5 s; 0: every step) when stderr is a file.
  ::setenv("PARTSIM_PROGRESS_SECONDS", "0", 1);
  const auto r = run_cli("report " + q(store) + " --out " + q(dir.path / "rep"));
  ::unsetenv("PARTSIM_PROGRESS_SECONDS");
  REQUIRE(r.exit_code == 0);
  CHECK_MESSAGE(r.err.find("partsim report: rows read 12/12") != std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find("partsim report: charts drawn 1/") != std::string::npos, r.err);
  CHECK(r.err.find('\r') == std::string::npos);  // lines, not a line redrawn in place
  // The default interval: a report this small writes its last line only.
  const auto quiet = run_cli("report " + q(store) + " --out " + q(dir.path / "rep"));
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.err.find("rows read") == std::string::npos);
}
