// Fixture.
#include "sim/check.hpp"
#  include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>
