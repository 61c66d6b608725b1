// Fixture: the engine includes the domains.
#include "model/cluster/leadership.hpp"
#include "model/producer/kafka_producer.hpp"
