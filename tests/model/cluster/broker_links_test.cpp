// The brokers' network links (model/cluster/broker_links.hpp): bytes / rate each, shared in
// two with the backlog ahead; each direction apart; no rate, no delay.

#include <doctest/doctest.h>

#include "model/cluster/broker_links.hpp"

using partsim::model::BrokerLinks;
using partsim::sim::SimTime;

TEST_CASE("a broker's link carries one message at a time at its rate, each way apart") {
  BrokerLinks links({1e6, 0});  // broker 0: 1 MB/s; broker 1: no limit
  CHECK(links.limited());
  // 1 MB takes a second; a small message handed over meanwhile shares the link with it: its
  // 1 ms twice. A large one after them waits out the backlog (1,011 ms) first.
  CHECK(links.send(0, 1'000'000, SimTime::ms(10)) == SimTime::ms(1010));
  CHECK(links.send(0, 1'000, SimTime::ms(20)) == SimTime::ms(22));
  CHECK(links.send(0, 2'000'000, SimTime::ms(30)) == SimTime::ms(30 + 2000 + 981));
  // After the link is idle again, no wait.
  CHECK(links.send(0, 1'000, SimTime::ms(9000)) == SimTime::ms(9001));
  // The inbound direction has its own queue.
  CHECK(links.receive(0, 2'000, SimTime::ms(20)) == SimTime::ms(22));
  // No rate: at once.
  CHECK(links.send(1, 1'000'000'000, SimTime::ms(7)) == SimTime::ms(7));
  CHECK_FALSE(BrokerLinks({0, 0}).limited());
}
