#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {
const auto& scenario = partsim::testing::scenario_arg;
}  // namespace

TEST_CASE("partsim compare prints the partitioners side by side") {
  const auto r = run_cli("compare " + scenario("round-robin/new-batch-per-record.yaml") + " --partitioners round-robin,round-robin-fixed");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("metric", 0) == 0);
  CHECK(r.out.find("round-robin-fixed") != std::string::npos);
  const auto line_start = r.out.find("\ndistribution.max_over_min ");
  REQUIRE(line_start != std::string::npos);
  const auto line = r.out.substr(line_start, r.out.find('\n', line_start) - line_start);
  CHECK(line.find("inf") != std::string::npos);  // round-robin leaves partitions idle
  CHECK(line.find("1.000") != std::string::npos);
}

TEST_CASE("partsim compare json holds runs with the run fields; csv one row per run and sweep value") {
  const auto j = run_cli("compare " + scenario("book/keyed.yaml") + " --variant a:linger.ms=0 --variant b:linger.ms=7 --format json");
  CHECK(j.exit_code == 0);
  CHECK(j.out.find("\"runs\": [") != std::string::npos);
  CHECK(j.out.find("\"name\": \"b\"") != std::string::npos);
  CHECK(j.out.find("\"records_acked\": 300") != std::string::npos);
  ScratchDir dir;
  const auto c = run_cli("compare " + scenario("kip794/slow-broker.yaml") +
                         " --partitioners builtin,sticky-kip480 --sweep workload.arrivals.rate=300,3000 --set run.records=3000"
                         " --format csv --out '" + dir.path.string() + "'");
  CHECK(c.exit_code == 0);
  CHECK(c.out.rfind("sweep,name,records_sent,records_acked,records_failed,records_measured,", 0) == 0);
  CHECK(c.out.find("\n300,builtin,") != std::string::npos);
  CHECK(c.out.find("\n3000,sticky-kip480,") != std::string::npos);
  CHECK(slurp(dir.path / "compare.csv") == c.out);
  CHECK(slurp(dir.path / "compare.json").find("\"sweep\": \"producers.*.workload.arrivals.rate\"") != std::string::npos);
  // As a table: one block per sweep value, one column per partitioner.
  const auto t = run_cli("compare " + scenario("kip794/slow-broker.yaml") +
                         " --partitioners builtin,sticky-kip480 --sweep workload.arrivals.rate=300,3000 --set run.records=3000");
  CHECK(t.exit_code == 0);
  const auto first = t.out.find("producers.*.workload.arrivals.rate = 300\nmetric "), second = t.out.find("\nproducers.*.workload.arrivals.rate = 3000\nmetric ");
  CHECK(first == 0);
  CHECK(second != std::string::npos);
  CHECK(t.out.find("sticky-kip480", first) < second);
}

TEST_CASE("bad compare input exits 2 naming the option") {
  auto r = run_cli("compare " + scenario("book/keyed.yaml") + " --partitioners builtin,nope");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--partitioners: unknown partitioner 'nope' (known: builtin, round-robin,") != std::string::npos);
  r = run_cli("compare " + scenario("book/keyed.yaml"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("nothing to compare") != std::string::npos);
  r = run_cli("compare " + scenario("book/keyed.yaml") + " --variant broken");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--variant: must be NAME:KEY=VALUE") != std::string::npos);
  r = run_cli("compare " + scenario("book/keyed.yaml") + " --variant v:lingr.ms=3");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown key 'lingr.ms' under producers.0.config (did you mean 'linger.ms'?)") != std::string::npos);
}
