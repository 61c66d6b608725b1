// The MigrationRunner (model/detail/migration_runner.hpp) against a fake engine: the bridge's
// reads of the old topic (the backlog merged by readable time, later records when they
// become readable), its writers through a real KafkaProducer whose requests the test
// answers, the catch-up and switch, stop-replay's wait for the stopped producers, and a
// record the producer gives up.

#include "model/detail/migration_runner.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/producer/call_log.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using namespace partsim::model::detail;
using namespace partsim::model::test;
using partsim::sim::SimTime;

namespace {

// The engine as the runner sees it: its steps, and the old topic's producers as the test sets them.
struct FakeMigrationHost final : MigrationHost {
  std::vector<std::string> steps;
  std::vector<MigrationStep> pending;
  bool stopped = false, idle = false;
  std::vector<double> switched;  // shifts, ms
  void schedule_migration(MigrationStep step, SimTime at) override {
    static const char* const names[] = {"start", "read", "thread", "switch", "poll"};
    steps.push_back(str(names[static_cast<int>(step.kind)], " ", step.index, " at ", at.to_ms()));
    pending.push_back(step);
  }
  bool sources_stopped(bool and_idle) const override { return stopped && (!and_idle || idle); }
  void stop_sources() override { steps.push_back("stop sources"); }
  void switch_producers(SimTime shift) override { switched.push_back(shift.to_ms()); }
  void start_dual_write() override { steps.push_back("dual write"); }
  void bridge_read(std::int32_t partition, std::int64_t bytes) override { reads.emplace_back(partition, bytes); }
  std::vector<std::pair<std::int32_t, std::int64_t>> reads;  // the bridge's reads: partition, bytes
  std::string take() { return join(std::exchange(steps, {})); }
};

// The bridge's producer's host: its sender wake-ups and requests.
struct WriterHost final : ProducerHost {
  std::uint64_t generation = 0;
  std::vector<std::uint64_t> requests;
  void schedule_app(std::uint32_t, SimTime) override {}
  void schedule_sender(std::uint32_t, std::uint64_t g, SimTime) override { generation = g; }
  void schedule_buffer_timeout(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_second_call(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_request_deadline(std::uint32_t, SimTime) override {}
  std::uint64_t send_request(std::uint32_t, std::size_t, std::int64_t, std::span<const BatchId>, bool) override {
    requests.push_back(requests.size() + 1);
    return requests.back();
  }
  void abandon_request(std::uint32_t, std::uint64_t) override {}
  void request_metadata(std::uint32_t, std::size_t) override {}
};

LogRecord rec(std::int32_t key, std::int64_t send_index, double readable_ms) {
  LogRecord r;
  r.key = key;
  r.send_index = send_index;
  r.sent = SimTime::from_ms(readable_ms - 0.5);
  r.readable = readable_ms < 0 ? SimTime::max() : SimTime::from_ms(readable_ms);
  return r;
}

struct Bridge {
  Scenario s;
  BrokerLogs logs;
  std::vector<PartitionStats> rows = std::vector<PartitionStats>(4);
  SimTime clock;
  FakeMigrationHost host;
  WriterHost writer_host;
  ProducerSpec writer_spec;
  std::vector<std::int32_t> leaders{0, 0};
  std::vector<char> up{1};
  std::int64_t total = 0;
  std::unique_ptr<MigrationRunner> runner;
  std::unique_ptr<KafkaProducer> writer;

  explicit Bridge(MigrationSpec::Strategy strategy) {
    BrokerConfig b;
    s.brokers.push_back(b);
    s.topics = {TopicConfig{"old", 2, 1, {}}, TopicConfig{"new", 2, 1, {}}};
    MigrationSpec m;
    m.strategy = strategy;
    m.from = "old";
    m.to = "new";
    m.at = SimTime::ms(5);
    m.verify = SimTime::ms(50);
    m.bridge.threads = 1;
    s.migration = m;
    logs.partitions.resize(4);  // old's 2 rows, then new's 2
    for (const char* k : {"a", "b", "c"}) logs.intern(k);
    rows[0].records = rows[1].records = 10;
    rows[0].bytes = rows[1].bytes = 1000;
    rows[0].batches = rows[1].batches = 10;
    writer_spec.name = "bridge@new";
    writer_spec.workload.topic = "new";
    writer_spec.config.linger = SimTime::zero();
  }
  void make() {
    runner = std::make_unique<MigrationRunner>(s, logs, rows, 0, 2, partsim::sim::RandomStreams(1), clock, host);
    ProducerMemory memory;
    memory.key_id = [this](std::string_view k) { return logs.intern(k); };
    writer = std::make_unique<KafkaProducer>(0, writer_spec, std::vector<std::int32_t>{0, 1}, leaders, up,
                                             partsim::sim::RandomStreams(1),
                                             SendBudget{std::nullopt, std::nullopt, &total}, writer_host, *runner,
                                             std::move(memory));
    writer->fed_by_mirror();
    writer->skip_idle_passes(false);
    runner->attach_writer(*writer);
  }
  void at(double ms) { clock = SimTime::from_ms(ms); }
  void step(MigrationStep::Kind kind, std::uint32_t index = 0) { runner->step({kind, index}, clock); }
  /// The producer's sender runs; returns the requests it has sent so far.
  std::size_t pass() {
    writer->on_sender_wake(writer_host.generation, clock);
    return writer_host.requests.size();
  }
  /// The answer to the latest request.
  void answer(std::span<const ProduceError> errors = {}) {
    writer->on_response(writer_host.requests.back(), clock, errors);
  }
};

}  // namespace

TEST_CASE("the bridge reads the backlog in the order it became readable; one writer sends a record at a time") {
  Bridge b(MigrationSpec::Strategy::kBridge);
  b.logs.partitions[0].records = {rec(0, 0, 1), rec(2, 2, 3)};
  b.logs.partitions[1].records = {rec(1, 1, 2)};
  b.make();
  b.runner->start();
  CHECK(b.host.take() == "start 0 at 5");
  b.at(5);
  b.step(MigrationStep::Kind::kStart);
  CHECK(b.runner->copied(0).send_index == 0);  // p0's first (readable at 1 ms)
  CHECK(b.runner->copied(1).send_index == 1);  // p1's (2 ms) before p0's second (3 ms)
  CHECK(b.runner->copied(2).send_index == 2);
  // Each read is reported once, sized as its partition's mean record (1,000 bytes / 10).
  CHECK(b.host.reads == std::vector<std::pair<std::int32_t, std::int64_t>>{{0, 100}, {1, 100}, {0, 100}});
  CHECK(b.pass() == 1);  // the writer waits for the acknowledgement of its first record
  b.at(7);
  CHECK(b.pass() == 1);
  for (int i = 0; i < 3; ++i) {
    b.answer();
    b.at(7.0 + i + 1);
    b.pass();
  }
  CHECK(b.writer_host.requests.size() == 3);
  // The last acknowledgement at 9 ms copied everything readable while the producers still
  // send: caught up, and the switch verify.ms (50) later.
  CHECK(b.host.take() == "switch 0 at 59");
  CHECK(b.runner->active());  // the switch is pending
  b.at(59);
  b.step(MigrationStep::Kind::kSwitch);
  CHECK(b.host.switched == std::vector<double>{0});
  CHECK_FALSE(b.runner->active());
  const auto m = b.runner->finish();
  CHECK(m.records_migrated == 3);
  CHECK(m.bridge.caught_up);
  CHECK(m.bridge.caught_up_ms == 9);
  CHECK(m.bridge.switch_ms == 59);
  CHECK(m.bridge.lag_at_start == 3);
}

TEST_CASE("a record not yet readable is read at its time; one above the high watermark when it is told") {
  Bridge b(MigrationSpec::Strategy::kBridge);
  b.logs.partitions[0].records = {rec(0, 0, 1), rec(0, 1, 10)};
  b.logs.partitions[1].records = {rec(1, 2, -1)};  // waits for the followers
  b.host.stopped = true;
  b.make();
  b.at(5);
  b.step(MigrationStep::Kind::kStart);
  CHECK(b.host.take() == "read 0 at 10");
  b.pass();
  b.answer();
  CHECK(b.host.take().empty());  // nothing readable is unread, but the producers stopped: no switch
  b.at(10);
  b.step(MigrationStep::Kind::kRead, 0);
  CHECK(b.runner->copied(1).send_index == 1);
  b.logs.partitions[1].records[0].readable = SimTime::ms(12);
  b.at(12);
  b.runner->readable_changed(1, b.clock);
  CHECK(b.runner->copied(2).send_index == 2);
  const auto m = b.runner->finish();
  CHECK_FALSE(m.bridge.caught_up);  // it caught up only with the producers stopped
}

TEST_CASE("stop-replay resumes once the stopped producers hold nothing and verify.ms passed") {
  Bridge b(MigrationSpec::Strategy::kStopReplay);
  b.logs.partitions[0].records = {rec(0, 0, 1)};
  b.host.stopped = true;  // a batch of theirs is still in flight
  b.make();
  b.at(5);
  b.step(MigrationStep::Kind::kStart);
  CHECK(b.host.take() == "stop sources");  // at.ms: they send no more
  b.pass();
  b.at(6);
  b.answer();
  CHECK(b.host.take() == "poll 0 at 7");
  b.host.idle = true;
  b.at(7);
  b.step(MigrationStep::Kind::kPoll);
  CHECK(b.host.take() == "switch 0 at 57");
  b.at(57);
  b.step(MigrationStep::Kind::kSwitch);
  CHECK(b.host.switched == std::vector<double>{52});  // the downtime: 57 - at.ms
  const auto m = b.runner->finish();
  CHECK(m.downtime_ms == 52);
  CHECK(m.resume == SimTime::ms(57));
}

TEST_CASE("a record the bridge's producer gives up is counted and the writer goes on") {
  Bridge b(MigrationSpec::Strategy::kBridge);
  b.writer_spec.config.retries = 0;
  b.logs.partitions[0].records = {rec(0, 0, 1), rec(0, 1, 2)};
  b.make();
  b.at(5);
  b.step(MigrationStep::Kind::kStart);
  b.pass();
  const ProduceError refused[] = {ProduceError::kNotEnoughReplicas};
  b.at(6);
  b.host.take();
  b.answer(refused);                        // retriable, but no retries left: failed for good
  CHECK(b.host.take() == "thread 0 at 6");  // the writer's next record, as a step of its own
  b.step(MigrationStep::Kind::kThread, 0);
  b.at(7);
  CHECK(b.pass() == 2);  // the next record goes
  b.answer();
  const auto m = b.runner->finish();
  CHECK(m.bridge.given_up == 1);
  CHECK(m.records_migrated == 1);
}

TEST_CASE("dual write: the producers' second sends begin with the run; failures drawn at the configured rate") {
  Bridge b(MigrationSpec::Strategy::kDualWrite);
  b.s.migration->dual_write_failure_rate = 0.25;
  b.make();
  b.runner->start();
  CHECK(b.host.take() == "dual write | start 0 at 5");
  int failed = 0;
  for (int i = 0; i < 4000; ++i) failed += b.runner->second_send_fails() ? 1 : 0;
  CHECK(failed > 900);
  CHECK(failed < 1100);
  b.at(5);
  b.step(MigrationStep::Kind::kStart);
  CHECK_FALSE(b.runner->active());  // nothing of its own to do: the producers write
}
