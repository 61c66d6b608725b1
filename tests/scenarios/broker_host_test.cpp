// The Kafka-shaped broker, hosts and the producer's sender CPU through the loader and a
// whole run, on scenarios small enough to work out by hand: zero round trips and no
// replication wait, so a request's latency is its time at the broker.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "error_of.hpp"
#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {

// Two producers each send one 100-byte record at t = 0 to partitions 0 and 1 of topic t
// (leaders: brokers 0 and 1, or both on broker 0), acks=1; request.ms 10.
std::string two_senders(const std::string& cluster_extra, const std::string& broker_extra, int partitions_on_broker0) {
  const std::string b = "rtt.ms: 0, request.ms: 10, replication.ms: 0" + broker_extra;
  const std::string p1 = partitions_on_broker0 == 2 ? "0" : "1";
  return "name: two\ncluster:\n" + cluster_extra + "  brokers:\n    - {id: 0, " + b + "}\n    - {id: 1, " + b +
         "}\ntopics: [{name: t, partitions: 2}]\nproducers:\n"
         "  - {config: {acks: 1}, workload: {partition: 0, records: 1, arrivals: {kind: constant, rate: 1000}}}\n"
         "  - {config: {acks: 1}, workload: {partition: " +
         p1 + ", records: 1, arrivals: {kind: constant, rate: 1000}}}\n";
}

double latency(const model::RunResult& r, std::size_t producer) {
  return r.producer_metrics[producer].request_latency_avg;
}

}  // namespace

TEST_CASE("two brokers on a 1-core host take twice as long for the second request as on cores of their own") {
  // Cores of their own: both requests take request.ms, 10 ms.
  const auto own = model::run_scenario(scenarios::load_scenario_text(two_senders("", "", 1), "own"), 1);
  CHECK(latency(own, 0) == doctest::Approx(10));
  CHECK(latency(own, 1) == doctest::Approx(10));
  // One core for both: the second waits for the first, 10 + 10 ms.
  const auto shared = model::run_scenario(
      scenarios::load_scenario_text(two_senders("  hosts: [{name: h1, cores: 1}]\n", ", host: h1", 1), "shared"), 1);
  CHECK(latency(shared, 0) + latency(shared, 1) == doctest::Approx(30));
  CHECK(std::max(latency(shared, 0), latency(shared, 1)) == doctest::Approx(20));
}

TEST_CASE(
    "one broker with two io threads serves two connections at once; as one FIFO server it serves one after the other") {
  const auto fifo = model::run_scenario(scenarios::load_scenario_text(two_senders("", "", 2), "fifo"), 1);
  CHECK(latency(fifo, 0) + latency(fifo, 1) == doctest::Approx(30));  // 10, then 20
  const auto two =
      model::run_scenario(scenarios::load_scenario_text(two_senders("", ", num.io.threads: 2", 2), "io2"), 1);
  CHECK(latency(two, 0) == doctest::Approx(10));
  CHECK(latency(two, 1) == doctest::Approx(10));
  // Kafka's default 8 io threads as soon as any of the keys is given.
  const auto q =
      model::run_scenario(scenarios::load_scenario_text(two_senders("", ", queued.max.requests: 500", 2), "q"), 1);
  CHECK(latency(q, 0) + latency(q, 1) == doctest::Approx(20));
}

TEST_CASE("the sender thread's CPU per request delays its next drain, so batches fill meanwhile") {
  // A record every 1 ms from t = 0 (7 records), linger.ms 0, a broker answering at once.
  // Free sender: one batch per record, 7. With 2.5 ms per request the passes come at 0,
  // 2.5, 5 and 7.5 ms and drain [r0], [r1 r2], [r3 r4], [r5 r6]: 4 batches.
  const std::string base = "name: cpu\ncluster:\n  brokers: [{id: 0, rtt.ms: 0, request.ms: 0, replication.ms: 0}]\n"
                           "topics: [{name: t, partitions: 1}]\nrun: {records: 7}\nproducers:\n"
                           "  - config: {linger.ms: 0}\n    workload: {arrivals: {kind: constant, rate: 1000}}\n";
  const auto free_run = model::run_scenario(scenarios::load_scenario_text(base, "free"), 1);
  CHECK(free_run.producer_metrics[0].batches == 7);
  const auto busy =
      model::run_scenario(scenarios::load_scenario_text(base + "    cpu: {sender.request.us: 2500}\n", "busy"), 1);
  CHECK(busy.producer_metrics[0].batches == 4);
  CHECK(busy.producer_metrics[0].record_send_total == 7);
  // Per batch instead: every pass drains one batch into one request, so 2.5 ms per batch
  // gives the same 4 batches.
  const auto per_batch =
      model::run_scenario(scenarios::load_scenario_text(base + "    cpu: {sender.batch.us: 2500}\n", "batch"), 1);
  CHECK(per_batch.producer_metrics[0].batches == 4);
}

TEST_CASE(
    "the sender thread's CPU per byte (cpu.sender.byte.ns) grows with the requests: fuller batches make longer passes") {
  // The records of the case above at 100 bytes, null keys: a batch is 61 bytes of header
  // plus 109 per record. At 14,706 ns per byte the pass of [r0] (170 bytes) takes 2.5 ms;
  // the pass at 2.5 ms drains [r1 r2] (279 bytes, 4.1 ms), the one at 6.6 ms [r3 r4 r5 r6]:
  // 3 batches, where 2.5 ms per batch made 4.
  const std::string run =
      "name: cpu\ncluster:\n  brokers: [{id: 0, rtt.ms: 0, request.ms: 0, replication.ms: 0}]\n"
      "topics: [{name: t, partitions: 1}]\nrun: {records: 7}\nproducers:\n"
      "  - config: {linger.ms: 0}\n    cpu: {sender.byte.ns: 14706}\n"
      "    workload: {arrivals: {kind: constant, rate: 1000}, keys: {kind: none}, values: {kind: fixed, size: 100}}\n";
  const auto r = model::run_scenario(scenarios::load_scenario_text(run, "byte"), 1);
  CHECK(r.producer_metrics[0].batches == 3);
  CHECK(r.producer_metrics[0].record_send_total == 7);
}

TEST_CASE("a host a broker or producer names must be listed under cluster.hosts") {
  const std::string bad = two_senders("  hosts: [{name: h1, cores: 1}]\n", ", host: h2", 1);
  const std::string e = testing::error_of([&] { scenarios::load_scenario_text(bad, "bad.yaml"); });
  CHECK(e.find("bad.yaml:") != std::string::npos);
  CHECK(e.find("names no host of cluster.hosts ('h2'; hosts: h1)") != std::string::npos);
  const std::string zero = two_senders("  hosts: [{name: h1, cores: 0}]\n", "", 1);
  CHECK(testing::error_of([&] { scenarios::load_scenario_text(zero, "zero.yaml"); }).find("cores") !=
        std::string::npos);
  const std::string threads = two_senders("", ", num.io.threads: 0", 1);
  CHECK(testing::error_of([&] { scenarios::load_scenario_text(threads, "t.yaml"); }).find("num.io.threads") !=
        std::string::npos);
}

TEST_CASE("a host's name must not be empty: brokers and producers without host: keep cores of their own") {
  const std::string empty = two_senders("  hosts: [{name: \"\", cores: 1}]\n", "", 1);
  const std::string e = testing::error_of([&] { scenarios::load_scenario_text(empty, "empty.yaml"); });
  CHECK(e.find("empty.yaml:3:18: cluster.hosts.0.name: is empty") != std::string::npos);
  // Past the loader (a Scenario built in code): a host named "" captures no broker.
  model::Scenario s = scenarios::load_scenario_text(two_senders("  hosts: [{name: h1, cores: 1}]\n", "", 1), "own");
  s.hosts[0].name = "";
  const auto r = model::run_scenario(s, 1);
  CHECK(latency(r, 0) == doctest::Approx(10));
  CHECK(latency(r, 1) == doctest::Approx(10));
}

TEST_CASE("a request's queue wait includes its wait for a core of a shared host") {
  // Two brokers on a 1-core host, both requests arrive at 0: neither queues at its broker,
  // but the second waits 10 ms for the core (two_senders' first case).
  const model::Scenario s =
      scenarios::load_scenario_text(two_senders("  hosts: [{name: h1, cores: 1}]\n", ", host: h1", 1), "shared");
  model::RunOptions options;
  options.timeseries = model::SimTime::ms(5);
  const auto r = model::run_scenario(s, 1, 0, options);
  const auto mean_wait = [&](std::size_t b) {
    return r.brokers[b].queue_wait_ms_sum / static_cast<double>(r.brokers[b].requests);
  };
  CHECK(mean_wait(0) + mean_wait(1) == doctest::Approx(10));
  CHECK(std::max(mean_wait(0), mean_wait(1)) == doctest::Approx(10));
  // The timeseries' b<id>_queue_wait_ms sees the same wait.
  double sampled = 0;
  for (const auto& sample : r.timeseries.broker_queue_wait_ms)
    for (const double w : sample) sampled += w;
  CHECK(sampled == doctest::Approx(10));
}

TEST_CASE("a timed-out request's connection closes with its mute: the retry does not wait behind it") {
  // One record at 0 ms; the broker takes 100 ms for it, 1 ms from 20 ms on; two io threads.
  // request.timeout.ms 30: the client gives up at 30 ms, closes the connection and retries
  // after about 10 ms (backoff jitter) on a new one, which a free io thread serves at
  // once: acknowledged near 41 ms. Behind the old connection's mute the retry would
  // wait until the abandoned request left service at 100 ms (and time out again).
  const std::string yaml =
      "name: reconnect\ncluster:\n  brokers:\n    - {id: 0, rtt.ms: 0, request.ms: 100, replication.ms: 0, num.io.threads: 2,\n"
      "       schedule: [{at.ms: 20, set.request.ms: 1}]}\ntopics: [{name: t, partitions: 1}]\nproducers:\n"
      "  - config: {acks: 1, request.timeout.ms: 30, retry.backoff.ms: 10, retry.backoff.max.ms: 10}\n"
      "    workload: {records: 1, arrivals: {kind: constant, rate: 1000}}\n";
  const auto r = model::run_scenario(scenarios::load_scenario_text(yaml, "reconnect"), 1);
  REQUIRE(r.records_acked == 1);
  CHECK(r.producer_metrics[0].record_retry_total == 1);
  CHECK(static_cast<double>(r.latency.max()) / 1e6 > 38);
  CHECK(static_cast<double>(r.latency.max()) / 1e6 < 45);
}

TEST_CASE(
    "acks=all on a threaded broker: a connection's next request is read only once the response is sent, replication.ms after") {
  // Records at 0 and 1 ms, linger.ms 0: two requests on one connection. The first is served
  // 0 to 10 ms and answered at 10 + replication.ms 20 = 30 ms; only then is the second read
  // (muted until the response is sent): 30 to 40 ms, answered at 60 ms. Latencies 30 and
  // 59 ms. Were it read when the first left service (10 ms), it would be answered at 40 ms.
  const std::string yaml =
      "name: acks-all\ncluster:\n  brokers: [{id: 0, rtt.ms: 0, request.ms: 10, replication.ms: 20, num.io.threads: 2}]\n"
      "topics: [{name: t, partitions: 1}]\nproducers:\n"
      "  - config: {acks: all, linger.ms: 0}\n    workload: {records: 2, arrivals: {kind: constant, rate: 1000}}\n";
  const auto r = model::run_scenario(scenarios::load_scenario_text(yaml, "acks-all"), 1);
  REQUIRE(r.records_acked == 2);
  CHECK(r.producer_metrics[0].responses == 2);
  CHECK(latency(r, 0) == doctest::Approx((30.0 + 59.0) / 2));
  CHECK(r.producer_metrics[0].request_latency_max == doctest::Approx(59));
}

TEST_CASE(
    "acks=all on a threaded broker with followers: a connection's next request is read once the followers settle the first") {
  // Leader broker 0, follower broker 1 (replica.rtt.ms 20: 10 ms each way), records at 0
  // and 1 ms, linger.ms 0: two requests on one connection. The first is served 0 to 10 ms;
  // the follower's waiting fetch returns the records at 20 ms and its next fetch, at the
  // leader at 30 ms, moves the high watermark: the response leaves at 30 ms. Only then is
  // the second read (muted until its response is sent): served 30 to 40, settled at 60 ms.
  // Latencies 30 and 59 ms. Were it read when the first left service (10 ms), it would be
  // appended at 20 ms, behind the fetch in flight, and settled at 50 ms (latency 49).
  const std::string yaml =
      "name: acks-all-followers\ncluster:\n  replication: followers\n"
      "  brokers: [{id: 0, rtt.ms: 0, request.ms: 10, num.io.threads: 2, replica.rtt.ms: 20}, {id: 1, rtt.ms: 0, replica.rtt.ms: 20}]\n"
      "topics: [{name: t, partitions: 1, replication.factor: 2}]\nproducers:\n"
      "  - config: {acks: all, linger.ms: 0}\n    workload: {records: 2, arrivals: {kind: constant, rate: 1000}}\n";
  const auto r = model::run_scenario(scenarios::load_scenario_text(yaml, "acks-all-followers"), 1);
  REQUIRE(r.records_acked == 2);
  CHECK(r.producer_metrics[0].responses == 2);
  CHECK(latency(r, 0) == doctest::Approx((30.0 + 59.0) / 2));
  CHECK(r.producer_metrics[0].request_latency_max == doctest::Approx(59));
}
