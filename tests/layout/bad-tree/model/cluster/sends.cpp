// Fixture.
#include "model/scenario.hpp"
#include "model/producer/sender.hpp"
