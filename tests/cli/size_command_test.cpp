// partsim size: the partition-count planner from the command line, on the placement article's
// 10 MB/s per partition (../shared ops guidance), and its refusals.

#include <doctest/doctest.h>

#include <string>

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
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
  }
}
