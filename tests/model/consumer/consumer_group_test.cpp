#include <doctest/doctest.h>

#include <algorithm>

#include "model/consumer/consumer_group.hpp"

using namespace partsim::model;
using namespace partsim::model::consumer;
using Kind = OwnershipChange::Kind;

namespace {

ConsumerGroup make_group(GroupSettings::Mode mode, AssignorKind assignor, std::int32_t partitions = 6) {
  GroupSettings s;
  s.mode = mode;
  s.assignor = assignor;
  s.session_timeout = SimTime::ms(45000);
  s.heartbeat_interval = SimTime::ms(3000);
  return ConsumerGroup(s, {{"t", partitions, {}, {}}}, {"t"});
}

std::vector<NewMember> members(std::initializer_list<const char*> ids) {
  std::vector<NewMember> out;
  for (const char* id : ids) out.push_back({id, ""});
  return out;
}

std::size_t count(const std::vector<OwnershipChange>& out, Kind kind) {
  return static_cast<std::size_t>(std::count_if(out.begin(), out.end(), [&](const auto& c) { return c.kind == kind; }));
}

}  // namespace

TEST_CASE("the initial members get a range assignment at once, and the start costs no pause") {
  auto g = make_group(GroupSettings::Mode::kEager, AssignorKind::kRange);
  std::vector<OwnershipChange> out;
  g.join(members({"c0", "c1", "c2"}), SimTime::zero(), out);
  CHECK(count(out, Kind::kAssign) == 6);
  CHECK(g.owned(0) == std::vector<std::int32_t>{0, 1});
  CHECK(g.owned(2) == std::vector<std::int32_t>{4, 5});
  REQUIRE(g.rebalances().size() == 1);
  CHECK(g.rebalances()[0].cause == "start");
  CHECK(g.rebalances()[0].pause_max_ms == 0);
  CHECK_FALSE(g.rebalancing());
}

TEST_CASE("eager join: every member revokes at its next heartbeat and poll, all resume when the last has rejoined") {
  auto g = make_group(GroupSettings::Mode::kEager, AssignorKind::kRange);
  std::vector<OwnershipChange> out;
  g.join(members({"c0", "c1", "c2"}), SimTime::zero(), out);
  out.clear();
  g.join(members({"c3"}), SimTime::ms(4000), out);
  CHECK(g.rebalancing());
  // Heartbeats every 3 s from the join at 0: the members learn at 6000 ms.
  CHECK(g.due(0) == SimTime::ms(6000));
  g.step(0, SimTime::ms(6000), out);  // idle: rejoins at its heartbeat, revoking 0 and 1
  CHECK(count(out, Kind::kRevokeCommitted) == 2);
  g.step(1, SimTime::ms(6000), out);
  CHECK(g.rebalancing());
  g.step(2, SimTime::ms(7000), out);  // was busy with a batch until 7000 ms
  CHECK_FALSE(g.rebalancing());
  CHECK(g.owned(3) == std::vector<std::int32_t>{5});
  const auto& r = g.rebalances().back();
  CHECK(r.cause == "join c3");
  CHECK(r.kind == "eager");
  CHECK(r.rounds == 1);
  // c0's and c1's partitions stopped at 6000, c2's at 7000; all assigned at 7000.
  CHECK(r.paused == 6);
  CHECK(r.pause_max_ms == doctest::Approx(1000));
  CHECK(r.pause_sum_ms == doctest::Approx(4000));
}

TEST_CASE("cooperative join: only the moved partition pauses, over two rounds") {
  auto g = make_group(GroupSettings::Mode::kCooperative, AssignorKind::kCooperativeSticky);
  std::vector<OwnershipChange> out;
  g.join(members({"c0", "c1", "c2"}), SimTime::zero(), out);
  out.clear();
  g.join(members({"c3"}), SimTime::ms(4000), out);
  for (std::int32_t m = 0; m < 3; ++m) g.step(m, SimTime::ms(6000), out);
  // Round 1 done: the members committed and kept their partitions; what c3 is owed was
  // revoked without a commit and withheld for round 2.
  CHECK(count(out, Kind::kCommit) == 6);  // each member's two partitions
  const auto revoked = count(out, Kind::kRevoke);
  CHECK(revoked >= 1);
  CHECK(g.rebalancing());
  CHECK(g.rebalances().back().rounds == 2);
  // Round 2: the revokers rejoined at once; the others at their next heartbeat (c3, joined
  // at 4000 ms: 7000 ms; c0..c2: 9000 ms).
  CHECK(g.due(3) == SimTime::ms(7000));
  out.clear();
  g.step(3, SimTime::ms(7000), out);
  for (std::int32_t m = 0; m < 3; ++m)
    if (g.due(m) != SimTime::max()) {
      CHECK(g.due(m) == SimTime::ms(9000));
      g.step(m, SimTime::ms(9000), out);
    }
  CHECK_FALSE(g.rebalancing());
  CHECK(count(out, Kind::kAssign) == revoked);
  CHECK(g.owned(3).size() == 1);
  const auto& r = g.rebalances().back();
  CHECK(r.kind == "cooperative");
  CHECK(r.paused == static_cast<std::int32_t>(revoked));
  CHECK(r.pause_max_ms == doctest::Approx(3000));
}

TEST_CASE("a crash holds its partitions until the session expires after its last heartbeat") {
  auto g = make_group(GroupSettings::Mode::kEager, AssignorKind::kRange);
  std::vector<OwnershipChange> out;
  g.join(members({"c0", "c1"}), SimTime::zero(), out);
  g.crash(1, SimTime::ms(10000));
  // Last heartbeat at 9000 ms: expiry at 54000 ms.
  CHECK(g.next_expiry() == SimTime::ms(54000));
  out.clear();
  g.expire(SimTime::ms(53999), out);
  CHECK(g.in_group(1));
  g.expire(SimTime::ms(54000), out);
  CHECK_FALSE(g.in_group(1));
  CHECK(g.rebalancing());
  // c0's heartbeat at 54000 ms went out before the expiry: it learns at the next, 57000 ms.
  CHECK(g.due(0) == SimTime::ms(57000));
  g.step(0, SimTime::ms(57000), out);
  CHECK_FALSE(g.rebalancing());
  CHECK(g.owned(0) == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5});
  const auto& r = g.rebalances().back();
  CHECK(r.cause == "crash c1");
  // c1's partitions had nobody from the crash at 10 s until c0 took them at 57 s; c0's own
  // (eager) from its rejoin at 57 s, which completed the join at once.
  CHECK(r.pause_max_ms == doctest::Approx(47000));
  CHECK(r.pause_sum_ms == doctest::Approx(3 * 47000));
}

TEST_CASE("a leave revokes with a commit at once and rebalances the rest") {
  auto g = make_group(GroupSettings::Mode::kEager, AssignorKind::kRoundRobin, 4);
  std::vector<OwnershipChange> out;
  g.join(members({"c0", "c1"}), SimTime::zero(), out);
  out.clear();
  g.leave(1, SimTime::ms(2000), out);
  CHECK(count(out, Kind::kRevokeCommitted) == 2);
  g.step(0, SimTime::ms(3000), out);
  CHECK(g.owned(0).size() == 4);
  CHECK(g.rebalances().back().cause == "leave c1");
}

TEST_CASE("KIP-848: a joiner gets what is free at once, released partitions at its next heartbeat") {
  GroupSettings s;
  s.mode = GroupSettings::Mode::kConsumer;
  s.assignor = AssignorKind::kConsumerRange;
  s.heartbeat_interval = SimTime::ms(5000);
  ConsumerGroup g(s, {{"t", 4, {}, {}}}, {"t"});
  std::vector<OwnershipChange> out;
  g.join(members({"c0"}), SimTime::zero(), out);
  g.step(0, SimTime::zero(), out);
  CHECK(g.owned(0).size() == 4);
  CHECK_FALSE(g.rebalancing());
  out.clear();
  g.join(members({"c1"}), SimTime::ms(7000), out);
  g.step(1, SimTime::ms(7000), out);  // nothing free yet: c0 still holds its target's complement
  CHECK(g.owned(1).empty());
  CHECK(g.due(0) == SimTime::ms(10000));
  g.step(0, SimTime::ms(10000), out);  // revokes partitions 2 and 3 (range: c1 gets the upper half)
  CHECK(count(out, Kind::kRevokeCommitted) == 2);
  CHECK(g.due(1) == SimTime::ms(12000));
  g.step(1, SimTime::ms(12000), out);
  CHECK(g.owned(1) == std::vector<std::int32_t>{2, 3});
  CHECK_FALSE(g.rebalancing());
  const auto& r = g.rebalances().back();
  CHECK(r.kind == "consumer");
  CHECK(r.pause_max_ms == doctest::Approx(2000));
  CHECK(r.pause_sum_ms == doctest::Approx(4000));
}

TEST_CASE(
    "the classic default strategy list runs range eagerly; a list of only cooperative-sticky runs cooperatively") {
  ConsumerConfig c;
  GroupCoordinatorConfig k;
  CHECK(group_settings(c, k).mode == GroupSettings::Mode::kEager);
  CHECK(group_settings(c, k).assignor == AssignorKind::kRange);
  c.assignment_strategy = {"cooperative-sticky"};
  CHECK(group_settings(c, k).mode == GroupSettings::Mode::kCooperative);
  c.protocol = ConsumerConfig::Protocol::kConsumer;
  CHECK(group_settings(c, k).mode == GroupSettings::Mode::kConsumer);
  CHECK(group_settings(c, k).assignor == AssignorKind::kConsumerUniform);
  CHECK(group_settings(c, k).heartbeat_interval == SimTime::ms(5000));
}
