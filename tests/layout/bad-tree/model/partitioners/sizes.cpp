// Fixture.
#include "model/partitioners/key_hash.hpp"
#include "model/producer/record_size.hpp"
