// Fixture.
#include "model/scenario.hpp"
#include "cli/output.hpp"
