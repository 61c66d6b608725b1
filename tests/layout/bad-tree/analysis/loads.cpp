// Fixture.
#include "model/run_result.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include <boost/program_options.hpp>
