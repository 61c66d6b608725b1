// Fixture.
#include "model/producer/sender.hpp"
#include "scenarios/loader/scenario_loader.hpp"
