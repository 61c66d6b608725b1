// Fixture for tests/layout/check_includes_selftest.cmake: one forbidden include per rule.
#include <vector>
#include "sim/sim_time.hpp"
#include "model/scenario.hpp"
