// Sender (spec §4) with a real RecordAccumulator and ProducerMetadata, a manual clock and a
// listener that records every call, in the style of Kafka's SenderTest (clients/src/test/
// java/org/apache/kafka/clients/producer/internals/SenderTest.java): its cluster (topic
// "test", partitions 0 and 1 led by node 0, partition 2 by node 1), linger.ms 0,
// delivery.timeout.ms 1500, and the cases that concern what partsim models: testRetries,
// testInflightBatchesExpireOnDeliveryTimeout, testExpiredBatchDoesNotRetry,
// testExpiredBatchesInMultiplePartitions, the in-flight limit (NetworkClient.canSendMore)
// and ExponentialBackoff's bounds.

#include "model/producer/sender.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "model/producer/call_log.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::RandomStreams;
using partsim::sim::SimTime;

namespace {

constexpr std::size_t kNode0 = 0, kNode1 = 1;
const SimTime kDeliveryTimeout = SimTime::ms(1500);  // SenderTest.DELIVERY_TIMEOUT_MS
const SimTime kRequestTimeout = SimTime::ms(1000);   // SenderTest.REQUEST_TIMEOUT

// Records what the sender reports, one line per call, and settles done batches the way
// KafkaProducer does (marks them done and gives their memory back), so the accumulator
// sees what it sees in a run.
struct Recorder final : SenderListener {
  RecordAccumulator* acc = nullptr;
  std::vector<std::string> log;
  std::uint64_t next_id = 1;
  std::int64_t last_bytes = 0;            // of the last request
  std::deque<std::uint64_t> outstanding;  // requests that expect a response, oldest first

  std::uint64_t request_sent(std::size_t node, std::span<const BatchId> batches, std::int64_t bytes,
                             bool expects_response) override {
    std::string ids;
    for (const BatchId b : batches) ids += str(ids.empty() ? "" : ",", "p", acc->batch(b).partition);
    const std::uint64_t id = next_id++;
    log.push_back(str("sent #", id, " to ", node, ": ", ids, expects_response ? "" : " (no response)"));
    last_bytes = bytes;
    if (expects_response) outstanding.push_back(id);
    return id;
  }
  void watch_request_deadline(SimTime at) override { log.push_back(str("watch ", at.to_ms(), " ms")); }
  void request_abandoned(std::uint64_t request) override { log.push_back(str("abandoned #", request)); }
  void connection_closed(std::size_t node) override { log.push_back(str("closed ", node)); }
  void metadata_invalid(std::size_t node) override { log.push_back(str("metadata invalid ", node)); }
  void batch_acknowledged(BatchId b, std::size_t node) override {
    log.push_back(str("acked p", acc->batch(b).partition, " by ", node));
    settle(b);
  }
  void batch_failed(BatchId b, FailureReason reason) override {
    log.push_back(str("failed p", acc->batch(b).partition, ": ", failure_name(reason)));
    settle(b);
  }
  void batch_retried(BatchId b) override { log.push_back(str("retried p", acc->batch(b).partition)); }

  void settle(BatchId b) {
    REQUIRE_FALSE(acc->batch(b).done);  // the sender reports a batch done once
    acc->batch(b).done = true;
    acc->release(b);
  }
  /// The calls since the last take(), joined by " | " (doctest prints strings, not vectors).
  std::string take() { return join(std::exchange(log, {})); }
};

ProducerConfig producer_config() {
  ProducerConfig c;
  c.linger = SimTime::zero();
  c.delivery_timeout = kDeliveryTimeout;
  c.request_timeout = kRequestTimeout;
  c.adaptive = false;
  return c;
}

struct Fixture {
  ProducerMetadata metadata;
  RecordAccumulator acc;
  Recorder rec;
  Sender sender;
  std::vector<char> up{1, 1};
  SimTime now = SimTime::zero();

  explicit Fixture(ProducerConfig c = producer_config(), std::uint64_t seed = 1)
      : metadata({0, 1, 2}, 2),
        acc(AccumulatorConfig::from(c, false, /*sticky_records=*/false), 3, 2, [] { return 0; }),
        sender(SenderConfig::from(c), acc, metadata, rec, RandomStreams(seed).stream("producer/p/sender/backoff")) {
    metadata.update(std::vector<std::int32_t>{0, 0, 1});
    acc.after_metadata_update(metadata);
    rec.acc = &acc;
  }
  BatchId append(std::int32_t partition) {
    AppendRequest r;
    r.partition = partition;
    r.shape.key_bytes = 3;  // "key"
    r.shape.value_bytes = 5;  // "value"
    r.intended = now;
    const AppendResult res = acc.append(r, now, metadata);
    REQUIRE(res.status == AppendResult::Status::kAppended);
    return acc.deque(partition).back();
  }
  SimTime run(bool closing = false) { return sender.run_once(now, up, closing); }
};

std::string lines(std::initializer_list<const char*> calls) { return join({calls.begin(), calls.end()}); }

}  // namespace

// ---- the in-flight limit (spec §4.2) ------------------------------------------------------------

TEST_CASE("max.in.flight.requests.per.connection = 2: a third request waits for a response, other nodes go on") {
  ProducerConfig c = producer_config();
  c.max_in_flight = 2;
  Fixture f(c);
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
    Fixture f(c);
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
  Fixture f(c);
  for (std::int32_t i = 0; i < 3; ++i) {
    f.now = SimTime::ms(i);
    f.append(0);
    f.append(2);
    f.run();
  }
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0 (no response)", "acked p0 by 0", "sent #2 to 1: p2 (no response)",
                            "acked p2 by 1", "sent #3 to 0: p0 (no response)", "acked p0 by 0",
                            "sent #4 to 1: p2 (no response)", "acked p2 by 1", "sent #5 to 0: p0 (no response)",
                            "acked p0 by 0", "sent #6 to 1: p2 (no response)", "acked p2 by 1"}));
  CHECK(f.sender.in_flight(kNode0) == 0);
  CHECK_FALSE(f.sender.has_in_flight());
  CHECK(f.acc.pool().used_bytes() == 0);
}

TEST_CASE("acks=1 and acks=all complete a request's batches only on its response") {
  for (const Acks acks : {Acks::kLeader, Acks::kAll}) {
    CAPTURE(static_cast<int>(acks));
    ProducerConfig c = producer_config();
    c.acks = acks;
    Fixture f(c);
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
  Fixture f;
  const BatchId b0 = f.append(0);
  const BatchId b1 = f.append(1);
  f.run();
  CHECK(f.rec.last_bytes == f.acc.batch(b0).built_bytes + f.acc.batch(b1).built_bytes);
  // One "key"/"value" record: DefaultRecord.sizeInBytes(0, 0, 3, 5) = 15 (RecordAccumulatorTest's
  // msgSize), after the 61-byte batch header (spec §5.3).
  CHECK(f.acc.batch(b0).built_bytes == 61 + 15);
}

// ---- request.timeout.ms (spec §4.4) and retries (spec §4.3, §4.6) ---------------------------

TEST_CASE("a request past request.timeout.ms closes its connection: every request to that node is retried") {
  Fixture f;
  f.append(0);
  f.run();  // #1 to node 0 at 0 ms
  f.now = SimTime::ms(5);
  f.append(2);
  f.run();  // #2 to node 1 at 5 ms
  f.now = SimTime::ms(10);
  f.append(1);
  f.run();  // #3 to node 0 at 10 ms
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms", "sent #2 to 1: p2", "sent #3 to 0: p1"}));

  f.now = SimTime::ms(1000);
  f.sender.on_request_deadline(f.now);
  // #1 timed out: node 0's connection closes, taking #3 with it; #2 to node 1 is untouched.
  CHECK(f.rec.take() == lines({"abandoned #1", "retried p0", "abandoned #3", "retried p1", "closed 0", "watch 1005 ms"}));
  CHECK(f.sender.in_flight(kNode0) == 0);
  CHECK(f.sender.in_flight(kNode1) == 1);
  for (const std::int32_t p : {0, 1}) {
    CAPTURE(p);
    REQUIRE(f.acc.deque_size(p) == 1);
    const ProducerBatch& b = f.acc.batch(f.acc.deque(p).front());
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
  Fixture f;
  f.append(0);
  f.run();
  f.now = SimTime::ms(3);
  f.append(2);
  f.run();
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
  Fixture f;
  f.append(0);
  f.run();  // #1 to node 0 at 0 ms: watched at 1000 ms
  f.now = SimTime::ms(3);
  f.append(2);
  f.run();  // #2 to node 1 at 3 ms
  f.now = SimTime::ms(7);
  f.append(1);
  f.run();  // #3 to node 0 at 7 ms
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
  Fixture f;
  f.append(0);
  f.run();
  f.now = SimTime::ms(1000);
  f.sender.on_request_deadline(f.now);
  const ProducerBatch& b = f.acc.batch(f.acc.deque(0).front());
  const SimTime backoff = b.backoff;
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
  Fixture f(c);
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
  Fixture f(c);
  f.append(0);
  f.append(1);
  f.run();
  f.rec.take();
  f.now = kRequestTimeout;
  f.sender.on_request_deadline(f.now);
  CHECK(f.rec.take() == lines({"abandoned #1", "failed p0: retries_exhausted", "failed p1: retries_exhausted", "closed 0"}));
  CHECK_FALSE(f.acc.has_batches());
}

TEST_CASE("a disconnect past delivery.timeout.ms fails the batches as delivery_timeout instead of retrying") {
  Fixture f;
  f.append(0);
  f.run();
  f.now = SimTime::ms(300);
  f.append(1);  // created at 300 ms
  f.run();
  f.rec.take();
  f.now = kDeliveryTimeout;  // p0's batch is exactly 1500 ms old (inclusive, spec §4.5), p1's is not
  f.sender.disconnect(kNode0, f.now);
  CHECK(f.rec.take() == lines({"abandoned #1", "failed p0: delivery_timeout", "abandoned #2", "retried p1", "closed 0"}));
}

TEST_CASE("the retry backoff doubles with every attempt: attempt n waits backoff(n - 1)") {
  ProducerConfig c = producer_config();
  c.delivery_timeout = SimTime::sec(3600);
  Fixture f(c);
  f.append(0);
  f.run();
  const double lower[] = {80, 160, 320, 640, 800, 800};
  const double upper[] = {120, 240, 480, 960, 1000, 1000};
  for (std::int32_t attempt = 1; attempt <= 6; ++attempt) {
    CAPTURE(attempt);
    f.sender.disconnect(kNode0, f.now);
    const ProducerBatch& b = f.acc.batch(f.acc.deque(0).front());
    CHECK(b.attempts == attempt);
    CHECK(b.backoff.to_ms() >= lower[attempt - 1]);
    CHECK(b.backoff.to_ms() <= upper[attempt - 1]);
    f.now += b.backoff;
    f.run();
    REQUIRE(f.sender.in_flight(kNode0) == 1);
  }
}

// ---- delivery.timeout.ms (spec §3.9, §4.5) ------------------------------------------------------

TEST_CASE("a queued batch that cannot be sent expires at delivery.timeout.ms, and the pass wakes exactly then") {
  Fixture f;
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

TEST_CASE("testInflightBatchesExpireOnDeliveryTimeout: an in-flight batch expires; its late response counts for nothing") {
  Fixture f;
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
  Fixture f;
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

TEST_CASE("testExpiredBatchesInMultiplePartitions: a queued and an in-flight batch expire in one pass") {
  Fixture f;
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
  Fixture f;
  f.up[kNode1] = 0;
  f.append(2);  // created at 0: expires at 1500 ms
  f.now = SimTime::ms(1000);
  f.append(0);
  CHECK(f.run() == f.now);
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 2000 ms"}));
  CHECK(f.run().to_ms() <= kDeliveryTimeout.to_ms());  // in ms, so that doctest prints it
}

TEST_CASE("the pass returns now after a send, the linger delay while a batch lingers, the next expiry, kNever when idle") {
  ProducerConfig c = producer_config();
  c.linger = SimTime::ms(5);
  Fixture f(c);
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
  Fixture f(c);
  f.append(0);
  CHECK(f.run() == SimTime::ms(50));
  CHECK(f.run(/*closing=*/true) == f.now);
  CHECK(f.rec.take() == lines({"sent #1 to 0: p0", "watch 1000 ms"}));
}

// ---- ExponentialBackoff (spec §4.6) -------------------------------------------------------------

TEST_CASE("backoff(k) lies in [0.8, 1.2] x 100 x 2^k ms capped at 1000, whole ms, spread over the whole range") {
  Fixture f;
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
  Fixture f(producer_config(), 1);
  std::string draws;
  for (std::int32_t k = 0; k < 6; ++k) draws += str(f.sender.draw_backoff(k).to_ms(), " ");
  CHECK(draws == "97 166 340 719 1000 886 ");
}

// ---- produce errors and the idempotent producer (spec §4.3, kafka-consumer-spec §8) -------------

namespace {

// Two batches of partition 0 in two requests (max.in.flight 5), the first answered with
// NOT_LEADER_OR_FOLLOWER, the second without error; then past the retry backoff.
Fixture& first_of_two_fails(Fixture& f) {
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
  Fixture f(c);
  first_of_two_fails(f);
  CHECK(f.rec.take() == lines({"retried p0", "metadata invalid 0"}));
  // NOT_ENOUGH_REPLICAS is retried without a metadata update.
  f.sender.on_response(2, f.now, std::vector<ProduceError>{ProduceError::kNotEnoughReplicas});
  CHECK(f.rec.take() == lines({"retried p0"}));
}

TEST_CASE("without idempotence a failed batch is resent while the batch after it is in flight") {
  ProducerConfig c = producer_config();
  c.idempotence = false;
  Fixture f(c);
  first_of_two_fails(f);
  f.rec.take();
  f.now = SimTime::ms(200);  // past backoff(0) <= 120 ms
  f.run();
  // #2, sent after #1, may still land first: the retried records end up behind it.
  CHECK(f.rec.take() == lines({"sent #3 to 0: p0"}));
  CHECK(f.sender.in_flight(kNode0) == 2);
}

TEST_CASE("idempotence: sequences are assigned at the first drain and a retry waits until its partition has nothing in flight") {
  ProducerConfig c = producer_config();
  REQUIRE(c.idempotence);  // Kafka 4.x's default
  Fixture f(c);
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
