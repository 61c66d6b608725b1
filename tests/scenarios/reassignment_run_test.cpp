// A reassignment through the whole engine (docs/reassignment.md), on the study scenario
// (scenarios/studies/reassign-throttle.yaml: broker 3 takes over a replica of partitions 0
// and 1 at 60 s, the producers writing 1 MB/s into each of four partitions):
// - the copy is held to its throttle: no faster than the throttle allows, and done once the
//   throttle less what is written meanwhile has carried what was there;
// - bytes copied in = bytes out = the new replicas' logs (broker 3 holds nothing else);
// - UnderReplicatedPartitions stays 0 (adding replicas do not count);
// - the leader stays where it is still a replica, else the first target replica leads;
// - at 1.5 MB/s it never completes, and the budgets say why from the traffic they measured;
// - a later step raising the throttle lets it finish; without a throttle the fetch limits
//   bound it (1 MiB per partition per round trip).

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {

const std::string kStudy = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/studies/reassign-throttle.yaml";

model::RunResult run_with(const std::vector<std::string>& sets) {
  return model::run_scenario(scenarios::load_scenario_file(kStudy, sets), 11, 0, {});
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::int64_t sum_in(const model::ReassignmentResult& r) {
  std::int64_t n = 0;
  for (const auto& s : r.samples) n += s.bytes_in;
  return n;
}

std::int64_t sum_out(const model::ReassignmentResult& r) {
  std::int64_t n = 0;
  for (const auto& s : r.samples) n += s.bytes_out;
  return n;
}

}  // namespace

TEST_CASE("a throttled move completes no faster than its throttle and once the spare has carried the backlog") {
  const auto r = run_with({});
  const auto& re = r.replication.reassignment;
  REQUIRE(re.steps.size() == 1);
  REQUIRE(re.completed_ms);
  const double backlog = static_cast<double>(re.steps[0].bytes_to_copy);
  CHECK(backlog > 100e6);                       // two partitions of 60 s at 1 MB/s
  const double throttle = 10e6, written = 2e6;  // broker 3 copies two partitions of 1 MB/s
  const double took = (*re.completed_ms - 60000) / 1000;
  CHECK(took >= backlog / throttle);
  CHECK(took <= backlog / (throttle - written - 2e6));  // 2 MB/s for the quota's windows and waits
  // What moved: out = in = broker 3's two new logs while they were being added (broker 3
  // holds nothing else until the move completes).
  CHECK(sum_in(re) == sum_out(re));
  std::int64_t in = 0;
  int checked = 0;
  for (const auto& s : re.samples) {
    in += s.bytes_in;
    if (s.time_ms <= 60000 || s.time_ms >= *re.completed_ms) continue;
    CHECK(in == s.disk[3]);
    ++checked;
  }
  CHECK(checked > 10);
  // Adding replicas are not under-replicated: 0 throughout; and the producers never failed.
  for (const auto& s : re.samples) CHECK(s.under_replicated == 0);
  CHECK(r.failed.delivery_timeout + r.failed.retries_exhausted == 0);
}

TEST_CASE("the leader stays if it is still a replica, else the first target replica leads") {
  const auto r = run_with({});
  // orders-0: [0, 1] -> [3, 1], leader 0 removed: 3 leads. orders-1: [1, 2] -> [1, 3]: 1 stays.
  CHECK(r.partitions[0].leader == 3);
  CHECK(r.partitions[1].leader == 1);
  CHECK(r.replication.partitions[0].isr == std::vector<std::int32_t>{3, 1});
  CHECK(r.replication.partitions[1].isr == std::vector<std::int32_t>{1, 3});
  const auto moved = std::find_if(r.leader_history.begin(), r.leader_history.end(),
                                  [](const auto& h) { return h.cause == "reassignment completed"; });
  REQUIRE(moved != r.leader_history.end());
  CHECK(moved->leaders == std::vector<std::int32_t>{1, 1, 1, 1});
  // orders-0's move completed then; the step with orders-1's (no leader change) at the latest.
  CHECK(moved->time_ms > 60000);
  CHECK(moved->time_ms <= *r.replication.reassignment.completed_ms);
}

TEST_CASE("below the writes into its copies a throttle never catches up, and the budgets say so") {
  const auto r = run_with({"topics.0.schedule.0.reassign.throttle=1500000"});
  const auto& re = r.replication.reassignment;
  CHECK_FALSE(re.completed_ms);
  CHECK(re.never);
  CHECK(re.partitions_left == 2);
  CHECK(re.bytes_left >= re.steps[0].bytes_to_copy);  // it lost ground
  // Broker 0 leads orders-0 and sends its in-sync follower (broker 1, listed) what is written
  // into it, 1 MB/s: the same rate the copy to broker 3 must carry.
  const auto b0 = std::find_if(re.budgets.begin(), re.budgets.end(), [](const auto& b) { return b.broker == 0; });
  REQUIRE(b0 != re.budgets.end());
  CHECK(b0->leader);
  CHECK(b0->listed_in_sync == doctest::Approx(b0->produced).epsilon(0.05));
  CHECK(b0->produced == doctest::Approx(1.0e6).epsilon(0.1));
  CHECK(b0->spare() < 0);
  for (const auto& s : re.samples) CHECK(s.under_replicated == 0);
}

TEST_CASE("a later step raising the throttle lets the move finish; unthrottled, the fetch limits bound it") {
  // The plan at 60 s at 1.5 MB/s, then 20 MB/s from 80 s.
  std::string text = read_text(kStudy);
  const std::string throttle = "          throttle: 10000000\n";
  REQUIRE(text.find(throttle) != std::string::npos);
  text.replace(text.find(throttle), throttle.size(),
               "          throttle: 1500000\n      - {at.ms: 80000, reassign: {throttle: 20000000}}\n");
  const auto raised = model::run_scenario(scenarios::load_scenario_text(text, "raised"), 11, 0, {});
  const auto& re = raised.replication.reassignment;
  REQUIRE(re.steps.size() == 2);
  CHECK(re.steps[1].partitions == 0);
  REQUIRE(re.completed_ms);
  CHECK(*re.completed_ms > 80000);
  CHECK_FALSE(re.never);

  // Unthrottled, broker 3's 50 MB/s link bounds the copy (both copies come in through it).
  const auto free = run_with({"topics.0.schedule.0.reassign.throttle=0"});
  REQUIRE(free.replication.reassignment.completed_ms);
  const double backlog = static_cast<double>(free.replication.reassignment.steps[0].bytes_to_copy);
  const double took_s = (*free.replication.reassignment.completed_ms - 60000) / 1000;
  CHECK(took_s >= backlog / 50e6);
  CHECK(took_s <= backlog / (50e6 - 2e6) * 1.2);
  // Without the links' limit, 1 MiB of each of the two partitions per round trip of 1 ms
  // (replica.rtt.ms): about 60 round trips, not one.
  const auto unlimited =
      run_with({"topics.0.schedule.0.reassign.throttle=0", "cluster.brokers.*.network.bytes.per.s=0"});
  REQUIRE(unlimited.replication.reassignment.completed_ms);
  const double took = *unlimited.replication.reassignment.completed_ms - 60000;
  const double trips = static_cast<double>(unlimited.replication.reassignment.steps[0].bytes_to_copy) / (2 << 20);
  CHECK(took >= trips * 0.95);
  CHECK(took <= trips * 1.5);
}

TEST_CASE("a copy shares the links with the produce path: below saturation a small message waits little") {
  // The producers' p99 per interval while an unthrottled copy runs, against the minute before.
  const auto during = [](const model::ReassignmentResult& re) {
    double before = 0, copying = 0;
    for (const auto& s : re.samples) {
      if (s.time_ms > 10000 && s.time_ms <= 60000) before = std::max(before, s.p99_ms);
      if (s.time_ms > 60000 && s.time_ms <= *re.completed_ms) copying = std::max(copying, s.p99_ms);
    }
    return std::pair(before, copying);
  };
  // The leaders' links carry 1 MiB copy answers (21 ms each at 50 MB/s) beside the in-sync
  // followers' answers and the produce responses, which share the link in two and wait
  // about their own transfer time once more: acks=all's p99 moves by well under a
  // millisecond, where waiting behind whole copy answers would add tens.
  const auto linked = run_with({"topics.0.schedule.0.reassign.throttle=0"});
  REQUIRE(linked.replication.reassignment.completed_ms);
  const auto [before, copying] = during(linked.replication.reassignment);
  CHECK(copying > 0);
  CHECK(copying < before + 1.0);
}

namespace {

// Three brokers, orders-0 on [0, 1] and orders-1 on [1, 2], 1 MB/s, acks=all; `steps` is the
// topic's schedule, `extra` more topic keys.
model::RunResult small(const std::string& steps, const std::string& extra = "") {
  const std::string text = R"(
run: {seed: 3, duration.ms: 30000, trace: 0}
cluster:
  replication: followers
  brokers: [{id: 0}, {id: 1}, {id: 2}]
topics:
  - name: orders
    partitions: 2
    replication.factor: )" +
                           std::string(extra.empty() ? "2" : "1") +
                           R"(
    assignment: )" + (extra.empty() ? "[[0, 1], [1, 2]]" : "[[0], [1]]") +
                           extra + R"(
    schedule: )" + steps + R"(
producers:
  - name: app
    config: {acks: all, linger.ms: 5}
    workload: {topic: orders, arrivals: {kind: poisson, rate: 2000}, values: {kind: fixed, size: 500}}
)";
  return model::run_scenario(scenarios::load_scenario_text(text, "small"), 3, 0, {});
}

}  // namespace

TEST_CASE("a move back to where a partition was completes at once, and ends the move it replaces") {
  // orders-0 to [2, 1] at a throttle that cannot keep up, then back to [0, 1] at 10 s: the
  // controller starts from all its replicas [2, 1, 0], so broker 2 is the one removed and
  // the target is in the ISR already.
  const auto r =
      small(R"([{at.ms: 5000, reassign: {plan: {partitions: [{partition: 0, replicas: [2, 1]}]}, throttle: 100000}},
              {at.ms: 10000, reassign: {plan: {partitions: [{partition: 0, replicas: [0, 1]}]}, throttle: 100000}}])");
  const auto& re = r.replication.reassignment;
  REQUIRE(re.steps.size() == 2);
  REQUIRE(re.completed_ms);
  CHECK(*re.completed_ms == doctest::Approx(10000));
  CHECK(re.steps[0].completed_ms == re.steps[1].completed_ms);
  CHECK(r.partitions[0].leader == 0);
  CHECK(r.replication.partitions[0].isr == std::vector<std::int32_t>{0, 1});
  CHECK(re.samples.back().disk[2] < re.samples.back().disk[0]);  // broker 2 holds orders-1 only
}

TEST_CASE("a plan that only reorders or removes replicas is done as it starts; the leader stays") {
  const auto r = small(R"([{at.ms: 5000, reassign: {plan: {partitions: [{partition: 1, replicas: [2, 1]}]}}},
              {at.ms: 6000, reassign: {plan: {partitions: [{partition: 0, replicas: [0]}]}}}])");
  const auto& re = r.replication.reassignment;
  REQUIRE(re.steps.size() == 2);
  REQUIRE(re.steps[0].completed_ms);
  CHECK(*re.steps[0].completed_ms == doctest::Approx(5000));
  REQUIRE(re.steps[1].completed_ms);
  CHECK(*re.steps[1].completed_ms == doctest::Approx(6000));
  CHECK(r.partitions[1].leader == 1);  // the plan's first replica leads only after an election
  CHECK(r.replication.partitions[1].isr == std::vector<std::int32_t>{2, 1});
  CHECK(r.replication.partitions[0].isr == std::vector<std::int32_t>{0});
  CHECK(re.steps[0].bytes_to_copy == 0);
}

TEST_CASE("while a replica is being added, min.insync.replicas counts it (Partition.effectiveMinIsr)") {
  // RF 1 with min.insync.replicas 2: acks=all works (effective min ISR 1) until orders-0 gets
  // a second replica, which it must wait for before writes are taken again.
  const auto r =
      small(R"([{at.ms: 5000, reassign: {plan: {partitions: [{partition: 0, replicas: [0, 2]}]}, throttle: 100000}}])",
            "\n    min.insync.replicas: 2");
  CHECK(r.replication.partitions[0].not_enough_replicas > 0);
  CHECK(r.replication.partitions[1].not_enough_replicas == 0);
  // Refused writes add nothing to copy: the 100 KB/s catches up with what came before.
  REQUIRE(r.replication.reassignment.completed_ms);
  CHECK(*r.replication.reassignment.completed_ms > 20000);
}
