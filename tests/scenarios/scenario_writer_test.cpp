#include "scenarios/loader/scenario_writer.hpp"

#include <doctest/doctest.h>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;

TEST_CASE("every shipped scenario writes back to YAML that loads to the same scenario") {
  const auto files = partsim::testing::shipped_scenarios();
  REQUIRE(files.size() >= 16);
  for (const auto& f : files) {
    CAPTURE(f.string());
    const auto s = scenarios::load_scenario_file(f.string());
    const std::string once = scenarios::write_scenario_yaml(s);
    const auto again = scenarios::load_scenario_text(once, "resolved");
    CHECK(scenarios::write_scenario_yaml(again) == once);  // a fixpoint: nothing lost or changed
  }
}

TEST_CASE("a scenario re-run from its resolved YAML gives the same results") {
  const auto s = scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/slow-broker.yaml",
                                               {"run.duration.ms=2000"});
  const auto again = scenarios::load_scenario_text(scenarios::write_scenario_yaml(s), "resolved");
  const auto a = model::run_scenario(s, 3);
  const auto b = model::run_scenario(again, 3);
  CHECK(a.trace == b.trace);
  CHECK(a.events == b.events);
  CHECK(a.latency.quantile(0.99) == b.latency.quantile(0.99));
}

TEST_CASE("a topic's assignment writes back as it was given, and none is not written") {
  const char* yaml = R"(
run: {records: 10}
cluster:
  brokers: [{id: 4}, {id: 7}]
topics:
  - {name: placed, partitions: 2, replication.factor: 2, assignment: [[7, 4], [4, 7]]}
  - {name: striped, partitions: 2}
producers: [{workload: {topic: placed}}]
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const std::string once = scenarios::write_scenario_yaml(s);
  CHECK(once.find("assignment: [[7, 4], [4, 7]]") != std::string::npos);
  CHECK(once.find("assignment") == once.rfind("assignment"));  // the striped topic has none
  const auto again = scenarios::load_scenario_text(once, "resolved");
  CHECK(again.topics[0].assignment == s.topics[0].assignment);
  CHECK(again.topics[1].assignment.empty());
}
