// The reassignment planner against brute force on small cases, constraint by constraint,
// and the kafka-assignment-optimizer demo.

#include "model/placement/reassign_planner.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

using namespace partsim::model;

namespace {

using Cost = std::pair<std::int32_t, std::int32_t>;  // (moves, leader changes)

// Every assignment of every partition (a replica set of size rf on the targets and a leader
// in it), checked with check_plan; the lexicographically smallest (moves, leader changes).
std::optional<Cost> brute_force(const ReassignRequest& r) {
  const auto P = r.current.size();
  std::vector<std::vector<std::vector<std::int32_t>>> options(P);  // per partition: lists, leader first
  const auto B = r.targets.size();
  for (std::size_t p = 0; p < P; ++p)
    for (std::uint32_t mask = 0; mask < (1u << B); ++mask) {
      if (static_cast<std::int32_t>(__builtin_popcount(mask)) != r.rf[p]) continue;
      std::vector<std::int32_t> set;
      for (std::size_t b = 0; b < B; ++b)
        if (mask & (1u << b)) set.push_back(r.targets[b].id);
      for (std::size_t l = 0; l < set.size(); ++l) {
        auto list = set;
        std::swap(list[0], list[l]);
        options[p].push_back(list);
      }
    }
  std::optional<Cost> best;
  Assignment a(P);
  std::vector<std::size_t> pick(P, 0);
  for (;;) {
    for (std::size_t p = 0; p < P; ++p) a[p] = options[p][pick[p]];
    if (check_plan(r, a).empty()) {
      const Cost c{count_moves(r.current, a), count_leader_changes(r.current, a)};
      if (!best || c < *best) best = c;
    }
    std::size_t i = 0;
    while (i < P && ++pick[i] == options[i].size()) pick[i++] = 0;
    if (i == P) break;
  }
  return best;
}

ReassignRequest request(Assignment current, std::vector<RackedBroker> targets, RackMode mode, CountBounds replicas,
                        CountBounds leaders) {
  ReassignRequest r;
  for (const auto& c : current) r.rf.push_back(static_cast<std::int32_t>(c.size()));
  r.current = std::move(current);
  r.targets = std::move(targets);
  r.rack_mode = mode;
  r.replicas = replicas;
  r.leaders = leaders;
  return r;
}

}  // namespace

TEST_CASE("removing a broker moves only its replicas, to the rack that loses one") {
  // Six brokers on racks a, b, c; broker 5 (rack c) leaves.
  const Assignment current{{0, 2, 4}, {1, 3, 5}, {2, 4, 0}, {3, 5, 1}};
  const auto r =
      request(current, {{0, "a"}, {1, "a"}, {2, "b"}, {3, "b"}, {4, "c"}}, RackMode::kStrict, {0, 4}, {0, 2});
  const auto plan = plan_reassignment(r);
  INFO(plan.reason);
  REQUIRE(plan.status == PlanStatus::kOptimal);
  CHECK(plan.moves == 2);
  CHECK(plan.leader_changes == 0);
  CHECK(plan.plan[1] == std::vector<std::int32_t>{1, 3, 4});  // 5's slot taken by the only broker on rack c
  CHECK(plan.plan[3] == std::vector<std::int32_t>{3, 4, 1});
  CHECK(check_plan(r, plan.plan).empty());
}

TEST_CASE("the kafka-assignment-optimizer demo: 20 brokers in 2 zones, broker 19 removed, 1 replica moves") {
  const Assignment current{{7, 18}, {8, 19}, {9, 10}, {0, 11}, {1, 12}, {2, 13}, {3, 14}, {4, 15}, {5, 16}, {6, 17}};
  std::vector<RackedBroker> targets;
  for (std::int32_t b = 0; b < 19; ++b) targets.push_back({b, b % 2 ? "b" : "a"});
  const auto r =
      request(current, targets, RackMode::kStrict, leader_bounds_band(20, 19, 1.10), leader_bounds_band(10, 19, 1.10));
  const auto plan = plan_reassignment(r);
  REQUIRE(plan.status == PlanStatus::kOptimal);
  CHECK(plan.moves == 1);
  CHECK(plan.leader_changes == 0);
  CHECK(plan.plan[1][0] == 8);
  CHECK(plan.plan[1][1] % 2 == 1);  // the new replica stays in zone b
  CHECK(count_moves(current, plan.plan) == 1);
}

TEST_CASE("each constraint and each objective on its own, against brute force") {
  auto check = [](const ReassignRequest& r, Cost expected) {
    const auto plan = plan_reassignment(r);
    REQUIRE(plan.status == PlanStatus::kOptimal);
    CHECK(check_plan(r, plan.plan) == "");
    CHECK(Cost{plan.moves, plan.leader_changes} == expected);
    CHECK(brute_force(r) == expected);
  };
  const std::vector<RackedBroker> two_racks{{0, "a"}, {1, "a"}, {2, "a"}, {3, "b"}, {4, "b"}};
  SUBCASE("even racks: rf 3 on 2 racks puts 1 or 2 on each; strict cannot; none keeps all") {
    const Assignment current{{0, 1, 2}};
    check(request(current, two_racks, RackMode::kEven, {0, 1}, {0, 1}), {1, 0});
    CHECK(plan_reassignment(request(current, two_racks, RackMode::kStrict, {0, 1}, {0, 1})).status ==
          PlanStatus::kInfeasible);
    check(request(current, two_racks, RackMode::kNone, {0, 1}, {0, 1}), {0, 0});
  }
  SUBCASE("strict racks move a replica off a shared rack, keeping the leader") {
    check(request({{3, 4}, {0, 3}}, two_racks, RackMode::kStrict, {0, 2}, {0, 1}), {1, 0});
  }
  SUBCASE("replica balance fills a new broker with the fewest moves") {
    check(request({{0, 1}, {1, 2}, {2, 0}}, {{0, ""}, {1, ""}, {2, ""}, {3, ""}}, RackMode::kNone,
                  leader_bounds_exact(6, 4), leader_bounds_band(3, 4, 1.10)),
          {1, 0});
  }
  SUBCASE("leader balance changes leaders without moving data when it can") {
    check(request({{0, 1}, {0, 2}, {0, 1}}, {{0, ""}, {1, ""}, {2, ""}}, RackMode::kNone, {0, 3}, {1, 1}), {0, 2});
  }
  SUBCASE("leader and replica balance together: the moved replica also takes the lead") {
    check(request({{0, 1}, {0, 1}, {0, 1}}, {{0, ""}, {1, ""}, {2, ""}}, RackMode::kNone, {2, 2}, {1, 1}), {2, 2});
  }
  SUBCASE("a lower replication factor drops followers first, a higher one adds the fewest") {
    auto r = request({{0, 1, 2}, {1, 2, 0}}, {{0, ""}, {1, ""}, {2, ""}}, RackMode::kNone, {0, 2}, {0, 2});
    r.rf = {2, 2};
    check(r, {0, 0});
    r = request({{0, 1}, {1, 2}}, {{0, ""}, {1, ""}, {2, ""}, {3, ""}}, RackMode::kNone, {1, 2}, {0, 1});
    r.rf = {3, 3};
    check(r, {2, 0});
  }
}

TEST_CASE("infeasible requests name the constraint") {
  const Assignment current{{0, 1}, {1, 2}, {2, 0}};
  const std::vector<RackedBroker> three{{0, "a"}, {1, "a"}, {2, "b"}};
  SUBCASE("more replicas than brokers") {
    auto r = request(current, {{0, "a"}, {1, "b"}}, RackMode::kNone, {0, 3}, {0, 3});
    r.rf = {3, 3, 3};
    CHECK(plan_reassignment(r).reason == "partition #0 needs 3 replicas but there are only 2 target brokers");
  }
  SUBCASE("strict racks with too few racks") {
    auto r = request(current, three, RackMode::kStrict, {0, 6}, {0, 3});
    r.rf = {3, 3, 3};
    r.targets.push_back({3, "a"});
    CHECK(plan_reassignment(r).reason ==
          "--rack-mode strict: partition #0 needs 3 replicas, at most 1 per rack, and the target brokers span 2 racks");
  }
  SUBCASE("replica bounds that cannot hold the replicas") {
    const auto r = request(current, three, RackMode::kNone, {0, 1}, {0, 3});
    CHECK(plan_reassignment(r).reason == "replicas per broker 0..1: 3 brokers must hold 6 replicas");
  }
  SUBCASE("racks and replica bounds together") {
    // Rack b has one broker; strict racks put one replica of each of 3 partitions there.
    const auto r = request(current, three, RackMode::kStrict, {2, 2}, {0, 3});
    CHECK(
        plan_reassignment(r).reason ==
        "--rack-mode strict: rack 'a' may hold at most 3 replicas, fewer than its 2 target brokers need with replicas per broker 2..2");
  }
}

TEST_CASE("the planner matches brute force on random small cases, for each constraint and objective") {
  boost::random::mt19937 rng(20261129);
  auto draw = [&](int lo, int hi) { return boost::random::uniform_int_distribution<int>(lo, hi)(rng); };
  int feasible = 0, infeasible = 0, with_leader_changes = 0, cases = 0, with_topics = 0, with_topics_feasible = 0;
  std::map<std::string, int> by_method;
  for (int round = 0; round < 1500; ++round) {
    const int B = draw(2, 5), P = draw(1, B < 5 ? 4 : 3), racks = draw(1, 3);
    std::vector<RackedBroker> all;
    for (int b = 0; b < B + 1; ++b) all.push_back({b, std::string(1, static_cast<char>('a' + b % racks))});
    // Current replicas over B + 1 brokers; one random broker is then removed (or none).
    Assignment current(static_cast<std::size_t>(P));
    for (auto& c : current) {
      const int rf = draw(1, std::min(3, B));
      while (static_cast<int>(c.size()) < rf) {
        const int b = draw(0, B);
        if (std::find(c.begin(), c.end(), b) == c.end()) c.push_back(b);
      }
    }
    std::vector<RackedBroker> targets = all;
    if (draw(0, 2) > 0) targets.erase(targets.begin() + draw(0, B));
    const auto mode = static_cast<RackMode>(draw(0, 2));
    std::int32_t total = 0;
    for (const auto& c : current) total += static_cast<std::int32_t>(c.size());
    const auto n = static_cast<std::int32_t>(targets.size());
    CountBounds rep{}, lead{};
    switch (draw(0, 2)) {
      case 0: rep = leader_bounds_exact(total, n), lead = leader_bounds_exact(P, n); break;
      case 1: rep = leader_bounds_band(total, n, 1.10), lead = leader_bounds_band(P, n, 1.10); break;
      default: {
        const int rl = draw(0, 2), ll = draw(0, 1);
        rep = {rl, rl + draw(0, 2)};
        lead = {ll, ll + draw(0, 2)};
      }
    }
    auto r = request(current, targets, mode, rep, lead);
    if (draw(0, 3) == 0)  // a new replication factor for every partition
      for (auto& rf : r.rf) rf = draw(1, std::min(3, n));
    if (draw(0, 2) == 0) {  // two topics, balanced each on its own as well
      r.topic.assign(current.size(), 0);
      for (std::size_t p = 1; p < current.size(); ++p) r.topic[p] = draw(0, 1);
      std::int32_t replicas[2] = {0, 0}, partitions[2] = {0, 0};
      for (std::size_t p = 0; p < current.size(); ++p) replicas[r.topic[p]] += r.rf[p], ++partitions[r.topic[p]];
      const bool exact = draw(0, 1) == 0;
      for (int t = 0; t < (partitions[1] > 0 ? 2 : 1); ++t) {
        r.topic_replicas.push_back(exact ? leader_bounds_exact(replicas[t], n)
                                         : leader_bounds_band(replicas[t], n, 1.10));
        r.topic_leaders.push_back(exact ? leader_bounds_exact(partitions[t], n)
                                        : leader_bounds_band(partitions[t], n, 1.10));
      }
      ++with_topics;
    }
    CAPTURE(round);
    const auto expected = brute_force(r);
    const auto plan = plan_reassignment(r);
    ++cases;
    if (!expected) {
      ++infeasible;
      CHECK(plan.status == PlanStatus::kInfeasible);
      CHECK(!plan.reason.empty());
      continue;
    }
    ++feasible;
    REQUIRE(plan.status == PlanStatus::kOptimal);
    CHECK(check_plan(r, plan.plan) == "");
    CHECK(Cost{plan.moves, plan.leader_changes} == *expected);
    if (expected->second > 0) ++with_leader_changes;
    if (!r.topic.empty()) ++with_topics_feasible;
    ++by_method[plan.method];
  }
  CHECK(cases == 1500);
  CHECK(feasible > 100);  // the draw covers both outcomes and the second objective
  CHECK(infeasible > 20);
  CHECK(with_topics > 300);           // per-topic balance drawn in about a third of the cases,
  CHECK(with_topics_feasible > 100);  // feasible in about half of those
  CHECK(with_leader_changes > 20);
  CHECK(by_method["flow"] > 100);       // both paths are exercised: the flows certified optimal,
  CHECK(by_method["0-1 program"] > 5);  // and the joint program where they could not
}

TEST_CASE("no partitions: the empty plan is optimal and the solver is never asked (GLPK aborts on zero columns)") {
  ReassignRequest r;
  r.targets = {{0, ""}, {1, ""}};
  r.replicas = {0, 0};
  r.leaders = {0, 0};
  const auto plan = plan_reassignment(r);
  CHECK(plan.status == PlanStatus::kOptimal);
  CHECK(plan.plan.empty());
  CHECK(plan.moves == 0);
  CHECK(plan.method == "flow");
}

TEST_CASE("disks: replica counts already even, one broker too full; the fewest moves bring every disk under its cap") {
  // Three brokers of 100 GB, 85% the cap: broker 0 holds 50 + 40 GB. Even replica counts are
  // met with no move, and leave it at 90%. Moving the 40 GB partition away (counted 1.2x on
  // its new broker: 48 GB) and a 5 GB one back (6 GB) keeps two replicas everywhere.
  const Assignment current{{0}, {0}, {1}, {1}, {2}, {2}};
  auto r = request(current, {{0, ""}, {1, ""}, {2, ""}}, RackMode::kNone, {2, 2}, {2, 2});
  const auto counts_only = plan_reassignment(r);
  REQUIRE(counts_only.status == PlanStatus::kOptimal);
  CHECK(counts_only.moves == 0);
  const std::int64_t gb = 1'000'000'000;
  r.sizes = {50 * gb, 40 * gb, 5 * gb, 5 * gb, 5 * gb, 5 * gb};
  r.disk_limit = {85 * gb, 85 * gb, 85 * gb};
  CHECK(check_plan(r, current).find("broker 0 would hold 90000000000 bytes") == 0);
  const auto plan = plan_reassignment(r);
  INFO(plan.reason);
  REQUIRE(plan.status == PlanStatus::kOptimal);
  CHECK(plan.moves == 2);
  CHECK(check_plan(r, plan.plan).empty());
  CHECK(plan.plan[0] == std::vector<std::int32_t>{0});  // the 50 GB partition stays
  CHECK(plan.plan[1] != std::vector<std::int32_t>{0});
  const auto brute = brute_force(r);
  REQUIRE(brute);
  CHECK(brute->first == plan.moves);
  CHECK(brute->second == plan.leader_changes);
  // A band on bytes (DiskUsageDistributionGoal) no placement can meet: 110 GB over three
  // brokers within 33..41 GB each, with a 50 GB partition.
  r.disk_band = {{33 * gb, 41 * gb}, {33 * gb, 41 * gb}, {33 * gb, 41 * gb}};
  const auto banded = plan_reassignment(r);
  CHECK(banded.status == PlanStatus::kInfeasible);
  CHECK(banded.reason.find("every broker's disk within its bounds") != std::string::npos);
}

TEST_CASE("disks: the planner matches brute force on random small cases with sizes and caps") {
  boost::random::mt19937 rng(29);
  int checked = 0;
  for (int round = 0; round < 60; ++round) {
    const std::size_t B = 3 + rng() % 2, P = 3 + rng() % 3;
    std::vector<RackedBroker> targets;
    for (std::size_t b = 0; b < B; ++b) targets.push_back({static_cast<std::int32_t>(b), ""});
    Assignment current;
    for (std::size_t p = 0; p < P; ++p) {
      const auto a = static_cast<std::int32_t>(rng() % B);
      auto b = static_cast<std::int32_t>(rng() % B);
      if (b == a) b = (a + 1) % static_cast<std::int32_t>(B);
      current.push_back(rng() % 2 ? std::vector<std::int32_t>{a, b} : std::vector<std::int32_t>{a});
    }
    // Every other round the leaders balanced exactly: the flows' hand-off to the program with disks.
    const CountBounds leaders = round % 2
                                    ? leader_bounds_exact(static_cast<std::int32_t>(P), static_cast<std::int32_t>(B))
                                    : CountBounds{0, static_cast<std::int32_t>(P)};
    auto r = request(current, targets, RackMode::kNone, {0, static_cast<std::int32_t>(P)}, leaders);
    for (std::size_t p = 0; p < P; ++p) r.sizes.push_back(1 + static_cast<std::int64_t>(rng() % 10));
    std::int64_t total = 0;
    for (std::size_t p = 0; p < P; ++p) total += r.sizes[p] * static_cast<std::int64_t>(current[p].size());
    r.disk_limit.assign(B, total / static_cast<std::int64_t>(B) + 1 + static_cast<std::int64_t>(rng() % 6));
    r.time_limit_s = 10;
    const auto plan = plan_reassignment(r);
    const auto brute = brute_force(r);
    CAPTURE(round);
    if (!brute) {
      CHECK(plan.status == PlanStatus::kInfeasible);
      continue;
    }
    REQUIRE(plan.status == PlanStatus::kOptimal);
    CHECK(check_plan(r, plan.plan).empty());
    CHECK(Cost{plan.moves, plan.leader_changes} == *brute);
    ++checked;
  }
  CHECK(checked > 15);
}
