// The producer's metrics under the Java client's names (kafka-consumer-spec §10.1,
// model/producer/sender_metrics.hpp) on runs small enough to compute by hand: one producer
// sending one 100-byte null-key record every 10 ms with linger.ms 4 to brokers with fixed
// round trips and service times, so every batch holds one record, waits exactly linger.ms,
// and every request is answered after rtt + request.ms.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "model/cluster_simulation.hpp"
#include "model/partitioners/key_hash.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using model::SimTime;

namespace {

model::BrokerConfig broker(std::int32_t id, std::int64_t rtt_ms) {
  model::BrokerConfig b;
  b.id = id;
  b.rtt = SimTime::ms(rtt_ms);
  b.request_time = SimTime::ms(1);
  b.replication = SimTime::zero();
  return b;
}

// 10 records, one every 10 ms from t = 0, linger.ms 4, acks=1, 100-byte values, null keys,
// one partition on broker 3 (rtt 2 ms, request.ms 1).
model::Scenario single() {
  model::Scenario s;
  s.name = "metrics";
  s.brokers.push_back(broker(3, 2));
  s.topics.push_back(model::TopicConfig{"t", 1, 1, {}});
  model::ProducerSpec p;
  p.name = "app";
  p.config.linger = SimTime::ms(4);
  p.config.acks = model::Acks::kLeader;
  p.workload.topic = "t";
  p.workload.arrivals.kind = model::Arrivals::Kind::kConstant;
  p.workload.arrivals.records_per_second = 100;
  p.workload.values.size_bytes = 100;
  s.producers.push_back(p);
  s.run.records = 10;
  return s;
}

const model::ProducerMetrics& only(const model::RunResult& r) {
  REQUIRE(r.producer_metrics.size() == 1);
  return r.producer_metrics[0];
}

}  // namespace

TEST_CASE("producer metrics of one record per batch and per request, computed by hand") {
  const auto s = single();
  const auto r = model::run_scenario(s, 1);
  partsim::testing::check_invariants(r, s);
  REQUIRE(r.records_acked == 10);
  const auto& m = only(r);
  CHECK(m.producer == "app");
  // Sends at 0, 10, ..., 90 ms; each batch is drained linger.ms = 4 ms after its record and
  // answered rtt 2 + request.ms 1 = 3 ms later: the last at 90 + 4 + 3 = 97 ms.
  CHECK(r.simulated_ms == doctest::Approx(97.0));
  CHECK(m.record_send_total == 10);
  CHECK(m.record_send_rate == doctest::Approx(10 / 0.097));
  CHECK(m.requests == 10);
  CHECK(m.records_per_request_avg == doctest::Approx(1.0));
  // A batch of one record: 61-byte header + the record. Record (kafka-model-spec §5.2):
  // attributes 1 + timestampDelta 1 + offsetDelta 1 + key length -1 (1) + value length 100
  // (zigzag 200: 2) + value 100 + header count 1 = 107, and its length varint (214: 2) = 109.
  CHECK(m.batches == 10);
  CHECK(m.batch_size_avg == doctest::Approx(170.0));
  CHECK(m.batch_size_max == doctest::Approx(170.0));
  CHECK(r.partitions[0].bytes == 10 * 170);  // the bytes the broker counted agree
  CHECK(m.record_queue_time_avg == doctest::Approx(4.0));
  CHECK(m.record_queue_time_max == doctest::Approx(4.0));
  CHECK(m.responses == 10);
  CHECK(m.request_latency_avg == doctest::Approx(3.0));
  CHECK(m.request_latency_max == doctest::Approx(3.0));
  CHECK(m.bufferpool_wait_ratio == 0.0);
  CHECK(m.record_retry_total == 0);
  CHECK(m.record_error_total == 0);
  REQUIRE(m.nodes.size() == 1);
  CHECK(m.nodes[0].node == 3);
  CHECK(m.nodes[0].requests == 10);
  CHECK(m.nodes[0].request_latency_avg_ms == doctest::Approx(3.0));
  CHECK(m.nodes[0].request_latency_max_ms == doctest::Approx(3.0));
}

TEST_CASE("producer metrics count batches per request and a slower broker's queueing") {
  // linger.ms 25 with a record every 10 ms: a batch collects the records of 25 ms (3, the
  // first at its creation) and the 10 records make batches 3, 3, 3, 1. The last (created at
  // 90 ms) is flushed by close() when the application finds its budget spent at its next
  // due time, 100 ms, and answered at 103 ms.
  auto s = single();
  s.producers[0].config.linger = SimTime::ms(25);
  const auto r = model::run_scenario(s, 1);
  partsim::testing::check_invariants(r, s);
  const auto& m = only(r);
  CHECK(m.record_send_total == 10);
  CHECK(m.requests == 4);
  CHECK(m.records_per_request_avg == doctest::Approx(2.5));
  CHECK(r.simulated_ms == doctest::Approx(103.0));
  // Queue times: 25, 25, 25 ms for the full-linger batches and 10 ms for the last.
  CHECK(m.record_queue_time_max == doctest::Approx(25.0));
  CHECK(m.record_queue_time_avg == doctest::Approx((75.0 + 10.0) / 4));
  // Three records: 61 + 109 + two more records (timestamp deltas 10 and 20 ms, offset
  // deltas 1 and 2: one byte each, as the first's) = 61 + 3 x 109 = 388; one record: 170.
  CHECK(m.batch_size_max == doctest::Approx(388.0));
  CHECK(m.batch_size_avg == doctest::Approx((3 * 388.0 + 170.0) / 4));
  CHECK(m.request_latency_avg == doctest::Approx(3.0));
}

TEST_CASE("request latency per node: each node's own round trip, and the nodes add up to the total") {
  // Two partitions on brokers 1 (rtt 2) and 2 (rtt 6); keys alternate between them.
  auto s = single();
  s.brokers = {broker(1, 2), broker(2, 6)};
  s.topics[0].partitions = 2;
  s.run.records = 20;
  std::string k0, k1;
  for (int i = 0; k0.empty() || k1.empty(); ++i) {
    const std::string k = "k" + std::to_string(i);
    (model::partition_for_key(k, 2) == 0 ? k0 : k1) = k;
  }
  s.producers[0].workload.keys.kind = model::KeySpec::Kind::kList;
  s.producers[0].workload.keys.list = {k0, k1};
  const auto r = model::run_scenario(s, 1);
  partsim::testing::check_invariants(r, s);
  REQUIRE(r.records_acked == 20);
  const auto& m = only(r);
  REQUIRE(m.nodes.size() == 2);
  double sum_ms = 0;
  std::int64_t responses = 0, requests = 0;
  double max_ms = 0;
  for (const auto& n : m.nodes) {
    CAPTURE(n.node);
    // rtt + request.ms 1: no request waits (one every 10 ms, answered within 7 ms).
    CHECK(n.request_latency_avg_ms == doctest::Approx(n.node == 1 ? 3.0 : 7.0));
    CHECK(n.request_latency_max_ms == doctest::Approx(n.node == 1 ? 3.0 : 7.0));
    CHECK(n.requests == 10);
    sum_ms += n.request_latency_sum_ms;
    responses += n.responses;
    requests += n.requests;
    max_ms = std::max(max_ms, n.request_latency_max_ms);
  }
  CHECK(responses == m.responses);
  CHECK(requests == m.requests);
  CHECK(m.request_latency_avg == doctest::Approx(sum_ms / static_cast<double>(responses)));
  CHECK(m.request_latency_avg == doctest::Approx(5.0));
  CHECK(m.request_latency_max == doctest::Approx(max_ms));
}

TEST_CASE("every attempt counts in record-send-total; retries and failed batches count their records") {
  // Every request is answered with a retriable error; retries 2: each one-record batch is
  // sent 3 times, re-enqueued twice and fails once.
  auto s = single();
  s.brokers[0].error_rate = 1.0;
  s.producers[0].config.retries = 2;
  // A backoff of exactly 1 ms: min(retry.backoff.max.ms 1, floor(U(0.8, 1.2) x 2)) (spec §4.6).
  s.producers[0].config.retry_backoff = SimTime::ms(2);
  s.producers[0].config.retry_backoff_max = SimTime::ms(1);
  const auto r = model::run_scenario(s, 1);
  partsim::testing::check_invariants(r, s);
  REQUIRE(r.failed.retries_exhausted == 10);
  const auto& m = only(r);
  CHECK(m.record_send_total == 30);
  CHECK(m.record_retry_total == 20);
  CHECK(m.record_error_total == 10);
  CHECK(m.responses == 30);  // an error response has a latency too
  // A retried batch's queue time counts from its creation: 4 ms at the first drain, then
  // 4 + 3 (answer) + 1 (backoff) = 8, then 12 ms.
  CHECK(m.record_queue_time_max == doctest::Approx(12.0));
  CHECK(m.record_queue_time_avg == doctest::Approx(8.0));
}

TEST_CASE("without retries or failures record-send-total is the records acknowledged") {
  for (const bool keyed : {false, true}) {
    CAPTURE(keyed);
    auto s = single();
    s.topics[0].partitions = 6;
    s.brokers = {broker(0, 1), broker(1, 3), broker(2, 5)};
    s.producers[0].workload.arrivals.kind = model::Arrivals::Kind::kPoisson;
    s.producers[0].workload.arrivals.records_per_second = 5000;
    if (keyed) s.producers[0].workload.keys.kind = model::KeySpec::Kind::kTemplate;
    s.run.records = 3000;
    const auto r = model::run_scenario(s, 7);
    partsim::testing::check_invariants(r, s);
    REQUIRE(r.retries == 0);
    const auto& m = only(r);
    CHECK(m.record_send_total == r.records_acked);
    std::int64_t batches = 0;
    for (const auto& p : r.partitions) batches += p.batches;
    CHECK(m.batches == batches);
    std::int64_t requests = 0, responses = 0;
    for (const auto& n : m.nodes) {
      requests += n.requests;
      responses += n.responses;
    }
    CHECK(responses == m.responses);
    // A node drained with nothing to send adds a 0 sample to records-per-request but no request.
    CHECK(requests <= m.requests);
    CHECK(m.records_per_request_avg * static_cast<double>(m.requests) ==
          doctest::Approx(static_cast<double>(m.record_send_total)));
  }
}

TEST_CASE("bufferpool-wait-ratio is the time send() waited for buffer.memory over the run") {
  // A slow broker (request.ms 50) and buffer.memory for two batches: the application waits.
  auto s = single();
  s.brokers[0].request_time = SimTime::ms(50);
  s.producers[0].config.buffer_memory_bytes = 2 * 16384;
  s.producers[0].config.linger = SimTime::zero();
  s.producers[0].workload.arrivals.records_per_second = 100000;
  s.producers[0].workload.values.size_bytes = 4000;
  s.run.records = 200;
  const auto r = model::run_scenario(s, 1);
  partsim::testing::check_invariants(r, s);
  const auto& m = only(r);
  REQUIRE(r.buffer_full_ms > 0);
  CHECK(m.bufferpool_wait_ms == doctest::Approx(r.buffer_full_ms));
  CHECK(m.bufferpool_wait_ratio == doctest::Approx(r.buffer_full_ms / r.simulated_ms));
  CHECK(m.bufferpool_wait_ratio > 0.5);
  CHECK(m.bufferpool_wait_ratio <= 1.0);
}

TEST_CASE("a run with nothing sent has undefined averages, zero totals and rates") {
  auto s = single();
  s.run.records = 0;
  const auto r = model::run_scenario(s, 1);
  const auto& m = only(r);
  CHECK(m.record_send_total == 0);
  CHECK(m.record_send_rate == 0.0);
  CHECK(std::isnan(m.batch_size_avg));
  CHECK(std::isnan(m.request_latency_max));
  CHECK(std::isnan(m.records_per_request_avg));
  CHECK(std::isnan(m.nodes[0].request_latency_avg_ms));
}

TEST_CASE("a record send() refuses as too large counts in record-error-total, never in record-send-total") {
  auto s = single();
  s.producers[0].config.max_request_size_bytes = 1000;
  s.producers[0].workload.values.size_bytes = 2000;
  const auto r = model::run_scenario(s, 1);
  partsim::testing::check_invariants(r, s);
  REQUIRE(r.failed.record_too_large == 10);
  const auto& m = only(r);
  CHECK(m.record_error_total == 10);
  CHECK(m.record_send_total == 0);
  CHECK(m.batches == 0);
}
