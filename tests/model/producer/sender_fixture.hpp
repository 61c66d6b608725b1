#pragma once
// The fixture of the Sender tests (sender_test.cpp, sender_timeout_test.cpp), in the style of
// Kafka's SenderTest (clients/src/test/java/org/apache/kafka/clients/producer/internals/
// SenderTest.java): its cluster (topic "test", partitions 0 and 1 led by node 0, partition 2
// by node 1), linger.ms 0, delivery.timeout.ms 1500, a real RecordAccumulator and
// ProducerMetadata, a manual clock and a listener that records every call.

#include <deque>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "model/producer/call_log.hpp"
#include "model/producer/sender.hpp"
#include "sim/random_streams.hpp"

namespace partsim::model::test {

constexpr std::size_t kNode0 = 0, kNode1 = 1;
inline const SimTime kDeliveryTimeout = SimTime::ms(1500);  // SenderTest.DELIVERY_TIMEOUT_MS
inline const SimTime kRequestTimeout = SimTime::ms(1000);   // SenderTest.REQUEST_TIMEOUT

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
  void batch_retried(BatchId b) override {
    const std::int32_t p = acc->batch(b).partition;
    log.push_back(note_in_flight ? str("retried p", p, " (", acc->sequenced_in_flight(p), " in flight",
                                       acc->muted(p) ? ", muted)" : ")")
                                 : str("retried p", p));
  }
  void memory_returned() override { log.push_back("memory returned"); }
  bool note_in_flight = false;  // retries also say what the accumulator counts in flight then

  void settle(BatchId b) {
    REQUIRE_FALSE(static_cast<bool>(acc->batch(b).done));  // the sender reports a batch done once
    acc->batch(b).done = true;
    acc->release(b);
  }
  /// The calls since the last take(), joined by " | " (doctest prints strings, not vectors).
  std::string take() { return join(std::exchange(log, {})); }
};

inline ProducerConfig producer_config() {
  ProducerConfig c;
  c.linger = SimTime::zero();
  c.delivery_timeout = kDeliveryTimeout;
  c.request_timeout = kRequestTimeout;
  c.adaptive = false;
  return c;
}

struct SenderFixture {
  ProducerMetadata metadata;
  RecordAccumulator acc;
  Recorder rec;
  Sender sender;
  std::vector<char> up{1, 1};
  SimTime now = SimTime::zero();

  explicit SenderFixture(ProducerConfig c = producer_config(), std::uint64_t seed = 1)
      : metadata({0, 1, 2}, 2),
        acc(AccumulatorConfig::from(c, false, /*sticky_records=*/false), 3, 2, [] { return 0; }),
        sender(SenderConfig::from(c), acc, metadata, rec,
               sim::RandomStreams(seed).stream("producer/p/sender/backoff")) {
    metadata.update(std::vector<std::int32_t>{0, 0, 1});
    acc.after_metadata_update(metadata);
    rec.acc = &acc;
  }
  BatchId append(std::int32_t partition) {
    AppendRequest r;
    r.partition = partition;
    r.shape.key_bytes = 3;    // "key"
    r.shape.value_bytes = 5;  // "value"
    r.intended = now;
    const AppendResult res = acc.append(r, now, metadata);
    REQUIRE(res.status == AppendResult::Status::kAppended);
    return acc.deque(partition).back();
  }
  SimTime run(bool closing = false) { return sender.run_once(now, up, closing); }
  /// At `at`: one record for `partition`, then a sender pass.
  SimTime send(std::int32_t partition, SimTime at) {
    now = at;
    append(partition);
    return run();
  }
};

inline std::string lines(std::initializer_list<const char*> calls) { return join({calls.begin(), calls.end()}); }

}  // namespace partsim::model::test
