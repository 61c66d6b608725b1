#include "model/client_version.hpp"

#include <doctest/doctest.h>

#include <string>

#include "model/partitioners/partitioner.hpp"

using namespace partsim::model;

namespace {

ClientVersion client_named(const std::string& text) {
  std::string why;
  const auto v = parse_client(text, why);
  INFO(text, ": ", why);
  REQUIRE(v.has_value());
  return *v;
}

// A rule that changes at `first` holds there and at every later line, and not in the line
// before: each check names the last release without it and the first with it
// (kafka-versions.md), so moving a boundary by one version fails one of them.
template <class Rule>
void changes_at(Rule rule, const std::string& last_without, const std::string& first_with) {
  CAPTURE(last_without);
  CAPTURE(first_with);
  CHECK_FALSE(rule(client_named(last_without)));
  CHECK(rule(client_named(first_with)));
}

}  // namespace

TEST_CASE("a line means its newest patch; a patch may be named; aliases and bad names") {
  CHECK(client_named("kafka-3.6").patch_no == 2);
  CHECK(client_named("kafka-3.9").patch_no == 2);
  CHECK(client_named("kafka-4.3") == default_client());
  CHECK(default_client().name() == "kafka-4.3");
  CHECK(client_named("kafka-3.9.0").name() == "kafka-3.9.0");
  CHECK(client_named("kafka-4.x") == client_named("kafka-4.3"));
  CHECK(client_named("kafka-3.x") == client_named("kafka-3.9"));
  CHECK(client_named("kafka-4.4").unreleased());
  CHECK_FALSE(client_named("kafka-4.3").unreleased());
  CHECK(client_lines().front() == "kafka-2.4");
  CHECK(client_lines().back() == "kafka-4.4");
  CHECK(client_lines().size() == 20);
  for (const char* bad : {"kafka-2.3", "kafka-4.5", "kafka-3.9.3", "kafka-3", "kafka-3.", "3.6", "kafka-3.6.x",
                          "kafka-3.6.1.1", "kafka-1000.1", "kafka--1.2"}) {
    CAPTURE(bad);
    std::string why;
    CHECK_FALSE(parse_client(bad, why).has_value());
    CHECK_FALSE(why.empty());
  }
}

TEST_CASE("each producer rule changes at its version") {
  changes_at(java::builtin_partitioner, "kafka-3.2", "kafka-3.3.0");
  changes_at(java::batch_boundary_switch, "kafka-3.2", "kafka-3.3.0");
  changes_at([](const ClientVersion& v) { return !java::new_batch_second_call(v); }, "kafka-3.9", "kafka-4.0.0");
  changes_at([](const ClientVersion& v) { return java::default_linger(v) == partsim::sim::SimTime::ms(5); },
             "kafka-3.9", "kafka-4.0.0");
  changes_at(java::default_acks_all, "kafka-2.8", "kafka-3.0.0");
  changes_at(java::default_idempotence, "kafka-3.0.0", "kafka-3.0.1");
  changes_at(java::default_idempotence, "kafka-3.1.0", "kafka-3.1.1");
  changes_at(java::default_idempotence, "kafka-2.8", "kafka-3.2.0");
  changes_at(java::exponential_backoff, "kafka-3.6", "kafka-3.7.0");
  changes_at(java::refuses_in_flight_over_5, "kafka-3.9", "kafka-4.0.0");
  changes_at(java::expired_batch_keeps_memory, "kafka-3.9.1", "kafka-3.9.2");
  changes_at(java::expired_batch_keeps_memory, "kafka-4.0.1", "kafka-4.0.2");
  changes_at(java::expired_batch_keeps_memory, "kafka-4.1.1", "kafka-4.1.2");
  changes_at(java::expired_batch_keeps_memory, "kafka-3.8", "kafka-4.2.0");
}

TEST_CASE("RoundRobinPartitioner: skipping through 3.9.1, remembering in 3.9.2, a plain counter from 4.0") {
  using R = java::RoundRobinRule;
  CHECK(java::round_robin_rule(client_named("kafka-2.4")) == R::kSkipping);
  CHECK(java::round_robin_rule(client_named("kafka-3.9.1")) == R::kSkipping);
  CHECK(java::round_robin_rule(client_named("kafka-3.9.2")) == R::kRemembers);
  CHECK(java::round_robin_rule(client_named("kafka-3.9")) == R::kRemembers);
  CHECK(java::round_robin_rule(client_named("kafka-4.0.0")) == R::kCounter);
  CHECK(java::round_robin_rule(client_named("kafka-4.4")) == R::kCounter);
}

TEST_CASE("each consumer rule changes at its version") {
  changes_at(
      [](const ClientVersion& v) { return java::default_session_timeout(v) == partsim::sim::SimTime::ms(45000); },
      "kafka-2.8", "kafka-3.0.0");
  changes_at([](const ClientVersion& v) { return java::default_assignors(v).size() == 2; }, "kafka-2.8", "kafka-3.0.0");
  changes_at(java::rack_aware_assignors, "kafka-3.4", "kafka-3.5.0");
  changes_at(java::consumer_protocol, "kafka-3.6", "kafka-3.7.0");
  changes_at(java::offset_reset_by_duration, "kafka-3.9", "kafka-4.0.0");
}

TEST_CASE("what a producer runs for each partitioner kind, and as which line") {
  const ClientVersion v43 = client_named("kafka-4.3"), v36 = client_named("kafka-3.6"), v32 = client_named("kafka-3.2");
  // No partitioner.class: KIP-794's built-in from 3.3, KIP-480's DefaultPartitioner before.
  CHECK(partitioner_run(PartitionerKind::kBuiltin, v43).kind == PartitionerKind::kBuiltin);
  CHECK_FALSE(partitioner_run(PartitionerKind::kBuiltin, v43).second_call);
  CHECK(partitioner_run(PartitionerKind::kBuiltin, v32).kind == PartitionerKind::kStickyKip480);
  CHECK(partitioner_run(PartitionerKind::kBuiltin, v32).second_call);
  // Objects get the second call through 3.9, not in 4.x ...
  for (const auto kind : {PartitionerKind::kRoundRobin, PartitionerKind::kRules, PartitionerKind::kCode}) {
    CHECK(partitioner_run(kind, v36).second_call);
    CHECK_FALSE(partitioner_run(kind, v43).second_call);
    CHECK(partitioner_run(kind, v43).runs_as() == "kafka-4.3");
  }
  // ... except the historical ones, which run as the line they came from.
  CHECK(partitioner_run(PartitionerKind::kStickyKip480, v43).second_call);
  CHECK(partitioner_run(PartitionerKind::kStickyKip480, v43).runs_as() == "kafka-3.9");
  CHECK(partitioner_run(PartitionerKind::kStickyKip480, v36).runs_as() == "kafka-3.6");
  CHECK(partitioner_run(PartitionerKind::kRoundRobinFixed, v43).second_call);
  CHECK(partitioner_run(PartitionerKind::kRoundRobinFixed, v36).runs_as() == "kafka-3.9.2");
  CHECK_FALSE(partitioner_run(PartitionerKind::kLegacy, v36).second_call);
  CHECK(partitioner_run(PartitionerKind::kLegacy, v43).runs_as() == "the clients before kafka-2.4");
}
