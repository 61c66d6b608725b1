// Fixture.
#include "model/partitioners/key_hash.hpp"
#include "model/cluster/leadership.hpp"
#include "model/cluster_simulation.hpp"
