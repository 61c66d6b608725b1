#pragma once
// The code each fuzz target drives, shared with the regression test that replays the
// inputs the fuzzers found: bad input must end in InputError, never in a crash or a hang.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scenarios/loader/assignment_reader.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/members_reader.hpp"
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

// Every reader of the placement and consumer commands' inputs: reassignment JSON, --describe
// text, brokers (JSON and list), kafka-log-dirs output, members files and --topics. A parsed
// assignment must write back as JSON that parses to the same partitions; a members file must
// name only the topics and partitions it was given.
inline void assignment_inputs(std::string_view view) {
  const std::string text(view);
  auto input_errors_only = [](auto&& read) {
    try {
      read();
    } catch (const scenarios::InputError&) {
    }
  };
  input_errors_only([&] {
    const auto parsed = scenarios::parse_reassignment_json(text, "fuzz.json");
    const auto again = scenarios::parse_reassignment_json(scenarios::write_reassignment_json(parsed), "again.json");
    if (again.size() != parsed.size()) __builtin_trap();
    for (std::size_t i = 0; i < parsed.size(); ++i)
      if (again[i].topic != parsed[i].topic || again[i].partition != parsed[i].partition ||
          again[i].replicas != parsed[i].replicas)
        __builtin_trap();
  });
  input_errors_only([&] { scenarios::parse_topics_describe(text, "fuzz.txt"); });
  input_errors_only([&] { scenarios::parse_brokers_json(text, "fuzz.json"); });
  input_errors_only([&] { scenarios::parse_brokers_list(text, "--brokers"); });
  input_errors_only([&] { scenarios::parse_log_dirs_json(text, "fuzz.txt"); });
  input_errors_only([&] {
    const std::map<std::string, std::int32_t> topics{{"orders", 12}, {"payments", 6}};
    for (const auto& m : scenarios::parse_members_json(text, "fuzz.json", topics).members) {
      if (m.id.empty()) __builtin_trap();
      for (const auto& p : m.owned)
        if (topics.count(p.topic) == 0 || p.partition < 0 || p.partition >= topics.at(p.topic)) __builtin_trap();
      for (const auto& t : m.topics)
        if (topics.count(t) == 0) __builtin_trap();
    }
  });
  input_errors_only([&] { scenarios::parse_topic_counts(text, "--topics", 1000000); });
}

}  // namespace partsim::fuzz
