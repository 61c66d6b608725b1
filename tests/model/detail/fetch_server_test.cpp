// The brokers' side of consumer fetches on its own, with a fake engine around it: a fetch
// travels half a round trip and joins its broker's queue; once read it is answered at once
// when fetch.min.bytes are readable, else parked until they are (a high watermark that moves
// brings the answer forward) or fetch.max.wait.ms passed; a partition the broker does not
// lead answers with no records, at once or when a leader moves; a broker's failure loses the
// fetches it holds and their connections (kafka-consumer-spec §4.2-4.3).

#include "model/detail/fetch_server.hpp"

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace partsim::model;
using namespace partsim::model::detail;
using partsim::sim::SimTime;

namespace {

struct Answer {
  std::uint32_t group;
  std::int32_t member;
  std::int32_t broker;
  std::optional<std::vector<std::int64_t>> counts;
  std::vector<std::int32_t> read_replicas;
  SimTime at;
};

/// Two brokers 2 ms apart (1 ms one way); the engine's timers and queues as lists.
struct FakeEngine final : FetchServerHost {
  std::vector<char> up{1, 1};
  std::vector<std::uint64_t> epoch{0, 0};
  std::vector<std::int32_t> leaders;  // per log
  std::vector<std::pair<std::uint64_t, SimTime>> arrivals;
  std::vector<std::uint64_t> queued;
  std::vector<std::uint32_t> queued_connections;
  std::vector<std::pair<std::uint64_t, SimTime>> dues;  // the last generation's
  std::uint32_t last_generation = 0;
  std::vector<Answer> answers;
  std::vector<std::uint32_t> sent_on;  // connections whose answer was sent
  // KIP-392: per log, the replica its leader names a member in rack "a" (-1: none), and per
  // (log, broker) the records that follower serves (below the high watermark it learnt).
  std::vector<std::int32_t> read_replicas{-1, -1};
  std::map<std::pair<std::int32_t, std::uint32_t>, std::int64_t> followers;

  bool broker_up(std::uint32_t b) const override { return up[b] != 0; }
  std::uint64_t broker_epoch(std::uint32_t b) const override { return epoch[b]; }
  SimTime one_way(std::uint32_t) const override { return SimTime::ms(1); }
  std::int32_t leader(std::int32_t log) const override { return leaders[static_cast<std::size_t>(log)]; }
  void queue_at_broker(std::uint64_t fetch, std::uint32_t, std::uint32_t connection, std::int32_t) override {
    queued.push_back(fetch);
    queued_connections.push_back(connection);
  }
  void answer_sent(std::uint32_t, std::uint32_t connection) override { sent_on.push_back(connection); }
  void schedule_arrival(std::uint64_t fetch, SimTime at) override { arrivals.emplace_back(fetch, at); }
  void schedule_due(std::uint64_t fetch, std::uint32_t generation, SimTime at) override {
    dues.emplace_back(fetch, at);
    last_generation = generation;
  }
  std::int32_t read_replica(std::int32_t log, const std::string& rack) const override {
    return rack == "a" ? read_replicas[static_cast<std::size_t>(log)] : -1;
  }
  std::optional<std::int64_t> follower_readable(std::int32_t log, std::uint32_t broker) const override {
    const auto it = followers.find({log, broker});
    return it == followers.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
  }
  void answered(std::uint32_t group, std::int32_t member, std::int32_t broker,
                std::optional<std::vector<std::int64_t>> counts, std::vector<std::int32_t> rr, SimTime at) override {
    answers.push_back({group, member, broker, std::move(counts), std::move(rr), at});
  }
  void answer_traffic(std::uint32_t, std::int32_t, std::uint32_t, std::int64_t bytes,
                      std::span<const std::int32_t> logs) override {
    traffic.emplace_back(bytes, std::vector<std::int32_t>(logs.begin(), logs.end()));
  }
  std::vector<std::pair<std::int64_t, std::vector<std::int32_t>>> traffic;  // per answer: bytes, logs with records
};

/// Two logs, log p led by broker p; one group of default settings (fetch.min.bytes 1,
/// fetch.max.wait.ms 500); records of 100 bytes.
struct ServerFixture {
  BrokerLogs logs;
  std::vector<PartitionStats> partitions;
  std::vector<ConsumerGroupSpec> groups{ConsumerGroupSpec{}};
  Connections connections{1, 2};  // one producer, two brokers
  std::vector<BrokerFetches> stats{{.broker = 0}, {.broker = 1}};
  FakeEngine engine;
  FetchServer server;

  ServerFixture() : server(make_logs(), partitions, groups, connections, stats, engine) { engine.leaders = {0, 1}; }
  const BrokerLogs& make_logs() {
    logs.partitions.resize(2);
    partitions.resize(2);
    for (auto& ps : partitions) ps.records = 0;
    return logs;
  }
  void add(std::size_t log, double readable_ms) {
    logs.partitions[log].records.push_back(LogRecord{LogRecord::kNullKey, 0, 0, SimTime::zero(),
                                                     SimTime::from_ms(readable_ms)});
    ++partitions[log].records;
    partitions[log].bytes += 100;
  }
  /// Member 0's fetch of log `log` from offset 0 to `broker`, sent at `at` ms, arrived and read
  /// `read_after` ms later; returns its id.
  std::uint64_t fetch_read(std::size_t log, std::uint32_t broker, double at, double read_after = 0) {
    server.send(0, 0, broker, {{static_cast<std::int32_t>(log), 0}}, SimTime::from_ms(at));
    const auto [id, arrival] = engine.arrivals.back();
    server.arrived(id, arrival);
    server.started(id, SimTime::from_ms(read_after));
    server.served(id, arrival + SimTime::from_ms(read_after));
    return id;
  }
};

}  // namespace

TEST_CASE("a fetch travels half a round trip and joins its broker's queue on a connection of its member's") {
  ServerFixture f;
  f.server.send(0, 0, 1, {{1, 0}}, SimTime::ms(5));
  REQUIRE(f.engine.arrivals.size() == 1);
  CHECK(partsim::model::detail::is_fetch(f.engine.arrivals[0].first));
  CHECK(f.engine.arrivals[0].second == SimTime::ms(6));
  CHECK(f.engine.queued.empty());
  f.server.arrived(f.engine.arrivals[0].first, SimTime::ms(6));
  REQUIRE(f.engine.queued.size() == 1);
  CHECK(f.engine.queued_connections[0] == 1);  // broker 1's first connection after the producer's
  CHECK(f.server.holds(f.engine.queued[0]));
}

TEST_CASE("a fetch with fetch.min.bytes readable is answered when the broker has read it") {
  ServerFixture f;
  f.add(0, 1);
  f.add(0, 2);
  f.fetch_read(0, 0, 5, 3);  // arrives at 6 ms, waits 3 ms for a server, read at 9 ms
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{2});
  CHECK(f.engine.answers[0].at == SimTime::ms(10));  // half a round trip back
  CHECK(f.engine.dues.empty());
  CHECK(f.stats[0].fetches == 1);
  CHECK(f.stats[0].records == 2);
  CHECK(f.stats[0].queue_wait_ms_sum == doctest::Approx(3));
  CHECK(f.stats[0].parked_ms_sum == doctest::Approx(0));
  CHECK(f.engine.sent_on.size() == 1);  // its connection unmutes
}

TEST_CASE("a fetch parks until fetch.min.bytes are readable, and a moving high watermark answers it sooner") {
  ServerFixture f;
  const std::uint64_t id = f.fetch_read(0, 0, 0);  // read at 1 ms, nothing readable
  REQUIRE(f.engine.dues.size() == 1);
  CHECK(f.engine.dues[0].second == SimTime::ms(501));  // fetch.max.wait.ms
  const std::uint32_t first = f.engine.last_generation;
  f.add(0, 40);  // appended; readable at 40 ms
  f.server.readable_changed(0, SimTime::ms(30));
  REQUIRE(f.engine.dues.size() == 2);
  CHECK(f.engine.dues[1].second == SimTime::ms(40));
  f.server.due(id, first, SimTime::ms(40));  // the superseded due does nothing
  CHECK(f.engine.answers.empty());
  f.server.due(id, f.engine.last_generation, SimTime::ms(40));
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{1});
  CHECK(f.stats[0].parked_ms_sum == doctest::Approx(39));
  CHECK_FALSE(f.server.holds(id));
  f.server.due(id, f.engine.last_generation, SimTime::ms(41));  // answered once
  CHECK(f.engine.answers.size() == 1);
}

TEST_CASE("a fetch that waited fetch.max.wait.ms is answered empty") {
  ServerFixture f;
  const std::uint64_t id = f.fetch_read(1, 1, 0);
  f.server.due(id, f.engine.last_generation, SimTime::ms(501));
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{0});
  CHECK(f.stats[1].empty == 1);
}

TEST_CASE("a partition the broker does not lead answers with no records: at once, or when its leader moves") {
  ServerFixture f;
  f.add(1, 1);
  f.fetch_read(1, 0, 5);  // broker 0 does not lead log 1
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{0});
  CHECK(f.engine.dues.empty());
  // Parked at its leader, then the leader moves: answered now, without records.
  const std::uint64_t parked = f.fetch_read(0, 0, 10);
  f.server.leaders_changed(SimTime::ms(20));
  CHECK(f.engine.answers.size() == 1);  // it still leads: the fetch stays parked
  f.engine.leaders[0] = 1;
  f.server.leaders_changed(SimTime::ms(20));
  REQUIRE(f.engine.answers.size() == 2);
  CHECK(f.engine.answers[1].counts == std::vector<std::int64_t>{0});
  CHECK(f.engine.answers[1].at == SimTime::ms(21));
  CHECK_FALSE(f.server.holds(parked));
}

TEST_CASE("a broker's failure loses the fetches it holds and every member's connection to it") {
  ServerFixture f;
  const std::uint64_t held = f.fetch_read(0, 0, 0);
  f.server.send(0, 0, 0, {{0, 0}}, SimTime::ms(2));  // still on its way: not held by the broker
  const std::uint64_t on_the_way = f.engine.arrivals.back().first;
  f.engine.up[0] = 0;
  ++f.engine.epoch[0];
  f.server.broker_failed(0, SimTime::from_ms(2.5));
  REQUIRE(f.engine.answers.size() == 1);
  CHECK_FALSE(f.engine.answers[0].counts.has_value());
  // Noticed half a round trip later, fetched again after retry.backoff.ms.
  CHECK(f.engine.answers[0].at == SimTime::from_ms(3.5) + SimTime::ms(100));
  CHECK_FALSE(f.server.holds(held));
  CHECK(f.stats[0].failed == 1);
  // The one on its way finds the broker down (or failed since it was sent) when it arrives.
  f.server.arrived(on_the_way, SimTime::ms(3));
  REQUIRE(f.engine.answers.size() == 2);
  CHECK_FALSE(f.engine.answers[1].counts.has_value());
  CHECK(f.stats[0].failed == 2);
  // The member's next fetch opens a new connection.
  f.engine.up[0] = 1;
  f.server.send(0, 0, 0, {{0, 0}}, SimTime::ms(200));
  f.server.arrived(f.engine.arrivals.back().first, SimTime::ms(201));
  CHECK(f.engine.queued_connections.back() != f.engine.queued_connections.front());
}

// KIP-392 (docs/traffic.md, "Fetching from the closest replica").

TEST_CASE("a leader that names a member's read replica answers at once, without the partition's records") {
  ServerFixture f;
  f.groups[0].config.client_rack = "a";
  f.engine.read_replicas = {1, -1};  // log 0's leader names broker 1 to members in rack a
  f.add(0, 1);
  f.add(1, 1);
  // Nothing readable yet at 0 ms: without the naming it would park.
  f.server.send(0, 0, 0, {{0, 0}}, SimTime::zero());
  f.server.arrived(f.engine.arrivals.back().first, SimTime::ms(1));
  f.server.served(f.engine.arrivals.back().first, SimTime::ms(1));
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{0});  // 1 record readable, not returned
  CHECK(f.engine.answers[0].read_replicas == std::vector<std::int32_t>{1});
  CHECK(f.engine.dues.empty());
  CHECK(f.stats[0].redirected == 1);
  // A member without a rack is served by the leader as before.
  f.groups[0].config.client_rack.clear();
  f.fetch_read(0, 0, 2);
  REQUIRE(f.engine.answers.size() == 2);
  CHECK(f.engine.answers[1].counts == std::vector<std::int64_t>{1});
  CHECK(f.engine.answers[1].read_replicas.empty());
  CHECK(f.stats[0].redirected == 1);
}

TEST_CASE("a follower serves the records below the high watermark it learnt, and parks for more") {
  ServerFixture f;
  for (const double t : {1.0, 2.0, 3.0, 4.0}) f.add(0, t);  // log 0, led by broker 0
  f.engine.followers[{0, 1}] = 2;                           // broker 1 learnt a high watermark of 2 records
  f.fetch_read(0, 1, 10);  // at broker 1 at 11 ms: the leader has 4 readable, the follower 2
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{2});
  CHECK(f.engine.answers[0].read_replicas.empty());
  CHECK(f.stats[1].as_follower == 1);
  CHECK(f.stats[1].records == 2);
  // From offset 2 nothing is below its high watermark: the fetch parks though the leader has two.
  f.server.send(0, 0, 1, {{0, 2}}, SimTime::ms(20));
  const auto id = f.engine.arrivals.back().first;
  f.server.arrived(id, SimTime::ms(21));
  f.server.served(id, SimTime::ms(21));
  CHECK(f.engine.answers.size() == 1);
  REQUIRE(f.engine.dues.size() == 1);
  CHECK(f.engine.dues[0].second == SimTime::ms(521));  // fetch.max.wait.ms
  // It learns a higher high watermark (all 4 records): the fetch is answered now.
  f.engine.followers[{0, 1}] = 4;
  f.server.readable_changed(0, SimTime::ms(30));
  REQUIRE(f.engine.dues.size() == 2);
  CHECK(f.engine.dues[1].second == SimTime::ms(30));
  f.server.due(id, f.engine.last_generation, SimTime::ms(30));
  REQUIRE(f.engine.answers.size() == 2);
  CHECK(f.engine.answers[1].counts == std::vector<std::int64_t>{2});
}

TEST_CASE(
    "a follower refuses a partition whose leader moved since the fetch was sent, and one it holds no replica of") {
  ServerFixture f;
  f.add(0, 1);
  f.engine.followers[{0, 1}] = 1;
  f.fetch_read(0, 1, 10);  // sent to follower 1 while broker 0 leads: served
  REQUIRE(f.engine.answers.size() == 1);
  CHECK(f.engine.answers[0].counts == std::vector<std::int64_t>{1});
  // Sent while broker 0 led; broker 1 leads by the time it reads it: the fetch's leader epoch
  // is fenced at the new leader too.
  f.server.send(0, 0, 1, {{0, 0}}, SimTime::ms(20));
  const auto moved = f.engine.arrivals.back().first;
  f.engine.leaders[0] = 1;
  f.server.arrived(moved, SimTime::ms(21));
  f.server.served(moved, SimTime::ms(21));
  REQUIRE(f.engine.answers.size() == 2);
  CHECK(f.engine.answers[1].counts == std::vector<std::int64_t>{0});
  CHECK(f.engine.answers[1].read_replicas == std::vector<std::int32_t>{partsim::model::consumer::kNotReplica});
  // Broker 1 neither leads nor follows log 0: NOT_LEADER_OR_FOLLOWER, the member forgets its read replica.
  f.engine.leaders[0] = 0;
  f.engine.followers.clear();
  f.fetch_read(0, 1, 30);
  REQUIRE(f.engine.answers.size() == 3);
  CHECK(f.engine.answers[2].counts == std::vector<std::int64_t>{0});
  CHECK(f.engine.answers[2].read_replicas == std::vector<std::int32_t>{partsim::model::consumer::kNotReplica});
  // Parked at follower 1 (nothing past offset 1), sent while broker 0 led: when the leadership
  // moves (the leader epoch it carries is fenced) it is answered at once, refused.
  f.engine.followers[{0, 1}] = 1;
  f.server.send(0, 0, 1, {{0, 1}}, SimTime::ms(40));
  const auto parked = f.engine.arrivals.back().first;
  f.server.arrived(parked, SimTime::ms(41));
  f.server.served(parked, SimTime::ms(41));
  CHECK(f.engine.answers.size() == 3);
  f.engine.leaders[0] = -1;
  f.server.leaders_changed(SimTime::ms(42));
  REQUIRE(f.engine.answers.size() == 4);
  CHECK(f.engine.answers[3].read_replicas == std::vector<std::int32_t>{partsim::model::consumer::kNotReplica});
}
