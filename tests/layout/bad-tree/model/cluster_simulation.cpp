// Fixture: the engine includes the domains.
#include "model/detail/engine.hpp"
#include "model/producer/kafka_producer.hpp"
