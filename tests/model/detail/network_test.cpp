// The engine's network on its own: request ids that go stale with their slot, the ids the
// brokers give connections (a producer's first is its index, the later ones count on from
// the producer count per broker, in the order they open, consumers' too), and a threaded
// broker's connection muted until its request's acks settle.

#include "model/detail/network.hpp"

#include <doctest/doctest.h>

using partsim::model::detail::Connections;
using partsim::model::detail::RequestTable;

TEST_CASE("a request id goes stale once its request is gone, though its slot is used again") {
  RequestTable t;
  const std::uint64_t first = t.add(0, 1, 100, 1, true);
  REQUIRE(t.find(first) != nullptr);
  CHECK(t.find(first)->broker == 1);
  t.erase(first);
  CHECK(t.find(first) == nullptr);
  const std::uint64_t second = t.add(2, 0, 50, 2, false);
  CHECK(static_cast<std::uint32_t>(second) == static_cast<std::uint32_t>(first));  // the same slot
  CHECK(second != first);
  CHECK(t.find(first) == nullptr);
  REQUIRE(t.find(second) != nullptr);
  CHECK(t.find(second)->producer == 2);
  CHECK_FALSE(t.find(second)->live);
  t.erase(first);  // a stale erase leaves the new request alone
  CHECK(t.find(second) != nullptr);
}

TEST_CASE("connections are numbered per broker in the order they open, from the producer count on") {
  Connections c(3, 2);  // producers 0..2, brokers 0..1
  CHECK(c.producer(0, 0) == 0);
  CHECK(c.producer(2, 1) == 2);
  c.reconnect_producer(1, 0);
  CHECK(c.producer(1, 0) == 3);
  CHECK(c.producer(1, 1) == 1);  // its connection to the other broker is kept
  CHECK(c.consumer(0, 0, 0) == 4);
  CHECK(c.consumer(0, 0, 0) == 4);  // kept while it works
  CHECK(c.consumer(0, 1, 0) == 5);
  CHECK(c.consumer(0, 0, 1) == 3);  // broker 1 counts on its own
  c.drop_consumer(0, 0, 0);
  CHECK(c.consumer(0, 0, 0) == 6);
  c.reconnect_producer(2, 0);
  CHECK(c.producer(2, 0) == 7);
}

TEST_CASE("a connection muted until its request's acks settle is given back once") {
  Connections c(1, 1);
  CHECK_FALSE(c.settled(7).has_value());
  c.mute_until_settled(7, {0, 3, 5});
  const auto m = c.settled(7);
  REQUIRE(m.has_value());
  CHECK(m->broker == 0);
  CHECK(m->epoch == 3);
  CHECK(m->connection == 5);
  CHECK_FALSE(c.settled(7).has_value());
}
