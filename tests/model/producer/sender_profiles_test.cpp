// The Sender and accumulator parts of the other clients' send paths (model/client_profiles.hpp,
// kafka-clients.md §3, §7, §11) against SenderTest's cluster (sender_fixture.hpp): one
// partition per request, sent when that partition is ready (librdkafka, kafka-go, kafkajs), a
// cap on records per batch, and franz-go's single request before a broker's first response.

#include <doctest/doctest.h>

#include "model/producer/sender.hpp"
#include "model/producer/sender_fixture.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::SimTime;

TEST_CASE("librdkafka, kafka-go, kafkajs: one partition's batch per request, the node's others in the next pass") {
  ProducerConfig c = producer_config();
  c.profile.one_partition_per_request = true;
  SenderFixture f(c);
  f.append(0);
  f.append(1);
  CHECK(f.run() == f.now);  // poll(0): another pass may drain more
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms"}));
  f.run();
  CHECK(f.rec.take() == lines({"sent #2 to 0: p1"}));
  CHECK(f.sender.in_flight(kNode0) == 2);
}

TEST_CASE("one partition per request: a partition goes when it is ready, not when another on its node is") {
  ProducerConfig c = producer_config();
  c.linger = SimTime::ms(10);
  c.profile.one_partition_per_request = true;
  c.profile.batch_records = 2;
  SenderFixture f(c);
  f.append(0);  // p0's lingers until 10 ms (and comes first in the node's drain order)
  f.append(1);
  f.append(1);  // p1's batch is full: its node is ready
  f.run();
  f.run();
  CHECK(f.rec.take() == lines({"sent #1 to 0: p1", "watch 1000 ms"}));
  CHECK(f.acc.deque_size(0) == 1);
  f.now = SimTime::ms(10);
  f.run();
  CHECK(f.rec.take() == lines({"sent #2 to 0: p0"}));
}

TEST_CASE("a cap on records per batch (batch.num.messages, BatchSize) closes the batch: the next record opens one") {
  ProducerConfig c = producer_config();
  c.profile.batch_records = 2;
  SenderFixture f(c);
  const BatchId first = f.append(0);
  CHECK(f.append(0) == first);
  const BatchId third = f.append(0);
  CHECK(third != first);
  CHECK(f.acc.batch(first).records == 2);
  CHECK(f.acc.batch(first).is_full());  // sendable before linger.ms
  CHECK(f.acc.deque_size(0) == 2);
}

TEST_CASE("franz-go: one request in flight to a broker until it has answered one, then the limit") {
  ProducerConfig c = producer_config();
  c.max_in_flight = 4;
  c.profile.first_request_alone = true;
  SenderFixture f(c);
  f.append(0);
  f.run();
  f.now = SimTime::ms(1);
  f.append(0);
  f.run();
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms"}));  // the second waits for an answer
  CHECK(f.sender.in_flight(kNode0) == 1);
  f.now = SimTime::ms(2);
  f.sender.on_response(1, f.now);
  f.rec.take();
  for (int i = 0; i < 4; ++i) {
    f.now = SimTime::ms(3 + i);
    f.append(0);
    f.run();
  }
  CHECK(f.sender.in_flight(kNode0) == 4);
}
