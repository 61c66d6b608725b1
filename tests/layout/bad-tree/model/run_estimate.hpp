// Fixture.
#include "model/scenario.hpp"
#include "model/partitioners/partitioner.hpp"
#include "model/producer/sender.hpp"
