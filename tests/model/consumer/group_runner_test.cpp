// GroupRunner, the consumer group as a part of an event loop, with a fake FetchPath in place
// of the cluster: the fetches it sends (one in flight per broker, kafka-consumer-spec §4.2),
// where it sends them when a leader moves, what it does with a failed one, and when it asks
// for partitions it has read to the end.

#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "group_logs.hpp"
#include "model/consumer/consumer_simulation.hpp"

using namespace partsim::model;
using namespace partsim::model::consumer;
using namespace partsim::model::consumer::testing;
using partsim::sim::SimTime;

namespace {

struct SentFetch {
  std::int32_t member;
  std::int32_t broker;
  std::vector<FetchRequestPartition> request;
  SimTime at;
};

/// The cluster as the group sees it: it keeps the fetches sent and answers only when told.
struct FakeCluster final : FetchPath {
  std::vector<std::int32_t> leaders;  // per log
  bool growing = false;
  std::vector<SentFetch> sent;

  void send_fetch(std::uint32_t, std::int32_t member, std::int32_t broker, std::vector<FetchRequestPartition> request,
                  SimTime now) override {
    sent.push_back({member, broker, std::move(request), now});
  }
  std::int32_t leader(std::int32_t log) const override { return leaders[static_cast<std::size_t>(log)]; }
  bool logs_growing() const override { return growing; }
};

/// Two brokers 1 ms away; partition p led by broker p % 2.
struct RunnerFixture : GroupLogs {
  FakeCluster cluster;
  explicit RunnerFixture(std::int32_t partitions) : GroupLogs(partitions) {
    in.broker_rtt = {SimTime::ms(1), SimTime::ms(1)};
    for (std::int32_t p = 0; p < partitions; ++p) cluster.leaders.push_back(p % 2);
  }
};

/// Steps the runner until it has no event left (it waits on the fake's answers then).
void drain(GroupRunner& runner) {
  while (runner.next_time() != SimTime::max()) runner.step();
}

std::vector<std::int32_t> brokers_of(const std::vector<SentFetch>& sent) {
  std::vector<std::int32_t> out;
  for (const auto& f : sent) out.push_back(f.broker);
  return out;
}

}  // namespace

TEST_CASE("a member keeps one fetch in flight per broker, and fetches again from a broker once it answers") {
  RunnerFixture f(4);
  for (std::int32_t p = 0; p < 4; ++p) f.add(p, 0, 1);
  const ConsumerGroupSpec spec = group(1);
  GroupRunner runner(0, spec, {}, f.in, f.cluster);
  runner.start();
  drain(runner);
  // One fetch to each broker, each of the partitions it leads; none again while unanswered.
  REQUIRE(brokers_of(f.cluster.sent) == std::vector<std::int32_t>{0, 1});
  CHECK(f.cluster.sent[0].request.size() == 2);
  CHECK(f.cluster.sent[1].request.size() == 2);
  // Broker 0 answers one record of each of its partitions (0 and 2); broker 1 has not answered.
  runner.fetch_answered(0, 0, std::vector<std::int64_t>{1, 1}, SimTime::ms(3));
  drain(runner);
  CHECK(brokers_of(f.cluster.sent) == std::vector<std::int32_t>{0, 1});  // read to the end: nothing to fetch
  runner.fetch_answered(0, 1, std::vector<std::int64_t>{1, 1}, SimTime::ms(4));
  drain(runner);
  const GroupRun run = runner.finish();
  CHECK(run.result.records_consumed == 4);
  CHECK(run.result.records_unconsumed == 0);
}

TEST_CASE("while the logs grow a member fetches partitions it has read to the end, waiting for more") {
  RunnerFixture f(2);
  f.cluster.growing = true;
  const ConsumerGroupSpec spec = group(1);
  GroupRunner runner(0, spec, {}, f.in, f.cluster);
  runner.start();
  drain(runner);
  // Empty logs, still fetched (long polls); answered empty, fetched again.
  REQUIRE(brokers_of(f.cluster.sent) == std::vector<std::int32_t>{0, 1});
  runner.fetch_answered(0, 0, std::vector<std::int64_t>{0}, SimTime::ms(501));
  drain(runner);
  CHECK(brokers_of(f.cluster.sent) == std::vector<std::int32_t>{0, 1, 0});
  // The logs stop growing: an empty answer is the last fetch of that broker.
  f.cluster.growing = false;
  runner.fetch_answered(0, 0, std::vector<std::int64_t>{0}, SimTime::ms(1002));
  runner.fetch_answered(0, 1, std::vector<std::int64_t>{0}, SimTime::ms(1002));
  drain(runner);
  CHECK(f.cluster.sent.size() == 3);
}

TEST_CASE("a partition whose leader moved is fetched from its new leader") {
  RunnerFixture f(2);
  f.add(0, 0, 1);
  f.add(0, 0, 1);
  const ConsumerGroupSpec spec = group(1);
  GroupRunner runner(0, spec, {}, f.in, f.cluster);
  runner.start();
  drain(runner);
  REQUIRE(brokers_of(f.cluster.sent) == std::vector<std::int32_t>{0});  // partition 1 is empty
  f.cluster.leaders[0] = 1;  // broker 0 no longer leads partition 0: NOT_LEADER_OR_FOLLOWER, no records
  runner.fetch_answered(0, 0, std::vector<std::int64_t>{0}, SimTime::ms(2));
  drain(runner);
  REQUIRE(f.cluster.sent.size() == 2);
  CHECK(f.cluster.sent[1].broker == 1);
  REQUIRE(f.cluster.sent[1].request.size() == 1);
  CHECK(f.cluster.sent[1].request[0].log == 0);
  CHECK(f.cluster.sent[1].request[0].from == 0);
}

TEST_CASE("after a failed fetch the member fetches the same positions again, at the time the failure is known") {
  RunnerFixture f(1);
  f.add(0, 0, 1);
  const ConsumerGroupSpec spec = group(1);
  GroupRunner runner(0, spec, {}, f.in, f.cluster);
  runner.start();
  drain(runner);
  REQUIRE(f.cluster.sent.size() == 1);
  runner.fetch_answered(0, 0, std::nullopt, SimTime::ms(101));
  drain(runner);
  REQUIRE(f.cluster.sent.size() == 2);
  CHECK(f.cluster.sent[1].at == SimTime::ms(101));
  CHECK(f.cluster.sent[1].request[0].from == 0);
  runner.fetch_answered(0, 0, std::vector<std::int64_t>{1}, SimTime::ms(103));
  drain(runner);
  CHECK(runner.finish().result.records_consumed == 1);
}

TEST_CASE("a partition without a leader is fetched once one is named, the member looking every retry.backoff.ms") {
  RunnerFixture f(1);
  f.add(0, 0, 1);
  f.cluster.leaders[0] = -1;  // its replicas down
  const ConsumerGroupSpec spec = group(1);
  GroupRunner runner(0, spec, {}, f.in, f.cluster);
  runner.start();
  while (runner.next_time() < SimTime::ms(150)) runner.step();
  CHECK(f.cluster.sent.empty());
  f.cluster.leaders[0] = 0;  // a replica is back and leads
  while (f.cluster.sent.empty() && runner.next_time() < SimTime::ms(300)) runner.step();
  REQUIRE(f.cluster.sent.size() == 1);
  CHECK(f.cluster.sent[0].at == SimTime::ms(200));
  CHECK(f.cluster.sent[0].broker == 0);
  // Without a leader for good and nothing else to read, the group stops as stalled.
  RunnerFixture dead(1);
  dead.add(0, 0, 1);
  dead.cluster.leaders[0] = -1;
  GroupRunner stuck(0, spec, {}, dead.in, dead.cluster);
  stuck.start();
  drain(stuck);
  const GroupRun run = stuck.finish();
  CHECK(run.result.stalled);
  CHECK(run.result.records_unconsumed == 1);
}
