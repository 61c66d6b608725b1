// partsim size: the partition-count planner from the command line, on the placement article's
// 10 MB/s per partition (../shared ops guidance), and its refusals.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;

TEST_CASE("partsim size: 200 MB/s at 10 MB/s per partition, 12 members, 6 brokers -> 36") {
  const auto r = run_cli("size --peak 200MB/s --per-partition 10MB/s --consumers 12 --brokers 6");
  REQUIRE(r.exit_code == 0);
  // 200 / 10 = 20, x 1.5..2 = 30..40; of those only 36 is a multiple of 6 and of 12.
  CHECK(r.out.find("  produce:   200 MB/s / 10.0 MB/s = 20\n") != std::string::npos);
  CHECK(r.out.find("  needed 20; with headroom x1.5..x2: 30..40\n") != std::string::npos);
  CHECK(
      r.out.find("recommended: 36\n  - 6 brokers divide it: each leads 6\n  - 12 members divide it: each reads 3\n") !=
      std::string::npos);
  CHECK(r.out.find("  - 18 replicas per broker, within 2000\n") != std::string::npos);
  CHECK(r.out.find("counts to avoid: 31, 32, 33, 34, 35, 37, 38, 39, 40") != std::string::npos);
  // Doubling keeps half the keys in place, 36 -> 48 a quarter (gcd 12 of 48).
  CHECK(r.out.find("  36  48      25.0%\n") != std::string::npos);
  CHECK(r.out.find("  36  72      50.0%\n") != std::string::npos);
  const auto j = run_cli("size --peak 200MB/s --per-partition 10MB/s --consumers 12 --brokers 6 --format json");
  REQUIRE(j.exit_code == 0);
  CHECK(j.out.find("\"recommended\": 36") != std::string::npos);
}

TEST_CASE("partsim size --per-partition-from: a scenario measures one partition's throughput") {
  // A flat-out producer into one partition of a broker that takes 10 MB/s: the partition
  // carries a little under 10 MB/s of batches, and 200 MB/s wants 21 of them, so 36 again.
  const std::string probe = std::string(PARTSIM_SOURCE_DIR) + "/examples/size/partition-throughput.yaml";
  const auto j =
      run_cli("size --peak 200MB/s --per-partition-from " + probe + " --consumers 12 --brokers 6 --format json");
  REQUIRE(j.exit_code == 0);
  const auto out = nlohmann::json::parse(j.out);
  const double mean = out["per_partition_measured"]["mean_bytes_per_s"];
  CHECK(mean > 9.5e6);
  CHECK(mean <= 10e6);
  CHECK(out["per_partition_measured"]["partitions"] == 1);
  CHECK(out["for_produce"] == 21);
  CHECK(out["recommended"] == 36);
  CHECK(j.err.empty());
  // A producer at a set rate measures what it offered (1 MB/s into each of the study's three
  // partitions): said on stderr.
  const std::string offered = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/studies/disk-retention.yaml";
  const auto t = run_cli("size --peak 200MB/s --per-partition-from " + offered + " --brokers 3");
  REQUIRE(t.exit_code == 0);
  CHECK(t.out.find("(the mean of 3 partitions, 1.00 MB/s..1.00 MB/s)") != std::string::npos);
  CHECK(t.err.find("sends at a set rate: its partitions carried what it offered") != std::string::npos);
  // Two partitions of one 10 MB/s broker each carry about half of it: said too, and in JSON.
  const partsim::testing::ScratchDir dir;
  const auto two = dir.write("two.yaml", R"(name: two
run: {seed: 1, duration.ms: 5000, warmup.ms: 1000}
cluster: {brokers: [{id: 0, byte.rate: 10000000}]}
topics: [{name: probe, partitions: 2}]
producers:
  - name: perf-test
    config: {acks: all, linger.ms: 5, batch.size: 65536}
    workload: {topic: probe, arrivals: {kind: flat-out, send.cost.us: 1}, values: {kind: fixed, size: 1000}}
)");
  const auto shared =
      run_cli("size --peak 200MB/s --brokers 3 --format json --per-partition-from " + partsim::testing::q(two));
  REQUIRE(shared.exit_code == 0);
  const auto js = nlohmann::json::parse(shared.out);
  CHECK(js["per_partition_measured"]["shared_leaders"] == true);
  CHECK(js["per_partition_measured"]["mean_bytes_per_s"].get<double>() < 5.1e6);
  CHECK(shared.err.find("writes partitions that share a leader") != std::string::npos);
  CHECK(out["per_partition_measured"]["shared_leaders"] == false);
}

TEST_CASE("bad size input exits 2 naming the option") {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"size --peak 0 --per-partition 10MB/s --brokers 3",
       "partsim size: --peak: must be above 0 bytes per second, got '0'\n"},
      {"size --peak 1GB/s --per-partition fast --brokers 3",
       "partsim size: --per-partition: must be bytes per second, e.g. 500000000, 500MB, 1.5GiB or 50MB/s, got 'fast'\n"},
      {"size --peak 1GB/s --per-partition 10MB/s --brokers 3 --rf 4",
       "partsim size: --rf: must be an integer in [1, 3], got 4\n"},
      {"size --peak 1GB/s --per-partition 10MB/s --brokers 3 --peak-consume 2GB/s",
       "partsim size: --peak-consume: needs --per-partition-consume too\n"},
      {"size --peak 1GB/s --per-partition 10MB/s --brokers 3 --headroom 2:1.5",
       "partsim size: --headroom: must be a number in [2, 100], got '1.5'\n"},
      {"size --peak 1GB/s --per-partition 10MB/s", "partsim size: the option '--brokers' is required but missing\n"},
      {"size --peak 1GB/s --brokers 3",
       "partsim size: --per-partition, --per-partition-from: give exactly one (a measured rate, or a scenario that "
       "measures it)\n"},
      {"size --peak 1GB/s --per-partition 10MB/s --per-partition-from x.yaml --brokers 3",
       "partsim size: --per-partition, --per-partition-from: give exactly one (a measured rate, or a scenario that "
       "measures it)\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
  }
}
