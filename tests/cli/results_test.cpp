// Replications, output files, manifests, charts and the theory check, end to end.

#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {
const auto& scenario = partsim::testing::scenario_arg;
}  // namespace

TEST_CASE("replications give the same bytes on 1 and 2 threads") {
  const auto one = run_cli("run " + scenario("book/null-key-sticky.yaml") + " --replications 16 --threads 1 --format json");
  const auto two = run_cli("run " + scenario("book/null-key-sticky.yaml") + " --replications 16 --threads 2 --format json");
  CHECK(one.exit_code == 0);
  CHECK(one.out == two.out);
  CHECK(one.out.find("\"replications\": 16") != std::string::npos);
  CHECK(one.out.find("\"ci95_low\"") != std::string::npos);
  const auto c1 = run_cli("compare " + scenario("slow-broker.yaml") + " --partitioners builtin,sticky-kip480 --set run.duration.ms=2000 "
                          "--replications 4 --threads 1 --format csv");
  const auto c2 = run_cli("compare " + scenario("slow-broker.yaml") + " --partitioners builtin,sticky-kip480 --set run.duration.ms=2000 "
                          "--replications 4 --threads 2 --format csv");
  CHECK(c1.exit_code == 0);
  CHECK(c1.out == c2.out);
}

TEST_CASE("--out writes every file, and the manifest's resolved scenario re-runs byte for byte") {
  ScratchDir dir;
  const std::string out = (dir.path / "first").string();
  const auto r = run_cli("run " + scenario("slow-broker.yaml") + " --set run.duration.ms=2000 --seed 9 --timeseries 100 --out '" + out + "'");
  REQUIRE(r.exit_code == 0);
  for (const char* f : {"summary.json", "partitions.csv", "batches.csv", "timeseries.csv", "manifest.json", "scenario.resolved.yaml"})
    CHECK(!slurp(dir.path / "first" / f).empty());
  CHECK(slurp(dir.path / "first" / "batches.csv").rfind("topic,partition,broker,records,bytes,created_ms,sent_ms,done_ms,outcome\n", 0) == 0);
  CHECK(slurp(dir.path / "first" / "timeseries.csv").rfind("time_ms,buffer_bytes,pevents.0_queue", 0) == 0);
  const auto manifest = slurp(dir.path / "first" / "manifest.json");
  CHECK(manifest.find("\"seed\": 9") != std::string::npos);
  CHECK(manifest.find("\"scenario_sha1\": \"") != std::string::npos);
  const std::string again = (dir.path / "again").string();
  CHECK(manifest.find("scenario.resolved.yaml --seed 9 --timeseries 100") != std::string::npos);
  const auto rerun = run_cli("run '" + out + "/scenario.resolved.yaml' --seed 9 --timeseries 100 --out '" + again + "'");
  REQUIRE(rerun.exit_code == 0);
  CHECK(slurp(dir.path / "again" / "summary.json") == slurp(dir.path / "first" / "summary.json"));
  CHECK(slurp(dir.path / "again" / "batches.csv") == slurp(dir.path / "first" / "batches.csv"));
}

TEST_CASE("--plot draws PNG charts") {
  ScratchDir dir;
  const auto r = run_cli("run " + scenario("book/null-key-sticky.yaml") + " --plot '" + dir.path.string() + "'");
  REQUIRE(r.exit_code == 0);
  for (const char* f : {"records-per-partition.png", "partition-choices.png", "broker-queues.png", "latency-cdf.png", "batch-sizes.png"}) {
    CAPTURE(f);
    CHECK(slurp(dir.path / f).substr(0, 8) == "\x89PNG\r\n\x1a\n");
  }
}

TEST_CASE("the Poisson batching check fits its closed form") {
  const auto r = run_cli("run " + scenario("theory/poisson-batching.yaml") + " --format json");
  REQUIRE(r.exit_code == 0);
  const auto at = r.out.find("\"p_value\": ", r.out.find("\"theory\""));
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(r.out.substr(at + 11, 12)) > 0.05);
  const auto bad = run_cli("run " + scenario("slow-broker.yaml") + " --set run.check=poisson-batching");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("poisson-batching needs one producer") != std::string::npos);
}
