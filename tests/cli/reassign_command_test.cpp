#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"

using partsim::testing::compact_json;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {
std::string example(const std::string& name) {
  return std::string("'") + PARTSIM_SOURCE_DIR + "/examples/reassign/" + name + "'";
}
const std::string kDemo = "reassign --current " + example("kafka-assignment-optimizer-demo.json") + " --brokers " +
                          example("brokers-2-zones.json") + " --target-brokers 0-18";
// Two topics; b-0's only replica is on broker 5, which is not in --brokers; broker 3 is empty.
const char* kTwoTopicsReplicas = R"({"version":1,"partitions":[{"topic":"a","partition":0,"replicas":[0,1]},
  {"topic":"a","partition":1,"replicas":[1,2]},{"topic":"b","partition":0,"replicas":[5]},{"topic":"b","partition":1,"replicas":[2,0]},
  {"topic":"b","partition":2,"replicas":[0,1]}]})";
}  // namespace

TEST_CASE("partsim reassign prints the demo's report exactly") {
  ScratchDir dir;
  const auto plan = dir.path / "plan.json";
  const auto r =
      run_cli(kDemo + " --partition-size 20GB --throttle 50MB/s --failover --plan-out '" + plan.string() + "'");
  CHECK(r.exit_code == 0);
  CHECK(r.out == R"(10 partitions, 20 replicas onto 19 target brokers on racks a b; rack mode even
per broker: replicas 0..2, preferred leaders 0..1 (--balance band:1.10)

plan (optimal): 1 replica move, 0 preferred-leader changes; 20.0 GB to copy, at least 6 min 40 s at 50.0 MB/s (busiest broker 20.0 GB)

partition  before  after  moves  leader
x.y.z.t-1  8,19    8,1        1

     broker  rack  replicas before  after  leaders before  after
          0  a                   1      1               1      1
          1  b                   1      2               1      1
          2  a                   1      1               1      1
          3  b                   1      1               1      1
          4  a                   1      1               1      1
          5  b                   1      1               1      1
          6  a                   1      1               1      1
          7  b                   1      1               1      1
          8  a                   1      1               1      1
          9  b                   1      1               1      1
         10  a                   1      1               0      0
         11  b                   1      1               0      0
         12  a                   1      1               0      0
         13  b                   1      1               0      0
         14  a                   1      1               0      0
         15  b                   1      1               0      0
         16  a                   1      1               0      0
         17  b                   1      1               0      0
         18  a                   1      1               0      0
19 (leaves)  b                   1      0               0      0

worst single broker failure: a broker then leads 1 partitions before, 2 after (--failover reordered 0 second replicas)

kafka-reassign-partitions --generate (AdminUtils rack-aware, java.util.Random seed 0): 20 replica moves, 10 preferred-leader changes, 400 GB, at least 13 min 20 s
  over all 361 draws of its start index and replica shift: moves min 6, mean 18.0, max 20
plan written to )" + plan.string() +
                     " (1 partition; kafka-reassign-partitions --execute)\n");
  CHECK(compact_json(slurp(plan)) ==
        R"({"version":1,"partitions":[{"topic":"x.y.z.t","partition":1,"replicas":[8,1]}]})");
}

TEST_CASE("partsim reassign prints per-topic spreads, stranded partitions and leaving brokers exactly") {
  ScratchDir dir;
  const auto current = dir.write("two.json", kTwoTopicsReplicas);
  const std::string base = "reassign --current '" + current.string() + "' --brokers 0:x,1:x,2,3";
  const auto table = run_cli(base + " --balance-scope both --balance exact");
  CHECK(table.exit_code == 0);
  CHECK(table.out == R"(5 partitions, 9 replicas onto 4 target brokers on racks x; rack mode none
per broker: replicas 2..3, preferred leaders 1..2 (--balance exact); and each topic on its own

plan (optimal): 2 replica moves, 1 preferred-leader change

warning: b-0 has no live replica to copy from; the move waits until one of its brokers returns

partition  before  after  moves  leader
a-0        0,1     0,3        1
b-0        5       3          1  changed

    broker  rack  replicas before  after  leaders before  after
         0  x                   3      3               2      2
         1  x                   3      2               1      1
         2                      2      2               1      1
         3                      0      2               0      1
5 (leaves)                      1      0               1      0

topic  replicas per broker before  after  leaders before  after
a      0..2                        1..1   0..1            0..1
b      0..2                        1..2   0..1            0..1

worst single broker failure: a broker then leads 3 partitions before, 3 after

kafka-reassign-partitions --generate (AdminUtils rack-unaware as with --disable-rack-aware; Kafka refuses brokers with and without racks, java.util.Random seed 0): 7 replica moves, 5 preferred-leader changes
  over all 16 draws of its start index and replica shift: moves min 1, mean 4.0, max 7
)");
  const auto json =
      run_cli(base + " --balance-scope topic --partition-size 1GB --throttle 10MB/s --failover --seed 7 --format json");
  CHECK(json.exit_code == 0);
  CHECK(
      compact_json(json.out) ==
      R"({"status":"optimal","method":"flow","rack_mode":"none","bounds":{"replicas":{"lo":0,"hi":9},"leaders":{"lo":0,"hi":5}},)"
      R"("moves":1,"leader_changes":1,"worst_single_failure_max_leaders":{"before":3,"after":3},"failover_changes":0,)"
      R"("no_live_replica":["b-0"],"bytes_to_copy":1000000000,"copy_seconds":100.0,)"
      R"("changed":[{"topic":"b","partition":0,"before":[5],"after":[3],"moves":1,"leader_changed":true}],)"
      R"("brokers":[{"broker":0,"rack":"x","target":true,"replicas_before":3,"replicas_after":3,"leaders_before":2,"leaders_after":2},)"
      R"({"broker":1,"rack":"x","target":true,"replicas_before":3,"replicas_after":3,"leaders_before":1,"leaders_after":1},)"
      R"({"broker":2,"rack":"","target":true,"replicas_before":2,"replicas_after":2,"leaders_before":1,"leaders_after":1},)"
      R"({"broker":3,"rack":"","target":true,"replicas_before":0,"replicas_after":1,"leaders_before":0,"leaders_after":1},)"
      R"({"broker":5,"rack":"","target":false,"replicas_before":1,"replicas_after":0,"leaders_before":1,"leaders_after":0}],)"
      R"("topics":[{"topic":"a","replicas_per_broker":{"before":[0,2],"after":[0,2]},"leaders_per_broker":{"before":[0,1],"after":[0,1]},)"
      R"("bounds":{"replicas":{"lo":0,"hi":2},"leaders":{"lo":0,"hi":1}}},)"
      R"({"topic":"b","replicas_per_broker":{"before":[0,2],"after":[1,2]},"leaders_per_broker":{"before":[0,1],"after":[0,1]},)"
      R"("bounds":{"replicas":{"lo":1,"hi":2},"leaders":{"lo":0,"hi":1}}}],)"
      R"("generate":{"seed":7,"moves":4,"leader_changes":4,"over_draws":{"draws":16,"possible_draws":16,"sampled":false,)"
      R"("min_moves":1,"mean_moves":4.0,"max_moves":7},"bytes_to_copy":4000000000,"copy_seconds":200.0},)"
      R"("plan":{"version":1,"partitions":[{"topic":"b","partition":0,"replicas":[3]}]}})");
}

TEST_CASE("the kafka-assignment-optimizer demo: the planner moves 1 replica, --generate about 20") {
  ScratchDir dir;
  const auto plan = dir.path / "plan.json";
  const auto r = run_cli(kDemo + " --partition-size 20GB --throttle 50MB/s --plan-out '" + plan.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(
      r.out.find(
          "plan (optimal): 1 replica move, 0 preferred-leader changes; 20.0 GB to copy, at least 6 min 40 s at 50.0 MB/s") !=
      std::string::npos);
  CHECK(r.out.find("19 (leaves)") != std::string::npos);
  // Kafka's own --generate with this seed moves every replica; over all its draws, 18 on average.
  CHECK(r.out.find("seed 0): 20 replica moves") != std::string::npos);
  CHECK(r.out.find("over all 361 draws of its start index and replica shift: moves min 6, mean 18.0, max 20") !=
        std::string::npos);
  const auto written = nlohmann::json::parse(slurp(plan));
  REQUIRE(written["partitions"].size() == 1);
  CHECK(written["partitions"][0]["partition"] == 1);
  CHECK(written["partitions"][0]["replicas"][0] == 8);
  CHECK(written["partitions"][0]["replicas"][1].get<int>() % 2 == 1);  // zone b keeps its replica
}

TEST_CASE("partsim reassign as JSON: a new replication factor, --describe input, even racks") {
  ScratchDir dir;
  const auto describe = dir.write("describe.txt",
                                  "Topic: t\tTopicId: x\tPartitionCount: 4\tReplicationFactor: 2\tConfigs:\n"
                                  "\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"
                                  "\tTopic: t\tPartition: 1\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n"
                                  "\tTopic: t\tPartition: 2\tLeader: 2\tReplicas: 2,3\tIsr: 2,3\n"
                                  "\tTopic: t\tPartition: 3\tLeader: 3\tReplicas: 3,0\tIsr: 3,0\n");
  const auto r = run_cli("reassign --describe '" + describe.string() +
                         "' --brokers 0:a,1:b,2:c,3:a,4:b,5:c --rf 3 --balance exact --format json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["status"] == "optimal");
  CHECK(j["rack_mode"] == "even");
  CHECK(j["moves"] == 5);  // a third replica per partition, and t-3 (0 and 3 share rack a) swaps one
  CHECK(j["leader_changes"] == 0);
  CHECK(j["bounds"]["replicas"]["lo"] == 2);
  CHECK(j["bounds"]["replicas"]["hi"] == 2);
  REQUIRE(j["plan"]["partitions"].size() == 4);  // the loop below checks every partition's racks
  for (const auto& p : j["plan"]["partitions"]) {
    std::vector<std::string> racks;
    for (int b : p["replicas"]) racks.push_back(std::string(1, "abcabc"[b]));
    std::sort(racks.begin(), racks.end());
    CHECK(racks == std::vector<std::string>{"a", "b", "c"});
  }
  CHECK(run_cli("reassign --describe '" + describe.string() +
                "' --brokers 0:a,1:b,2:c,3:a,4:b,5:c --rf 3 --balance exact --format json")
            .out == r.out);
  // --failover orders the followers so that a failed leader's partitions spread out; the
  // replicas and leaders stay those of the plan.
  const auto f = nlohmann::json::parse(
      run_cli("reassign --describe '" + describe.string() +
              "' --brokers 0:a,1:b,2:c,3:a,4:b,5:c --rf 3 --balance exact --failover --format json")
          .out);
  CHECK(f["moves"] == j["moves"]);
  CHECK(f["worst_single_failure_max_leaders"]["after"] <= j["worst_single_failure_max_leaders"]["after"]);
  CHECK(f["worst_single_failure_max_leaders"]["after"] ==
        2);  // 4 leaders on 6 brokers: one failure hands out at most 1 more
}

TEST_CASE("partsim reassign balances each topic on its own with --balance-scope topic or both") {
  // Topic a sits on brokers 0 and 1 only, topic b on 2 and 3: the cluster is balanced, the topics are not.
  std::string parts;
  for (int i = 0; i < 6; ++i)
    parts += std::string(parts.empty() ? "" : ",") + R"({"topic":"a","partition":)" + std::to_string(i) +
             R"(,"replicas":[)" + std::to_string(i % 2) + "," + std::to_string(1 - i % 2) +
             R"(]},{"topic":"b","partition":)" + std::to_string(i) + R"(,"replicas":[)" + std::to_string(2 + i % 2) +
             "," + std::to_string(3 - i % 2) + "]}";
  ScratchDir dir;
  const auto current = dir.write("two.json", R"({"version":1,"partitions":[)" + parts + "]}");
  const std::string base =
      "reassign --current '" + current.string() + "' --brokers 0,1,2,3 --format json --balance-scope ";
  const auto cluster = nlohmann::json::parse(run_cli(base + "cluster").out);
  CHECK(cluster["moves"] == 0);
  CHECK(cluster["topics"][0]["replicas_per_broker"]["after"] == nlohmann::json::array({0, 6}));
  for (const char* scope : {"topic", "both"}) {
    CAPTURE(scope);
    const auto j = nlohmann::json::parse(run_cli(base + scope).out);
    CHECK(j["status"] == "optimal");
    CHECK(j["moves"] == 8);  // each topic puts 2 replicas on each of the two brokers it lacks
    REQUIRE(j["topics"].size() == 2);
    for (const auto& t : j["topics"]) {
      CHECK(t["replicas_per_broker"]["after"] == nlohmann::json::array({2, 4}));
      CHECK(t["leaders_per_broker"]["after"] == nlohmann::json::array({1, 2}));
      CHECK(t["bounds"]["replicas"]["lo"] == 2);
    }
  }
  const auto bad = run_cli(base + "rack");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "partsim reassign: --balance-scope: must be cluster, topic or both, got 'rack'\n");
}

TEST_CASE("partsim reassign reads partition sizes from kafka-log-dirs output") {
  ScratchDir dir;
  const auto current = dir.write("c.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]},
    {"topic":"t","partition":1,"replicas":[1,2]}]})");
  const auto sizes =
      dir.write("logdirs.txt",
                "Querying brokers for log directories information\n"
                "Received log directory information from brokers 0,1,2\n"
                R"({"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/d","error":null,"partitions":[)"
                R"({"partition":"t-0","size":3000000000,"offsetLag":0,"isFuture":false}]}]},)"
                R"({"broker":1,"logDirs":[{"logDir":"/d","error":null,"partitions":[)"
                R"({"partition":"t-0","size":2900000000,"offsetLag":0,"isFuture":false},)"
                R"({"partition":"t-1","size":1000000000,"offsetLag":0,"isFuture":false}]}]}]})"
                "\n");
  // Broker 2 leaves: t-1's replica on it is copied (1 GB) from its leader, broker 1.
  const auto r =
      run_cli("reassign --current '" + current.string() + "' --brokers 0,1,2,3 --target-brokers 0,1,3 --sizes '" +
              sizes.string() + "' --throttle 10MB/s --format json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["moves"] == 1);
  CHECK(j["bytes_to_copy"] == 1000000000);
  CHECK(j["copy_seconds"] == 100.0);
}

TEST_CASE(
    "partsim reassign: infeasible constraints exit 1 naming the constraint; bad input exits 2 naming the option") {
  ScratchDir dir;
  const auto current =
      dir.write("c.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1,2]}]})");
  const std::string base = "reassign --current '" + current.string() + "' ";
  auto r = run_cli(base + "--brokers 0:a,1:a,2:b --rack-mode strict");
  CHECK(r.exit_code == 1);
  CHECK(
      r.err ==
      "partsim reassign: infeasible: --rack-mode strict: t-0 needs 3 replicas, at most 1 per rack, and the target brokers span 2 racks\n");
  const std::vector<std::pair<std::string, std::string>> bad{
      {"--brokers 0,1,2 --rack-mode tidy", "partsim reassign: --rack-mode: must be strict, even or none, got 'tidy'\n"},
      {"--brokers 0,1,2 --rack-mode strict",
       "partsim reassign: --rack-mode strict: every target broker needs a rack, and broker 2 has none (give racks in --brokers, or use --rack-mode none)\n"},
      {"--brokers 0,1,2 --target-brokers 0-3", "partsim reassign: --target-brokers: broker 3 is not in --brokers\n"},
      {"--brokers 0,1,2 --target-brokers 2-0",
       "partsim reassign: --target-brokers: must be an integer in [2, 2147483647], got 0\n"},
      {"--brokers 0,1,2 --rf 4", "partsim reassign: --rf: must be an integer in [1, 3], got 4\n"},
      {"--brokers 0,1,2 --throttle 50MB/s",
       "partsim reassign: --throttle: needs partition sizes (--partition-size or --sizes) to estimate a copy time, or --simulate\n"},
      {"--brokers 0,1,2 --partition-size 1GB --throttle fast",
       "partsim reassign: --throttle: must be bytes per second, e.g. 500000000, 500MB, 1.5GiB or 50MB/s, got 'fast'\n"},
      {"--brokers 0,1,2 --partition-size 12parsecs",
       "partsim reassign: --partition-size: must be bytes, e.g. 500000000, 500MB, 1.5GiB, got '12parsecs'\n"},
      {"--brokers 0,1,2 --balance band:0.5",
       "partsim reassign: --balance band: must be a number in [1, 10], got '0.5'\n"},
      {"--brokers 0,1,2 --replicas-per-broker 2", "partsim reassign: --replicas-per-broker: must be LO:HI, got '2'\n"},
      {"--brokers 0,1,2 --format csv", "partsim reassign: --format: must be table or json, got 'csv'\n"},
      {"--brokers 0,1,2 --time-limit 0", "partsim reassign: --time-limit: must be a number in [0.1, 86400], got '0'\n"},
  };
  for (const auto& [args, message] : bad) {
    CAPTURE(args);
    r = run_cli(base + args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == message);
  }
  const auto dead =
      dir.write("brokers.json", R"({"version":1,"brokers":[{"id":0},{"id":1},{"id":2,"alive":false},{"id":3}]})");
  r = run_cli(base + "--brokers '" + dead.string() + "' --target-brokers 0-2");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim reassign: --target-brokers: broker 2 is not alive\n");
  // Without --target-brokers the live brokers are the targets: 2 is replaced by 3.
  r = run_cli(base + "--brokers '" + dead.string() + "' --format json");
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["plan"]["partitions"][0]["replicas"] == nlohmann::json::array({0, 1, 3}));
  const auto spaced =
      dir.write("spaced.json", R"({"version":1,"partitions":[{"topic":"a b","partition":0,"replicas":[1]}]})");
  r = run_cli("reassign --current '" + spaced.string() + "' --brokers 0,1");
  CHECK(r.exit_code == 2);
  CHECK(
      r.err ==
      "partsim reassign: " + spaced.string() +
          ": partitions[0].topic: 'a b' is not a legal Kafka topic name (1 to 249 of letters, digits, '.', '_' and '-')\n");
  const auto binary = dir.write("describe.txt", "Topic: t\xff\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n");
  r = run_cli("reassign --describe '" + binary.string() + "' --brokers 0,1,2");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("describe.txt:1:8: Topic: 't\\xFF' is not a legal Kafka topic name") != std::string::npos);
  // Explicit bounds replace --balance and are echoed back.
  r = run_cli(base + "--brokers 0,1,2,3 --replicas-per-broker 0:1 --leaders-per-broker 0:1 --format json");
  REQUIRE(r.exit_code == 0);
  const auto explicit_bounds = nlohmann::json::parse(r.out)["bounds"];
  CHECK(explicit_bounds["replicas"] == nlohmann::json{{"lo", 0}, {"hi", 1}});
  CHECK(explicit_bounds["leaders"] == nlohmann::json{{"lo", 0}, {"hi", 1}});
  // One partition lost, one not: a warning (every partition lost is refused as bad input, below).
  const auto lost = dir.write("lost.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[5,6]},
    {"topic":"t","partition":1,"replicas":[0,1]}]})");
  r = run_cli("reassign --current '" + lost.string() + "' --brokers 0,1,2");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("warning: t-0 has no live replica to copy from") != std::string::npos);
  const auto logdirs = dir.write("l.json", R"({"brokers":[{"broker":0,"logDirs":[{"partitions":[]}]}]})");
  r = run_cli(base + "--brokers 0,1,2 --sizes '" + logdirs.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim reassign: " + logdirs.string() + ": no size for t-0\n");
}

TEST_CASE("partsim reassign refuses empty and degenerate inputs with exit 2, naming the option or file") {
  ScratchDir dir;
  const auto empty = dir.write("empty.json", R"({"version":1,"partitions":[]})");
  const auto three =
      dir.write("c.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1,2]}]})");
  const auto dead =
      dir.write("dead.json", R"({"version":1,"brokers":[{"id":0},{"id":1,"alive":false},{"id":2,"alive":false}]})");
  const std::vector<std::pair<std::string, std::string>> cases{
      // GLPK aborted on an empty program (SIGABRT, exit 134).
      {"--current '" + empty.string() + "' --brokers 0,1",
       empty.string() + ": \"partitions\" is empty: list at least one {\"topic\",\"partition\",\"replicas\"} to plan"},
      {"--current '" + three.string() + "' --brokers 0,1,2 --target-brokers ''",
       "--target-brokers: must list at least one broker, e.g. 0-18,20, got ''"},
      {"--current '" + three.string() + "' --brokers 0,1,2 --target-brokers 0,1",
       "--target-brokers: t-0 has 3 replicas and only 2 target brokers can hold them; give at least 3 target brokers, or --rf 2"},
      {"--current '" + three.string() + "' --brokers '" + dead.string() + "'",
       "--brokers: t-0 has 3 replicas and only 1 live broker can hold them; give at least 3 live brokers, or --rf 1"},
      {"--current '" + three.string() + "' --brokers 5,6,7",
       "--brokers: no live broker holds a replica of any partition in --current (its replicas are on brokers 0,1,2): there is "
       "nothing to copy from"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const auto r = run_cli("reassign " + args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "partsim reassign: " + message + "\n");
  }
}

TEST_CASE("partsim reassign and leaders read a long --brokers list as a list, not as a file name") {
  std::string ids, parts;
  for (int i = 0; i < 300; ++i) ids += (i ? "," : "") + std::to_string(i);
  ScratchDir dir;
  const auto current =
      dir.write("c.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]}]})");
  for (const char* command : {"reassign", "leaders"}) {
    CAPTURE(command);
    const auto r =
        run_cli(std::string(command) + " --current '" + current.string() + "' --brokers " + ids + " --format json");
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
  }
}

TEST_CASE(
    "--describe input: a partition listed twice or a broker twice in its replicas is refused at its line, as in JSON") {
  ScratchDir dir;
  // Both were accepted: the first planned two copies of t-0, the second a replica list "0,0" -> "0,0,1".
  const auto twice = dir.write("twice.txt", "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"
                                            "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n");
  const auto same = dir.write("same.txt", "Topic: t\tPartition: 0\tLeader: 0\tReplicas: 0,0\tIsr: 0\n");
  for (const char* command : {"reassign", "leaders"}) {
    CAPTURE(command);
    auto r = run_cli(std::string(command) + " --describe '" + twice.string() + "' --brokers 0,1,2");
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "partsim " + std::string(command) + ": " + twice.string() + ":2:20: Partition: t-0 is listed twice\n");
    r = run_cli(std::string(command) + " --describe '" + same.string() + "' --brokers 0,1,2");
    CHECK(r.exit_code == 2);
    CHECK(r.err == "partsim " + std::string(command) + ": " + same.string() +
                       ":1:42: Replicas: broker 0 appears twice in '0,0'\n");
  }
}

TEST_CASE(
    "reassign --disk-capacity: even replica counts leave broker 0 over 85% of its disk; the plan moves two replicas") {
  const std::string base = "reassign --current " + example("disk-full-current.json") + " --brokers 0,1,2,3 --sizes " +
                           example("disk-full-log-dirs.txt") + " --balance exact";
  const auto counts = run_cli(base + " --format json");
  REQUIRE(counts.exit_code == 0);
  CHECK(counts.out.find("\"moves\": 0") != std::string::npos);
  const auto r = run_cli(base + " --disk-capacity 1.5TB");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("plan (optimal): 2 replica moves, 2 preferred-leader changes; 700 GB to copy") != std::string::npos);
  // While copying broker 0 still holds all it had (1.30 TB) and takes the 100 GB partition
  // counted 120 GB: 94.7%, which the cap (after the move) does not bound; the table says so.
  CHECK(r.out.find("     0  1.50 TB  1.30 TB 86.7%  800 GB 53.3%            54.7%          94.7%  logs-1 500 GB\n") !=
        std::string::npos);
  CHECK(r.out.find("     3  1.50 TB   400 GB 26.7%  900 GB 60.0%            68.0%          74.7%  logs-0 600 GB\n") !=
        std::string::npos);
  const auto j = run_cli(base + " --disk-capacity 0:1.5TB,1:1.5TB,2:1.5TB,3:1.5TB --format json");
  REQUIRE(j.exit_code == 0);
  CHECK(j.out.find("\"bytes_before\": 1300000000000") != std::string::npos);
  CHECK(j.out.find("\"max_disk\": 0.85") != std::string::npos);
  // At 1 TB no plan with four replicas per broker keeps every disk under 85%.
  const auto tight = run_cli(base + " --disk-capacity 1TB");
  CHECK(tight.exit_code == 1);
  CHECK(tight.err.find("infeasible: no plan keeps preferred leaders per broker within 2..2 and every broker's disk") !=
        std::string::npos);
  // ... and says which binds: the leader bounds alone are met, broker 0's disk is not.
  CHECK(tight.err.find("; the leader bounds alone can be met, so the disks bind (in the fewest-moves plan that meets "
                       "them, broker 0 would hold 1300000000000 bytes (moving in x1.2), over its 850000000000)\n") !=
        std::string::npos);
  // At 0.8 TB the replicas' 3.4 TB exceed the four brokers' 85% together.
  const auto full = run_cli(base + " --disk-capacity 0.8TB");
  CHECK(full.exit_code == 1);
  CHECK(full.err.find(": the replicas hold 3400000000000 bytes, more than the 4 brokers' disk limits together "
                      "(2720000000000)\n") != std::string::npos);
  for (const auto& [args, message] :
       {std::pair<std::string, std::string>{" --max-disk 0.9", "partsim reassign: --max-disk: needs --disk-capacity\n"},
        {" --disk-capacity 0:1TB,1:1TB,2:1TB,3:1TB,7:1TB",
         "partsim reassign: --disk-capacity: broker 7 is not a target broker\n"},
        {" --disk-capacity 0:1TB,1:1TB,1:2TB", "partsim reassign: --disk-capacity: broker 1 is listed twice\n"},
        {" --disk-capacity 0:1TB,1:1TB",
         "partsim reassign: --disk-capacity: no capacity for target broker 2 (give one size "
         "for all, or ID:SIZE for every target)\n"}}) {
    CAPTURE(args);
    const auto bad = run_cli(base + args);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err == message);
  }
  const auto no_sizes =
      run_cli("reassign --current " + example("disk-full-current.json") + " --brokers 0,1,2,3 --disk-capacity 1TB");
  CHECK(
      no_sizes.err ==
      "partsim reassign: --disk-capacity: needs partition sizes (--sizes from kafka-log-dirs, or --partition-size)\n");
}

TEST_CASE("partsim reassign --simulate carries its plan out in a scenario, at the throttle given") {
  const std::string base = "reassign --current " + example("new-broker-current.json") +
                           " --brokers 0,1,2,3 --balance exact --throttle 10MB/s --simulate " +
                           example("new-broker.yaml") + " --at-ms 30000";
  const auto r = run_cli(base + " --format json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& re = j["simulation"]["reassignment"];
  REQUIRE(re["steps"].size() == 1);
  CHECK(re["steps"][0]["at_ms"] == 30000.0);
  CHECK(re["steps"][0]["throttle_bytes_per_s"] == 10e6);
  // The step moves the plan's partitions (those it changes).
  CHECK(re["steps"][0]["partitions"] == j["changed"].size());
  // The copy is held to 10 MB/s: no sooner than its bytes at that rate.
  REQUIRE(re["completed_ms"].is_number());
  const double copy_s = re["steps"][0]["bytes_to_copy"].get<double>() / 10e6;
  CHECK(re["completed_ms"].get<double>() >= 30000 + copy_s * 1000);
  // Broker 3 ends with a share of the logs (it started empty).
  CHECK(re["samples"].back()["disk_bytes"][3].get<double>() > 0);

  const auto text = run_cli(base);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("simulated in ") != std::string::npos);
  CHECK(text.out.find("reassignment: every move completed at ") != std::string::npos);

  // A scenario that lacks the plan's topic, or places it otherwise, is refused.
  ScratchDir dir;
  const auto other = dir.write("other.yaml", R"(
run: {duration.ms: 10000}
cluster: {replication: followers, brokers: [{id: 0}, {id: 1}, {id: 2}, {id: 3}]}
topics: [{name: orders, partitions: 6, replication.factor: 2, assignment: [[1, 0], [1, 2], [2, 0], [0, 1], [1, 2], [2, 0]]}]
producers: [{name: p, workload: {topic: orders}}]
)");
  const auto refused = run_cli("reassign --current " + example("new-broker-current.json") +
                               " --brokers 0,1,2,3 --balance exact --simulate '" + other.string() + "'");
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("places topic 'orders' otherwise than the current assignment") != std::string::npos);
}

TEST_CASE("partsim reassign: an infeasible plan with disks says what the fewest-moves placement cannot meet") {
  // Both partitions on broker 0 (RF 1); each broker must lead exactly one, and broker 1's
  // 5 GB cannot take a 10 GB partition: the placement without moves misses the leader bounds,
  // and no other claim is made about them.
  const partsim::testing::ScratchDir dir;
  const auto current = dir.write("current.json", R"({"version": 1, "partitions": [
    {"topic": "t", "partition": 0, "replicas": [0]}, {"topic": "t", "partition": 1, "replicas": [0]}]})");
  const auto r = run_cli("reassign --current " + partsim::testing::q(current) +
                         " --brokers 0,1 --replicas-per-broker 0:2 --leaders-per-broker 1:1 --partition-size 10GB "
                         "--disk-capacity 0:100GB,1:5GB");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("infeasible: no plan keeps preferred leaders per broker within 1..1 and every broker's disk") !=
        std::string::npos);
  CHECK(r.err.find("; the fewest-moves placement cannot meet the leader bounds either\n") != std::string::npos);
}
