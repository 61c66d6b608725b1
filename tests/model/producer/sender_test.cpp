// Sender (spec §4) against SenderTest's cluster (sender_fixture.hpp): the cases of Kafka's
// SenderTest that concern what partsim models (testInflightBatchesExpireOnDeliveryTimeout,
// testExpiredBatchDoesNotRetry, testExpiredBatchesInMultiplePartitions), the in-flight limit
// (NetworkClient.canSendMore), delivery.timeout.ms, ExponentialBackoff's bounds and produce
// errors. request.timeout.ms and retries: sender_timeout_test.cpp.

#include "model/producer/sender.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/producer/sender_fixture.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::SimTime;

// ---- the in-flight limit (spec §4.2) ------------------------------------------------------------

TEST_CASE("max.in.flight.requests.per.connection = 2: a third request waits for a response, other nodes go on") {
  ProducerConfig c = producer_config();
  c.max_in_flight = 2;
  SenderFixture f(c);
  f.append(0);
  CHECK(f.run() == f.now);  // poll(0) after a send
  f.now = SimTime::ms(1);
  f.append(0);
  CHECK(f.run() == f.now);
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms", "sent #2 to 0: p0"}));
  CHECK(f.sender.in_flight(kNode0) == 2);

  f.now = SimTime::ms(2);
  f.append(0);
  f.append(2);
  f.run();
  CHECK(f.rec.take() == lines({"sent #3 to 1: p2"}));  // node 0 is at its limit, node 1 is not
  CHECK(f.sender.in_flight(kNode0) == 2);
  CHECK(f.sender.in_flight(kNode1) == 1);
  CHECK(f.acc.deque_size(0) == 1);  // not drained: it stays sendable for the next pass
  // Nothing is sendable: the next wake is the earliest expiry, of the batches in flight
  // (created at 0 ms), as Kafka caps its poll timeout (SND:414-441).
  CHECK(f.run() == kDeliveryTimeout);
  CHECK(f.rec.take().empty());

  f.now = SimTime::ms(3);
  f.sender.on_response(1, f.now);
  CHECK(f.rec.take() == lines({"acked p0 by 0"}));
  CHECK(f.sender.in_flight(kNode0) == 1);
  f.run();
  CHECK(f.rec.take() == lines({"sent #4 to 0: p0"}));
  CHECK(f.sender.in_flight(kNode0) == 2);
}

TEST_CASE("with max.in.flight.requests.per.connection = N, at most N requests to a node are unanswered") {
  for (const std::int32_t n : {1, 2, 5}) {
    CAPTURE(n);
    ProducerConfig c = producer_config();
    c.max_in_flight = n;
    SenderFixture f(c);
    // One new batch per pass, on both partitions of node 0 (with N = 1 the first is muted
    // until its response: guaranteeMessageOrder).
    for (std::int32_t i = 0; i < n + 3; ++i) {
      f.now = SimTime::ms(i);
      f.append(i % 2);
      f.run();
      CHECK(f.sender.in_flight(kNode0) == std::min(i + 1, n));
    }
    // The backlog goes out as responses come back, oldest first, never above N.
    while (!f.rec.outstanding.empty()) {
      f.now += SimTime::ms(1);
      f.sender.on_response(f.rec.outstanding.front(), f.now);
      f.rec.outstanding.pop_front();
      f.run();
      CHECK(f.sender.in_flight(kNode0) <= n);
    }
    CHECK_FALSE(f.acc.has_batches());
    CHECK_FALSE(f.sender.has_in_flight());
  }
}

// ---- acks (spec §4.3) -----------------------------------------------------------------------

TEST_CASE("acks=0 completes batches when the request is written and keeps nothing in flight") {
  ProducerConfig c = producer_config();
  c.acks = Acks::kNone;
  c.max_in_flight = 1;  // never reached: nothing stays in flight
  SenderFixture f(c);
  for (std::int32_t i = 0; i < 3; ++i) {
    f.now = SimTime::ms(i);
    f.append(0);
    f.append(2);
    f.run();
  }
  CHECK(f.rec.take() ==
        lines({"sent #1 to 0: p0 (no response)", "acked p0 by 0", "sent #2 to 1: p2 (no response)", "acked p2 by 1",
               "sent #3 to 0: p0 (no response)", "acked p0 by 0", "sent #4 to 1: p2 (no response)", "acked p2 by 1",
               "sent #5 to 0: p0 (no response)", "acked p0 by 0", "sent #6 to 1: p2 (no response)", "acked p2 by 1"}));
  CHECK(f.sender.in_flight(kNode0) == 0);
  CHECK_FALSE(f.sender.has_in_flight());
  CHECK(f.acc.pool().used_bytes() == 0);
}

TEST_CASE("acks=1 and acks=all complete a request's batches only on its response") {
  for (const Acks acks : {Acks::kLeader, Acks::kAll}) {
    CAPTURE(static_cast<int>(acks));
    ProducerConfig c = producer_config();
    c.acks = acks;
    SenderFixture f(c);
    f.append(0);
    f.append(1);
    f.run();
    CHECK(f.rec.take() == lines({"sent #1 to 0: p0,p1", "watch 1000 ms"}));
    CHECK(f.sender.has_in_flight());
    f.now = SimTime::ms(7);
    f.sender.on_response(99, f.now);  // not a request of this sender: nothing happens
    CHECK(f.rec.take().empty());
    f.sender.on_response(1, f.now);
    CHECK(f.rec.take() == lines({"acked p0 by 0", "acked p1 by 0"}));
    CHECK_FALSE(f.sender.has_in_flight());
    f.sender.on_response(1, f.now);  // a duplicate response changes nothing
    CHECK(f.rec.take().empty());
    CHECK(f.sender.in_flight(kNode0) == 0);
  }
}

TEST_CASE("a request carries one batch per partition of its node, and its size is their built bytes") {
  SenderFixture f;
  const BatchId b0 = f.append(0);
  const BatchId b1 = f.append(1);
  f.run();
  CHECK(f.rec.last_bytes == f.acc.batch(b0).built_bytes + f.acc.batch(b1).built_bytes);
  // One "key"/"value" record: DefaultRecord.sizeInBytes(0, 0, 3, 5) = 15 (RecordAccumulatorTest's
  // msgSize), after the 61-byte batch header (spec §5.3).
  CHECK(f.acc.batch(b0).built_bytes == 61 + 15);
}

// ---- delivery.timeout.ms (spec §3.9, §4.5) ------------------------------------------------------

TEST_CASE("a queued batch that cannot be sent expires at delivery.timeout.ms, and the pass wakes exactly then") {
  SenderFixture f;
  f.up[kNode0] = 0;  // no connection to node 0
  f.append(0);
  CHECK(f.run() == kDeliveryTimeout);  // nothing else will wake it
  f.now = kDeliveryTimeout - SimTime::ns(1);
  CHECK(f.run() == kDeliveryTimeout);
  CHECK(f.rec.take().empty());
  f.now = kDeliveryTimeout;
  CHECK(f.run() == kNever);
  CHECK(f.rec.take() == lines({"failed p0: delivery_timeout"}));
  CHECK_FALSE(f.acc.has_batches());
  CHECK(f.acc.pool().used_bytes() == 0);
}

TEST_CASE(
    "testInflightBatchesExpireOnDeliveryTimeout: an in-flight batch expires; its late response counts for nothing") {
  SenderFixture f;
  f.append(0);
  f.run();
  f.rec.take();
  // With a request in flight the sender sleeps until its response, its deadline, or the
  // batch's expiry, whichever comes first (SND:414-441: the poll timeout is capped by the
  // next expiry of a batch, in flight or not; Kafka's testResetNextBatchExpiry).
  CHECK(f.run() == kDeliveryTimeout);
  f.now = kDeliveryTimeout;
  f.run();
  CHECK(f.rec.take() == lines({"failed p0: delivery_timeout"}));
  f.sender.on_response(1, f.now);
  CHECK(f.rec.take().empty());
  CHECK_FALSE(f.sender.has_in_flight());
  CHECK(f.sender.in_flight(kNode0) == 0);
}

TEST_CASE("testExpiredBatchDoesNotRetry: a batch that expired in flight is not retried when its request fails") {
  SenderFixture f;
  f.append(0);
  f.run();
  f.rec.take();
  f.now = kDeliveryTimeout;
  f.run();
  f.sender.disconnect(kNode0, f.now);
  CHECK(f.rec.take() == lines({"failed p0: delivery_timeout", "abandoned #1", "closed 0"}));
  f.run();
  CHECK(f.rec.take().empty());
  CHECK_FALSE(f.acc.has_batches());
}

TEST_CASE("KAFKA-19012: a batch that expired in flight keeps its memory until its request ends, from 3.9.2") {
  // kafka-versions.md "4.2 (backported to 3.9.2, 4.0.2, 4.1.2)": before, the memory went
  // back at the expiry while the request still used it.
  for (const char* client : {"kafka-3.9.1", "kafka-3.9.2", "kafka-4.3"}) {
    CAPTURE(client);
    ProducerConfig c = producer_config();
    std::string why;
    c.client = *parse_client(client, why);
    SenderFixture f(c);
    const std::int64_t all = f.acc.pool().total_bytes();
    f.append(0);
    f.run();
    f.rec.take();
    f.now = kDeliveryTimeout;
    f.run();
    CHECK(f.rec.take() == lines({"failed p0: delivery_timeout"}));
    const bool keeps = std::string(client) != "kafka-3.9.1";
    CHECK((f.acc.pool().available_bytes() < all) == keeps);
    f.sender.on_response(1, f.now);
    CHECK(f.acc.pool().available_bytes() == all);
    CHECK_FALSE(f.acc.has_batches());
  }
}

TEST_CASE("testExpiredBatchesInMultiplePartitions: a queued and an in-flight batch expire in one pass") {
  SenderFixture f;
  f.up[kNode1] = 0;
  f.append(0);
  f.append(2);
  f.run();
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms"}));
  f.now = kDeliveryTimeout;
  f.run();
  // Queued batches first (RecordAccumulator.expiredBatches), then those in flight.
  CHECK(f.rec.take() == lines({"failed p2: delivery_timeout", "failed p0: delivery_timeout"}));
  CHECK_FALSE(f.acc.has_batches());
}

TEST_CASE("a queued batch expires on time while a request to another node is in flight") {
  // Kafka's pass sleeps at most until the next expiry of any batch, queued or in flight
  // (SND:414-441: pollTimeout <= accumulator.nextExpiryTimeMs() - now, which expiredBatches
  // and getExpiredInflightBatches keep). partsim's pass returns kNever while a request is
  // in flight, trusting its response or request.timeout.ms to come first: true for the
  // batches in flight (request.timeout.ms < delivery.timeout.ms), not for queued ones.
  // Here p2 waits for node 1, which is down, and expires at 1500 ms; the request to node 0,
  // sent at 1000 ms, times out only at 2000 ms, and p2 fails (and frees its memory) then.
  SenderFixture f;
  f.up[kNode1] = 0;
  f.append(2);  // created at 0: expires at 1500 ms
  f.now = SimTime::ms(1000);
  f.append(0);
  CHECK(f.run() == f.now);
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 2000 ms"}));
  CHECK(f.run().to_ms() <= kDeliveryTimeout.to_ms());  // in ms, so that doctest prints it
}

TEST_CASE(
    "the pass returns now after a send, the linger delay while a batch lingers, the next expiry, kNever when idle") {
  ProducerConfig c = producer_config();
  c.linger = SimTime::ms(5);
  SenderFixture f(c);
  CHECK(f.run() == kNever);  // nothing buffered, nothing in flight
  f.append(0);
  CHECK(f.run() == SimTime::ms(5));
  f.now = SimTime::ms(2);
  CHECK(f.run() == SimTime::ms(5));
  f.now = SimTime::ms(5);
  CHECK(f.run() == SimTime::ms(5));
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1005 ms"}));
  CHECK(f.run() == kDeliveryTimeout);  // or the response, or the request deadline, if earlier
  f.sender.on_response(1, SimTime::ms(6));
  f.now = SimTime::ms(6);
  CHECK(f.run() == kNever);
}

TEST_CASE("a closing producer sends a lingering batch at once") {
  ProducerConfig c = producer_config();
  c.linger = SimTime::ms(50);
  SenderFixture f(c);
  f.append(0);
  CHECK(f.run() == SimTime::ms(50));
  CHECK(f.run(/*closing=*/true) == f.now);
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms"}));
}

// ---- ExponentialBackoff (spec §4.6) -------------------------------------------------------------

TEST_CASE("backoff(k) lies in [0.8, 1.2] x 100 x 2^k ms capped at 1000, whole ms, spread over the whole range") {
  SenderFixture f;
  constexpr int kDraws = 4000;
  for (std::int32_t k = 0; k <= 5; ++k) {
    CAPTURE(k);
    // 2^min(k, log2(1000 / 100)): the exponent stops at 3.32, so k >= 4 gives 1000 x U(0.8, 1.2).
    const double term = 100.0 * std::pow(2.0, std::min(static_cast<double>(k), std::log2(10.0)));
    const double lo = std::floor(0.8 * term), hi = std::min(1000.0, std::floor(1.2 * term));
    double min_ms = 1e9, max_ms = 0, sum = 0;
    int capped = 0;
    for (int i = 0; i < kDraws; ++i) {
      const SimTime b = f.sender.draw_backoff(k);
      REQUIRE(b.count_ns() % 1'000'000 == 0);
      const double ms = b.to_ms();
      min_ms = std::min(min_ms, ms);
      max_ms = std::max(max_ms, ms);
      sum += ms;
      capped += ms == 1000.0;
    }
    CHECK(min_ms >= lo);
    CHECK(max_ms <= hi);
    // The draws reach both ends: within 1% of the range's width over 4000 uniform draws
    // (P(missing an end) = 0.99^4000 < 1e-17).
    CHECK(min_ms <= lo + 0.01 * (1.2 - 0.8) * term + 1);
    CHECK(max_ms >= hi - 0.01 * (1.2 - 0.8) * term - 1);
    if (k >= 4) {
      // Half the jitter lies above 1.0 and is capped: share 0.5, sd 0.008 over 4000 draws.
      CHECK(std::abs(static_cast<double>(capped) / kDraws - 0.5) < 0.04);
    } else {
      // Mean of floor(U(0.8, 1.2) x term): term - 0.5; sd of the mean 0.4 term / sqrt(12 x 4000).
      CHECK(std::abs(sum / kDraws - (term - 0.5)) < 5 * 0.4 * term / std::sqrt(12.0 * kDraws));
    }
  }
}

TEST_CASE("the first backoff draws of seed 1 are pinned") {
  // Stream "producer/p/sender/backoff" of seed 1, one draw per attempt index 0..5. A change
  // here changes every run with retries: make it on purpose.
  SenderFixture f(producer_config(), 1);
  std::string draws;
  for (std::int32_t k = 0; k < 6; ++k) draws += str(f.sender.draw_backoff(k).to_ms(), " ");
  CHECK(draws == "97 166 340 719 1000 886 ");
}

// ---- produce errors and the idempotent producer (spec §4.3, kafka-consumer-spec §8) -------------

namespace {

// Two batches of partition 0 in two requests (max.in.flight 5), the first answered with
// NOT_LEADER_OR_FOLLOWER, the second without error; then past the retry backoff.
SenderFixture& first_of_two_fails(SenderFixture& f) {
  f.append(0);
  f.run();
  f.now = SimTime::ms(1);
  f.append(0);
  f.run();
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms", "sent #2 to 0: p0"}));
  f.now = SimTime::ms(2);
  const ProduceError error[] = {ProduceError::kNotLeaderOrFollower};
  f.sender.on_response(1, f.now, error);
  return f;
}

}  // namespace

TEST_CASE("a retriable error answer puts the batch back, and NOT_LEADER_OR_FOLLOWER asks for metadata") {
  ProducerConfig c = producer_config();
  c.idempotence = false;
  SenderFixture f(c);
  first_of_two_fails(f);
  CHECK(f.rec.take() == lines({"retried p0", "metadata invalid 0"}));
  // NOT_ENOUGH_REPLICAS is retried without a metadata update.
  f.sender.on_response(2, f.now, std::vector<ProduceError>{ProduceError::kNotEnoughReplicas});
  CHECK(f.rec.take() == lines({"retried p0"}));
}

TEST_CASE("without idempotence a failed batch is resent while the batch after it is in flight") {
  ProducerConfig c = producer_config();
  c.idempotence = false;
  SenderFixture f(c);
  first_of_two_fails(f);
  f.rec.take();
  f.now = SimTime::ms(200);  // past backoff(0) <= 120 ms
  f.run();
  // #2, sent after #1, may still land first: the retried records end up behind it.
  CHECK(f.rec.take() == lines({"sent #3 to 0: p0"}));
  CHECK(f.sender.in_flight(kNode0) == 2);
}

TEST_CASE(
    "idempotence: sequences are assigned at the first drain and a retry waits until its partition has nothing in flight") {
  ProducerConfig c = producer_config();
  REQUIRE(c.idempotence);  // Kafka 4.x's default
  SenderFixture f(c);
  const BatchId first = f.append(0);
  f.run();
  f.now = SimTime::ms(1);
  const BatchId second = f.append(0);
  f.run();
  f.rec.take();
  CHECK(f.acc.batch(first).base_sequence == 0);
  CHECK(f.acc.batch(second).base_sequence == 1);  // one record each
  CHECK(f.acc.sequenced_in_flight(0) == 2);
  f.now = SimTime::ms(2);
  f.sender.on_response(1, f.now, std::vector<ProduceError>{ProduceError::kNotLeaderOrFollower});
  f.rec.take();
  f.now = SimTime::ms(200);
  f.run();
  CHECK(f.rec.take().empty());  // #2 is still in flight: the retry of sequence 0 waits (RA:858-864)
  // The broker refuses #2 (sequence 1 after nothing): it goes back behind sequence 0.
  f.sender.on_response(2, f.now, std::vector<ProduceError>{ProduceError::kOutOfOrderSequenceNumber});
  CHECK(f.rec.take() == lines({"retried p0"}));
  CHECK(f.acc.deque(0) == std::vector<BatchId>{first, second});
  f.now = SimTime::ms(400);
  f.run();
  f.run();
  // Sequence 0 goes alone; sequence 1 waits for it, then follows.
  CHECK(f.rec.take() == lines({"sent #3 to 0: p0"}));
  CHECK(f.acc.batch(first).base_sequence == 0);
  f.sender.on_response(3, f.now);
  f.run();
  CHECK(f.rec.take() == lines({"acked p0 by 0", "sent #4 to 0: p0"}));
  CHECK(f.acc.batch(second).base_sequence == 1);
}

// The count of a partition's batches in flight is read from the sender's requests when a
// retry needs it. A closed connection gives up every request to its node at once: while the
// first is worked through, the batches of the others have not left their requests yet.
TEST_CASE("idempotence: a retry after a disconnect waits for the batches of the other requests given up") {
  SenderFixture f;
  f.rec.note_in_flight = true;
  f.append(0);
  f.run();
  f.now = SimTime::ms(1);
  f.append(0);
  f.append(1);
  f.run();
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms", "sent #2 to 0: p1,p0"}));
  CHECK(f.acc.sequenced_in_flight(0) == 2);
  CHECK(f.acc.sequenced_in_flight(1) == 1);
  f.sender.disconnect(kNode0, f.now);
  // p0's first batch waits for its second, still in request #2; p1's has nothing to wait for.
  CHECK(f.rec.take() == lines({"abandoned #1", "retried p0 (1 in flight, muted)", "abandoned #2",
                               "retried p1 (0 in flight)", "retried p0 (0 in flight)", "closed 0"}));
  CHECK_FALSE(f.acc.muted(0));
  CHECK(f.acc.sequenced_in_flight(0) == 0);
}
