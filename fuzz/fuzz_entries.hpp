#pragma once
// The code each fuzz target drives, shared with the regression test that replays the
// inputs the fuzzers found: bad input must end in InputError, never in a crash or a hang.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace partsim::fuzz {

inline void scenario_loader(std::string_view text) {
  try {
    scenarios::load_scenario_text(text, "fuzz.yaml");
  } catch (const scenarios::InputError&) {
  }
}

inline void key_reader(std::string_view text) {
  for (auto encoding : {scenarios::KeyEncoding::kUtf8, scenarios::KeyEncoding::kHex}) {
    try {
      scenarios::parse_keys(text, encoding, "fuzz.keys");
    } catch (const scenarios::InputError&) {
    }
  }
}

inline void set_override(std::string_view text) {
  static constexpr const char* kScenario = R"(run: {records: 10}
cluster: {brokers: [{id: 0, rtt.ms: 1}, {id: 1}]}
topics: [{name: t, partitions: 3}]
producers:
  - config: {linger.ms: 0}
    workload: {keys: {kind: template, template: "k{i}"}}
)";
  try {
    scenarios::load_scenario_text(kScenario, "base.yaml", {std::string(text)});
  } catch (const scenarios::InputError&) {
  }
}

}  // namespace partsim::fuzz
