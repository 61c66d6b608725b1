#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {
const auto& scenario = partsim::testing::scenario_arg;
}  // namespace

TEST_CASE("partsim run prints per-partition and per-broker tables and the trace") {
  const auto r = run_cli("run " + scenario("book/low-cardinality.yaml"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("first 10 partitions: 4 2 5 0 1 4 2 5 0 1") != std::string::npos);
  CHECK(r.out.find("records sent 300, acked 300, failed 0") != std::string::npos);
}

TEST_CASE("partsim run --format json has the documented fields and is byte-identical for one seed") {
  const auto a = run_cli("run " + scenario("slow-broker.yaml") + " --set run.duration.ms=2000 --format json --seed 5");
  const auto b = run_cli("run " + scenario("slow-broker.yaml") + " --set run.duration.ms=2000 --format json --seed 5");
  CHECK(a.exit_code == 0);
  CHECK(a.out == b.out);
  for (const char* field : {"\"records_sent\"", "\"records_acked\"", "\"records_failed\"", "\"partitions\"", "\"leader\"",
                            "\"brokers\"", "\"requests\"", "\"latency_ms\"", "\"p999\"", "\"trace\""})
    CHECK(a.out.find(field) != std::string::npos);
  const auto c = run_cli("run " + scenario("slow-broker.yaml") + " --set run.duration.ms=2000 --format json --seed 6");
  CHECK(c.out != a.out);
}

TEST_CASE("partsim run --out writes summary.json and partitions.csv") {
  ScratchDir dir;
  const auto r = run_cli("run " + scenario("book/keyed.yaml") + " --format csv --out '" + dir.path.string() + "'");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("topic,partition,leader,records,bytes,batches,records_per_batch,bytes_per_batch\n", 0) == 0);
  CHECK(slurp(dir.path / "partitions.csv") == r.out);
  CHECK(slurp(dir.path / "summary.json").find("\"records_acked\": 300") != std::string::npos);
}

TEST_CASE("bad run input exits 2 with a message naming the file or option") {
  ScratchDir dir;
  const auto bad = dir.write("bad.yaml", "run: {records: 10}\ncluster: {brokers: [{id: 0}]}\ntopics: [{name: t, partitions: 0}]\nproducers: [{}]\n");
  auto r = run_cli("run '" + bad.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim run: " + bad.string() + ":3:32: topics.0.partitions: must be an integer in [1, 1000000], got 0\n");
  r = run_cli("run /no/such.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim run: /no/such.yaml: cannot open file: No such file or directory\n");
  r = run_cli("run " + scenario("book/keyed.yaml") + " --set nonsense");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--set: must be PATH=VALUE") != std::string::npos);
  r = run_cli("run " + scenario("book/keyed.yaml") + " --seed -1");
  CHECK(r.exit_code == 2);
  r = run_cli("run");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim run: no scenario file: partsim run SCENARIO.yaml\n");
}
