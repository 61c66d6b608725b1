// Sender (spec §4): request.timeout.ms (spec §4.4) and retries (spec §4.3, §4.6), among them
// Kafka's SenderTest.testRetries, against SenderTest's cluster (sender_fixture.hpp).

#include "model/producer/sender.hpp"

#include <doctest/doctest.h>

#include <cstdint>

#include "model/producer/sender_fixture.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::SimTime;

namespace {

// The deadline cases' three requests: #1 (p0) to node 0 at 0 ms, #2 (p2) to node 1 at
// `second`, #3 (p1) to node 0 at `third`.
void send_three(SenderFixture& f, SimTime second, SimTime third) {
  f.send(0, SimTime::zero());
  f.send(2, second);
  f.send(1, third);
}

}  // namespace

// ---- request.timeout.ms (spec §4.4) and retries (spec §4.3, §4.6) ---------------------------

TEST_CASE("a request past request.timeout.ms closes its connection: every request to that node is retried") {
  SenderFixture f;
  send_three(f, SimTime::ms(5), SimTime::ms(10));
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms", "sent #2 to 1: p2", "sent #3 to 0: p1"}));

  f.now = SimTime::ms(1000);
  f.sender.on_request_deadline(f.now);
  // #1 timed out: node 0's connection closes, taking #3 with it; #2 to node 1 is untouched.
  CHECK(f.rec.take() ==
        lines({"abandoned #1", "retried p0", "abandoned #3", "retried p1", "closed 0", "watch 1005 ms"}));
  CHECK(f.sender.in_flight(kNode0) == 0);
  CHECK(f.sender.in_flight(kNode1) == 1);
  for (const std::int32_t p : {0, 1}) {
    CAPTURE(p);
    REQUIRE(f.acc.deque_size(p) == 1);
    const RetryState b = f.acc.batches().retry(f.acc.deque(p).front());
    CHECK(b.attempts == 1);
    CHECK(b.last_attempt == f.now);
    // Attempt 1 waits backoff(0) = floor(U(0.8, 1.2) x 100) ms (spec §4.6).
    CHECK(b.backoff >= SimTime::ms(80));
    CHECK(b.backoff <= SimTime::ms(120));
    CHECK(b.backoff.count_ns() % 1'000'000 == 0);
  }

  f.now = SimTime::ms(1005);
  f.sender.on_request_deadline(f.now);
  // Nothing is in flight any more: no watch for #3's deadline, which went with node 0.
  CHECK(f.rec.take() == lines({"abandoned #2", "retried p2", "closed 1"}));
}

TEST_CASE("a request answered before its deadline closes nothing") {
  SenderFixture f;
  f.send(0, SimTime::zero());  // #1 to node 0
  f.send(2, SimTime::ms(3));   // #2 to node 1
  f.rec.take();
  f.sender.on_response(1, SimTime::ms(4));
  f.rec.take();
  f.now = SimTime::ms(1000);
  f.sender.on_request_deadline(f.now);
  CHECK(f.rec.take() == lines({"watch 1003 ms"}));
  CHECK(f.sender.in_flight(kNode1) == 1);
  // Answered too: at its deadline nothing is in flight, and nothing is watched.
  f.sender.on_response(2, SimTime::ms(1001));
  f.rec.take();
  f.now = SimTime::ms(1003);
  f.sender.on_request_deadline(f.now);
  CHECK(f.rec.take().empty());
}

TEST_CASE("the deadline watch skips requests answered since: it follows the oldest one in flight") {
  SenderFixture f;
  send_three(f, SimTime::ms(3), SimTime::ms(7));  // #1 watched at 1000 ms
  f.rec.take();
  f.sender.on_response(1, SimTime::ms(8));
  f.sender.on_response(2, SimTime::ms(9));
  f.rec.take();
  f.now = SimTime::ms(1000);
  f.sender.on_request_deadline(f.now);
  // #2 was answered too: the next watch is #3's deadline, not #2's.
  CHECK(f.rec.take() == lines({"watch 1007 ms"}));
}

TEST_CASE("a retried batch waits its backoff, then goes again; the pass wakes at the backoff's end") {
  SenderFixture f;
  f.append(0);
  f.run();
  f.now = SimTime::ms(1000);
  f.sender.on_request_deadline(f.now);
  const SimTime backoff = f.acc.batches().retry(f.acc.deque(0).front()).backoff;
  f.rec.take();
  CHECK(f.run() == f.now + backoff);
  CHECK(f.rec.take().empty());
  f.now += backoff - SimTime::ns(1);
  CHECK(f.run() == f.now + SimTime::ns(1));
  CHECK(f.rec.take().empty());
  f.now += SimTime::ns(1);
  CHECK(f.run() == f.now);
  CHECK(f.rec.take() == str("sent #2 to 0: p0 | watch ", (f.now + kRequestTimeout).to_ms(), " ms"));
}

TEST_CASE("testRetries: with retries = 1 a second disconnect fails the batch") {
  ProducerConfig c = producer_config();
  c.retries = 1;
  c.delivery_timeout = SimTime::ms(120000);
  SenderFixture f(c);
  f.append(0);
  f.run();
  f.sender.disconnect(kNode0, f.now);
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms", "abandoned #1", "retried p0", "closed 0"}));
  f.now = SimTime::ms(200);  // past any first backoff (<= 120 ms)
  f.run();
  f.sender.disconnect(kNode0, f.now);
  CHECK(f.rec.take() == lines({"sent #2 to 0: p0", "abandoned #2", "failed p0: retries_exhausted", "closed 0"}));
  CHECK_FALSE(f.acc.has_batches());
  CHECK(f.acc.pool().used_bytes() == 0);
}

TEST_CASE("retries = 0 fails the batches of a timed-out request as retries_exhausted") {
  ProducerConfig c = producer_config();
  c.retries = 0;
  SenderFixture f(c);
  f.append(0);
  f.append(1);
  f.run();
  f.rec.take();
  f.now = kRequestTimeout;
  f.sender.on_request_deadline(f.now);
  CHECK(f.rec.take() ==
        lines({"abandoned #1", "failed p0: retries_exhausted", "failed p1: retries_exhausted", "closed 0"}));
  CHECK_FALSE(f.acc.has_batches());
}

TEST_CASE("a disconnect past delivery.timeout.ms fails the batches as delivery_timeout instead of retrying") {
  SenderFixture f;
  f.append(0);
  f.run();
  f.now = SimTime::ms(300);
  f.append(1);  // created at 300 ms
  f.run();
  f.rec.take();
  f.now = kDeliveryTimeout;  // p0's batch is exactly 1500 ms old (inclusive, spec §4.5), p1's is not
  f.sender.disconnect(kNode0, f.now);
  CHECK(f.rec.take() ==
        lines({"abandoned #1", "failed p0: delivery_timeout", "abandoned #2", "retried p1", "closed 0"}));
}

TEST_CASE("the retry backoff doubles with every attempt: attempt n waits backoff(n - 1)") {
  ProducerConfig c = producer_config();
  c.delivery_timeout = SimTime::sec(3600);
  SenderFixture f(c);
  f.append(0);
  f.run();
  const double lower[] = {80, 160, 320, 640, 800, 800};
  const double upper[] = {120, 240, 480, 960, 1000, 1000};
  for (std::int32_t attempt = 1; attempt <= 6; ++attempt) {
    CAPTURE(attempt);
    f.sender.disconnect(kNode0, f.now);
    const RetryState b = f.acc.batches().retry(f.acc.deque(0).front());
    CHECK(b.attempts == attempt);
    CHECK(b.backoff.to_ms() >= lower[attempt - 1]);
    CHECK(b.backoff.to_ms() <= upper[attempt - 1]);
    f.now += b.backoff;
    f.run();
    REQUIRE(f.sender.in_flight(kNode0) == 1);
  }
}
