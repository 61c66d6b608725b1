#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"

using partsim::testing::compact_json;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {
const char* kCurrent = R"({"version":1,"partitions":[
 {"topic":"t","partition":0,"replicas":[0,1,2]},{"topic":"t","partition":1,"replicas":[0,2,1]},
 {"topic":"t","partition":2,"replicas":[0,1,2]},{"topic":"t","partition":3,"replicas":[0,2,1]},
 {"topic":"t","partition":4,"replicas":[1,0,2]},{"topic":"t","partition":5,"replicas":[0,1,2]}]})";

// Two topics, a dead broker (3) that holds a replica of u-0, racks in the brokers file.
const char* kTwoTopics = R"({"version":1,"partitions":[
 {"topic":"t","partition":0,"replicas":[0,1,2]},{"topic":"t","partition":1,"replicas":[0,2,1]},
 {"topic":"t","partition":2,"replicas":[0,1,2]},{"topic":"t","partition":3,"replicas":[0,2,1]},
 {"topic":"u","partition":0,"replicas":[1,0,3]},{"topic":"t","partition":5,"replicas":[0,1,2]}]})";
const char* kRackedBrokers =
    R"({"version":1,"brokers":[{"id":0,"rack":"a"},{"id":1,"rack":"b"},{"id":2,"rack":"a"},{"id":3,"rack":"b","alive":false}]})";
}  // namespace

TEST_CASE("partsim leaders prints its table and JSON exactly") {
  ScratchDir dir;
  const auto current = dir.write("current.json", kTwoTopics);
  const auto brokers = dir.write("brokers.json", kRackedBrokers);
  const auto plan = dir.path / "plan.json";
  const std::string args =
      "leaders --current '" + current.string() + "' --brokers '" + brokers.string() + "' --failover";
  const auto table = run_cli(args + " --plan-out '" + plan.string() + "'");
  CHECK(table.exit_code == 0);
  CHECK(table.out == R"(preferred leaders per broker within 2..2: 3 of 6 partitions change leader (no data moves)

partition  before  after  leader
t-0        0,1,2   0,2,1
t-1        0,2,1   2,1,0  changed
t-2        0,1,2   1,2,0  changed
t-3        0,2,1   2,0,1  changed

broker  leaders before  leaders after
     0               5              2
     1               1              2
     2               0              2

worst single broker failure: a broker then leads 6 partitions before, 3 after (3 second replicas reordered)
plan written to )" + plan.string() +
                         " (kafka-reassign-partitions --execute)\n");
  const auto json = run_cli(args + " --format json");
  CHECK(json.exit_code == 0);
  const std::string plan_json =
      R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,2,1]},{"topic":"t","partition":1,"replicas":[2,1,0]},)"
      R"({"topic":"t","partition":2,"replicas":[1,2,0]},{"topic":"t","partition":3,"replicas":[2,0,1]},)"
      R"({"topic":"u","partition":0,"replicas":[1,0,3]},{"topic":"t","partition":5,"replicas":[0,1,2]}]})";
  CHECK(compact_json(json.out) ==
        R"({"bounds":{"lo":2,"hi":2},"leader_changes":3,"failover_changes":3,)"
        R"("changed":[{"topic":"t","partition":0,"before":[0,1,2],"after":[0,2,1],"leader_changed":false},)"
        R"({"topic":"t","partition":1,"before":[0,2,1],"after":[2,1,0],"leader_changed":true},)"
        R"({"topic":"t","partition":2,"before":[0,1,2],"after":[1,2,0],"leader_changed":true},)"
        R"({"topic":"t","partition":3,"before":[0,2,1],"after":[2,0,1],"leader_changed":true}],)"
        R"("brokers":[{"broker":0,"leaders_before":5,"leaders_after":2},)"
        R"({"broker":1,"leaders_before":1,"leaders_after":2},{"broker":2,"leaders_before":0,"leaders_after":2}],)"
        R"("worst_single_failure_max_leaders":{"before":6,"after":3},"plan":)" +
            plan_json + "}");
  CHECK(compact_json(slurp(plan)) == plan_json);
  // Without --failover, and every listed broker alive: only new leaders are listed, and the
  // last line has no reorder note.
  const auto plain = run_cli("leaders --current '" + current.string() + "' --brokers 0,1,2,3 --balance band:1.5");
  CHECK(plain.exit_code == 0);
  CHECK(plain.out == R"(preferred leaders per broker within 0..3: 2 of 6 partitions change leader (no data moves)

partition  before  after  leader
t-0        0,1,2   2,0,1  changed
t-2        0,1,2   1,0,2  changed

broker  leaders before  leaders after
     0               5              3
     1               1              2
     2               0              1
     3               0              0

worst single broker failure: a broker then leads 6 partitions before, 5 after
)");
}

TEST_CASE("partsim leaders balances preferred leaders with the fewest changes and writes Kafka's JSON") {
  ScratchDir dir;
  const auto current = dir.write("current.json", kCurrent);
  const auto plan = dir.path / "plan.json";
  const auto r = run_cli("leaders --current '" + current.string() +
                         "' --brokers 0,1,2 --failover --format json --plan-out '" + plan.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\"leader_changes\": 3") != std::string::npos);  // 5/1/0 -> 2/2/2 needs three changes
  CHECK(r.out.find("\"before\": 6") != std::string::npos);
  CHECK(r.out.find("\"after\": 3") != std::string::npos);
  const auto written = slurp(plan);
  CHECK(written.rfind("{\n  \"version\": 1,\n  \"partitions\": [", 0) == 0);
}

TEST_CASE("partsim leaders reads kafka-topics --describe output") {
  ScratchDir dir;
  const auto describe = dir.write("describe.txt",
                                  "Topic: t\tTopicId: x\tPartitionCount: 3\tReplicationFactor: 2\tConfigs:\n"
                                  "\tTopic: t\tPartition: 0\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n"
                                  "\tTopic: t\tPartition: 1\tLeader: 0\tReplicas: 0,2\tIsr: 0,2\n"
                                  "\tTopic: t\tPartition: 2\tLeader: 0\tReplicas: 0,1\tIsr: 0,1\n");
  const auto r = run_cli("leaders --describe '" + describe.string() + "' --brokers 0,1,2");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("preferred leaders per broker within 1..1: 2 of 3 partitions change leader", 0) == 0);
}

TEST_CASE("partsim leaders reports infeasible bounds and bad input") {
  ScratchDir dir;
  const auto current = dir.write("c.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]},
    {"topic":"t","partition":1,"replicas":[0,1]}]})");
  auto r = run_cli("leaders --current '" + current.string() + "' --brokers 0,1,2 --leaders-per-broker 1:1");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("infeasible") != std::string::npos);
  const auto bad = dir.write("bad.json", "{\"version\":1,\n\"partitions\": [ {\"topic\": 5} ]}");
  r = run_cli("leaders --current '" + bad.string() + "' --brokers 0,1");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("partitions[0]: needs \"topic\" (string)") != std::string::npos);
  const auto broken = dir.write("broken.json", "{\"version\":1,\n  \"partitions\": [ ");
  r = run_cli("leaders --current '" + broken.string() + "' --brokers 0,1");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("broken.json:2:") != std::string::npos);
  r = run_cli("leaders --brokers 0,1");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim leaders: give the current assignment with exactly one of --current or --describe\n");
}

TEST_CASE("partsim leaders refuses empty and degenerate inputs with exit 2, naming the option or file") {
  ScratchDir dir;
  const auto empty = dir.write("empty.json", R"({"version":1,"partitions":[]})");
  const auto current = dir.write("c.json", R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]},
    {"topic":"t","partition":1,"replicas":[3,4]}]})");
  const std::vector<std::pair<std::string, std::string>> cases{
      // Was exit 1: "infeasible: broker -1 can lead only 0 partitions among its replicas, below the lower bound 0".
      {"--current '" + empty.string() + "' --brokers 0,1",
       empty.string() + ": \"partitions\" is empty: list at least one {\"topic\",\"partition\",\"replicas\"} to plan"},
      // Was exit 1: "infeasible: partition 1 has no replica on the given brokers".
      {"--current '" + current.string() + "' --brokers 0,1,2",
       "--brokers: t-1 has no replica on a live broker (its replicas are on brokers 3,4), so none can lead it without moving "
       "data (partsim reassign moves it)"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const auto r = run_cli("leaders " + args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "partsim leaders: " + message + "\n");
  }
}
