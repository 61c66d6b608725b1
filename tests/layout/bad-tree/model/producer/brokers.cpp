// Fixture.
#include "model/cluster/broker_service.hpp"
#include "model/detail/engine.hpp"
