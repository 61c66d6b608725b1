#pragma once
// A scenario back to YAML with every field written out, defaults included: the resolved
// configuration of a manifest. Loading the text gives the same scenario, so a result can
// be re-run exactly from its manifest.

#include <string>

#include "model/scenario.hpp"

namespace partsim::scenarios {

std::string write_scenario_yaml(const model::Scenario& s);

}  // namespace partsim::scenarios
