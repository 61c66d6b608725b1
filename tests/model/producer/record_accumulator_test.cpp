// RecordAccumulator against Kafka's own RecordAccumulatorTest (clients/src/test/java/org/
// apache/kafka/clients/producer/internals/RecordAccumulatorTest.java): the same cluster
// (topic "test", partitions 0 and 1 led by node 0, partition 2 by node 1), the same records
// (key "key", value "value": 15 bytes each), a manual clock, and scripted random draws
// where the built-in partitioner draws. Then partsim's own rules: the rotating drain start,
// the deferred switch, and the ready index against a full scan.

#include "model/producer/record_accumulator.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include <boost/random/uniform_int_distribution.hpp>

#include "sim/random_streams.hpp"

using namespace partsim::model;
using partsim::sim::SimTime;

namespace {

constexpr std::size_t kNodeA = 0, kNodeB = 1;
const SimTime kMaxBlock = SimTime::ms(1000);

RecordShape keyed(std::int32_t value_bytes = 5) {
  RecordShape s;
  s.key_bytes = 3;
  s.value_bytes = value_bytes;
  return s;
}
RecordShape unkeyed(std::int32_t value_bytes) {
  RecordShape s;
  s.value_bytes = value_bytes;
  return s;
}

// DefaultRecord.sizeInBytes(offsetDelta, 0, 3, 5, no headers): 15 bytes while deltas are small.
const std::int32_t kMsgSize = record_size(0, 0, keyed().payload_part());

// expectedNumAppends: how many "key"/"value" records fit in `batch_size` bytes of records.
std::int32_t expected_appends(std::int32_t batch_size) {
  std::int32_t size = 0;
  for (std::int32_t offset_delta = 0;; ++offset_delta) {
    const std::int32_t r = record_size(offset_delta, 0, keyed().payload_part());
    if (size + r > batch_size) return offset_delta;
    size += r;
  }
}

// Draws 0, 1, 2, ... like the test's SequentialPartitioner; counts its calls.
struct SequentialDraws {
  std::int32_t next = 0;
};

struct Cluster {
  ProducerMetadata metadata;
  explicit Cluster(std::vector<std::int32_t> order = {0, 1, 2}, std::vector<std::int32_t> leaders = {0, 0, 1})
      : metadata(std::move(order), 2) {
    metadata.update(leaders);
  }
};

struct Accumulator {
  Cluster cluster;
  std::shared_ptr<SequentialDraws> draws = std::make_shared<SequentialDraws>();
  RecordAccumulator acc;
  SimTime now = SimTime::zero();

  Accumulator(AccumulatorConfig config, Cluster c = Cluster())
      : cluster(std::move(c)), acc(config, cluster.metadata.num_partitions(), 2, [d = draws] { return d->next++; }) {
    acc.after_metadata_update(cluster.metadata);
  }
  AppendResult append(std::int32_t partition, RecordShape shape = keyed(), bool abort = false) {
    AppendRequest r;
    r.partition = partition;
    r.shape = shape;
    r.intended = now;
    r.abort_on_new_batch = abort;
    return acc.append(r, now, cluster.metadata);
  }
  struct Ready {
    std::vector<std::size_t> ready_nodes;
    SimTime next_ready_check_delay;
  };
  Ready ready() {
    const ReadyCheckResult r = acc.ready(cluster.metadata, now, false);
    return Ready{{r.ready_nodes.begin(), r.ready_nodes.end()}, r.next_ready_check_delay};
  }
  std::vector<BatchId> drain(std::size_t node, std::int32_t max_size = INT32_MAX) {
    std::vector<BatchId> out;
    acc.drain(cluster.metadata, node, now, max_size, out);
    return out;
  }
  std::vector<std::int32_t> partitions_of(const std::vector<BatchId>& ids) const {
    std::vector<std::int32_t> p;
    for (const BatchId id : ids) p.push_back(acc.batch(id).partition);
    return p;
  }
};

AccumulatorConfig config(std::int32_t batch_size, std::int64_t total_size, SimTime linger) {
  AccumulatorConfig c;
  c.batch_size_bytes = batch_size;
  c.buffer_memory_bytes = total_size;
  c.linger = linger;
  c.adaptive = false;
  c.sticky_records = false;
  return c;
}

std::vector<std::size_t> nodes(std::initializer_list<std::size_t> n) { return n; }

}  // namespace

TEST_CASE("testFull: a partition is ready once its deque holds a second batch") {
  const std::int32_t batch_size = 1025;
  Accumulator a(config(batch_size + kBatchHeaderBytes, 10 * batch_size, SimTime::ms(10)));
  const std::int32_t appends = expected_appends(batch_size);
  for (std::int32_t i = 0; i < appends; ++i) {
    a.append(0);
    CHECK(a.acc.deque_size(0) == 1);
    CHECK(a.ready().ready_nodes.empty());
  }
  a.append(0);  // no room: the first batch is closed, a second one opened
  CHECK(a.acc.deque_size(0) == 2);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  const auto batches = a.drain(kNodeA);
  REQUIRE(batches.size() == 1);
  CHECK(a.acc.batch(batches[0]).records == appends);
}

TEST_CASE("testLinger: a batch becomes sendable when linger.ms has passed") {
  Accumulator a(config(1024 + kBatchHeaderBytes, 10 * 1024, SimTime::ms(10)));
  a.append(0);
  CHECK(a.ready().ready_nodes.empty());
  a.now = SimTime::ms(10);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  const auto batches = a.drain(kNodeA);
  REQUIRE(batches.size() == 1);
  CHECK(a.acc.batch(batches[0]).records == 1);
}

TEST_CASE("testPartialDrain: max.request.size bounds a drain, the first batch always goes") {
  Accumulator a(config(1024 + kBatchHeaderBytes, 10 * 1024, SimTime::ms(10)));
  const std::int32_t appends = 1024 / kMsgSize + 1;
  for (const std::int32_t p : {0, 1})
    for (std::int32_t i = 0; i < appends; ++i) a.append(p);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  CHECK(a.drain(kNodeA, 1024).size() == 1);
}

TEST_CASE("testNextReadyCheckDelay: the delay is the least remaining linger") {
  const std::int32_t batch_size = 1025;
  const SimTime linger = SimTime::ms(10);
  Accumulator a(config(batch_size + kBatchHeaderBytes, 10 * batch_size, linger));
  const std::int32_t appends = expected_appends(batch_size);
  for (std::int32_t i = 0; i < appends; ++i) a.append(0);
  auto r = a.ready();
  CHECK(r.ready_nodes.empty());
  CHECK(r.next_ready_check_delay == linger);
  a.now = SimTime::ms(5);
  for (std::int32_t i = 0; i < appends; ++i) a.append(2);
  r = a.ready();
  CHECK(r.ready_nodes.empty());
  CHECK(r.next_ready_check_delay == SimTime::ms(5));  // node 1's half of the linger remains
  for (std::int32_t i = 0; i < appends + 1; ++i) a.append(1);
  r = a.ready();
  CHECK(r.ready_nodes == nodes({kNodeA}));
  CHECK(r.next_ready_check_delay <= linger);
}

TEST_CASE("testRetryBackoff: a re-enqueued batch waits its backoff while others are drained") {
  const SimTime linger = SimTime::ms(2147483647 / 16);
  const SimTime backoff = SimTime::ms(2147483647 / 8);
  AccumulatorConfig c = config(1024 + kBatchHeaderBytes, 10 * 1024, linger);
  c.delivery_timeout = SimTime::ms(2147483647);
  Accumulator a(c);
  a.append(0);
  a.now = linger + SimTime::ms(1);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  auto batches = a.drain(kNodeA);
  REQUIRE(batches.size() == 1);
  a.now = SimTime::zero();
  a.acc.reenqueue(batches[0], a.now, backoff);
  a.append(1);
  a.now = linger + SimTime::ms(1);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  batches = a.drain(kNodeA);
  CHECK(a.partitions_of(batches) == std::vector<std::int32_t>{1});  // partition 0 still backs off
  a.now = backoff + SimTime::ms(1);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  batches = a.drain(kNodeA);
  CHECK(a.partitions_of(batches) == std::vector<std::int32_t>{0});
}

TEST_CASE("testMutedPartitions: a muted partition is neither ready nor drained") {
  const std::int32_t batch_size = 1025;
  Accumulator a(config(batch_size + kBatchHeaderBytes, 10 * batch_size, SimTime::ms(10)));
  for (std::int32_t i = 0; i < expected_appends(batch_size); ++i) a.append(0);
  a.now = SimTime::ms(2000);
  a.acc.mute(0);
  CHECK(a.ready().ready_nodes.empty());
  a.acc.unmute(0);
  const auto r = a.ready();
  CHECK(r.ready_nodes == nodes({kNodeA}));
  a.acc.mute(0);
  CHECK(a.drain(kNodeA).empty());
  a.acc.unmute(0);
  CHECK(a.drain(kNodeA).size() == 1);
}

TEST_CASE("testExpiredBatches: full batches expire after delivery.timeout.ms, muted or not") {
  const std::int32_t batch_size = 1025;
  AccumulatorConfig c = config(batch_size + kBatchHeaderBytes, 10 * batch_size, SimTime::ms(30));
  c.delivery_timeout = SimTime::ms(3200);
  Accumulator a(c);
  for (std::int32_t i = 0; i < expected_appends(batch_size); ++i) a.append(0);
  a.append(0);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));
  a.now = SimTime::ms(3201);
  a.acc.mute(0);
  std::vector<BatchId> expired;
  a.acc.expired_batches(a.now, expired);
  CHECK(expired.size() == 2);
  a.acc.unmute(0);
  a.acc.expired_batches(a.now, expired);
  CHECK(expired.empty());
  CHECK(a.ready().ready_nodes.empty());
  CHECK(a.acc.next_expiry() == kNever);
}

TEST_CASE("testDrainBatches: each drain starts one partition further on (the rotating start)") {
  // node 0 leads partitions 0 and 1, node 1 leads 2 and 3; a batch of one record is larger
  // than the request limit, so each node gives one batch per drain.
  Accumulator a(config(5 + kBatchHeaderBytes, INT32_MAX, SimTime::ms(10)), Cluster({0, 1, 2, 3}, {0, 0, 1, 1}));
  const std::int32_t max_size = 5 + kBatchHeaderBytes;
  auto drain_both = [&](std::int32_t limit) {
    auto p = a.partitions_of(a.drain(kNodeA, limit));
    const auto q = a.partitions_of(a.drain(kNodeB, limit));
    p.insert(p.end(), q.begin(), q.end());
    return p;
  };
  for (const std::int32_t p : {0, 1, 2, 3}) a.append(p);
  CHECK(drain_both(max_size) == std::vector<std::int32_t>{0, 2});
  for (const std::int32_t p : {0, 2}) a.append(p);
  CHECK(drain_both(max_size) == std::vector<std::int32_t>{1, 3});  // one further on
  CHECK(drain_both(max_size) == std::vector<std::int32_t>{0, 2});  // back at the beginning
  for (const std::int32_t p : {1, 2, 3}) a.append(p);
  a.acc.mute(3);
  CHECK(drain_both(max_size) == std::vector<std::int32_t>{1, 2});
  for (const std::int32_t p : {0, 1, 2}) a.append(p);
  a.acc.unmute(3);
  CHECK(drain_both(INT32_MAX) == std::vector<std::int32_t>{0, 1, 2, 3});
}

TEST_CASE("testDrainWithANodeThatDoesntHostAnyPartitions") {
  Accumulator a(config(10, 10 * 1024, SimTime::ms(10)), Cluster({0, 1, 2}, {0, 0, 0}));
  CHECK(a.drain(kNodeB, 999999).empty());
}

TEST_CASE("testUniformBuiltInPartitioner: one draw per switch, the switch waits for a complete batch") {
  AccumulatorConfig c = config(1024, 1024 * 1024, SimTime::zero());
  c.sticky_records = true;
  Accumulator a(c);
  CHECK(a.append(-1, unkeyed(5)).partition == 0);
  CHECK(a.draws->next == 1);
  // Past the sticky limit, but the batch is not complete: no switch yet.
  CHECK(a.append(-1, unkeyed(1024)).partition == 0);
  CHECK(a.draws->next == 1);
  for (const std::int32_t expected : {1, 2, 0}) {
    CHECK(a.append(-1, unkeyed(1024)).partition == expected);
  }
  CHECK(a.draws->next == 4);
}

TEST_CASE("testAdaptiveBuiltInPartitioner: choices follow max + 1 - queue size; a slow node is left out") {
  AccumulatorConfig c = config(128, 1024 * 1024, SimTime::zero());
  c.adaptive = true;
  c.sticky_records = true;
  c.availability_timeout = SimTime::ms(100);
  Accumulator a(c);
  const std::vector<std::int32_t> queues{1, 7, 2};
  for (std::int32_t p = 0; p < 3; ++p) {
    for (std::int32_t k = 0; k < queues[static_cast<std::size_t>(p)]; ++k) a.append(p, unkeyed(128));
    CHECK(a.acc.deque_size(p) == queues[static_cast<std::size_t>(p)]);
  }
  a.ready();                   // the pass whose queue sizes make the table
  a.append(-1, unkeyed(128));  // primes the sticky partition: every record now switches
  std::vector<std::int32_t> frequencies(3, 0);
  const std::int32_t cycles = 2, total = 7 + 1 + 6;
  for (std::int32_t i = 0; i < total * cycles; ++i)
    ++frequencies[static_cast<std::size_t>(a.append(-1, unkeyed(128)).partition)];
  CHECK(frequencies == std::vector<std::int32_t>{7 * cycles, 1 * cycles, 6 * cycles});
  // Node 0 has had data it could not send for 200 ms > 100: its partitions leave the table.
  a.acc.update_node_latency(kNodeA, a.now - SimTime::ms(200), true);
  a.acc.update_node_latency(kNodeA, a.now, false);
  a.ready();
  a.append(-1, unkeyed(128));
  for (int k = 0; k < 10; ++k) CHECK(a.append(-1, unkeyed(128)).partition == 2);
}

TEST_CASE("testBuiltInPartitionerFractionalBatches: high linger does not make fractional batches") {
  AccumulatorConfig c = config(512, 1024 * 1024, SimTime::ms(10));
  c.sticky_records = true;
  Accumulator a(c);
  for (int round = 0; round < 10; ++round) {
    for (int k = 0; k < 512 * 2 / 3 / 32; ++k) a.append(-1, unkeyed(32));
    a.now += SimTime::ms(10);
    const auto r = a.ready();
    REQUIRE(r.ready_nodes.size() == 1);
    const auto batches = a.drain(r.ready_nodes[0]);
    REQUIRE(batches.size() == 1);
    const ProducerBatch& b = a.acc.batch(batches[0]);
    CHECK(b.built_bytes > 512 / 2);
    CHECK(b.built_bytes < 512);
    a.acc.release(batches[0]);
  }
}

TEST_CASE("a switch due in the middle of a batch waits for the batch boundary (spec §3.4)") {
  // batch.size 300, records of ~108 bytes: two fill a batch to 277 bytes; the third opens a
  // second batch, which brings the bytes produced to 446 >= 300 while that batch is open:
  // the switch is deferred until the batch is gone, then done before the next append.
  AccumulatorConfig c = config(300, 1024 * 1024, SimTime::ms(100));
  c.sticky_records = true;
  Accumulator a(c);
  for (int k = 0; k < 3; ++k) CHECK(a.append(-1, unkeyed(100)).partition == 0);
  CHECK(a.acc.deque_size(0) == 2);
  CHECK(a.acc.partitioner().produced_bytes() >= 300);
  CHECK(a.acc.partitioner().switches() == 0);
  a.now = SimTime::ms(100);
  CHECK(a.drain(kNodeA).size() == 1);                // one batch per partition per drain
  CHECK(a.append(-1, unkeyed(100)).partition == 0);  // the last batch is still open
  CHECK(a.acc.partitioner().switches() == 0);
  CHECK(a.drain(kNodeA).size() == 1);
  CHECK(a.acc.deque_size(0) == 0);
  CHECK(a.append(-1, unkeyed(100)).partition == 1);  // switched first, then appended
  CHECK(a.acc.partitioner().switches() == 1);
}

TEST_CASE("testStickyBatches: with a partitioner object, a record that needs a new batch aborts the append") {
  const std::int32_t batch_size = 1025;
  AccumulatorConfig c = config(batch_size + kBatchHeaderBytes, 10 * batch_size, SimTime::ms(10));
  Accumulator a(c);
  // The first record of a partition opens a batch; the following join it until it is full.
  CHECK(a.append(1, unkeyed(5), false).status == AppendResult::Status::kAppended);
  std::int32_t appends = 1;
  for (;;) {
    const auto r = a.append(1, unkeyed(5), true);
    if (r.status == AppendResult::Status::kAbortForNewBatch) break;
    ++appends;
    CHECK(a.acc.deque_size(1) == 1);
  }
  std::int32_t expected = 0;
  for (std::int32_t size = 0, d = 0;; ++d) {
    const std::int32_t r = record_size(d, 0, unkeyed(5).payload_part());
    if (size + r > batch_size) break;
    size += r;
    expected = d + 1;
  }
  CHECK(appends == expected);
  CHECK(a.ready().ready_nodes == nodes({kNodeA}));  // the batch is closed: full
}

TEST_CASE("a new batch larger than buffer.memory fails at once; memory exhausted makes the send wait") {
  Accumulator over(config(4096, 1024, SimTime::zero()));
  CHECK(over.append(0).status == AppendResult::Status::kOverMemoryLimit);
  Accumulator a(config(1000, 2000, SimTime::zero()));
  CHECK(a.append(0).status == AppendResult::Status::kAppended);
  CHECK(a.append(1).status == AppendResult::Status::kAppended);
  CHECK(a.append(2).status == AppendResult::Status::kWaitForMemory);
  CHECK(a.acc.pool().has_waiter());
  const auto batches = a.drain(kNodeA);
  REQUIRE(batches.size() == 2);
  CHECK(a.acc.release(batches[0]));  // the waiter gets the 1000 bytes
  AppendRequest resume;
  resume.partition = 2;
  resume.shape = keyed();
  resume.reserved_bytes = 1000;
  CHECK(a.acc.append(resume, a.now, a.cluster.metadata).new_batch_created);
  CHECK(a.acc.pool().available_bytes() == 0);
}

// The ready index answers what a walk over every partition with batches answers: the
// ready nodes, and the delay Kafka's ready() computes (with its quirk that a ready node's
// partitions count only up to its first ready one). A random history of appends, drains,
// retries, mutes, expiries and leader changes drives two accumulators, one indexed.
TEST_CASE("the ready index agrees with a full scan over random histories") {
  auto rng = partsim::sim::RandomStreams(7).stream("test/ready-index");
  auto pick = [&](int n) { return boost::random::uniform_int_distribution<int>(0, n - 1)(rng); };
  for (int history = 0; history < 40; ++history) {
    const std::int32_t partitions = 1 + pick(40);
    const std::size_t brokers = 1 + static_cast<std::size_t>(pick(4));
    std::vector<std::int32_t> order(static_cast<std::size_t>(partitions));
    for (std::int32_t p = 0; p < partitions; ++p) order[static_cast<std::size_t>(p)] = p;
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<std::size_t>(pick(static_cast<int>(i)))]);
    std::vector<std::int32_t> leaders(static_cast<std::size_t>(partitions));
    for (auto& l : leaders) l = pick(5) == 0 ? -1 : pick(static_cast<int>(brokers));
    ProducerMetadata md(order, brokers);
    md.update(leaders);
    const std::int32_t batch_size = 200 + pick(400);
    // Sometimes little memory, so that appends close a batch and then wait (and give up).
    AccumulatorConfig indexed =
        config(batch_size, pick(2) == 0 ? 1 << 30 : batch_size * (2 + pick(6)), SimTime::ms(pick(20)));
    indexed.delivery_timeout = SimTime::ms(500 + pick(500));
    AccumulatorConfig scanned = indexed;
    scanned.adaptive = true;  // records the adaptive table's queue sizes: walks every partition
    scanned.sticky_records = true;
    RecordAccumulator x(indexed, partitions, brokers, [] { return 0; });
    RecordAccumulator y(scanned, partitions, brokers, [] { return 0; });
    x.after_metadata_update(md);
    y.after_metadata_update(md);
    SimTime now = SimTime::zero();
    std::vector<BatchId> out_x, out_y;
    for (int step = 0; step < 400; ++step) {
      now += SimTime::us(pick(3000));
      const int op = pick(10);
      if (op < 5) {
        AppendRequest r;
        r.partition = pick(partitions);
        r.shape = unkeyed(pick(150));
        r.intended = now;
        const auto ax = x.append(r, now, md);
        const auto ay = y.append(r, now, md);
        REQUIRE(ax.status == ay.status);
        if (ax.status == AppendResult::Status::kWaitForMemory) {  // max.block.ms passes
          x.cancel_memory_wait();
          y.cancel_memory_wait();
        }
      } else if (op < 7) {
        const auto node = static_cast<std::size_t>(pick(static_cast<int>(brokers)));
        const std::int32_t limit = 100 + pick(2000);
        x.drain(md, node, now, limit, out_x);
        y.drain(md, node, now, limit, out_y);
        REQUIRE(out_x == out_y);
        for (std::size_t i = 0; i < out_x.size(); ++i) {
          if (pick(3) == 0) {  // a retriable failure: back at the head with a backoff
            const SimTime backoff = SimTime::ms(pick(30));
            x.reenqueue(out_x[i], now, backoff);
            y.reenqueue(out_y[i], now, backoff);
          } else {
            x.batch(out_x[i]).done = y.batch(out_y[i]).done = true;
            x.release(out_x[i]);
            y.release(out_y[i]);
          }
        }
      } else if (op == 7) {
        const std::int32_t p = pick(partitions);
        if (x.muted(p)) {
          x.unmute(p);
          y.unmute(p);
        } else {
          x.mute(p);
          y.mute(p);
        }
      } else if (op == 8) {
        x.expired_batches(now, out_x);
        y.expired_batches(now, out_y);
        REQUIRE(out_x == out_y);
        for (std::size_t i = 0; i < out_x.size(); ++i) {
          x.batch(out_x[i]).done = y.batch(out_y[i]).done = true;
          x.release(out_x[i]);
          y.release(out_y[i]);
        }
        REQUIRE(x.next_expiry() == y.next_expiry());
      } else {
        const std::int32_t p = pick(partitions);
        leaders[static_cast<std::size_t>(p)] = pick(4) == 0 ? -1 : pick(static_cast<int>(brokers));
        x.before_metadata_update(md);
        y.before_metadata_update(md);
        md.update(leaders);
        x.after_metadata_update(md);
        y.after_metadata_update(md);
      }
      ReadyCheckResult rx = x.ready(md, now, false);
      const ReadyCheckResult ry = y.ready(md, now, false);
      REQUIRE(rx.delay_excludes_ready_nodes);
      REQUIRE(std::vector<std::size_t>(rx.ready_nodes.begin(), rx.ready_nodes.end()) ==
              std::vector<std::size_t>(ry.ready_nodes.begin(), ry.ready_nodes.end()));
      if (rx.delay_excludes_ready_nodes)
        rx.next_ready_check_delay =
            std::min(rx.next_ready_check_delay, x.ready_nodes_check_delay(md, now, rx.ready_nodes));
      REQUIRE(rx.next_ready_check_delay == ry.next_ready_check_delay);
      CHECK_FALSE(ry.delay_excludes_ready_nodes);
    }
  }
}
