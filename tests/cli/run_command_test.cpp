#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::scenario_arg;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

TEST_CASE("partsim run prints per-partition and per-broker tables and the trace") {
  const auto r = run_cli("run " + scenario_arg("book/low-cardinality.yaml"));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("first 10 partitions: 4 2 5 0 1 4 2 5 0 1") != std::string::npos);
  CHECK(r.out.find("records sent 300, acked 300, failed 0") != std::string::npos);
}

TEST_CASE("partsim run --format json has the documented fields and is byte-identical for one seed") {
  const auto a =
      run_cli("run " + scenario_arg("slow-broker.yaml") + " --set run.duration.ms=2000 --format json --seed 5");
  const auto b =
      run_cli("run " + scenario_arg("slow-broker.yaml") + " --set run.duration.ms=2000 --format json --seed 5");
  CHECK(a.exit_code == 0);
  CHECK(a.out == b.out);
  for (const char* field : {"\"records_sent\"", "\"records_acked\"", "\"records_failed\"", "\"partitions\"",
                            "\"leader\"", "\"brokers\"", "\"requests\"", "\"latency_ms\"", "\"p999\"", "\"trace\""})
    CHECK(a.out.find(field) != std::string::npos);
  const auto c =
      run_cli("run " + scenario_arg("slow-broker.yaml") + " --set run.duration.ms=2000 --format json --seed 6");
  CHECK(c.out != a.out);
}

TEST_CASE("partsim run --out writes summary.json and partitions.csv") {
  ScratchDir dir;
  const auto r = run_cli("run " + scenario_arg("book/keyed.yaml") + " --format csv --out '" + dir.path.string() + "'");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("topic,partition,leader,records,bytes,batches,records_per_batch,bytes_per_batch\n", 0) == 0);
  CHECK(slurp(dir.path / "partitions.csv") == r.out);
  CHECK(slurp(dir.path / "summary.json").find("\"records_acked\": 300") != std::string::npos);
}

TEST_CASE("partsim run reports each producer's metrics under the Java client's names, nodes as node-<id>") {
  ScratchDir dir;
  const auto r = run_cli("run " + scenario_arg("slow-broker.yaml") + " --set run.duration.ms=2000 --out '" +
                         dir.path.string() + "'");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("producer metrics (the Java client's JMX names, over the whole run):") != std::string::npos);
  CHECK(r.out.find("record-queue-time-max") != std::string::npos);
  CHECK(r.out.find("app       node-2") != std::string::npos);
  const auto csv = slurp(dir.path / "producer_metrics.csv");
  CHECK(csv.rfind("producer,node,record-send-total,record-send-rate,batch-size-avg,", 0) == 0);
  CHECK(csv.find("\napp,node-2,,,,,,") != std::string::npos);
  const auto summary = nlohmann::json::parse(slurp(dir.path / "summary.json"));
  const auto& app = summary.at("producer_metrics").at("app");
  CHECK(app.at("record-send-total") == summary.at("records_acked"));  // no retries in this run
  CHECK(app.at("nodes").at("2").at("request-latency-avg").get<double>() >
        app.at("nodes").at("0").at("request-latency-avg").get<double>());
}

TEST_CASE("bad run input exits 2 with a message naming the file or option") {
  ScratchDir dir;
  const auto bad = dir.write(
      "bad.yaml",
      "run: {records: 10}\ncluster: {brokers: [{id: 0}]}\ntopics: [{name: t, partitions: 0}]\nproducers: [{}]\n");
  auto r = run_cli("run '" + bad.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "partsim run: " + bad.string() + ":3:32: topics.0.partitions: must be an integer in [1, 1000000], got 0\n");
  r = run_cli("run /no/such.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim run: /no/such.yaml: cannot open file: No such file or directory\n");
  r = run_cli("run " + scenario_arg("book/keyed.yaml") + " --set nonsense");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--set: must be PATH=VALUE") != std::string::npos);
  r = run_cli("run " + scenario_arg("book/keyed.yaml") + " --seed -1");
  CHECK(r.exit_code == 2);
  r = run_cli("run");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim run: no scenario file: partsim run SCENARIO.yaml\n");
}

TEST_CASE("a warm-up that covers the whole run is reported as 'no records measured', with null statistics") {
  const std::string cmd = "run " + scenario_arg("book/keyed.yaml") + " --set run.warmup.ms=100000000";
  const auto t = run_cli(cmd);
  CHECK(t.exit_code == 0);
  CHECK(t.err.find(
            "partsim run: warning: no records measured: every acknowledged record was sent before run.warmup.ms") == 0);
  CHECK(t.out.find("NO RECORDS MEASURED") != std::string::npos);
  CHECK(t.out.find("records per partition: no records measured") != std::string::npos);
  CHECK(t.out.find("latency send->ack ms: no records measured") != std::string::npos);
  CHECK(t.out.find("Jain 1.0000") == std::string::npos);  // not a perfect spread
  CHECK(t.out.find("p = 1.0000") == std::string::npos);
  const auto j = nlohmann::json::parse(run_cli(cmd + " --format json").out);
  CHECK(j["records_measured"] == 0);
  for (const char* k : {"max_over_min", "cv", "jain", "kl_divergence", "chi_square", "p_value"})
    CHECK(j["distribution"][k].is_null());
  for (const char* k : {"p50", "p99", "p999", "max", "mean"}) CHECK(j["latency_ms"][k].is_null());
  for (const char* k : {"p10", "p50", "p90", "max", "mean"}) CHECK(j["batch_bytes"][k].is_null());
  CHECK(j["brokers"][0]["share"].is_null());
  CHECK(j["partitions"][0]["records_per_batch"].is_null());
  CHECK(j["partitions"][0]["records"] == 0);  // counts stay numbers
  const auto c = run_cli(cmd + " --format csv");
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("\nbook,0,0,0,0,0,,\n") != std::string::npos);
  // Replicated: every statistic undefined in every replication is '-' and empty, not 0.
  const auto r = run_cli(cmd + " --replications 3 --format csv");
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("warning: no records measured in 3 of 3 replications") != std::string::npos);
  CHECK(r.out.find("\nlatency.p99_ms,,,,,,\n") != std::string::npos);
  CHECK(r.out.find("\nbroker.0.records_share,,,,,,\n") != std::string::npos);
  CHECK(r.out.find("\nrecords_acked,300.000000,") != std::string::npos);
}

TEST_CASE("a big topic's table shows its busiest partitions and counts the idle ones; CSV and JSON keep every row") {
  const std::string cmd = "run " + scenario_arg("book/keyed.yaml") + " --set topics.0.partitions=400";
  const auto t = run_cli(cmd);
  REQUIRE(t.exit_code == 0);
  const auto note = t.out.find("(the 20 busiest of 400 partitions; ");
  REQUIRE(note != std::string::npos);
  // 300 keys over 400 partitions: the idle count is what the CSV says.
  const auto c = run_cli(cmd + " --format csv");
  std::size_t rows = 0, idle = 0;
  for (std::size_t at = c.out.find('\n'); at + 1 < c.out.size(); at = c.out.find('\n', at + 1)) {
    ++rows;
    // topic,partition,leader,records,...: the fourth field
    std::size_t field = at + 1;
    for (int i = 0; i < 3; ++i) field = c.out.find(',', field) + 1;
    if (c.out.compare(field, 2, "0,") == 0) ++idle;
  }
  CHECK(rows == 400);
  CHECK(t.out.find("(the 20 busiest of 400 partitions; " + std::to_string(idle) + " got no records;") == note);
  std::size_t book_rows = 0;
  for (std::size_t at = t.out.find("\nbook "); at < note; at = t.out.find("\nbook ", at + 1)) ++book_rows;
  CHECK(book_rows == 20);
}

TEST_CASE("the table and JSON show the hottest keys of the busiest partitions, counted after the warm-up") {
  const auto t = run_cli("run " + scenario_arg("book/hot-key.yaml"));
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("hottest keys of the busiest partitions (keyed records sent after the warm-up; counts exact)") !=
        std::string::npos);
  CHECK(t.out.find("book           5            249  book-bestseller      242  0.9719") != std::string::npos);
  // Five keys over five partitions: each partition's one key holds all its records.
  const auto low =
      nlohmann::json::parse(run_cli("run " + scenario_arg("book/low-cardinality.yaml") + " --format json").out);
  const auto& hot = low["hot_keys"];
  CHECK(hot["counted"] == 300);
  CHECK(hot["exact"] == true);
  REQUIRE(hot["partitions"].size() == 5);
  for (const auto& p : hot["partitions"]) {
    CHECK(p["keyed_records"] == 60);
    REQUIRE(p["keys"].size() == 1);
    CHECK(p["keys"][0]["records"] == 60);
    CHECK(p["keys"][0]["error"] == 0);
    CHECK(low["partitions"][p["partition"].get<int>()]["records"] == 60);
  }
  // Only records sent after run.warmup.ms count: as many as were measured.
  const auto warm = nlohmann::json::parse(
      run_cli("run " + scenario_arg("book/hot-key.yaml") + " --set run.warmup.ms=300 --format json").out);
  CHECK(warm["hot_keys"]["counted"] == warm["records_measured"]);
  CHECK(warm["hot_keys"]["counted"] < 300);
  // Null keys: no section.
  const auto none =
      nlohmann::json::parse(run_cli("run " + scenario_arg("book/null-key-sticky.yaml") + " --format json").out);
  CHECK_FALSE(none.contains("hot_keys"));
}
