#pragma once
// YAML scenario files -> a validated model::Scenario. The only place that sees scenario
// YAML. Errors are collected (all of a file at once) and thrown as one InputError whose
// lines read "file:line:col: path: rule, got X". Warnings (settings Kafka accepts but that
// make every send fail, ...) read the same and are handed back: the loader never prints.

#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.hpp"

namespace partsim::scenarios {

/// Loads a scenario file and applies --set overrides ("producers.0.config.linger.ms=0").
/// Warnings are appended to `*warnings` when given; show them wherever a user reads output.
model::Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& sets = {},
                                   std::vector<std::string>* warnings = nullptr);

/// The same from text; `source` names it in errors.
model::Scenario load_scenario_text(std::string_view text, const std::string& source,
                                   const std::vector<std::string>& sets = {},
                                   std::vector<std::string>* warnings = nullptr);

}  // namespace partsim::scenarios
