// A Kafka-shaped broker (num.network.threads, num.io.threads, queued.max.requests) and the
// host core pool its work may share, on a manual clock: every expectation is worked out by
// hand in the comments from request.ms alone (no jitter, no bytes).

#include <doctest/doctest.h>

#include <cstdint>

#include "model/cluster/broker_service.hpp"
#include "model/host_cores.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using partsim::sim::RandomStreams;
using partsim::sim::SimTime;

namespace {

BrokerService make_threaded(const BrokerConfig& c) {
  return BrokerService(c, RandomStreams(1).stream("broker/0/jitter"));
}

bool all_brokers_live(std::uint64_t) { return true; }

BrokerConfig threaded(std::int32_t network, std::int32_t io, std::int32_t queued) {
  BrokerConfig c;
  c.request_time = SimTime::ms(1);
  c.network_threads = network;
  c.io_threads = io;
  c.queued_max_requests = queued;
  return c;
}

}  // namespace

TEST_CASE("two io threads serve two requests of two connections at once; a third waits in the request queue") {
  const BrokerConfig c = threaded(3, 2, 500);
  BrokerService b = make_threaded(c);
  REQUIRE(b.threaded());
  // Both start at 0 and end at 1 ms: two threads. A single server would end the second at 2 ms.
  const auto first = b.arrive(1, 0, 0, 1, SimTime::zero());
  const auto second = b.arrive(2, 1, 0, 1, SimTime::zero());
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->done_at == SimTime::ms(1));
  CHECK(second->done_at == SimTime::ms(1));
  CHECK(b.io_busy() == 2);
  CHECK_FALSE(b.arrive(3, 2, 0, 1, SimTime::zero()));
  CHECK(b.queued() == 1);
  // A thread comes free at 1 ms: the third starts then, after 1 ms in the queue, ends at 2.
  const auto third = b.finish(SimTime::ms(1), all_brokers_live);
  REQUIRE(third);
  CHECK(third->request == 3);
  CHECK(third->waited == SimTime::ms(1));
  CHECK(third->done_at == SimTime::ms(2));
}

TEST_CASE("one connection's requests are served one at a time, in order: the next is read when the response is sent") {
  const BrokerConfig c = threaded(3, 8, 500);
  BrokerService b = make_threaded(c);
  const auto first = b.arrive(1, 0, 0, 1, SimTime::zero());
  REQUIRE(first);
  // Eight idle threads, yet the second request of connection 0 is not read: muted.
  CHECK_FALSE(b.arrive(2, 0, 0, 1, SimTime::us(100)));
  CHECK(b.queued() == 0);
  // The first is done at 1 ms; its response (after acks=all's wait) is sent at 1.5 ms.
  CHECK_FALSE(b.finish(SimTime::ms(1), all_brokers_live));
  const auto second = b.response_sent(0, SimTime::us(1500), all_brokers_live);
  REQUIRE(second);
  CHECK(second->request == 2);
  CHECK(second->waited == SimTime::us(1400));  // arrived at 0.1 ms, read at 1.5 ms
  CHECK(second->done_at == SimTime::us(2500));
  // Another connection is not held up by connection 0's mute.
  const auto other = b.arrive(3, 1, 0, 1, SimTime::us(1600));
  REQUIRE(other);
  CHECK(other->done_at == SimTime::us(2600));
}

TEST_CASE(
    "a full request queue (queued.max.requests) blocks the network thread: it reads nothing until there is room") {
  const BrokerConfig c = threaded(1, 1, 1);
  BrokerService b = make_threaded(c);
  REQUIRE(b.arrive(1, 0, 0, 1, SimTime::zero()));      // in service until 1 ms
  CHECK_FALSE(b.arrive(2, 1, 0, 1, SimTime::zero()));  // the queue's one place
  CHECK_FALSE(b.arrive(3, 2, 0, 1, SimTime::zero()));  // the queue is full: the network thread blocks holding it
  CHECK(b.queued() == 1);
  CHECK(b.network_blocked() == 1);
  CHECK_FALSE(b.arrive(4, 3, 0, 1, SimTime::zero()));  // not read: its network thread is blocked
  // 1 ms: request 2 starts; request 3 takes its place; the thread reads 4 and blocks again.
  const auto second = b.finish(SimTime::ms(1), all_brokers_live);
  REQUIRE(second);
  CHECK(second->request == 2);
  CHECK(b.queued() == 1);
  CHECK(b.network_blocked() == 1);
  const auto third = b.finish(SimTime::ms(2), all_brokers_live);
  REQUIRE(third);
  CHECK(third->request == 3);
  CHECK(b.network_blocked() == 0);
  const auto fourth = b.finish(SimTime::ms(3), all_brokers_live);
  REQUIRE(fourth);
  CHECK(fourth->request == 4);
  CHECK(fourth->waited == SimTime::ms(3));
  CHECK(fourth->done_at == SimTime::ms(4));
}

TEST_CASE(
    "without the thread keys a broker is one FIFO server: a connection's second request queues behind the first") {
  BrokerConfig c;
  c.request_time = SimTime::ms(1);
  BrokerService b = make_threaded(c);
  CHECK_FALSE(b.threaded());
  REQUIRE(b.arrive(1, 0, 0, 1, SimTime::zero()));
  CHECK_FALSE(b.arrive(2, 1, 0, 1, SimTime::zero()));  // one server: the other connection waits too
  CHECK(b.queued() == 1);
  const auto next = b.finish(SimTime::ms(1), all_brokers_live);
  REQUIRE(next);
  CHECK(next->done_at == SimTime::ms(2));
}

TEST_CASE("two brokers on a 1-core host take twice as long as on cores of their own") {
  BrokerConfig c;
  c.request_time = SimTime::ms(1);
  HostCores host(1);
  BrokerService a = make_threaded(c), b = make_threaded(c);
  a.place_on(&host);
  b.place_on(&host);
  const auto ra = a.arrive(1, 0, 0, 1, SimTime::zero());
  const auto rb = b.arrive(2, 0, 0, 1, SimTime::zero());
  REQUIRE(ra);
  REQUIRE(rb);
  CHECK(ra->done_at == SimTime::ms(1));
  CHECK(rb->done_at == SimTime::ms(2));  // waits for the one core
  // With two cores both end at 1 ms; work of zero length takes no core.
  HostCores two(2);
  CHECK(two.run(SimTime::zero(), SimTime::ms(1)) == SimTime::ms(1));
  CHECK(two.run(SimTime::zero(), SimTime::ms(1)) == SimTime::ms(1));
  CHECK(two.run(SimTime::zero(), SimTime::ms(1)) == SimTime::ms(2));
  CHECK(two.run(SimTime::us(500), SimTime::zero()) == SimTime::us(500));
}

TEST_CASE(
    "a queued request its producer gave up is skipped as if answered: its connection's next request is read and starts") {
  const BrokerConfig c = threaded(3, 1, 500);
  BrokerService b = make_threaded(c);
  REQUIRE(b.arrive(1, 0, 0, 1, SimTime::zero()));       // in service until 1 ms
  CHECK_FALSE(b.arrive(2, 1, 0, 1, SimTime::zero()));   // queued
  CHECK_FALSE(b.arrive(3, 1, 0, 1, SimTime::us(200)));  // muted behind 2 on connection 1
  CHECK(b.queued() == 1);
  // Request 2 is given up (its producer timed out) while queued: at 1 ms the io thread
  // skips it, connection 1 reads 3, which starts at once (0.8 ms after it came), ends at 2 ms.
  const auto next = b.finish(SimTime::ms(1), [](std::uint64_t id) { return id != 2; });
  REQUIRE(next);
  CHECK(next->request == 3);
  CHECK(next->connection == 1);
  CHECK(next->waited == SimTime::us(800));
  CHECK(next->done_at == SimTime::ms(2));
  CHECK(b.queued() == 0);
}

TEST_CASE(
    "a failure while a network thread is blocked on the full queue frees it: after recovery its connections are read") {
  const BrokerConfig c = threaded(1, 1, 1);
  BrokerService b = make_threaded(c);
  REQUIRE(b.arrive(1, 0, 0, 1, SimTime::zero()));      // in service
  CHECK_FALSE(b.arrive(2, 1, 0, 1, SimTime::zero()));  // the queue's one place
  CHECK_FALSE(b.arrive(3, 2, 0, 1, SimTime::zero()));  // the network thread blocks holding it
  REQUIRE(b.network_blocked() == 1);
  const std::uint64_t epoch = b.epoch();
  b.fail();
  CHECK(b.queued() == 0);
  CHECK(b.network_blocked() == 0);
  CHECK(b.io_busy() == 0);
  b.recover();
  CHECK(b.epoch() == epoch + 2);  // request 1's completion is stale
  // At 5 ms connection 2 is neither muted by its lost request 3 nor behind a blocked thread:
  // its new request starts at once; connection 0's next one queues behind it, unblocked.
  const auto fresh = b.arrive(4, 2, 0, 1, SimTime::ms(5));
  REQUIRE(fresh);
  CHECK(fresh->done_at == SimTime::ms(6));
  CHECK_FALSE(b.arrive(5, 0, 0, 1, SimTime::ms(5)));
  CHECK(b.queued() == 1);
  CHECK(b.network_blocked() == 0);
  const auto after = b.finish(SimTime::ms(6), all_brokers_live);
  REQUIRE(after);
  CHECK(after->request == 5);
  CHECK(after->done_at == SimTime::ms(7));
}
