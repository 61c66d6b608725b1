// Fixture: the engine includes the facade it implements.
#include "model/cluster_simulation.hpp"
