// The engine's RunRecorder on its own: what the producers report (records appended and
// failed, batches acknowledged or failed) and what the engine tells it (queue waits, the
// leaders' appends for the order check, time-series samples), with a clock the test moves.
// Every expectation is counted by hand.

#include "model/detail/run_recorder.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <vector>

using namespace partsim::model;
using partsim::model::detail::RunLayout;
using partsim::model::detail::RunRecorder;
using partsim::sim::SimTime;

namespace {

// Two topics: "a" with 2 partitions on 2 brokers, "b" growing from 1 to 3 at 10 ms;
// producer 0 writes a, producer 1 writes b.
struct RecorderFixture {
  Scenario s;
  RunOptions options;
  SimTime clock = SimTime::zero();
  std::vector<std::size_t> topic_of{0, 1};
  std::vector<std::size_t> first_row{0, 2};
  std::vector<std::int32_t> count{2, 1};
  BatchArena arena;

  RecorderFixture() {
    for (std::int32_t b = 0; b < 2; ++b) {
      BrokerConfig bc;
      bc.id = 10 + b;
      s.brokers.push_back(bc);
    }
    TopicConfig a;
    a.name = "a";
    a.partitions = 2;
    TopicConfig grows;
    grows.name = "b";
    grows.partitions = 1;
    grows.schedule.push_back(TopicChange{SimTime::ms(10), 3, std::nullopt});
    s.topics = {a, grows};
    s.producers.resize(2);
    s.run.warmup = SimTime::ms(5);
    s.run.trace = 3;
  }
  RunRecorder recorder() {
    return RunRecorder(s, options, clock, RunLayout{topic_of, first_row, count}, {false, true});
  }
  /// A batch on `partition` of records sent at `sent` (ms), made at the first.
  BatchId batch(std::int32_t partition, std::vector<int> sent) {
    const BatchId id = arena.allocate();
    ProducerBatch& b = arena[id];
    b = ProducerBatch{};
    b.partition = partition;
    b.created = SimTime::ms(sent.front());
    b.first_send_time = SimTime::ms(sent.front());
    for (std::size_t i = 0; i < sent.size(); ++i) {
      ++b.records;
      b.record_bytes += 100;
      if (i > 0) arena.add_later_send_time(id, b, SimTime::ms(sent[i]));
    }
    b.built = true;
    b.built_bytes = 61 + 100 * b.records;
    return id;
  }
};

}  // namespace

TEST_CASE("the rows: one per partition a topic will have, brokers by id; a growing topic keeps repartition figures") {
  RecorderFixture f;
  RunRecorder r = f.recorder();
  REQUIRE(r.result().partitions.size() == 5);  // a-0, a-1, b-0, b-1, b-2
  CHECK(r.result().partitions[4].topic == "b");
  CHECK(r.result().partitions[4].partition == 2);
  REQUIRE(r.result().brokers.size() == 2);
  CHECK(r.result().brokers[1].broker == 11);
  CHECK(r.result().repartition.has_value());
}

TEST_CASE("an acknowledged batch: records measured after the warm-up, latency from each record's send time") {
  // Records sent at 2, 6 and 8 ms, acknowledged by broker 1 at 20 ms: 3 acked, 2 measured
  // (the warm-up is 5 ms) with latencies 14 and 12 ms. The batch was made at 2 ms, in the
  // warm-up: its size is not in the batch statistics.
  RecorderFixture f;
  RunRecorder r = f.recorder();
  f.clock = SimTime::ms(20);
  r.batch_done(0, f.arena, f.batch(1, {2, 6, 8}), 1, std::nullopt);
  const RunResult& res = r.result();
  CHECK(res.records_acked == 3);
  CHECK(res.records_measured == 2);
  CHECK(res.bytes_completed == 300);
  CHECK(res.latency.count() == 2);
  CHECK(res.latency.max() == 14'000'000);
  CHECK(res.partitions[1].records == 2);
  CHECK(res.brokers[1].records == 2);
  CHECK(res.partitions[1].batches == 0);
  CHECK(r.last_completion() == SimTime::ms(20));
  // A batch made after the warm-up counts its bytes; a failed one its records as failed.
  f.clock = SimTime::ms(30);
  r.batch_done(1, f.arena, f.batch(2, {7, 9}), 0, std::nullopt);
  CHECK(r.result().partitions[4].batches == 1);  // producer 1 writes b: row 2 + 2
  CHECK(r.result().partitions[4].bytes == 261);
  r.batch_done(0, f.arena, f.batch(0, {12}), -1, FailureReason::kDeliveryTimeout);
  CHECK(r.result().failed[FailureReason::kDeliveryTimeout] == 1);
  CHECK(r.result().records_acked == 5);
  CHECK(r.result().bytes_completed == 600);
}

TEST_CASE("records appended: the trace, hot keys after the warm-up, and what a partition increase costs") {
  // Topic b has 3 partitions from 10 ms: a record partitioned by a producer that still
  // knows 1 counts under the old rule; key k1 lands on 0 then 2 (split), k2 stays on 1.
  RecorderFixture f;
  RunRecorder r = f.recorder();
  f.clock = SimTime::ms(1);
  r.record_appended(1, AppendedRecord{0, 1, 80, "k1", 11, SimTime::ms(1)});
  f.count[1] = 3;
  f.clock = SimTime::ms(12);
  r.record_appended(1, AppendedRecord{0, 1, 80, "k2", 12, SimTime::ms(12)});
  r.record_appended(1, AppendedRecord{2, 3, 80, "k1", 11, SimTime::ms(12)});
  r.record_appended(1, AppendedRecord{1, 3, 80, "k2", 12, SimTime::ms(12)});
  r.finish();
  const RunResult& res = r.result();
  CHECK(res.bytes_appended == 320);
  CHECK(res.trace == std::vector<std::int32_t>{0, 0, 2});  // run.trace 3
  CHECK(res.repartition->records_old_rule_after_change == 1);
  CHECK(res.repartition->keys_split == 2);  // k1: 0 then 2; k2: 0 then 1
  CHECK(r.last_append() == SimTime::ms(12));
  CHECK(res.hot_keys.counted == 3);  // the keyed records after the 5 ms warm-up
}

TEST_CASE("time series: records per partition and queue waits per broker between samples") {
  RecorderFixture f;
  f.options.timeseries = SimTime::ms(5);
  RunRecorder r = f.recorder();
  r.start_time_series();
  r.record_appended(0, AppendedRecord{1, 2, 80, std::nullopt, 0, SimTime::zero()});
  r.record_appended(0, AppendedRecord{1, 2, 80, std::nullopt, 0, SimTime::zero()});
  r.request_waited(1, SimTime::ms(2));
  r.request_waited(1, SimTime::ms(4));
  f.clock = SimTime::ms(5);
  r.sample({0, 3, 0, 0, 0}, {0, 1}, 4096);
  r.request_waited(0, SimTime::ms(1));
  f.clock = SimTime::ms(10);
  r.sample({0, 0, 0, 0, 0}, {0, 0}, 0);
  const TimeSeries& ts = r.result().timeseries;
  CHECK(ts.interval_ms == 5.0);
  CHECK(ts.time_ms == std::vector<double>{5.0, 10.0});
  CHECK(ts.partition_records[0] == std::vector<std::int64_t>{0, 2, 0, 0, 0});
  CHECK(ts.partition_records[1] == std::vector<std::int64_t>{0, 0, 0, 0, 0});
  CHECK(ts.broker_queue_wait_ms[0] == std::vector<double>{0.0, 3.0});  // mean of 2 and 4
  CHECK(ts.broker_queue_wait_ms[1] == std::vector<double>{1.0, 0.0});
  CHECK(ts.buffer_bytes == std::vector<std::int64_t>{4096, 0});
  CHECK(r.result().brokers[1].queue_wait_ms_sum == 6.0);
}

TEST_CASE("the order check: a record behind a later one of its key, a record appended twice, a truncated one") {
  RecorderFixture f;
  RunRecorder r = f.recorder();
  const auto rec = [](std::int32_t key, std::int64_t send) {
    LogRecord l;
    l.key = key;
    l.producer = 0;
    l.send_index = send;
    return l;
  };
  const std::vector<LogRecord> first{rec(7, 0), rec(7, 2)};
  r.check_order(0, first);
  const std::vector<LogRecord> late{rec(7, 1)};  // sent before 2, appended after it
  r.check_order(0, late);
  const std::vector<LogRecord> again{rec(7, 2)};  // a retry of an appended batch
  r.check_order(0, again);
  CHECK(r.result().log_order.reordered_records == 1);
  CHECK(r.result().log_order.reordered_keys == 1);
  CHECK(r.result().log_order.duplicated_records == 1);
  // A failover cut send 2 from the log: appended once more, it is no duplicate.
  r.forget_appended(0, rec(7, 2));
  r.check_order(0, again);
  CHECK(r.result().log_order.duplicated_records == 1);
}

TEST_CASE("the partitions' existence: from the warm-up or their creation to the last record appended") {
  // Topic a's rows from 0 ms, b-0 from 0 ms, b-1 created at 10 ms, b-2 never; warm-up 5 ms,
  // the last record appended at 30 ms.
  RecorderFixture f;
  RunRecorder r = f.recorder();
  f.clock = SimTime::ms(30);
  r.record_appended(0, AppendedRecord{0, 2, 80, std::nullopt, 0, SimTime::ms(30)});
  const std::vector<SimTime> created{SimTime::zero(), SimTime::zero(), SimTime::zero(), SimTime::ms(10),
                                     SimTime::max()};
  r.note_existence(created);
  const RunResult& res = r.result();
  CHECK(res.partitions[0].existed_ms == doctest::Approx(25));
  CHECK(res.partitions[2].existed_ms == doctest::Approx(25));
  CHECK(res.partitions[3].existed_ms == doctest::Approx(20));
  CHECK(res.partitions[4].existed_ms == doctest::Approx(0));
}

namespace {

// A producer's host that sends nowhere: its records stay in its accumulator.
struct NowhereHost final : ProducerHost {
  void schedule_app(std::uint32_t, SimTime) override {}
  void schedule_sender(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_buffer_timeout(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_second_call(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_request_deadline(std::uint32_t, SimTime) override {}
  std::uint64_t send_request(std::uint32_t, std::size_t, std::int64_t, std::span<const BatchId>, bool) override {
    return 1;
  }
  void abandon_request(std::uint32_t, std::uint64_t) override {}
  void request_metadata(std::uint32_t, std::size_t) override {}
};

}  // namespace

TEST_CASE("what a producer sent joins the results at the end; a migration's copies only in the metrics") {
  // Producer "app" (topic a) sends 3 records, the copier (index 1, on b) 2: the run sent 3,
  // and both have metrics rows, in order.
  RecorderFixture f;
  f.s.producers[0].name = "app";
  f.s.producers[1].name = "copier";
  RunRecorder r = f.recorder();
  NowhereHost host;
  std::vector<std::int32_t> leaders{0, 1};
  std::vector<char> up{1, 1};
  std::int64_t total = 0;
  const partsim::model::SendBudget budget{std::nullopt, std::nullopt, &total};
  std::vector<std::unique_ptr<KafkaProducer>> producers;
  for (std::uint32_t i = 0; i < 2; ++i) {
    ProducerSpec& spec = f.s.producers[i];  // the producer keeps a reference
    spec.workload.arrivals.records_per_second = 1000;
    spec.config.linger = SimTime::ms(1000);  // nothing is sent: the records stay buffered
    producers.push_back(std::make_unique<KafkaProducer>(i, spec, std::vector<std::int32_t>{0, 1}, leaders, up,
                                                        partsim::sim::RandomStreams(1), budget, host, r));
    producers.back()->start(SimTime::zero());
    for (int k = 0; k < 3 - static_cast<int>(i); ++k) {
      producers.back()->app_event_fired();
      producers.back()->send_next(SimTime::ms(k));
    }
  }
  r.add_producer(*producers[0], 0, false, SimTime::ms(10));
  r.add_producer(*producers[1], 1, true, SimTime::ms(10));
  const RunResult& res = r.result();
  CHECK(res.records_sent == 3);
  REQUIRE(res.producer_metrics.size() == 2);
  CHECK(res.producer_metrics[0].producer == "app");
  CHECK(res.producer_metrics[1].producer == "copier");
}
