// The migration section end to end: partsim run's table and JSON, compare with the three
// strategies side by side on one workload.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;

namespace {
const std::string kDir = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/migration/";
}

TEST_CASE("partsim run reports the bridge migration as a table and as JSON") {
  auto r = run_cli("run " + kDir + "bridge-book.yaml");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("migration bridge: events (4 partitions) -> events-v2 (8 partitions)") != std::string::npos);
  CHECK(r.out.find("sample: book-B0 old=p0 new=p0") != std::string::npos);
  r = run_cli("run " + kDir + "bridge-book.yaml --format json");
  REQUIRE(r.exit_code == 0);
  const auto m = nlohmann::json::parse(r.out).at("migration");
  CHECK(m.at("strategy") == "bridge");
  CHECK(m.at("records_migrated") == 6000);
  CHECK(m.at("keys") == 3000);
  CHECK(m.at("keys_changed_partition") == 1479);
  CHECK(m.at("ratio") == doctest::Approx(0.493));
  CHECK(m.at("order_violations") == 0);
  CHECK(m.at("keys_with_all_events") == 3000);
  CHECK(m.at("stable") == true);
  CHECK(m.at("downtime_ms") == 0);
  CHECK(m.at("duplicates") == 0);
  CHECK(m.at("inconsistent_keys") == 0);
  CHECK(m.at("bridge").at("lag_at_start") == 6000);
  // The bridge starts after the last send: it never catches up while the producers send,
  // so there is no switch and no catch-up time.
  CHECK(m.at("bridge").at("caught_up") == false);
  CHECK(m.at("bridge").at("caught_up_ms").is_null());
  CHECK(m.at("bridge").at("switch_ms").is_null());
  r = run_cli("run " + kDir + "bridge-book.yaml");
  CHECK(r.out.find("the bridge did not catch up before the producers stopped sending") != std::string::npos);
  r = run_cli("run " + kDir + "bridge-live.yaml --format json");
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out).at("migration").at("bridge").at("caught_up") == true);
}

TEST_CASE("without keyed records the migration's ratio is undefined: null in JSON, '-' in the table") {
  auto r = run_cli("run " + kDir + "dual-write-book.yaml --set producers.0.workload.keys.kind=none --format json");
  REQUIRE(r.exit_code == 0);
  const auto m = nlohmann::json::parse(r.out).at("migration");
  CHECK(m.at("keys") == 0);
  CHECK(m.at("ratio").is_null());
  r = run_cli("run " + kDir + "dual-write-book.yaml --set producers.0.workload.keys.kind=none");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\nratio                              -\n") != std::string::npos);
}

TEST_CASE("a bridge rate too small to pace is refused at load") {
  auto r = run_cli("run " + kDir + "bridge-book.yaml --set migration.bridge.rate=1e-6");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("migration.bridge.rate: must be 0 (unlimited) or at least 0.001 records/s") != std::string::npos);
  r = run_cli("run " + kDir + "bridge-book.yaml --set migration.bridge.rate=1e-300");
  CHECK(r.exit_code == 2);
  r = run_cli("run " + kDir + "bridge-book.yaml --set migration.bridge.rate=0.001 --set run.records=100000000000");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("past the end of simulated time") != std::string::npos);
}

TEST_CASE("compare runs the three strategies side by side on one workload") {
  const auto r = run_cli(
      "compare " + kDir +
      "stop-replay.yaml --variant stop-replay:migration.strategy=stop-replay "
      "--variant dual-write:migration.strategy=dual-write,migration.at.ms=0 --variant bridge:migration.strategy=bridge --format json");
  REQUIRE(r.exit_code == 0);
  const auto runs = nlohmann::json::parse(r.out).at("runs");
  REQUIRE(runs.size() == 3);
  const auto metric = [&](std::size_t i, const std::string& name) {
    return runs.at(i).at("metrics").at("migration." + name);
  };
  // Only stop-replay stops the producers; its downtime is the replay plus 2 s of verify.
  CHECK(metric(0, "downtime_ms").get<double>() > 2000);
  CHECK(metric(1, "downtime_ms") == 0);
  CHECK(metric(2, "downtime_ms") == 0);
  CHECK(metric(1, "bridge.max_lag").is_null());
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(metric(i, "keys_changed_partition") == 1479);
    CHECK(metric(i, "order_violations") == 0);
    CHECK(metric(i, "keys_with_all_events") == 3000);
  }
  const auto text = run_cli("compare " + kDir +
                            "stop-replay.yaml --variant stop-replay:migration.strategy=stop-replay "
                            "--variant bridge:migration.strategy=bridge");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("migration.downtime_ms") != std::string::npos);
}

TEST_CASE("a bad migration --set names the option and what is allowed") {
  const auto r = run_cli("run " + kDir + "bridge-book.yaml --set migration.bridge.route=random");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("migration.bridge.route") != std::string::npos);
  CHECK(r.err.find("by-key, round-robin") != std::string::npos);
}
