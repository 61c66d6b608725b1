// partsim leaders' reporter on a hand-made result.

#include "analysis/leaders_report.hpp"

#include <doctest/doctest.h>

using namespace partsim;

namespace {

// t-0 [0,1], t-1 [0,1]: broker 0 led both; the plan hands t-1 to broker 1.
analysis::LeadersReport one_change() {
  analysis::LeadersReport r;
  r.partitions = {{"t", 0}, {"t", 1}};
  r.current = {{0, 1}, {0, 1}};
  r.bounds = {1, 1};
  r.plan.reordered = {{0, 1}, {1, 0}};
  r.plan.leader_changes = 1;
  r.before.brokers = {{0, "", 2, 2}, {1, "", 2, 0}};
  r.after.brokers = {{0, "", 2, 1}, {1, "", 2, 1}};
  r.before.worst_failure_max_leaders = 2;
  r.after.worst_failure_max_leaders = 2;
  r.plan_json =
      R"({"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]},{"topic":"t","partition":1,"replicas":[1,0]}]})";
  return r;
}

}  // namespace

TEST_CASE("leaders report: the bounds, the changes and the worst failure") {
  CHECK(analysis::leaders_to_text(one_change()) ==
        R"(preferred leaders per broker within 1..1: 1 of 2 partitions change leader (no data moves)

partition  before  after  leader
t-1        0,1     1,0    changed

broker  leaders before  leaders after
     0               2              1
     1               0              1

worst single broker failure: a broker then leads 2 partitions before, 2 after
)");
  auto r = one_change();
  r.failover = true;
  r.plan_out = "p.json";
  CHECK(analysis::leaders_to_text(r).find(
            "2 after (0 second replicas reordered)\nplan written to p.json (kafka-reassign-partitions --execute)\n") !=
        std::string::npos);
}

TEST_CASE("leaders report: JSON") {
  CHECK(
      analysis::leaders_to_json(one_change()).dump() ==
      R"({"bounds":{"lo":1,"hi":1},"leader_changes":1,"failover_changes":0,)"
      R"("changed":[{"topic":"t","partition":1,"before":[0,1],"after":[1,0],"leader_changed":true}],)"
      R"("brokers":[{"broker":0,"leaders_before":2,"leaders_after":1},{"broker":1,"leaders_before":0,"leaders_after":1}],)"
      R"("worst_single_failure_max_leaders":{"before":2,"after":2},)"
      R"("plan":{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[0,1]},{"topic":"t","partition":1,"replicas":[1,0]}]}})");
}

TEST_CASE("leaders report: a follower reordered for failover is listed without a leader change; no change says so") {
  auto r = one_change();
  r.failover = true;
  r.current = {{0, 1, 2}, {0, 1, 2}};
  r.plan.reordered = {{0, 2, 1}, {1, 0, 2}};
  r.plan.failover_changes = 1;
  CHECK(analysis::leaders_to_text(r).find(
            "partition  before  after  leader\nt-0        0,1,2   0,2,1\nt-1        0,1,2   1,0,2  changed\n\n") !=
        std::string::npos);
  r.plan.reordered = r.current;
  CHECK(analysis::leaders_to_text(r).find(
            "(no data moves)\n\nnothing to change: the current order already meets the bounds and spreads failover as "
            "evenly as the replicas allow\n\nbroker") != std::string::npos);
  CHECK(analysis::leaders_to_json(r)["changed"].empty());
  r.failover = false;
  CHECK(analysis::leaders_to_text(r).find("nothing to change: the current order already meets the bounds\n\n") !=
        std::string::npos);
}
