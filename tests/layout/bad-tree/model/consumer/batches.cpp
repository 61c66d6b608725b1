// Fixture.
#include "model/cluster/broker_service.hpp"
#include "model/producer/producer_batch.hpp"
