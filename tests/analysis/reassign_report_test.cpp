// partsim reassign's reporter on hand-made results: the paths a quick CLI run rarely takes
// (a time limit reached, sampled --generate draws, nothing to change, per-topic balance).

#include "analysis/reassign_report.hpp"

#include <doctest/doctest.h>

using namespace partsim;

namespace {

// t-0 [0,1] stays, t-1 [1,0] -> [2,0] (one move, leader 1 -> 2) on racks a b c; the solver
// ran out of time with the fewest moves proven; --generate's draws were sampled.
analysis::ReassignReport time_limited() {
  analysis::ReassignReport r;
  auto& req = r.request.plan;
  req.current = {{0, 1}, {1, 0}};
  req.rf = {2, 2};
  req.targets = {{0, "a"}, {1, "b"}, {2, "c"}};
  req.rack_mode = model::RackMode::kStrict;
  req.replicas = {1, 2};
  req.leaders = {0, 1};
  r.request.partitions = {{"t", 0}, {"t", 1}};
  r.request.live = req.targets;
  auto& s = r.study;
  s.plan.status = model::PlanStatus::kFeasible;
  s.plan.method = "0-1 program";
  s.plan.moves = 1;
  s.plan.leader_changes = 1;
  s.plan.lower_bound_moves = 1;
  s.plan.lower_bound_leader_changes = 0;
  s.planned = {{0, 1}, {2, 0}};
  s.changed = {1};
  s.before.worst_failure_max_leaders = 2;
  s.after.worst_failure_max_leaders = 1;
  s.generate = {{{1, 2}, {2, 1}}, true, 3, 1, 100, 9, true, 1, 4, 2.31};
  r.racks = {{0, "a"}, {1, "b"}, {2, "c"}};
  r.balance = "band:1.10";
  r.explicit_bounds = true;
  r.plan_json = R"({"version":1,"partitions":[{"topic":"t","partition":1,"replicas":[2,0]}]})";
  return r;
}

}  // namespace

TEST_CASE("reassign report: a time-limited plan says what is proven, and sampled draws say so") {
  CHECK(analysis::reassign_to_text(time_limited()) ==
        R"(2 partitions, 4 replicas onto 3 target brokers on racks a b c; rack mode strict
per broker: replicas 1..2, preferred leaders 0..1

plan (time limit reached: fewest moves proven, preferred-leader changes at least 0): 1 replica move, 1 preferred-leader change

partition  before  after  moves  leader
t-1        1,0     2,0        1  changed

broker  rack  replicas before  after  leaders before  after
     0  a                   2      2               1      1
     1  b                   2      1               1      0
     2  c                   0      1               0      1

worst single broker failure: a broker then leads 2 partitions before, 1 after

kafka-reassign-partitions --generate (AdminUtils rack-aware, java.util.Random seed 0): 3 replica moves, 1 preferred-leader changes
  over 100 sampled of the 9 draws of its start index and replica shift: moves min 1, mean 2.3, max 4
)");
  auto r = time_limited();
  r.study.plan.lower_bound_moves = 0;
  CHECK(analysis::reassign_to_text(r).find(
            "plan (time limit reached: not proven minimal, at least 0 moves): 1 replica move") != std::string::npos);
}

TEST_CASE("reassign report: JSON of a time-limited plan carries both lower bounds") {
  const auto j = analysis::reassign_to_json(time_limited());
  CHECK(
      j.dump() ==
      R"({"status":"feasible","method":"0-1 program","lower_bounds":{"moves":1,"leader_changes":0},"rack_mode":"strict",)"
      R"("bounds":{"replicas":{"lo":1,"hi":2},"leaders":{"lo":0,"hi":1}},"moves":1,"leader_changes":1,)"
      R"("worst_single_failure_max_leaders":{"before":2,"after":1},"no_live_replica":[],)"
      R"("changed":[{"topic":"t","partition":1,"before":[1,0],"after":[2,0],"moves":1,"leader_changed":true}],)"
      R"("brokers":[{"broker":0,"rack":"a","target":true,"replicas_before":2,"replicas_after":2,"leaders_before":1,"leaders_after":1},)"
      R"({"broker":1,"rack":"b","target":true,"replicas_before":2,"replicas_after":1,"leaders_before":1,"leaders_after":0},)"
      R"({"broker":2,"rack":"c","target":true,"replicas_before":0,"replicas_after":1,"leaders_before":0,"leaders_after":1}],)"
      R"("topics":[{"topic":"t","replicas_per_broker":{"before":[0,2],"after":[1,2]},"leaders_per_broker":{"before":[0,1],"after":[0,1]}}],)"
      R"("generate":{"seed":0,"moves":3,"leader_changes":1,"over_draws":{"draws":100,"possible_draws":9,"sampled":true,)"
      R"("min_moves":1,"mean_moves":2.31,"max_moves":4}},"plan":{"version":1,"partitions":[{"topic":"t","partition":1,"replicas":[2,0]}]}})");
}

TEST_CASE("reassign report: nothing to change, balanced per topic, sizes and throttle") {
  auto r = time_limited();
  r.study.plan.status = model::PlanStatus::kOptimal;
  r.study.plan.moves = r.study.plan.leader_changes = 0;
  r.study.planned = r.request.plan.current;
  r.study.changed.clear();
  r.scope = analysis::BalanceScope::kTopic;
  r.explicit_bounds = false;
  r.have_sizes = true;
  r.throttle_bytes_per_s = 1'000'000;
  r.study.generate_load.total_bytes = 6'000'000;
  r.study.generate_load.in_bytes = {{2, 6'000'000}};
  r.plan_out = "plan.json";
  const auto text = analysis::reassign_to_text(r);
  CHECK(
      text.find(
          "per broker: each topic balanced on its own (--balance-scope topic, --balance band:1.10)\n\n"
          "plan (optimal): 0 replica moves, 0 preferred-leader changes; 0 B to copy, at least 0 s at 1.00 MB/s (busiest broker 0 B)\n\n"
          "nothing to change: the current assignment meets the constraints\n\n") != std::string::npos);
  // One topic, but per-topic balance asked for: the topic table is shown.
  CHECK(
      text.find(
          "topic  replicas per broker before  after  leaders before  after\nt      0..2                        0..2   0..1            0..1\n") !=
      std::string::npos);
  CHECK(text.find("3 replica moves, 1 preferred-leader changes, 6.00 MB, at least 6 s\n") != std::string::npos);
  CHECK(text.find("plan written to plan.json (0 partitions; kafka-reassign-partitions --execute)\n") !=
        std::string::npos);
  const auto j = analysis::reassign_to_json(r);
  CHECK(j["status"] == "optimal");
  CHECK_FALSE(j.contains("lower_bounds"));
  CHECK(j["bytes_to_copy"] == 0);
  CHECK(j["generate"]["copy_seconds"] == 6.0);
}

TEST_CASE("reassign report: a broker that leaves is marked, with its rack from --brokers") {
  auto r = time_limited();
  r.request.plan.targets = {{0, "a"}, {2, "c"}};  // broker 1 leaves
  r.study.planned = {{0, 2}, {2, 0}};
  r.study.changed = {0, 1};
  const auto text = analysis::reassign_to_text(r);
  CHECK(text.find("1 (leaves)  b                   2      0               1      0\n") != std::string::npos);
  CHECK(analysis::reassign_to_json(r)["brokers"][1]["target"] == false);
}
