#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::scenario_arg;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

TEST_CASE("partsim compare prints the partitioners side by side") {
  const auto r = run_cli("compare " + scenario_arg("round-robin/new-batch-per-record.yaml") +
                         " --partitioners round-robin,round-robin-fixed");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("metric", 0) == 0);
  CHECK(r.out.find("round-robin-fixed") != std::string::npos);
  const auto line_start = r.out.find("\ndistribution.max_over_min ");
  REQUIRE(line_start != std::string::npos);
  const auto line = r.out.substr(line_start + 1, r.out.find('\n', line_start + 1) - line_start - 1);
  CHECK(line.find("inf") != std::string::npos);  // round-robin leaves partitions idle
  CHECK(line.find("1.000") != std::string::npos);
}

TEST_CASE("partsim compare json holds runs with the run fields; csv one row per run and sweep value") {
  const auto j = run_cli("compare " + scenario_arg("book/keyed.yaml") +
                         " --variant a:linger.ms=0 --variant b:linger.ms=7 --format json");
  CHECK(j.exit_code == 0);
  CHECK(j.out.find("\"runs\": [") != std::string::npos);
  CHECK(j.out.find("\"name\": \"b\"") != std::string::npos);
  CHECK(j.out.find("\"records_acked\": 300") != std::string::npos);
  ScratchDir dir;
  const auto c =
      run_cli("compare " + scenario_arg("kip794/slow-broker.yaml") +
              " --partitioners builtin,sticky-kip480 --sweep workload.arrivals.rate=300,3000 --set run.records=3000"
              " --format csv --out '" +
              dir.path.string() + "'");
  CHECK(c.exit_code == 0);
  CHECK(c.out.rfind("sweep,name,records_sent,records_acked,records_failed,records_measured,", 0) == 0);
  CHECK(c.out.find("\n300,builtin,") != std::string::npos);
  CHECK(c.out.find("\n3000,sticky-kip480,") != std::string::npos);
  CHECK(slurp(dir.path / "compare.csv") == c.out);
  CHECK(slurp(dir.path / "compare.json").find("\"sweep\": \"producers.*.workload.arrivals.rate\"") !=
        std::string::npos);
  // As a table: one block per sweep value, one column per partitioner.
  const auto t =
      run_cli("compare " + scenario_arg("kip794/slow-broker.yaml") +
              " --partitioners builtin,sticky-kip480 --sweep workload.arrivals.rate=300,3000 --set run.records=3000");
  CHECK(t.exit_code == 0);
  const auto first = t.out.find("producers.*.workload.arrivals.rate = 300\nmetric "),
             second = t.out.find("\nproducers.*.workload.arrivals.rate = 3000\nmetric ");
  CHECK(first == 0);
  CHECK(second != std::string::npos);
  CHECK(t.out.find("sticky-kip480", first) < second);
}

TEST_CASE("bad compare input exits 2 naming the option") {
  auto r = run_cli("compare " + scenario_arg("book/keyed.yaml") + " --partitioners builtin,nope");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--partitioners: unknown partitioner 'nope' (known: builtin, round-robin,") != std::string::npos);
  r = run_cli("compare " + scenario_arg("book/keyed.yaml"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("nothing to compare") != std::string::npos);
  r = run_cli("compare " + scenario_arg("book/keyed.yaml") + " --variant broken");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--variant: must be NAME:KEY=VALUE") != std::string::npos);
  r = run_cli("compare " + scenario_arg("book/keyed.yaml") + " --variant v:lingr.ms=3");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown key 'lingr.ms' under producers.*.config (did you mean 'linger.ms'?)") != std::string::npos);
}

TEST_CASE("compare names each metric once, the same in CSV and JSON with and without replications") {
  const std::string base = "compare " + scenario_arg("slow-broker.yaml") +
                           " --partitioners builtin,sticky-kip480 --set run.duration.ms=3000 --set run.warmup.ms=0";
  const auto csv = run_cli(base + " --format csv");
  REQUIRE(csv.exit_code == 0);
  // The header: sweep,name, then every metric but the per-partition ones.
  std::vector<std::string> single;
  const std::string header = csv.out.substr(0, csv.out.find('\n'));
  for (std::size_t pos = 0; pos != std::string::npos;) {
    const auto comma = header.find(',', pos);
    single.push_back(header.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    pos = comma == std::string::npos ? comma : comma + 1;
  }
  REQUIRE(single.size() > 30);
  CHECK(single[0] == "sweep");
  CHECK(single[1] == "name");
  single.erase(single.begin(), single.begin() + 2);
  for (const char* m : {"broker.2.records_share", "latency.p99_ms", "distribution.max_over_min", "records_per_batch"})
    CHECK(std::find(single.begin(), single.end(), m) != single.end());
  // Replicated CSV: sweep,name,metric,...: the same names, in the same order, plus the per-partition ones.
  const auto rep = run_cli(base + " --replications 2 --format csv");
  REQUIRE(rep.exit_code == 0);
  std::vector<std::string> replicated;
  for (std::size_t at = rep.out.find("\n,builtin,"); at != std::string::npos;
       at = rep.out.find("\n,builtin,", at + 1)) {
    const auto start = at + 10;
    const auto name = rep.out.substr(start, rep.out.find(',', start) - start);
    if (name.rfind("partition.", 0) != 0) replicated.push_back(name);
  }
  CHECK(replicated == single);
  // JSON: "metrics" by the same names, with and without replications.
  const auto j1 = nlohmann::ordered_json::parse(run_cli(base + " --format json").out);
  const auto j2 = nlohmann::json::parse(run_cli(base + " --replications 2 --format json").out);
  std::vector<std::string> n1, n2;
  for (const auto& [k, v] : j1["runs"][0]["metrics"].items())
    if (k.rfind("partition.", 0) != 0) n1.push_back(k);
  for (const auto& m : j2["runs"][0]["metrics"])
    if (m["name"].get<std::string>().rfind("partition.", 0) != 0) n2.push_back(m["name"]);
  CHECK(n1 == single);
  CHECK(n2 == single);
  // The table shows the machine name beside a label.
  const auto t = run_cli(base);
  CHECK(t.out.find("\nbroker.2.records_share      broker 2 share of records ") != std::string::npos);
  CHECK(t.out.find("\nlatency.p99_ms              latency p99, ms ") != std::string::npos);
}

TEST_CASE("a compared run that measured nothing shows '-' and null, with a warning") {
  const std::string base = "compare " + scenario_arg("book/keyed.yaml") +
                           " --variant warm:run.warmup.ms=100000000 --variant cold:run.warmup.ms=0";
  const auto t = run_cli(base);
  REQUIRE(t.exit_code == 0);
  CHECK(
      t.err ==
      "partsim compare: warning: run 'warm' measured no records (is run.warmup.ms longer than the run?); its statistics "
      "are null in JSON, empty in CSV and '-' in the table\n");
  const auto at = t.out.find("\nlatency.p99_ms");
  REQUIRE(at != std::string::npos);
  const auto line = t.out.substr(at + 1, t.out.find('\n', at + 1) - at - 1);
  CHECK(line.find(" -  ") != std::string::npos);
  const auto j = nlohmann::json::parse(run_cli(base + " --format json").out);
  CHECK(j["runs"][0]["metrics"]["latency.p99_ms"].is_null());
  CHECK(j["runs"][0]["latency_ms"]["p99"].is_null());
  CHECK(j["runs"][1]["metrics"]["latency.p99_ms"].is_number());
}

TEST_CASE("compare runs of different shapes: a variant with more partitions or brokers") {
  const auto r = run_cli("compare " + scenario_arg("book/keyed.yaml") +
                         " --variant six:topics.0.partitions=6 --variant twelve:topics.0.partitions=12 --format csv");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("\n,twelve,300,300,") != std::string::npos);
}

TEST_CASE("client is a compare axis: a variant or a sweep value per Java client") {
  const auto v = run_cli("compare " + scenario_arg("round-robin/new-batch-per-record.yaml") +
                         " --variant 3.6:client=kafka-3.6 --variant 4.3:client=kafka-4.3");
  CHECK(v.exit_code == 0);
  const auto at = v.out.find("\ndistribution.max_over_min ");
  REQUIRE(at != std::string::npos);
  const auto line = v.out.substr(at + 1, v.out.find('\n', at + 1) - at - 1);
  CHECK(line.find("inf") != std::string::npos);    // kafka-3.6: KAFKA-9965 leaves partitions idle
  CHECK(line.find("1.000") != std::string::npos);  // kafka-4.3: a plain counter
  const auto s = run_cli("compare " + scenario_arg("round-robin/new-batch-per-record.yaml") +
                         " --partitioners round-robin --sweep client=kafka-3.6,kafka-4.3");
  CHECK(s.exit_code == 0);
  CHECK(s.out.find("client = kafka-3.6\nmetric ") == 0);
  CHECK(s.out.find("\nclient = kafka-4.3\nmetric ") != std::string::npos);
}

TEST_CASE("compare --clients: one run per client, the other clients on their own partitioners and defaults") {
  const auto t = run_cli("compare " + scenario_arg("slow-broker.yaml") +
                         " --clients kafka-4.3,librdkafka-2.x,kafka-go --set run.duration.ms=3000");
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("kafka-4.3  librdkafka-2.x  kafka-go\n") != std::string::npos);
  // kafka-go's writer: batches of 100 records; the scenario's linger.ms 0 is Java's only.
  const auto row = t.out.find("\nrecords_per_batch ");
  REQUIRE(row != std::string::npos);
  const std::string line = t.out.substr(row + 1, t.out.find('\n', row + 1) - row - 1);
  CHECK(line.ends_with(" 100.00"));
  CHECK(t.err.find("the other clients run with their own defaults") != std::string::npos);
  auto r = run_cli("compare " + scenario_arg("slow-broker.yaml") + " --clients kafka-4.3,rdkafka");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--clients: 'rdkafka'") != std::string::npos);
  CHECK(r.err.find("librdkafka-2.x, franz-go, sarama, kafkajs, kafka-go") != std::string::npos);
  r = run_cli("compare " + scenario_arg("slow-broker.yaml") + " --clients sarama,sarama");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is given twice") != std::string::npos);
  r = run_cli("compare " + scenario_arg("slow-broker.yaml") + " --clients sarama --partitioners builtin");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--clients: give it alone") != std::string::npos);
  // Kafka's config names are the Java clients': a sweep of one is refused, a --set of one
  // fails on the other clients (it is not dropped with the scenario's config).
  r = run_cli("compare " + scenario_arg("slow-broker.yaml") + " --clients kafka-4.3,sarama --sweep linger.ms=0,5");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--sweep: each client spells its producer config its own way") != std::string::npos);
  r = run_cli("compare " + scenario_arg("slow-broker.yaml") +
              " --clients kafka-4.3,sarama --set producers.*.config.linger.ms=5");
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("unknown key 'linger.ms' under producers.0.config") != std::string::npos);
  // An error in a --set names that --set, not the one that left the scenario's config out.
  r = run_cli("compare " + scenario_arg("slow-broker.yaml") +
              " --clients sarama --set producers.*.config.Net.ReadTimeout=0");
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("--set producers.*.config.Net.ReadTimeout=0: producers.0.config.Net.ReadTimeout: must be > 0") !=
        std::string::npos);
  r = run_cli("compare " + scenario_arg("slow-broker.yaml") + " --clients sarama,kafka-go --sweep client=kafka-4.3");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--clients already sets every producer's client") != std::string::npos);
}
