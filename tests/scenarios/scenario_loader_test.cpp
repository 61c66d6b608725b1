#include "scenarios/loader/scenario_loader.hpp"

#include <doctest/doctest.h>

#include "scenarios/loader/input_error.hpp"

using namespace partsim;

namespace {
const char* kGood = R"(name: x
run: {records: 10}
cluster:
  brokers: [{id: 0}]
topics: [{name: t, partitions: 3}]
producers:
  - config: {linger.ms: 0}
    workload: {keys: {kind: none}}
)";

std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    scenarios::load_scenario_text(yaml, "s.yaml", sets);
  } catch (const scenarios::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a valid scenario loads with Kafka 4.x defaults") {
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml");
  CHECK(s.producers[0].config.batch_size_bytes == 16384);
  CHECK(s.producers[0].config.linger == model::SimTime::zero());
  CHECK(s.producers[0].workload.topic == "t");
  const auto d = scenarios::load_scenario_text(std::string(kGood).replace(std::string(kGood).find("{linger.ms: 0}"), 14, "{}"), "s.yaml");
  CHECK(d.producers[0].config.linger == model::SimTime::ms(5));  // KIP-1030
}

TEST_CASE("errors name file, line, column, key path and the rule") {
  CHECK(error_of(std::string(kGood).replace(std::string(kGood).find("linger.ms: 0"), 12, "linger.ms: -5")) ==
        "s.yaml:7:25: producers.0.config.linger.ms: must be a number in [0, 1e+12], got '-5'");
  CHECK(error_of(std::string(kGood).replace(std::string(kGood).find("linger.ms: 0"), 12, "lingr.ms: 0")).find(
            "s.yaml:7:14: producers.0.config.lingr.ms: unknown key (did you mean 'linger.ms'?)") == 0);
  CHECK(error_of("a: [1, 2") .find("s.yaml:1:1: invalid YAML: end of sequence flow not found") == 0);
  CHECK(error_of("") == "s.yaml: is empty; a scenario needs cluster, topics and producers");
}

TEST_CASE("--set overrides a field by its path, Kafka keys with dots included") {
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.linger.ms=7", "run.records=99"});
  CHECK(s.producers[0].config.linger == model::SimTime::ms(7));
  CHECK(*s.run.records == 99);
  const auto t = scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.batch.size=100"});
  CHECK(t.producers[0].config.batch_size_bytes == 100);
  CHECK(error_of(kGood, {"producers.0.config.linger.ms=-1"}) ==
        "--set producers.0.config.linger.ms=-1: producers.0.config.linger.ms: must be a number in [0, 1e+12], got '-1'");
  CHECK(error_of(kGood, {"producers.0.config.lingerms=1"}).find("unknown key 'lingerms' under producers.0.config") != std::string::npos);
}
