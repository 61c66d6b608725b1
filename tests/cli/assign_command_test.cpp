#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;

TEST_CASE("partsim assign reproduces T6 with Kafka's placer and as printed") {
  const auto kafka = run_cli("assign --brokers 0,1,2,3 --partitions 6 --rf 2 --start-index 0 --format csv");
  CHECK(kafka.exit_code == 0);
  CHECK(kafka.out == "partition,replicas (leader first)\n0,\"0,1\"\n1,\"1,2\"\n2,\"2,3\"\n3,\"3,0\"\n4,\"0,2\"\n5,\"1,3\"\n");
  const auto simple = run_cli("assign --brokers 0,1,2,3 --partitions 6 --rf 2 --placer simple --format csv");
  CHECK(simple.out == "partition,replicas (leader first)\n0,\"0,1\"\n1,\"1,2\"\n2,\"2,3\"\n3,\"3,0\"\n4,\"0,1\"\n5,\"1,2\"\n");
}

TEST_CASE("partsim assign scores balance, racks, single failures and cost") {
  const auto r = run_cli("assign --brokers 0:a,1:a,2:b,3:b,4:c,5:c --partitions 30 --rf 3 --placer striped --seed 3 --format json");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"partitions_rack_spread\": 30") != std::string::npos);
  CHECK(r.out.find("\"replicas_per_broker\": {\n    \"min\": 15,\n    \"max\": 15") != std::string::npos);
  CHECK(r.out.find("\"logs\": 90") != std::string::npos);
  CHECK(r.out.find("\"min_segment_files\": 270") != std::string::npos);
  // Same seed, same placement: java.util.Random is reproduced exactly.
  CHECK(run_cli("assign --brokers 0:a,1:a,2:b,3:b,4:c,5:c --partitions 30 --rf 3 --placer striped --seed 3 --format json").out == r.out);
}

TEST_CASE("bad assign input exits 2 naming the option") {
  struct Case { const char* args; const char* message; };
  const Case cases[] = {
      {"assign --brokers 0,1 --partitions 3 --rf 3", "partsim assign: --rf: must be <= the number of brokers (2), got 3\n"},
      {"assign --brokers 0,0 --partitions 3 --rf 1", "partsim assign: --brokers: broker 0 is listed twice\n"},
      {"assign --brokers 0:a:up --partitions 3 --rf 1", "partsim assign: --brokers: each broker is ID[:RACK[:fenced]], got '0:a:up'\n"},
      {"assign --brokers 0:a,1 --partitions 3 --rf 1", "partsim assign: --brokers: with racks, every broker needs one (Kafka's AdminOperationException)\n"},
      {"assign --brokers 0:a:fenced --partitions 3 --rf 1 --placer striped", "partsim assign: --rf: All brokers are currently fenced.\n"},
      {"assign --brokers 0,1 --partitions 3 --rf 1 --placer best", "partsim assign: --placer: must be admin, striped or simple, got 'best'\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
  }
}
