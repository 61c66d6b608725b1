#include <doctest/doctest.h>

#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

using namespace partsim;
using namespace partsim::model;

namespace {

constexpr const char* kBase = R"(run: {records: 10}
cluster:
  brokers: [{id: 0}]
  group.consumer.heartbeat.interval.ms: 6000
topics: [{name: events, partitions: 6}]
producers: [{workload: {keys: {kind: none}}}]
)";

}  // namespace

TEST_CASE("a consumers: section reads into groups with Kafka's 4.x defaults where nothing is set") {
  const auto s = scenarios::load_scenario_text(std::string(kBase) + R"(consumers:
  - group: readers
    topics: [events]
    members: 3
    member.prefix: "r"
    processing.us: 50
    rack: [a, b]
    schedule: [{at.ms: 5000, join: 1}, {at.ms: 9000, leave: r1}, {at.ms: 12000, crash: r2}]
    config: {max.poll.records: 10, partition.assignment.strategy: [cooperative-sticky]}
  - {group: audit, topics: [events], config: {group.protocol: consumer, group.remote.assignor: range}}
)",
                                               "test");
  REQUIRE(s.consumers.size() == 2);
  const auto& g = s.consumers[0];
  CHECK(g.group == "readers");
  CHECK(g.members == 3);
  CHECK(g.member_prefix == "r");
  CHECK(g.processing == SimTime::us(50));
  CHECK(g.racks == std::vector<std::string>{"a", "b"});
  REQUIRE(g.schedule.size() == 3);
  CHECK(g.schedule[0].kind == MemberChange::Kind::kJoin);
  CHECK(g.schedule[0].count == 1);
  CHECK(g.schedule[1].kind == MemberChange::Kind::kLeave);
  CHECK(g.schedule[1].member == "r1");
  CHECK(g.schedule[2].kind == MemberChange::Kind::kCrash);
  CHECK(g.schedule[2].at == SimTime::ms(12000));
  CHECK(g.config.max_poll_records == 10);
  CHECK(g.config.assignment_strategy == std::vector<std::string>{"cooperative-sticky"});
  CHECK(g.config.fetch_max_wait == SimTime::ms(500));
  CHECK(g.config.session_timeout == SimTime::ms(45000));
  const auto& k = s.consumers[1];
  CHECK(k.members == 1);
  CHECK(k.config.protocol == ConsumerConfig::Protocol::kConsumer);
  CHECK(k.config.remote_assignor == ConsumerConfig::RemoteAssignor::kRange);
  CHECK(s.group_coordinator.consumer_heartbeat_interval == SimTime::ms(6000));
  CHECK(s.group_coordinator.consumer_session_timeout == SimTime::ms(45000));
  // The resolved scenario reads back the same (no classic-only key under consumer, and back).
  const auto again = scenarios::load_scenario_text(scenarios::write_scenario_yaml(s), "resolved");
  CHECK(scenarios::write_scenario_yaml(again) == scenarios::write_scenario_yaml(s));
}

TEST_CASE("group.protocol consumer refuses the classic-only settings with Kafka's message") {
  CHECK_THROWS_WITH_AS(scenarios::load_scenario_text(std::string(kBase) + R"(consumers:
  - {group: g, topics: [events], config: {group.protocol: consumer, partition.assignment.strategy: [range]}}
)",
                                                     "f.yaml"),
                       doctest::Contains("partition.assignment.strategy cannot be set when group.protocol=CONSUMER"),
                       scenarios::InputError);
  CHECK_THROWS_WITH_AS(scenarios::load_scenario_text(std::string(kBase) + R"(consumers:
  - {group: g, topics: [events], config: {heartbeat.interval.ms: 50000}}
)",
                                                     "f.yaml"),
                       doctest::Contains("heartbeat.interval.ms must be < session.timeout.ms"), scenarios::InputError);
}
