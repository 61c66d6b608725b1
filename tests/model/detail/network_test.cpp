// The engine's network on its own: request ids that go stale with their slot, the ids the
// brokers give connections (a producer's first is its index, the later ones count on from
// the producer count per broker, in the order they open, consumers' too), a threaded
// broker's connection muted until its request's acks settle; and the serve path with fake
// neighbours (the leaders, the producers, the consumer fetches) on a real event loop: a
// request's trip, its service and its response, acks=all's fixed wait or the followers',
// a request given up or lost with its broker, and fetches in the same queues.

#include "model/detail/network.hpp"

#include <doctest/doctest.h>

#include <set>
#include <utility>
#include <vector>

using namespace partsim::model;
using namespace partsim::model::detail;
using partsim::sim::SimTime;

TEST_CASE("a request id goes stale once its request is gone, though its slot is used again") {
  RequestTable t;
  const std::uint64_t first = t.add(0, 1, 100, 1, true, false, false);
  REQUIRE(t.find(first) != nullptr);
  CHECK(t.find(first)->broker == 1);
  t.erase(first);
  CHECK(t.find(first) == nullptr);
  const std::uint64_t second = t.add(2, 0, 50, 2, false, false, false);
  CHECK(static_cast<std::uint32_t>(second) == static_cast<std::uint32_t>(first));  // the same slot
  CHECK(second != first);
  CHECK(t.find(first) == nullptr);
  REQUIRE(t.find(second) != nullptr);
  CHECK(t.find(second)->producer == 2);
  CHECK_FALSE(t.find(second)->live);
  t.erase(first);  // a stale erase leaves the new request alone
  CHECK(t.find(second) != nullptr);
}

TEST_CASE("connections are numbered per broker in the order they open, from the producer count on") {
  Connections c(3, 2);  // producers 0..2, brokers 0..1
  CHECK(c.producer(0, 0) == 0);
  CHECK(c.producer(2, 1) == 2);
  c.reconnect_producer(1, 0);
  CHECK(c.producer(1, 0) == 3);
  CHECK(c.producer(1, 1) == 1);  // its connection to the other broker is kept
  CHECK(c.consumer(0, 0, 0) == 4);
  CHECK(c.consumer(0, 0, 0) == 4);  // kept while it works
  CHECK(c.consumer(0, 1, 0) == 5);
  CHECK(c.consumer(0, 0, 1) == 3);  // broker 1 counts on its own
  c.drop_consumer(0, 0, 0);
  CHECK(c.consumer(0, 0, 0) == 6);
  c.reconnect_producer(2, 0);
  CHECK(c.producer(2, 0) == 7);
}

TEST_CASE("a connection muted until its request's acks settle is given back once") {
  Connections c(1, 1);
  CHECK_FALSE(c.settled(7).has_value());
  c.mute_until_settled(7, {0, 3, 5});
  const auto m = c.settled(7);
  REQUIRE(m.has_value());
  CHECK(m->broker == 0);
  CHECK(m->epoch == 3);
  CHECK(m->connection == 5);
  CHECK_FALSE(c.settled(7).has_value());
}

namespace {

/// The network's neighbours, as lists of what they were told, and when.
struct FakeNeighbours final : NetworkHost {
  std::vector<std::uint32_t> arrived;  // brokers
  struct Started {
    std::uint32_t broker;
    SimTime waited;
    bool found;
  };
  std::vector<Started> started;
  struct Served {
    std::uint64_t id;
    SimTime now, replicated;
  };
  std::vector<Served> served;
  bool followers_answer = false;  // serve(): the response waits for acks_settled
  std::int64_t prefetched = 0;    // responses whose batches were asked for
  struct Response {
    std::uint32_t producer;
    std::uint64_t id;
    SimTime at;
    std::vector<ProduceError> errors;
  };
  std::vector<Response> responses;
  std::set<std::uint64_t> live_fetches;
  std::vector<std::pair<std::uint64_t, SimTime>> fetches_started, fetches_served;  // (fetch, waited / at)

  void request_arrived(std::uint32_t broker) override { arrived.push_back(broker); }
  void request_started(std::uint32_t broker, SimTime waited, const Request* r) override {
    started.push_back({broker, waited, r != nullptr});
  }
  bool serve(std::uint64_t id, Request&, ProduceError, SimTime now, SimTime replicated) override {
    served.push_back({id, now, replicated});
    return followers_answer;
  }
  void responding(const Request&) override { ++prefetched; }
  void response(std::uint32_t producer, std::uint64_t id, SimTime now, std::vector<ProduceError> errors) override {
    responses.push_back({producer, id, now, std::move(errors)});
  }
  bool fetch_live(std::uint64_t fetch) const override { return live_fetches.count(fetch) > 0; }
  void fetch_started(std::uint64_t fetch, SimTime waited) override { fetches_started.emplace_back(fetch, waited); }
  void fetch_served(std::uint64_t fetch, SimTime now) override {
    fetches_served.emplace_back(fetch, now);
    live_fetches.erase(fetch);
  }
};

/// Brokers 2 ms round trip apart (1 ms one way) that serve a request in 100 us, each
/// replicating acks=all in 3 ms; threaded when asked (one network and one io thread).
struct ServePath {
  std::vector<BrokerConfig> configs;  // outlive the brokers, which keep references
  EventLoop loop;
  FakeNeighbours host;
  std::optional<Network> net;

  explicit ServePath(bool fixed_replication, bool threaded = false, std::size_t brokers = 2) : configs(brokers) {
    std::vector<BrokerService> services;
    for (std::size_t b = 0; b < brokers; ++b) {
      BrokerConfig& c = configs[b];
      c.id = static_cast<std::int32_t>(b);
      c.rtt = SimTime::ms(2);
      c.request_time = SimTime::us(100);
      c.replication = SimTime::ms(3);
      if (threaded) c.network_threads = c.io_threads = 1;
      services.emplace_back(c, partsim::sim::RandomStreams(1).stream("broker/" + std::to_string(b) + "/jitter"));
    }
    net.emplace(std::move(services), 2, fixed_replication, loop, host, BrokerLinks(std::vector<double>(brokers, 0)));
  }
  /// Runs the loop to `until`, handing the network its events (the others are not sent here).
  void run(SimTime until = SimTime::max()) {
    partsim::sim::StopRule rule;
    rule.until = until;
    loop.run(rule, [&](const Event& e) {
      std::visit(
          [&](const auto& ev) {
            using E = std::decay_t<decltype(ev)>;
            if constexpr (std::is_same_v<E, RequestArrive> || std::is_same_v<E, BrokerDone> ||
                          std::is_same_v<E, ResponseSent> || std::is_same_v<E, ResponseArrive>)
              (*net)(ev);
            else FAIL("an event the network did not schedule");
          },
          e);
    });
  }
};

}  // namespace

TEST_CASE("a produce request travels half a round trip, is served, and its response comes back") {
  ServePath n(/*fixed_replication=*/true);
  const std::uint64_t id = n.net->send(1, 1, 500, 2, /*live=*/true, /*acks_all=*/false, false);
  CHECK(n.net->request(id).connection == 1);  // producer 1's first connection to broker 1
  n.run();
  CHECK(n.host.arrived == std::vector<std::uint32_t>{1});
  REQUIRE(n.host.started.size() == 1);
  CHECK(n.host.started[0].waited == SimTime::zero());
  REQUIRE(n.host.served.size() == 1);
  CHECK(n.host.served[0].now == SimTime::us(1100));         // arrived at 1 ms, served 100 us later
  CHECK(n.host.served[0].replicated == SimTime::us(1100));  // acks=1: nothing to wait for
  REQUIRE(n.host.responses.size() == 1);
  CHECK(n.host.responses[0].producer == 1);
  CHECK(n.host.responses[0].id == id);
  CHECK(n.host.responses[0].at == SimTime::us(2100));
  CHECK(n.host.responses[0].errors.empty());
  CHECK(n.host.prefetched == 1);
  CHECK(n.net->find(id) == nullptr);  // answered: gone
}

TEST_CASE("acks=all waits the brokers' replication.ms, unless the followers answer it") {
  SUBCASE("fixed replication") {
    ServePath n(true);
    n.net->send(0, 0, 100, 1, true, /*acks_all=*/true, false);
    n.run();
    REQUIRE(n.host.served.size() == 1);
    CHECK(n.host.served[0].replicated == SimTime::us(4100));
    REQUIRE(n.host.responses.size() == 1);
    CHECK(n.host.responses[0].at == SimTime::us(5100));  // served, replicated, one way back
  }
  SUBCASE("followers: the response leaves when the acks settle") {
    ServePath n(false);
    n.host.followers_answer = true;
    const std::uint64_t id = n.net->send(0, 0, 100, 1, true, true, false);
    n.run();
    REQUIRE(n.host.served.size() == 1);
    CHECK(n.host.served[0].replicated == SimTime::us(1100));  // no fixed wait
    CHECK(n.host.responses.empty());
    n.loop.schedule_at(SimTime::ms(7), RequestArrive{~std::uint64_t{0}});  // a stale id moves the clock
    n.run();
    n.net->acks_settled(id);
    n.run();
    REQUIRE(n.host.responses.size() == 1);
    CHECK(n.host.responses[0].at == SimTime::ms(8));
  }
}

TEST_CASE("a threaded broker reads a connection's next request once the response before it is sent") {
  ServePath n(false, /*threaded=*/true);
  n.host.followers_answer = true;
  const std::uint64_t first = n.net->send(0, 0, 100, 1, true, true, false);
  n.net->send(0, 0, 100, 1, true, true, false);  // the same connection
  n.run();
  CHECK(n.host.arrived.size() == 2);
  CHECK(n.host.served.size() == 1);  // the second waits on its muted connection
  n.loop.schedule_at(SimTime::ms(5), RequestArrive{~std::uint64_t{0}});
  n.run();
  n.net->acks_settled(first);  // the response is sent: the connection is read again
  n.run();
  REQUIRE(n.host.served.size() == 2);
  CHECK(n.host.served[1].now == SimTime::us(5100));
  REQUIRE(n.host.started.size() == 2);
  CHECK(n.host.started[1].waited == SimTime::ms(4));  // from its arrival at 1 ms
}

TEST_CASE("a request given up or lost with its broker is never answered; errors reach the producer") {
  ServePath n(true);
  SUBCASE("given up on its way") {
    const std::uint64_t id = n.net->send(0, 0, 100, 1, true, false, false);
    n.net->abandon(id);
    n.run();
    CHECK(n.host.arrived.empty());
    CHECK(n.host.served.empty());
    CHECK(n.host.responses.empty());
  }
  SUBCASE("acks=0 to a failed broker") {
    n.net->broker(0).fail();
    const std::uint64_t id = n.net->send(0, 0, 100, 1, /*live=*/false, false, false);
    n.run();
    CHECK(n.host.arrived.empty());
    CHECK(n.net->find(id) == nullptr);  // lost with the broker, not left behind
  }
  SUBCASE("the broker fails while it serves") {
    n.net->send(0, 0, 100, 1, true, false, false);
    n.run(SimTime::us(1050));
    CHECK(n.host.started.size() == 1);
    n.net->broker(0).fail();
    n.run();
    CHECK(n.host.served.empty());  // the completion is stale
    CHECK(n.host.responses.empty());
  }
  SUBCASE("acks=0 is served and not answered") {
    const std::uint64_t id = n.net->send(0, 0, 100, 1, false, false, false);
    n.run();
    CHECK(n.host.served.size() == 1);
    CHECK(n.host.responses.empty());
    CHECK(n.net->find(id) == nullptr);
  }
  SUBCASE("an error per batch") {
    const std::uint64_t id = n.net->send(0, 0, 100, 2, true, false, false);
    n.net->request(id).errors = {ProduceError::kNone, ProduceError::kNotLeaderOrFollower};
    n.run();
    REQUIRE(n.host.responses.size() == 1);
    CHECK(n.host.responses[0].errors ==
          std::vector<ProduceError>{ProduceError::kNone, ProduceError::kNotLeaderOrFollower});
  }
}

TEST_CASE("consumer fetches wait in the brokers' queues behind produce requests") {
  ServePath n(true);
  n.net->send(0, 0, 100, 1, true, false, false);
  n.run(SimTime::us(1020));  // the produce request is in service
  const std::uint64_t fetch = kFetchBit | 1, gone = kFetchBit | 2;
  n.host.live_fetches = {fetch};
  n.net->queue_fetch(gone, 0, 9, 1);  // its member gave it up before it was read
  n.net->queue_fetch(fetch, 0, 8, 3);
  n.run();
  CHECK(n.host.served.size() == 1);
  REQUIRE(n.host.fetches_started.size() == 1);
  CHECK(n.host.fetches_started[0].first == fetch);
  CHECK(n.host.fetches_started[0].second == SimTime::us(80));  // from 1,020 us to 1,100 us
  REQUIRE(n.host.fetches_served.size() == 1);
  CHECK(n.host.fetches_served[0].second == SimTime::us(1200));
  CHECK(n.host.arrived.size() == 1);  // fetches are not produce requests
}

TEST_CASE("a threaded broker with fixed replication reads the connection's next request once acks=all's wait is over") {
  ServePath n(/*fixed_replication=*/true, /*threaded=*/true);
  n.net->send(0, 0, 100, 1, true, /*acks_all=*/true, false);
  n.net->send(0, 0, 100, 1, true, true, false);  // the same connection
  n.run();
  REQUIRE(n.host.served.size() == 2);
  CHECK(n.host.served[0].now == SimTime::us(1100));
  // The first response is sent after replication.ms (3 ms): the second is read then.
  CHECK(n.host.served[1].now == SimTime::us(4200));
  REQUIRE(n.host.responses.size() == 2);
  CHECK(n.host.responses[1].at == SimTime::us(8200));
}

TEST_CASE("a threaded broker reads a member's next fetch once the answer before it is sent") {
  ServePath n(true, true);
  const std::uint64_t first = kFetchBit | 1, second = kFetchBit | 2;
  n.host.live_fetches = {first, second};
  n.net->queue_fetch(first, 0, 5, 1);
  n.net->queue_fetch(second, 0, 5, 1);  // the same connection: waits for the first's answer
  n.run();
  REQUIRE(n.host.fetches_served.size() == 1);
  n.loop.schedule_at(SimTime::ms(2), RequestArrive{~std::uint64_t{0}});
  n.run();
  n.net->fetch_answer_sent(0, 5);
  n.run();
  REQUIRE(n.host.fetches_served.size() == 2);
  CHECK(n.host.fetches_served[1].second == SimTime::us(2100));
}
