// Replications, output files, manifests, charts and the theory check, end to end.

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::scenario_arg;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

TEST_CASE("replications give the same bytes on 1 and 2 threads") {
  const auto one =
      run_cli("run " + scenario_arg("book/null-key-sticky.yaml") + " --replications 16 --threads 1 --format json");
  const auto two =
      run_cli("run " + scenario_arg("book/null-key-sticky.yaml") + " --replications 16 --threads 2 --format json");
  CHECK(one.exit_code == 0);
  CHECK(one.out == two.out);
  CHECK(run_cli("run " + scenario_arg("book/null-key-sticky.yaml") + " --replications 16 --threads 3 --format json")
            .out == one.out);
  CHECK(one.out.find("\"replications\": 16") != std::string::npos);
  const auto runs = nlohmann::json::parse(one.out)["runs"];
  REQUIRE(runs.size() == 16);
  for (std::size_t i = 0; i < runs.size(); ++i) CHECK(runs[i]["replication"] == i);
  CHECK(one.out.find("\"ci95_low\"") != std::string::npos);
  const auto c1 = run_cli("compare " + scenario_arg("slow-broker.yaml") +
                          " --partitioners builtin,sticky-kip480 --set run.duration.ms=2000 "
                          "--replications 4 --threads 1 --format csv");
  const auto c2 = run_cli("compare " + scenario_arg("slow-broker.yaml") +
                          " --partitioners builtin,sticky-kip480 --set run.duration.ms=2000 "
                          "--replications 4 --threads 2 --format csv");
  CHECK(c1.exit_code == 0);
  CHECK(c1.out == c2.out);
}

TEST_CASE("--out writes every file, and the manifest's resolved scenario re-runs byte for byte") {
  ScratchDir dir;
  const std::string out = (dir.path / "first").string();
  const auto r = run_cli("run " + scenario_arg("slow-broker.yaml") +
                         " --set run.duration.ms=2000 --seed 9 --timeseries 100 --out '" + out + "'");
  REQUIRE(r.exit_code == 0);
  for (const char* f :
       {"summary.json", "partitions.csv", "batches.csv", "timeseries.csv", "manifest.json", "scenario.resolved.yaml"})
    CHECK(!slurp(dir.path / "first" / f).empty());
  CHECK(slurp(dir.path / "first" / "batches.csv")
            .rfind("topic,partition,broker,records,bytes,created_ms,sent_ms,done_ms,outcome\n", 0) == 0);
  CHECK(slurp(dir.path / "first" / "timeseries.csv").rfind("time_ms,buffer_bytes,pevents.0_queue", 0) == 0);
  const auto manifest = slurp(dir.path / "first" / "manifest.json");
  CHECK(manifest.find("\"seed\": 9") != std::string::npos);
  CHECK(manifest.find("\"scenario_sha1\": \"") != std::string::npos);
  const std::string again = (dir.path / "again").string();
  CHECK(manifest.find("scenario.resolved.yaml --seed 9 --timeseries 100") != std::string::npos);
  const auto rerun =
      run_cli("run '" + out + "/scenario.resolved.yaml' --seed 9 --timeseries 100 --out '" + again + "'");
  REQUIRE(rerun.exit_code == 0);
  CHECK(slurp(dir.path / "again" / "summary.json") == slurp(dir.path / "first" / "summary.json"));
  CHECK(slurp(dir.path / "again" / "batches.csv") == slurp(dir.path / "first" / "batches.csv"));
}

TEST_CASE("--plot draws PNG charts") {
  ScratchDir dir;
  const auto r = run_cli("run " + scenario_arg("book/null-key-sticky.yaml") + " --plot '" + dir.path.string() + "'");
  REQUIRE(r.exit_code == 0);
  for (const char* f : {"records-per-partition.png", "partition-choices.png", "broker-queues.png", "latency-cdf.png",
                        "batch-sizes.png"}) {
    CAPTURE(f);
    CHECK(slurp(dir.path / f).substr(0, 8) == "\x89PNG\r\n\x1a\n");
  }
  CHECK_FALSE(std::filesystem::exists(dir.path / "consumer-lag.png"));  // no consumer groups
}

TEST_CASE("--plot draws the consumer groups' lag when the scenario has groups") {
  ScratchDir dir;
  const auto r =
      run_cli("run " + scenario_arg("examples/consumer-join-cooperative.yaml") + " --plot '" + dir.path.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(slurp(dir.path / "consumer-lag.png").substr(0, 8) == "\x89PNG\r\n\x1a\n");
}

TEST_CASE("compare --plot draws the traffic crossing racks with a bar per run when the scenario has racks") {
  ScratchDir dir;
  const auto r = run_cli("compare " + scenario_arg("examples/three-zones.yaml") +
                         " --variant leaders:linger.ms=5 --variant 'closest:cluster.replica.selector.class=rack-aware'"
                         " --plot '" +
                         dir.path.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(slurp(dir.path / "latency-cdf.png").substr(0, 8) == "\x89PNG\r\n\x1a\n");
  CHECK(slurp(dir.path / "cross-rack-traffic.png").substr(0, 8) == "\x89PNG\r\n\x1a\n");
  ScratchDir none;
  REQUIRE(run_cli("compare " + scenario_arg("book/null-key-sticky.yaml") + " --variant a:linger.ms=5 --plot '" +
                  none.path.string() + "'")
              .exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(none.path / "cross-rack-traffic.png"));  // no racks, no price
}

TEST_CASE("the Poisson batching check fits its closed form") {
  const auto r = run_cli("run " + scenario_arg("theory/poisson-batching.yaml") + " --format json");
  REQUIRE(r.exit_code == 0);
  const auto at = r.out.find("\"p_value\": ", r.out.find("\"theory\""));
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(r.out.substr(at + 11, 12)) > 0.05);
  const auto bad = run_cli("run " + scenario_arg("slow-broker.yaml") + " --set run.check=poisson-batching");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("poisson-batching needs one producer") != std::string::npos);
}

namespace {

// Runs `args` in the background, sends SIGINT after `first_s` seconds and again after
// `second_s` more (none if negative); returns the exit code.
int run_interrupted(const std::string& args, const ScratchDir& dir, double first_s, double second_s) {
  const std::string rc = (dir.path / "rc").string();
  std::string cmd = "'" + std::string(PARTSIM_BINARY) + "' " + args + " >'" + (dir.path / "stdout").string() + "' 2>'" +
                    (dir.path / "stderr").string() + "' & pid=$!; sleep " + std::to_string(first_s) +
                    "; kill -INT $pid; ";
  if (second_s >= 0) cmd += "sleep " + std::to_string(second_s) + "; kill -INT $pid 2>/dev/null; ";
  cmd += "wait $pid; echo $? >'" + rc + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return std::stoi(slurp(rc));
}

}  // namespace

TEST_CASE("an interrupted replicated run writes its first replications, marked partial, as --replications would") {
  ScratchDir dir;
  const std::string out = (dir.path / "out").string();
  const int rc = run_interrupted("run " + scenario_arg("book/null-key-sticky.yaml") +
                                     " --replications 100000 --threads 2 --out '" + out + "'",
                                 dir, 1.0, -1);
  CHECK(rc == 1);
  CHECK(slurp(dir.path / "stderr").find("interrupted: the results are those of the first ") != std::string::npos);
  const auto summary = nlohmann::json::parse(slurp(dir.path / "out" / "summary.json"));
  CHECK(summary["partial"] == true);
  CHECK(summary["replications_requested"] == 100000);
  const std::size_t done = summary["replications"];
  REQUIRE(done > 0);
  REQUIRE(summary["runs"].size() == done);
  for (std::size_t i = 0; i < done; ++i) CHECK(summary["runs"][i]["replication"] == i);
  CHECK(slurp(dir.path / "stdout")
            .find("PARTIAL RESULT: interrupted after " + std::to_string(done) + " of 100000 replications") !=
        std::string::npos);
  // The first `done` replications, exactly: the same metrics as a run asked for that many.
  const auto full = nlohmann::json::parse(run_cli("run " + scenario_arg("book/null-key-sticky.yaml") +
                                                  " --replications " + std::to_string(done) + " --format json")
                                              .out);
  CHECK(full["metrics"] == summary["metrics"]);
  CHECK_FALSE(full.contains("partial"));
}

TEST_CASE("a second Ctrl-C finishes the output begun and leaves no half-written file") {
  ScratchDir dir;
  const std::string out = (dir.path / "out").string();
  const int rc = run_interrupted("run " + scenario_arg("book/null-key-sticky.yaml") +
                                     " --replications 100000 --threads 2 --format json --out '" + out + "'",
                                 dir, 1.0, 0.02);
  CHECK((rc == 130 || rc == 1));  // 1 when the process had finished before the second signal
  // The JSON on stdout had begun: it is complete, and says it is partial.
  const auto json = nlohmann::json::parse(slurp(dir.path / "stdout"));
  CHECK(json["partial"] == true);
  CHECK(json["runs"].size() == json["replications"]);
  CHECK(nlohmann::json::parse(slurp(dir.path / "out" / "summary.json")) == json);
  for (const auto& e : std::filesystem::directory_iterator(dir.path / "out")) {
    CAPTURE(e.path().filename().string());
    CHECK(e.path().filename().string().find(".tmp.") == std::string::npos);
    CHECK(std::filesystem::file_size(e.path()) > 0);
  }
  if (rc == 130) CHECK(slurp(dir.path / "stderr").find("interrupted twice") != std::string::npos);
}

TEST_CASE("replications are summarized as they finish: 5,000 of them fit in 300 MB of address space" *
          doctest::skip(partsim::testing::kSanitized)) {
  // Held whole, 5,000 results with their two 58 KB histograms would need 650 MB.
  ScratchDir dir;
  const std::string cmd =
      "ulimit -v 300000; '" + std::string(PARTSIM_BINARY) + "' run " + scenario_arg("book/keyed.yaml") +
      " --set run.records=10 --replications 5000 --threads 1 --format csv >'" + (dir.path / "out").string() + "'";
  CHECK(std::system(cmd.c_str()) == 0);
  CHECK(slurp(dir.path / "out").find("\nrecords_acked,10.000000,10.000000,10.000000,10.000000,10.000000,10.000000\n") !=
        std::string::npos);
}

TEST_CASE("the queue chart has a panel per broker") {
  ScratchDir dir;
  const auto five =
      dir.write("five.yaml",
                "run: {records: 2000}\ncluster: {brokers: [{id: 0}, {id: 1}, {id: 2}, {id: 3}, {id: 4, rtt.ms: 30}]}\n"
                "topics: [{name: t, partitions: 10}]\n"
                "producers: [{name: a, workload: {arrivals: {kind: constant, rate: 5000}}}]\n");
  const auto png_height = [](const std::string& png) {
    REQUIRE(png.size() > 24);
    std::uint32_t h = 0;
    for (int i = 20; i < 24; ++i) h = h << 8 | static_cast<unsigned char>(png[static_cast<std::size_t>(i)]);
    return h;
  };
  REQUIRE(run_cli("run '" + five.string() + "' --plot '" + (dir.path / "five").string() + "'").exit_code == 0);
  CHECK(png_height(slurp(dir.path / "five" / "broker-queues.png")) == 110 + 5 * 150);
  REQUIRE(run_cli("run " + scenario_arg("kip794/slow-broker.yaml") + " --plot '" + (dir.path / "three").string() + "'")
              .exit_code == 0);
  CHECK(png_height(slurp(dir.path / "three" / "broker-queues.png")) == 600);
}
