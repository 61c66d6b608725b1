#include <doctest/doctest.h>

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
