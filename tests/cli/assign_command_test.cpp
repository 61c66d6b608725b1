#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"

using partsim::testing::compact_json;
using partsim::testing::run_cli;

TEST_CASE("partsim assign reproduces T6 with Kafka's placer and as printed") {
  const auto kafka = run_cli("assign --brokers 0,1,2,3 --partitions 6 --rf 2 --start-index 0 --format csv");
  CHECK(kafka.exit_code == 0);
  CHECK(kafka.out ==
        "partition,replicas (leader first)\n0,\"0,1\"\n1,\"1,2\"\n2,\"2,3\"\n3,\"3,0\"\n4,\"0,2\"\n5,\"1,3\"\n");
  const auto simple = run_cli("assign --brokers 0,1,2,3 --partitions 6 --rf 2 --placer simple --format csv");
  CHECK(simple.out ==
        "partition,replicas (leader first)\n0,\"0,1\"\n1,\"1,2\"\n2,\"2,3\"\n3,\"3,0\"\n4,\"0,1\"\n5,\"1,2\"\n");
}

TEST_CASE("partsim assign scores balance, racks, single failures and cost") {
  const auto r = run_cli(
      "assign --brokers 0:a,1:a,2:b,3:b,4:c,5:c --partitions 30 --rf 3 --placer striped --seed 3 --format json");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"partitions_rack_spread\": 30") != std::string::npos);
  CHECK(r.out.find("\"replicas_per_broker\": {\n    \"min\": 15,\n    \"max\": 15") != std::string::npos);
  CHECK(r.out.find("\"logs\": 90") != std::string::npos);
  CHECK(r.out.find("\"min_segment_files\": 270") != std::string::npos);
  // Same seed, same placement; another seed, another one (the seed reaches the draws). That
  // the draws are java.util.Random's is pinned in tests/model/placement/striped_placer_test.cpp.
  CHECK(
      run_cli("assign --brokers 0:a,1:a,2:b,3:b,4:c,5:c --partitions 30 --rf 3 --placer striped --seed 3 --format json")
          .out == r.out);
  CHECK(
      run_cli("assign --brokers 0:a,1:a,2:b,3:b,4:c,5:c --partitions 30 --rf 3 --placer striped --seed 4 --format json")
          .out != r.out);
}

// The whole report, byte for byte: the table for people and the JSON for programs.
TEST_CASE("partsim assign prints the striped placement, its score and its cost exactly") {
  const std::string args =
      "assign --brokers 0:a,1:a,2:b,3:b,4:c,5:c:fenced --partitions 6 --rf 3 --placer striped --seed 3";
  const auto table = run_cli(args);
  CHECK(table.exit_code == 0);
  CHECK(table.out == R"(the KRaft controller's StripedReplicaPlacer, java.util.Random seed 3

partition  replicas (leader first)
        0  1,3,4
        1  2,4,0
        2  4,1,3
        3  0,2,4
        4  3,4,1
        5  0,4,3

broker  rack  replicas  preferred leaders
     0  a            3                  2
     1  a            3                  1
     2  b            2                  1
     3  b            4                  1
     4  c            6                  1
     5  c            0                  0

score: replicas per broker 0..6, preferred leaders 0..2, rack spread 6/6 partitions, worst single failure leaves a broker with 2 leaders

leaders after one broker fails (first live replica leads):
failed broker  max leaders  min leaders  offline partitions
            0            2            0                   0
            1            2            0                   0
            2            2            0                   0
            3            2            0                   0
            4            2            0                   0
            5            2            1                   0

cost on disk: 18 partition directories, 90 files when new, 18 logs, at least 54 segment files
)");
  const auto json = run_cli(args + " --format json");
  CHECK(json.exit_code == 0);
  CHECK(
      compact_json(json.out) ==
      R"({"placer":"striped","method":"the KRaft controller's StripedReplicaPlacer, java.util.Random seed 3",)"
      R"("assignment":[{"partition":0,"replicas":[1,3,4]},{"partition":1,"replicas":[2,4,0]},{"partition":2,"replicas":[4,1,3]},)"
      R"({"partition":3,"replicas":[0,2,4]},{"partition":4,"replicas":[3,4,1]},{"partition":5,"replicas":[0,4,3]}],)"
      R"("brokers":[{"broker":0,"rack":"a","replicas":3,"preferred_leaders":2},{"broker":1,"rack":"a","replicas":3,"preferred_leaders":1},)"
      R"({"broker":2,"rack":"b","replicas":2,"preferred_leaders":1},{"broker":3,"rack":"b","replicas":4,"preferred_leaders":1},)"
      R"({"broker":4,"rack":"c","replicas":6,"preferred_leaders":1},{"broker":5,"rack":"c","replicas":0,"preferred_leaders":0}],)"
      R"("replicas_per_broker":{"min":0,"max":6},"leaders_per_broker":{"min":0,"max":2},"partitions_rack_spread":6,)"
      R"("single_failures":[{"failed":0,"max_leaders":2,"min_leaders":0,"offline":0},{"failed":1,"max_leaders":2,"min_leaders":0,"offline":0},)"
      R"({"failed":2,"max_leaders":2,"min_leaders":0,"offline":0},{"failed":3,"max_leaders":2,"min_leaders":0,"offline":0},)"
      R"({"failed":4,"max_leaders":2,"min_leaders":0,"offline":0},{"failed":5,"max_leaders":2,"min_leaders":1,"offline":0}],)"
      R"("cost":{"partition_directories":18,"files":90,"logs":18,"min_segment_files":54}})");
}

TEST_CASE("partsim assign with racks draws AdminUtils' start index and shift and sorts the brokers by id") {
  const auto r = run_cli("assign --brokers 3:r2,0:r1,1:r1,2:r2 --partitions 4 --rf 2 --seed 5");
  CHECK(r.exit_code == 0);
  CHECK(r.out == R"(Kafka's AdminUtils, rack-aware, start index 2, replica shift 0

partition  replicas (leader first)
        0  1,3
        1  3,0
        2  0,2
        3  2,1

broker  rack  replicas  preferred leaders
     0  r1           2                  1
     1  r1           2                  1
     2  r2           2                  1
     3  r2           2                  1

score: replicas per broker 2..2, preferred leaders 1..1, rack spread 4/4 partitions, worst single failure leaves a broker with 2 leaders

leaders after one broker fails (first live replica leads):
failed broker  max leaders  min leaders  offline partitions
            0            2            1                   0
            1            2            1                   0
            2            2            1                   0
            3            2            1                   0

cost on disk: 8 partition directories, 40 files when new, 8 logs, at least 24 segment files
)");
}

TEST_CASE("bad assign input exits 2 naming the option") {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"assign --brokers 0,1 --partitions 3 --rf 3",
       "partsim assign: --rf: must be <= the number of brokers (2), got 3\n"},
      {"assign --brokers 0,0 --partitions 3 --rf 1", "partsim assign: --brokers: broker 0 is listed twice\n"},
      {"assign --brokers 0:a:up --partitions 3 --rf 1",
       "partsim assign: --brokers: each broker is ID[:RACK[:fenced]], got '0:a:up'\n"},
      {"assign --brokers 0:a,1 --partitions 3 --rf 1",
       "partsim assign: --brokers: with racks, every broker needs one (Kafka's AdminOperationException)\n"},
      // Was "--rf: All brokers are currently fenced.": the brokers are the problem, not --rf.
      {"assign --brokers 0:a:fenced --partitions 3 --rf 1 --placer striped",
       "partsim assign: --brokers: every broker is fenced, and the striped placer needs an unfenced one to lead (Kafka: All brokers "
       "are currently fenced.)\n"},
      // These four were accepted: fenced brokers placed on, an empty rack taken for none, the start index ignored.
      {"assign --brokers 0:a,1:a:fenced --partitions 3 --rf 1",
       "partsim assign: --brokers: ':fenced' needs --placer striped (the KRaft controller's placer); --placer admin places on "
       "every broker listed, so leave fenced brokers out\n"},
      {"assign --brokers 0,1:a:fenced --partitions 3 --rf 1 --placer simple",
       "partsim assign: --brokers: ':fenced' needs --placer striped (the KRaft controller's placer); --placer simple places on "
       "every broker listed, so leave fenced brokers out\n"},
      {"assign --brokers 0:,1 --partitions 3 --rf 1",
       "partsim assign: --brokers: each broker is ID[:RACK[:fenced]] with a non-empty RACK, got '0:'\n"},
      {"assign --brokers 0,1 --partitions 3 --rf 1 --placer striped --start-index 1",
       "partsim assign: --start-index: only --placer admin has a start index, got --placer striped\n"},
      {"assign --brokers '' --partitions 3 --rf 1",
       "partsim assign: --brokers: must list at least one broker as ID[:RACK[:fenced]],..., got ''\n"},
      {"assign --brokers 0,1 --partitions 3 --rf 1 --placer best",
       "partsim assign: --placer: must be admin, striped or simple, got 'best'\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
  }
}

// --add-partitions: where Kafka's controller puts partitions added to a topic, and the plan that evens it.

TEST_CASE("assign --add-partitions follows Kafka's AddPartitionsTest, and shows what brokers added later miss") {
  partsim::testing::ScratchDir dir;
  // testReplicaPlacementPartialServers: four brokers, p0 [1,2], increased to 3 partitions.
  const auto current = dir.path / "current.json";
  std::ofstream(current) << R"({"version":1,"partitions":[{"topic":"new-topic2","partition":0,"replicas":[1,2]}]})";
  const auto kafka =
      run_cli("assign --brokers 0,1,2,3 --current '" + current.string() + "' --add-partitions 2 --format csv");
  REQUIRE(kafka.exit_code == 0);
  CHECK(kafka.out == "partition,replicas (leader first)\n0,\"1,2\"\n1,\"2,0\"\n2,\"3,1\"\n");
  // A topic made on brokers 0-2; brokers 3-5 came later. The new partitions start at partition
  // 0's leader and continue its pattern over every broker: the old brokers keep all they had.
  const auto plan = dir.path / "plan.json";
  const auto r = run_cli("assign --brokers 0,1,2,3,4,5 --created-on 0,1,2 --partitions 6 --rf 2 --start-index 0 "
                         "--add-partitions 3 --topic orders --format json --plan-out '" +
                         plan.string() + "'");
  REQUIRE(r.exit_code == 0);
  const auto j = compact_json(r.out);
  CHECK(
      j.find(
          R"("added":[{"partition":6,"replicas":[0,2]},{"partition":7,"replicas":[1,3]},{"partition":8,"replicas":[2,4]}])") !=
      std::string::npos);
  CHECK(j.find(R"("after":{"replicas_per_broker":{"min":0,"max":6},"leaders_per_broker":{"min":0,"max":3})") !=
        std::string::npos);
  // The fewest moves to 3 replicas and 1-2 preferred leaders on every broker: broker 5 needs
  // 3 replicas and the brokers 3 and 4 two more each (7), three leaders move to the new brokers.
  CHECK(
      j.find(
          R"("moves":7,"leader_changes":3,"method":"flow","evened":{"replicas_per_broker":{"min":3,"max":3},"leaders_per_broker":{"min":1,"max":2})") !=
      std::string::npos);
  const auto written = compact_json(partsim::testing::slurp(plan));
  CHECK(written.find(R"("topic":"orders","partition":0,"replicas":[0,5])") != std::string::npos);
  CHECK(written.find(R"("partition":2)") == std::string::npos);  // unchanged partitions are not in the plan
  // KRaft: a fresh striped placement of the new partitions alone, as the same seed places a new topic.
  const auto kraft = run_cli("assign --brokers 0,1,2,3,4,5 --current '" + current.string() +
                             "' --add-partitions 3 --placer striped --seed 5 --format csv");
  const auto fresh =
      run_cli("assign --brokers 0,1,2,3,4,5 --partitions 3 --rf 2 --placer striped --seed 5 --format csv");
  REQUIRE(kraft.exit_code == 0);
  const auto rows = [](const std::string& csv) { return csv.substr(csv.find('\n') + 1); };
  CHECK(kraft.out == "partition,replicas (leader first)\n0,\"1,2\"\n" + [&] {
    std::string shifted, rest = rows(fresh.out);
    for (std::size_t at = 0, p = 1; at < rest.size(); ++p) {
      const auto comma = rest.find(',', at), end = rest.find('\n', at);
      shifted += std::to_string(p) + rest.substr(comma, end - comma + 1);
      at = end + 1;
    }
    return shifted;
  }());
}

TEST_CASE("bad assign --add-partitions input exits 2 naming the option") {
  partsim::testing::ScratchDir dir;
  const auto two = dir.path / "two.json";
  std::ofstream(two)
      << R"({"version":1,"partitions":[{"topic":"a","partition":0,"replicas":[1]},{"topic":"b","partition":0,"replicas":[1]}]})";
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"assign --brokers 0,1 --partitions 3 --rf 1 --add-partitions 2 --placer simple",
       "partsim assign: --add-partitions: takes --placer admin (the ZooKeeper-era controller's rule) or striped (KRaft's); no "
       "controller adds partitions by plain round-robin\n"},
      {"assign --brokers 0,1 --partitions 3 --rf 1 --created-on 0,7 --add-partitions 2",
       "partsim assign: --created-on: broker 7 is not in --brokers (list every broker there)\n"},
      {"assign --brokers 0,1 --current '" + two.string() + "' --partitions 3 --add-partitions 2",
       "partsim assign: --partitions: the topic's partitions come from --current; leave --partitions out\n"},
      {"assign --brokers 0,1 --current '" + two.string() + "' --add-partitions 2",
       "partsim assign: --current: lists topics a and b; --add-partitions takes one topic\n"},
      {"assign --brokers 0,1 --partitions 3 --rf 1 --plan-out x.json",
       "partsim assign: --plan-out: only with --add-partitions\n"},
      {"assign --brokers 0,1 --rf 1 --add-partitions 2",
       "partsim assign: the option '--partitions' is required but missing (or give the topic's assignment with --current)\n"},
      {"assign --brokers 0,1 --partitions 2 --rf 2 --created-on 0 --add-partitions 2",
       "partsim assign: --rf: must be <= the number of brokers the topic was created on (1), got 2\n"},
      {"assign --brokers 0,1 --partitions 2 --rf 1 --add-partitions 0",
       "partsim assign: --add-partitions: must be an integer in [1, 1000000], got 0\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
  }
}

TEST_CASE("assign --add-partitions refuses fenced brokers for admin, and replicas on brokers --brokers leaves out") {
  partsim::testing::ScratchDir dir;
  const auto current = dir.path / "current.json";
  std::ofstream(current) << R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[9,1]}]})";
  const auto away = run_cli("assign --brokers 0,1,2,3 --current '" + current.string() + "' --add-partitions 2");
  CHECK(away.exit_code == 2);
  CHECK(away.err ==
        "partsim assign: --brokers: partition 0 has a replica on broker 9, which --brokers does not list (list "
        "every broker of the cluster)\n");
  const auto fenced =
      run_cli("assign --brokers 0:a,1:a,2:b,3:b:fenced --partitions 3 --rf 2 --created-on 0,1,2 --add-partitions 4");
  CHECK(fenced.exit_code == 2);
  CHECK(fenced.err.find("':fenced' needs --placer striped") != std::string::npos);
}
