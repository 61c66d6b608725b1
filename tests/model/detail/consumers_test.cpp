// The consumer groups as a part of the engine, with fake neighbours: a real Network (its
// brokers serve the fetches beside nothing else) and a loop that steps the groups between
// its events as the engine does. A group reads every record of its partitions, each fetch
// served at its partition's leader; the groups are woken by what the cluster does.

#include "model/detail/consumers.hpp"
#include "model/detail/consumer_run.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace partsim::model;
using namespace partsim::model::detail;
using partsim::sim::SimTime;

namespace {

/// The network's neighbours: no produce request travels; the fetches are the groups'.
struct FetchesOnly final : NetworkHost {
  Consumers* consumers = nullptr;
  std::int64_t produce_requests = 0;
  void request_arrived(std::uint32_t) override { ++produce_requests; }
  void request_started(std::uint32_t, SimTime, const Request*) override {}
  bool serve(std::uint64_t, Request&, ProduceError, SimTime, SimTime) override { return false; }
  void responding(const Request&) override {}
  void response(std::uint32_t, std::uint64_t, SimTime, std::vector<ProduceError>) override {}
  bool fetch_live(std::uint64_t fetch) const override { return consumers->holds(fetch); }
  void fetch_started(std::uint64_t fetch, SimTime waited) override { consumers->started(fetch, waited); }
  void fetch_served(std::uint64_t fetch, SimTime now) override { consumers->served(fetch, now); }
};

struct NoMoreRecords final : ConsumersHost {
  bool logs_growing() const override { return false; }
};

/// Topic u of one partition (log 0, no reader), then topic t of two (logs 1 and 2) on two
/// brokers 2 ms round trip away; one group of one member subscribed to t; t's logs hold 3
/// and 2 records of 100 bytes, readable at 0 ms.
struct GroupsFixture {
  Scenario s;
  BrokerLogs logs;
  RunResult result;
  std::vector<std::size_t> first_log{0, 1};
  std::optional<Leadership> leadership;
  EventLoop loop;
  FetchesOnly net_host;
  NoMoreRecords host;
  std::optional<Network> net;
  std::optional<Consumers> consumers;
  std::int64_t sends_ = 0;

  GroupsFixture() {
    s.topics.resize(2);
    s.topics[0].name = "u";
    s.topics[0].partitions = 1;
    s.topics[1].partitions = 2;  // "t"
    s.brokers.resize(2);
    for (std::size_t b = 0; b < 2; ++b) {
      s.brokers[b].id = static_cast<std::int32_t>(b);
      s.brokers[b].rtt = SimTime::ms(2);
    }
    ConsumerGroupSpec g;
    g.group = "g";
    g.topics = {"t"};
    g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kEarliest;  // the records are there before it joins
    s.consumers.push_back(g);
    leadership.emplace(s.topics, 2);
    logs.partitions.resize(3);
    result.partitions.resize(3);
    add(1, 3);
    add(2, 2);
    std::vector<BrokerService> brokers;
    for (std::size_t b = 0; b < 2; ++b)
      brokers.emplace_back(s.brokers[b], partsim::sim::RandomStreams(1).stream("broker/" + std::to_string(b)));
    net.emplace(std::move(brokers), 1, true, loop, net_host, BrokerLinks(std::vector<double>(2, 0)));
    consumers.emplace(s, RunOptions{}, logs, result, first_log, *leadership, *net, loop, host);
    net_host.consumers = &*consumers;
  }
  void add(std::size_t log, std::int64_t records) {
    for (std::int64_t i = 0; i < records; ++i)
      logs.partitions[log].records.push_back(LogRecord{LogRecord::kNullKey, 0, sends_++, SimTime::zero(),
                                                       SimTime::zero()});  // each its own send()
    result.partitions[log].records += records;
    result.partitions[log].bytes += 100 * records;
  }
  /// The engine's loop: its events up to the groups' next one (or sooner, when one wakes a
  /// group), else that group's step.
  void run() {
    consumers->start();
    int guard = 0;
    for (; guard < 100000; ++guard) {
      const SimTime next = consumers->next_time();
      if (loop.has_pending() && loop.next_event_time() <= next) {
        partsim::sim::StopRule upto;
        upto.until = next;
        upto.predicate = [this] { return consumers->woken(); };
        consumers->clear_woken();
        loop.run(upto, [this](const Event& e) {
          std::visit(
              [this](const auto& ev) {
                using E = std::decay_t<decltype(ev)>;
                if constexpr (std::is_same_v<E, ConsumerFetchArrive> || std::is_same_v<E, ConsumerFetchDue>)
                  (*consumers)(ev);
                else if constexpr (std::is_same_v<E, RequestArrive> || std::is_same_v<E, BrokerDone> ||
                                   std::is_same_v<E, ResponseSent> || std::is_same_v<E, ResponseArrive>)
                  (*net)(ev);
                else FAIL("an event neither the groups nor the network scheduled");
              },
              e);
        });
      } else if (next < SimTime::max()) {
        consumers->step();
      } else {
        break;
      }
    }
    REQUIRE(guard < 100000);  // the groups came to an end
    consumers->finish();
  }
};

}  // namespace

TEST_CASE("a group reads every record of its partitions, each fetch served at the partition's leader") {
  GroupsFixture f;
  CHECK(f.consumers->leader(0) == f.leadership->leaders(0)[0]);
  CHECK(f.consumers->leader(1) == f.leadership->leaders(1)[0]);
  CHECK(f.consumers->leader(2) == f.leadership->leaders(1)[1]);
  CHECK(f.leadership->leaders(1)[0] != f.leadership->leaders(1)[1]);  // t's partitions on both brokers
  f.run();
  REQUIRE(f.result.consumer_groups.size() == 1);
  const GroupResult& g = f.result.consumer_groups[0];
  CHECK(g.group == "g");
  CHECK(g.records_consumed == 5);
  CHECK(g.duplicates == 0);
  CHECK(g.records_unconsumed == 0);
  REQUIRE(f.result.consumer_fetches.size() == 2);
  const auto leader_of = [&](std::size_t p) { return static_cast<std::size_t>(f.leadership->leaders(1)[p]); };
  CHECK(f.result.consumer_fetches[leader_of(0)].records == 3);
  CHECK(f.result.consumer_fetches[leader_of(1)].records == 2);
  CHECK(f.result.consumer_fetches[0].fetches >= 1);
  CHECK(f.result.consumer_fetches[1].fetches >= 1);
  CHECK(f.result.consumer_fetches[0].failed + f.result.consumer_fetches[1].failed == 0);
  CHECK(f.net_host.produce_requests == 0);  // the brokers' fetches are not produce requests
}

TEST_CASE("what the cluster does wakes the groups once") {
  GroupsFixture f;
  f.consumers->start();
  CHECK_FALSE(f.consumers->woken());
  f.consumers->partitions_added(1, 3, SimTime::zero());
  CHECK(f.consumers->woken());
  f.consumers->clear_woken();
  CHECK_FALSE(f.consumers->woken());
}

TEST_CASE("the groups know the replicas' racks where the topic's assignment puts them (KIP-881)") {
  Scenario s;
  s.brokers.resize(3);
  const char* racks[] = {"a", "b", "c"};
  for (std::size_t b = 0; b < 3; ++b) {
    s.brokers[b].id = static_cast<std::int32_t>(b + 1);
    s.brokers[b].rack = racks[b];
  }
  s.topics.resize(1);
  s.topics[0].partitions = 2;
  s.topics[0].replication_factor = 2;
  s.topics[0].assignment = {{3, 1}, {1, 2}};
  const auto in = consume_inputs(s, RunOptions{});
  REQUIRE(in.topics.size() == 1);
  CHECK(in.topics[0].replica_racks == std::vector<std::vector<std::string>>{{"c", "a"}, {"a", "b"}});
  s.topics[0].assignment.clear();  // striped: p on brokers p, p+1
  CHECK(consume_inputs(s, RunOptions{}).topics[0].replica_racks ==
        std::vector<std::vector<std::string>>{{"a", "b"}, {"b", "c"}});
}
