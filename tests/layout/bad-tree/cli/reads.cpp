// Fixture: cli/ may include every folder, but not yaml-cpp.
#include "analysis/table.hpp"
#include "model/scenario.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "sim/simulation.hpp"
#include <boost/program_options.hpp>
#include <yaml-cpp/yaml.h>
