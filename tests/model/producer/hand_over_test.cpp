// A migration's moves of the application between producers (KafkaProducer::hand_over,
// mirror_to and mirrored_send): the workload goes on where it stopped, a shift delays it,
// closed-loop tokens follow the application, and a mirror sees every send() once.

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/producer/call_log.hpp"
#include "model/producer/kafka_producer.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::RandomStreams;
using partsim::sim::SimTime;

namespace {

// Timers and requests as lines; the application's next send() times.
struct HandOverHost final : ProducerHost, ProducerObserver {
  std::vector<std::string> log;
  std::vector<SimTime> app_at;
  std::uint64_t next_request = 1;
  void schedule_app(std::uint32_t producer, SimTime at) override {
    app_at.push_back(at);
    log.push_back(str("app ", producer, " at ", at.to_ms()));
  }
  void schedule_sender(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_buffer_timeout(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_second_call(std::uint32_t, std::uint64_t, SimTime) override {}
  void schedule_request_deadline(std::uint32_t, SimTime) override {}
  std::uint64_t send_request(std::uint32_t, std::size_t, std::int64_t, std::span<const BatchId>, bool) override {
    return next_request++;
  }
  void abandon_request(std::uint32_t, std::uint64_t) override {}
  void request_metadata(std::uint32_t, std::size_t) override {}
  void record_appended(std::uint32_t producer, const AppendedRecord& r) override {
    log.push_back(str("appended by ", producer, " key ", r.key.value_or("-")));
  }
  void record_failed(std::uint32_t, FailureReason) override {}
  void batch_done(std::uint32_t, const BatchArena&, BatchId, std::int32_t, std::optional<FailureReason>) override {}
  void batch_retried(std::uint32_t) override {}
  void send_blocked(std::uint32_t, SimTime) override {}
  std::string take() { return join(std::exchange(log, {})); }
};

// A mirror that records what it is shown.
struct RecordingMirror final : SendMirror {
  std::vector<std::string> seen;
  void mirror(const GeneratedRecord& r, std::int64_t send_index, SimTime intended, SimTime) override {
    seen.push_back(str(std::string(r.key), " #", send_index, " at ", intended.to_ms()));
  }
  void source_stopped(SimTime now) override { seen.push_back(str("stopped at ", now.to_ms())); }
};

ProducerSpec hand_over_spec(Arrivals::Kind kind) {
  ProducerSpec spec;
  spec.name = "app";
  spec.workload.topic = "t";
  spec.workload.arrivals.kind = kind;
  spec.workload.arrivals.records_per_second = 1000;  // open loop: one every ms
  spec.workload.arrivals.concurrency = 1;
  spec.workload.keys.kind = KeySpec::Kind::kTemplate;
  spec.workload.keys.key_template = "k{i}";
  spec.workload.keys.cardinality = 1000;
  spec.config.linger = SimTime::ms(1000);
  return spec;
}

struct HandOverPair {
  ProducerSpec spec, twin_spec;
  std::vector<std::int32_t> leaders{0, 0};
  std::vector<char> up{1};
  std::int64_t total_sent = 0;
  HandOverHost host;
  std::unique_ptr<KafkaProducer> first, twin;
  explicit HandOverPair(Arrivals::Kind kind) : spec(hand_over_spec(kind)), twin_spec(spec) {
    twin_spec.name = "app@t2";
    const SendBudget budget{std::nullopt, std::nullopt, &total_sent};
    first = std::make_unique<KafkaProducer>(0, spec, std::vector<std::int32_t>{0, 1}, leaders, up, RandomStreams(1),
                                            budget, host, host);
    twin = std::make_unique<KafkaProducer>(1, twin_spec, std::vector<std::int32_t>{0, 1}, leaders, up, RandomStreams(1),
                                           budget, host, host);
    twin->wait_for_application();
  }
  void send(KafkaProducer& p, SimTime now) {
    p.app_event_fired();
    p.send_next(now);
  }
};

}  // namespace

TEST_CASE("hand_over: the twin sends the workload's next record, its arrivals shifted, and the first stops") {
  HandOverPair p(Arrivals::Kind::kConstant);
  p.first->start(SimTime::zero());
  for (int i = 0; i < 3; ++i) p.send(*p.first, SimTime::ms(i));  // arrivals at 0, 1, 2 ms
  CHECK(p.host.take() == "app 0 at 0 | appended by 0 key k0 | appended by 0 key k1 | appended by 0 key k2");
  // A waiting twin sends nothing of its own.
  p.twin->start(SimTime::zero());
  CHECK(p.twin->stopped());
  CHECK(p.host.take().empty());
  // The first producer looked its next record up ahead (its key made and hashed while other
  // events run): the twin takes that record, its key held in the moved workload.
  p.first->look_ahead_sends(true);
  p.first->schedule_app(SimTime::ms(3), SimTime::ms(2));
  CHECK(p.host.take() == "app 0 at 3");
  // The next arrival was due at 3 ms; 100 ms of downtime put it at 103 ms, on the twin, and
  // every later one 100 ms later too.
  p.first->hand_over(*p.twin, SimTime::ms(100), SimTime::ms(2));
  CHECK(p.first->stopped());
  CHECK_FALSE(p.twin->stopped());
  CHECK(p.host.take() == "app 1 at 103");
  p.twin->app_event_fired();
  CHECK(p.twin->send_next(SimTime::ms(103)) == SimTime::ms(104));
  p.first->app_event_fired();
  CHECK_FALSE(p.first->send_next(SimTime::ms(103)).has_value());  // a stale event of the first: nothing
  CHECK(p.host.take() == "appended by 1 key k3");
  CHECK(p.twin->sent() == 4);
  CHECK(p.twin->sent_before_hand_over() == 3);
  CHECK(p.first->sent() == 3);
}

TEST_CASE("hand_over: closed-loop tokens the first producer's acknowledgements return go to the twin") {
  HandOverPair p(Arrivals::Kind::kClosedLoop);
  p.first->start(SimTime::zero());
  p.send(*p.first, SimTime::zero());  // the one token is out
  CHECK(p.host.take() == "app 0 at 0 | appended by 0 key k0");
  p.first->hand_over(*p.twin, SimTime::zero(), SimTime::ms(1));
  CHECK(p.host.take().empty());  // no token: the application waits
  CHECK(p.twin->sent() == 1);
  // The first producer's batch is acknowledged: its token lets the twin send.
  p.first->on_sender_wake(1, SimTime::ms(2));
  p.first->on_response(1, SimTime::ms(3));
  CHECK(p.host.take() == "app 1 at 3");
  p.send(*p.twin, SimTime::ms(3));
  CHECK(p.host.take() == "appended by 1 key k1");
}

TEST_CASE("a mirror sees every send() once, with its index and time; a fed producer places what it is handed") {
  HandOverPair p(Arrivals::Kind::kConstant);
  RecordingMirror mirror;
  p.first->mirror_to(&mirror);
  p.first->start(SimTime::zero());
  p.send(*p.first, SimTime::ms(1));
  p.send(*p.first, SimTime::ms(2));
  CHECK(join(mirror.seen) == "k0 #0 at 0 | k1 #1 at 1");
  p.host.take();
  // The twin, fed: it appends the record it is handed and never sends one of its own.
  p.twin->fed_by_mirror();
  CHECK(p.twin->stopped());  // no send() of its own
  GeneratedRecord r;
  r.has_key = true;
  r.key = "k7";
  r.shape.key_bytes = 2;
  r.shape.value_bytes = 10;
  p.twin->mirrored_send(r, 41, SimTime::ms(2), SimTime::ms(2));
  p.twin->schedule_app(SimTime::ms(3), SimTime::ms(2));
  CHECK(p.host.take() == "appended by 1 key k7");
  CHECK(p.twin->sent() == 1);
  // The first producer stops at its budget's end: the mirror hears of it.
  p.first->close(SimTime::ms(5));
  CHECK(mirror.seen.back() == "stopped at 5");
}
