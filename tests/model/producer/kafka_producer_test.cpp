// KafkaProducer.doSend and the application threads (spec §1) with a fake host and observer that
// records every call, a manual clock and a scripted partitioner object. The cases follow
// Kafka's KafkaProducerTest where it concerns what partsim models
// (testPartitionAddedToTransactionAfterFullBatchRetry: onNewBatch and the second
// partition() call; the RecordTooLargeException of the size check) and BufferPool's
// blocking as doSend sees it (max.block.ms, BufferExhaustedException).

#include "model/producer/kafka_producer.hpp"

#include <doctest/doctest.h>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/partitioners/key_hash.hpp"
#include "model/producer/call_log.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::RandomStreams;
using partsim::sim::SimTime;

namespace {

// The host and the observer: records every call, one line each; hands out request ids 1, 2, ...
struct Host final : ProducerHost, ProducerObserver {
  std::vector<std::string> log;
  std::uint64_t next_request = 1;
  std::uint64_t sender_generation = 0;
  std::deque<std::uint64_t> second_calls;

  void schedule_app(std::uint32_t, SimTime at) override { log.push_back(str("app at ", at.to_ms())); }
  void schedule_sender(std::uint32_t, std::uint64_t generation, SimTime at) override {
    sender_generation = generation;
    log.push_back(str("sender at ", at.to_ms()));
  }
  void schedule_buffer_timeout(std::uint32_t, std::uint64_t block, SimTime at) override {
    log.push_back(str("buffer timeout #", block, " at ", at.to_ms()));
  }
  void schedule_second_call(std::uint32_t, std::uint64_t send, SimTime at) override {
    second_calls.push_back(send);
    log.push_back(str("second call #", send, " at ", at.to_ms()));
  }
  void schedule_request_deadline(std::uint32_t, SimTime at) override { log.push_back(str("deadline at ", at.to_ms())); }
  std::int64_t request_bytes = 0;  // summed over every request sent
  std::uint64_t send_request(std::uint32_t, std::size_t node, std::int64_t bytes, std::span<const BatchId> batches,
                             bool) override {
    request_bytes += bytes;
    log.push_back(str("request #", next_request, " to ", node, " (", batches.size(), " batches)"));
    return next_request++;
  }
  void abandon_request(std::uint32_t, std::uint64_t request) override { log.push_back(str("abandon #", request)); }
  void request_metadata(std::uint32_t, std::size_t node) override { log.push_back(str("metadata after ", node)); }
  void record_appended(std::uint32_t, const AppendedRecord& r) override {
    log.push_back(str("appended p", r.partition));
  }
  void record_failed(std::uint32_t, FailureReason reason) override {
    log.push_back(str("failed: ", failure_name(reason)));
  }
  void batch_done(std::uint32_t, const BatchArena& batches, BatchId id, std::int32_t node,
                  std::optional<FailureReason> reason) override {
    const ProducerBatch& b = batches[id];
    if (reason) log.push_back(str("batch p", b.partition, " failed: ", failure_name(*reason)));
    else log.push_back(str("batch p", b.partition, " (", b.records, " records) acked by ", node));
  }
  void batch_retried(std::uint32_t) override { log.push_back("retried"); }
  void send_blocked(std::uint32_t, SimTime waited) override { log.push_back(str("blocked ", waited.to_ms(), " ms")); }

  std::string take() { return join(std::exchange(log, {})); }
  /// Only the lines that start with one of `prefixes`, then clears the log.
  std::string take(std::initializer_list<const char*> prefixes) {
    std::vector<std::string> kept;
    for (const std::string& l : log)
      for (const char* p : prefixes)
        if (l.rfind(p, 0) == 0) {
          kept.push_back(l);
          break;
        }
    log.clear();
    return join(kept);
  }
};

// A partitioner object whose answers are scripted; it records partition() and onNewBatch.
struct Script {
  std::deque<std::int32_t> answers;
  std::vector<std::string> calls;
  std::string take() { return join(std::exchange(calls, {})); }
};

class ScriptedPartitioner final : public Partitioner {
public:
  explicit ScriptedPartitioner(std::shared_ptr<Script> s) : s_(std::move(s)) {}
  std::int32_t partition(std::optional<std::string_view>, const PartitionerView&) override {
    REQUIRE_FALSE(s_->answers.empty());
    const std::int32_t p = s_->answers.front();
    s_->answers.pop_front();
    s_->calls.push_back(str("partition -> ", p));
    return p;
  }
  void on_new_batch(std::int32_t previous, const PartitionerView&) override {
    s_->calls.push_back(str("onNewBatch(", previous, ")"));
  }

private:
  std::shared_ptr<Script> s_;
};

struct ProducerFixture {
  ProducerSpec spec;
  std::vector<std::int32_t> leaders{0, 0, 0};
  std::vector<char> up{1};
  std::int64_t total_sent = 0;
  Host host;
  std::shared_ptr<Script> script = std::make_shared<Script>();
  std::unique_ptr<KafkaProducer> p;
  SimTime now = SimTime::zero();

  ProducerFixture() {
    spec.name = "p";
    spec.workload.topic = "t";
    spec.workload.arrivals.kind = Arrivals::Kind::kFlatOut;
    spec.workload.values.size_bytes = 100;
    spec.config.linger = SimTime::ms(1000);  // batches stay open unless a test sends them
  }
  /// A scripted partitioner object, under a 3.x client (the abort-on-new-batch path) unless
  /// the test names another.
  void use_script(std::initializer_list<std::int32_t> answers, std::string client = "kafka-3.9") {
    std::string why;
    spec.config.client = *parse_client(client, why);
    script->answers.assign(answers.begin(), answers.end());
    spec.config.partitioner.kind = PartitionerKind::kCode;
    auto s = script;
    spec.config.partitioner.factory = [s](PartitionDraw) { return std::make_unique<ScriptedPartitioner>(s); };
  }
  void make() {
    std::vector<std::int32_t> order;
    for (std::size_t i = 0; i < leaders.size(); ++i) order.push_back(static_cast<std::int32_t>(i));
    const SendBudget budget{std::nullopt, std::nullopt, &total_sent};
    p = std::make_unique<KafkaProducer>(0, spec, order, leaders, up, RandomStreams(1), budget, host, host);
  }
  /// One send() as the engine's AppSend event makes it.
  std::optional<SimTime> send() {
    p->app_event_fired();
    const std::int64_t before = p->sent();
    const std::size_t at = host.log.size();
    const auto next = p->send_next(now);
    // The application called send() (KafkaProducer counts it): logged where it happened.
    if (p->sent() > before) host.log.insert(host.log.begin() + static_cast<std::ptrdiff_t>(at), "send()");
    return next;
  }
  /// The sender thread's wake-up fires.
  void wake() { p->on_sender_wake(host.sender_generation, now); }
  std::int32_t deque_records(std::int32_t partition) const {
    std::int32_t n = 0;
    for (const BatchId b : p->accumulator().deque(partition)) n += p->accumulator().batch(b).records;
    return n;
  }
};

// A record whose batch-size upper bound is `upper` bytes: null key, value v with
// 61 + 21 + (1 + varint(v) + v + 1) = upper (spec §5.2, §5.3).
std::int32_t value_for_upper_bound(std::int32_t upper) {
  for (std::int32_t v = 0;; ++v) {
    RecordShape s;
    s.value_bytes = v;
    if (batch_size_upper_bound(s.payload_part()) == upper) return v;
    REQUIRE(batch_size_upper_bound(s.payload_part()) < upper);
  }
}

}  // namespace

// ---- abortForNewBatch: the second partition() call (spec §1.2 steps 7-9) -----------------------

TEST_CASE(
    "a record whose partition has no open batch calls onNewBatch and partition() again, landing where the second says") {
  ProducerFixture f;
  f.use_script({0, 1, 1, 0, 0});
  f.make();
  f.send();  // partition() -> 0: no batch there, abort; onNewBatch(0); partition() -> 1; new batch in p1
  CHECK(f.script->take() == "partition -> 0 | onNewBatch(0) | partition -> 1");
  CHECK(f.host.take({"appended"}) == "appended p1");
  f.send();  // partition() -> 1 joins the open batch: one call
  CHECK(f.script->take() == "partition -> 1");
  CHECK(f.host.take({"appended"}) == "appended p1");
  f.send();  // partition() -> 0 again, the second call agrees: the batch is created there
  CHECK(f.script->take() == "partition -> 0 | onNewBatch(0) | partition -> 0");
  CHECK(f.host.take({"appended"}) == "appended p0");
  CHECK(f.deque_records(0) == 1);
  CHECK(f.deque_records(1) == 2);
  CHECK(f.deque_records(2) == 0);
}

TEST_CASE("from kafka-4.0 a partitioner object is called once per record: no onNewBatch, no second call") {
  // kafka-versions.md "4.0": Partitioner.onNewBatch and the abort path are gone; 3.9 has them.
  for (const char* client : {"kafka-3.9", "kafka-4.0"}) {
    CAPTURE(client);
    ProducerFixture f;
    f.use_script({0, 1}, client);
    f.make();
    f.send();  // partition() -> 0, where no batch is open
    const bool second = std::string(client) == "kafka-3.9";
    CHECK(f.script->take() == (second ? "partition -> 0 | onNewBatch(0) | partition -> 1" : "partition -> 0"));
    CHECK(f.host.take({"appended"}) == (second ? "appended p1" : "appended p0"));
  }
}

TEST_CASE("an explicit partition with a partitioner object calls onNewBatch but never partition()") {
  ProducerFixture f;
  f.spec.workload.partition = 2;
  f.use_script({});
  f.make();
  f.send();
  f.send();
  CHECK(f.script->take() == "onNewBatch(2)");  // the first record opened the batch; the second joined it
  CHECK(f.host.take({"appended"}) == "appended p2 | appended p2");
}

TEST_CASE("with application threads and partition.gap.us, another thread's call may come before a second call") {
  ProducerFixture f;
  f.spec.workload.arrivals.threads = 3;
  f.spec.workload.arrivals.partition_gap = SimTime::us(10);
  f.use_script({0, 2, 1, 1});
  f.make();
  CHECK(f.send() == f.now);  // thread 1: partition() -> 0, its second call in 10 us; a thread is free
  CHECK_FALSE(f.send());     // thread 2: partition() -> 2, its second call in 10 us; every thread is busy
  CHECK(f.host.take({"second call", "appended"}) == "second call #0 at 0.01 | second call #1 at 0.01");
  f.now = SimTime::us(10);
  f.p->on_second_call(0, f.now);
  f.p->on_second_call(1, f.now);
  CHECK(f.script->take() ==
        "partition -> 0 | partition -> 2 | onNewBatch(0) | partition -> 1 | onNewBatch(2) | partition -> 1");
  CHECK(f.host.take({"appended", "app at"}) == "appended p1 | app at 0.01 | appended p1");
  CHECK(f.deque_records(1) == 2);
}

TEST_CASE("a negative partition from a partitioner object fails the send as invalid_partition, on either call") {
  ProducerFixture f;
  f.use_script({-1, 0, -3});
  f.make();
  f.send();
  CHECK(f.host.take({"failed", "appended"}) == "failed: invalid_partition");
  f.send();  // partition() -> 0 needs a new batch; the second call answers -3
  CHECK(f.script->take() == "partition -> -1 | partition -> 0 | onNewBatch(0) | partition -> -3");
  CHECK(f.host.take({"failed", "appended"}) == "failed: invalid_partition");
  CHECK_FALSE(f.p->accumulator().has_batches());
}

// ---- the size check (spec §1.2 step 5) and the BufferPool's hard limit (spec §3.10) --------------

TEST_CASE("an upper bound above max.request.size fails at once as record_too_large; one at the limit is sent") {
  // Null key, 1000-byte value: upper bound 61 + 21 + (1 + 2 + 1000 + 1) = 1086 (spec §5.2).
  CHECK(value_for_upper_bound(1086) == 1000);
  for (const std::int32_t limit : {1086, 1085}) {
    CAPTURE(limit);
    ProducerFixture f;
    f.spec.config.max_request_size_bytes = limit;
    f.spec.workload.values.size_bytes = 1000;
    f.spec.workload.partition = 0;
    f.make();
    f.send();
    if (limit == 1086) {
      CHECK(f.host.take({"send()", "failed", "appended"}) == "send() | appended p0");
    } else {
      CHECK(f.host.take() == "send() | failed: record_too_large");
      CHECK_FALSE(f.p->accumulator().has_batches());
    }
  }
}

TEST_CASE("a record whose upper bound exceeds buffer.memory fails at once as record_too_large") {
  ProducerFixture f;
  f.spec.config.buffer_memory_bytes = 1085;
  f.spec.config.batch_size_bytes = 512;
  f.spec.workload.values.size_bytes = 1000;  // upper bound 1086
  f.make();
  f.send();
  CHECK(f.host.take() == "send() | failed: record_too_large");
}

TEST_CASE("batch.size larger than buffer.memory fails every send that needs a new batch as buffer_limit") {
  ProducerFixture f;
  f.spec.config.batch_size_bytes = 2000;
  f.spec.config.buffer_memory_bytes = 1500;  // the record (upper bound 186) fits, its batch does not
  f.spec.workload.partition = 0;
  f.make();
  f.send();
  f.send();
  CHECK(f.host.take() == "send() | failed: buffer_limit | send() | failed: buffer_limit");
  CHECK_FALSE(f.p->accumulator().has_batches());
  CHECK_FALSE(f.p->blocked());
}

TEST_CASE("a record too large is still partitioned first: partition() runs before the size check (KP:1057-1064)") {
  // Kafka's doSend calls partition() (KP:1057) before ensureValidRecordSize (KP:1064), so a
  // too-large record advances a partitioner object's state (a round-robin counter). partsim
  // checks the size first.
  ProducerFixture f;
  f.spec.config.max_request_size_bytes = 1000;
  f.spec.workload.values.size_bytes = 1000;
  f.use_script({0});
  f.make();
  f.send();
  CHECK(f.host.take({"failed"}) == "failed: record_too_large");
  CHECK(f.script->take() == "partition -> 0");
}

// ---- blocking on buffer.memory (spec §3.10) ------------------------------------------------------

namespace {

// Every record needs its own batch of 1036 bytes (upper bound 61 + 21 + 954 > batch.size
// 1000); buffer.memory 3000 holds two of them.
ProducerFixture exhausted_memory_fixture() {
  ProducerFixture f;
  f.spec.config.batch_size_bytes = 1000;
  f.spec.config.buffer_memory_bytes = 3000;
  f.spec.config.max_block = SimTime::ms(60000);
  f.spec.workload.partition = 0;
  f.spec.workload.values.size_bytes = value_for_upper_bound(1036);
  return f;
}

}  // namespace

TEST_CASE(
    "a send that finds buffer.memory exhausted blocks, wakes the sender, and resumes when a batch is acknowledged") {
  ProducerFixture f = exhausted_memory_fixture();
  f.make();
  CHECK(f.send() == f.now);
  CHECK(f.send() == f.now);  // the first batch had no room: closed, a second one created
  f.now = SimTime::ms(1);
  f.wake();  // sends the full first batch
  f.wake();  // the second, created at 0 ms, lingers: the sender sleeps until 1000 ms
  CHECK(f.host.take() == "send() | appended p0 | sender at 0 | send() | appended p0 | request #1 to 0 (1 batches) | "
                         "deadline at 30001 | sender at 1 | sender at 1000");

  f.now = SimTime::ms(2);
  CHECK_FALSE(f.send());  // the third batch does not fit (2 x 1036 of 3000 in use): the thread waits
  CHECK(f.p->blocked());
  CHECK(f.p->accumulator().pool().has_waiter());
  // Blocking wakes the sender now: a waiter makes every partition sendable (spec §3.10).
  CHECK(f.host.take() == "send() | buffer timeout #1 at 60002 | sender at 2");
  f.wake();
  CHECK(f.host.take({"request"}) == "request #2 to 0 (1 batches)");

  f.now = SimTime::ms(5);
  f.p->on_response(1, f.now);
  CHECK(f.host.take({"batch", "blocked", "appended", "app at"}) ==
        "batch p0 (1 records) acked by 0 | blocked 3 ms | appended p0 | app at 5");
  CHECK_FALSE(f.p->blocked());
  CHECK(f.deque_records(0) == 1);
  CHECK(f.p->accumulator().pool().used_bytes() == 2 * 1036);
  f.p->on_buffer_timeout(1, SimTime::ms(60002));  // the timer of a wait that ended: nothing happens
  CHECK(f.host.take({"failed", "blocked"}).empty());
}

TEST_CASE("a send blocked on buffer.memory fails as buffer_timeout when max.block.ms passes first") {
  ProducerFixture f = exhausted_memory_fixture();
  f.make();
  f.send();
  f.send();
  f.send();
  CHECK(f.p->blocked());
  f.host.take();
  f.now = SimTime::ms(60000);
  f.p->on_buffer_timeout(1, f.now);
  CHECK(f.host.take() == "blocked 60000 ms | failed: buffer_timeout | app at 60000");
  CHECK_FALSE(f.p->blocked());
  CHECK_FALSE(f.p->accumulator().pool().has_waiter());
  CHECK(f.deque_records(0) == 2);
}

// ---- partition choice (spec §1.3) ----------------------------------------------------------

TEST_CASE("an explicit partition is used as given") {
  ProducerFixture f;
  f.spec.workload.partition = 2;
  f.make();
  for (int i = 0; i < 3; ++i) f.send();
  CHECK(f.host.take({"appended"}) == "appended p2 | appended p2 | appended p2");
}

namespace {

// Keys book-0..book-4, cycled (the book's table T1).
void book_keys(ProducerFixture& f) {
  f.spec.workload.keys.kind = KeySpec::Kind::kList;
  f.spec.workload.keys.list = {"book-0", "book-1", "book-2", "book-3", "book-4"};
}

}  // namespace

TEST_CASE("keyed records go to murmur2(key) over all partitions, leaderless ones included") {
  ProducerFixture f;
  book_keys(f);
  f.leaders = {0, -1, 0};  // partition 1 has no leader: its keys still hash there
  f.make();
  for (int i = 0; i < 5; ++i) f.send();
  // Table T1 (key_hash_test): book-0..book-4 on 3 partitions -> 1, 2, 2, 0, 1.
  CHECK(f.host.take({"appended"}) == "appended p1 | appended p2 | appended p2 | appended p0 | appended p1");
}

TEST_CASE("partitioner.ignore.keys makes keyed records sticky like null-key records") {
  ProducerFixture f;
  book_keys(f);
  f.spec.config.ignore_keys = true;
  f.make();
  for (int i = 0; i < 5; ++i) f.send();
  // All five fit one batch of the sticky partition, whatever their keys hash to.
  const std::int32_t sticky = f.p->accumulator().partitioner().current();
  CHECK(f.deque_records(sticky) == 5);
  const std::string a = str("appended p", sticky);
  CHECK(f.host.take({"appended"}) == a + " | " + a + " | " + a + " | " + a + " | " + a);
}

// ---- closed-loop arrivals -------------------------------------------------------------------------

TEST_CASE("closed loop: at most `concurrency` sends are outstanding; each acknowledgement lets the next one go") {
  ProducerFixture f;
  f.spec.workload.arrivals.kind = Arrivals::Kind::kClosedLoop;
  f.spec.workload.arrivals.concurrency = 2;
  f.spec.config.linger = SimTime::zero();
  f.spec.workload.partition = 0;
  f.make();
  f.p->start(f.now);
  CHECK(f.host.take() == "app at 0");
  CHECK(f.send() == f.now);  // a token left
  f.wake();                  // its batch leaves as request #1
  CHECK_FALSE(f.send());     // the second token: now the thread waits for an acknowledgement
  f.wake();
  // No app event is scheduled after the second send: the thread waits.
  CHECK(f.host.take({"send()", "request", "app at"}) ==
        "send() | request #1 to 0 (1 batches) | send() | request #2 to 0 (1 batches)");

  f.now = SimTime::ms(3);
  f.p->on_response(1, f.now);
  CHECK(f.host.take({"batch", "app at"}) == "batch p0 (1 records) acked by 0 | app at 3");
  CHECK_FALSE(f.send());  // exactly one more send per acknowledged record
  f.wake();
  CHECK(f.host.take({"send()", "request", "app at"}) == "send() | request #3 to 0 (1 batches)");
  CHECK(f.total_sent == 3);

  // Two acknowledgements before the application runs: one app event, two sends.
  f.now = SimTime::ms(4);
  f.p->on_response(2, f.now);
  f.p->on_response(3, f.now);
  CHECK(f.host.take({"batch", "app at"}) ==
        "batch p0 (1 records) acked by 0 | app at 4 | batch p0 (1 records) acked by 0");
  CHECK(f.send() == f.now);
  CHECK_FALSE(f.send());
  CHECK(f.total_sent == 5);
}

// ---- one thread, one piece of work at a time (cpu.sender.*, send.cost.us) --------------------------

TEST_CASE("a wake armed during a sender pass waits for that pass's CPU time: the thread's busy periods never overlap") {
  // acks=0: the pass's request is acknowledged as it leaves, which frees the memory the
  // blocked third send() waits for; it appends and wakes the sender at 0 ms, before the
  // pass's 2 ms of CPU time are booked. The thread runs [0, 2) then [2, 4): two passes of
  // one request each, 4 ms in all, never two at once.
  ProducerFixture f = exhausted_memory_fixture();
  f.spec.config.acks = Acks::kNone;
  f.spec.config.linger = SimTime::zero();
  f.spec.cpu.per_request = SimTime::ms(2);
  f.make();
  CHECK(f.send() == f.now);
  CHECK(f.send() == f.now);
  CHECK_FALSE(f.send());  // blocked on buffer.memory
  f.host.log.clear();
  f.wake();
  CHECK(f.host.take({"request", "blocked", "appended", "sender at"}) ==
        "request #1 to 0 (1 batches) | blocked 0 ms | appended p0 | sender at 0");
  f.wake();  // the wake armed at 0 ms finds the thread busy until 2 ms: no pass
  CHECK(f.host.take({"request", "sender at"}) == "sender at 2");
  f.now = SimTime::ms(2);
  f.wake();
  CHECK(f.host.take({"request", "sender at"}) == "request #2 to 0 (1 batches) | sender at 4");
}

namespace {

// linger.ms 0 and a sender thread at 1 ms per request, 0.1 ms per batch, 1,000 ns per byte.
ProducerFixture sender_cpu_fixture() {
  ProducerFixture f;
  f.spec.config.linger = SimTime::zero();
  f.spec.cpu.per_request = SimTime::ms(1);
  f.spec.cpu.per_batch = SimTime::us(100);
  f.spec.cpu.per_byte_ns = 1000;
  return f;
}

}  // namespace

TEST_CASE(
    "cpu.sender.byte.ns: a pass's CPU time counts the bytes of its requests, beside the time per request and per batch") {
  // One 100-byte null-key record: a batch of 61 bytes of header and a 109-byte record
  // (length 2, attributes 1, timestamp and offset deltas 1 + 1, key length 1, value length
  // 2, value 100, header count 1) = 170 bytes. At 1 ms per request, 0.1 ms per batch and
  // 1,000 ns per byte, the pass keeps the thread busy 1 + 0.1 + 0.17 = 1.27 ms.
  ProducerFixture f = sender_cpu_fixture();
  f.spec.workload.partition = 0;
  f.make();
  CHECK(f.send() == f.now);
  f.host.log.clear();
  f.wake();
  CHECK(f.host.request_bytes == 170);
  CHECK(f.host.take({"request", "sender at"}) == "request #1 to 0 (1 batches) | sender at 1.27");
}

TEST_CASE("cpu.sender.byte.ns sums the bytes of every request and batch of a pass") {
  // Records in p0, p2 (both led by node 0) and p1 (node 1), 170 bytes each as above: the
  // pass sends two requests, one of two batches, one of one. 2 x 1 ms + 3 x 0.1 ms + 510
  // bytes x 1,000 ns = 2.81 ms (counting only the last request's bytes gives 2.47, bytes
  // per request times its batches 2.98).
  ProducerFixture f = sender_cpu_fixture();
  f.leaders = {0, 1, 0};
  f.up = {1, 1};
  f.use_script({0, 0, 2, 2, 1, 1});  // partition(), then the same again after onNewBatch
  f.make();
  for (int i = 0; i < 3; ++i) CHECK(f.send() == f.now);
  f.host.log.clear();
  f.wake();
  CHECK(f.host.request_bytes == 510);
  CHECK(f.host.take({"request", "sender at"}) ==
        "request #1 to 0 (2 batches) | request #2 to 1 (1 batches) | sender at 2.81");
}

TEST_CASE(
    "an application thread busy with a send() calls the next one when it is done, even after an acknowledgement") {
  // Closed loop, one outstanding send, acks=0, 2 ms per send(): the acknowledgement comes
  // while the thread is still in its first send() (0 to 2 ms); the next starts at 2 ms.
  ProducerFixture f;
  f.spec.workload.arrivals.kind = Arrivals::Kind::kClosedLoop;
  f.spec.workload.arrivals.concurrency = 1;
  f.spec.workload.arrivals.send_cost = SimTime::ms(2);
  f.spec.config.acks = Acks::kNone;
  f.spec.config.linger = SimTime::zero();
  f.spec.workload.partition = 0;
  f.make();
  f.p->start(f.now);
  CHECK(f.host.take() == "app at 0");
  CHECK_FALSE(f.send());  // no token left
  f.wake();               // request #1, acknowledged at once: a token back at 0 ms
  CHECK(f.host.take({"send()", "request", "batch", "app at"}) ==
        "send() | request #1 to 0 (1 batches) | batch p0 (1 records) acked by 0 | app at 2");
  f.now = SimTime::ms(2);
  CHECK_FALSE(f.send());
  f.wake();
  CHECK(f.host.take({"send()", "request", "app at"}) == "send() | request #2 to 0 (1 batches) | app at 4");
}
