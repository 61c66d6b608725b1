#include "analysis/consumers_report.hpp"

#include <doctest/doctest.h>

using namespace partsim::analysis;
namespace mc = partsim::model::consumer;

namespace {

ConsumersReport report() {
  ConsumersReport r;
  r.plan.assignor = mc::AssignorKind::kCooperativeSticky;
  r.plan.partitions = {{{"orders", 0}, {"orders", 1}, {"orders", 2}, {"payments", 0}}, {{"orders", 3}}, {}};
  r.plan.rebalances = 2;
  mc::WithheldPartition held;
  held.partition = {"orders", 3};
  held.owners = {"c0"};
  held.to = "c1";
  r.plan.withheld.push_back(held);
  mc::PartitionMove to_c1, to_nobody;
  to_c1.partition = {"orders", 3};
  to_c1.from = "c0";
  to_c1.to = "c1";
  to_nobody.partition = {"refunds", 0};
  to_nobody.from = "c2";
  r.plan.moved = {to_c1, to_nobody};
  r.plan.idle = {"c2"};
  r.plan.min_partitions = 0;
  r.plan.max_partitions = 4;
  r.plan.assigned = 5;
  r.members = {"c0", "c1", "c2"};
  r.racks = {"a", "", "b"};
  r.topics = 2;
  r.partitions = 5;
  r.previous_assignment = true;
  return r;
}

}  // namespace

TEST_CASE("a member's partitions print compactly, runs of three or more as ranges") {
  CHECK(compact_partitions({{"orders", 0}, {"orders", 1}, {"orders", 2}, {"orders", 7}, {"payments", 4}}) ==
        "orders[0-2,7] payments[4]");
  CHECK(compact_partitions({{"a", 1}, {"a", 2}, {"a", 4}, {"a", 5}, {"a", 6}}) == "a[1,2,4-6]");
  CHECK(compact_partitions({}).empty());
}

TEST_CASE("the consumers table: members, racks, spread, idle members, moves and what KIP-429 withholds") {
  CHECK(consumers_to_text(report()) == R"(cooperative-sticky: 5 partitions of 2 topics to 3 members, 2 rebalances

member  rack  partitions  assigned
c0      a              4  orders[0-2] payments[0]
c1      -              1  orders[3]
c2      b              0  -

spread: 0 to 4 partitions per member
idle: c2 (no partition for it)
moved: 2 partitions change owner

partition  from  to
orders-3   c0    c1
refunds-0  c2    -

withheld by the first rebalance until revoked (KIP-429): orders-3 (c0 -> c1)
)");
}

TEST_CASE("the consumers JSON carries the same under stable keys") {
  CHECK(
      consumers_to_json(report()).dump() ==
      R"({"assignor":"cooperative-sticky","members":[{"member":"c0","partitions":["orders-0","orders-1","orders-2","payments-0"]},)"
      R"({"member":"c1","partitions":["orders-3"]},{"member":"c2","partitions":[]}],"idle":["c2"],"left":[],)"
      R"("moved":[{"partition":"orders-3","from":"c0","to":"c1"},{"partition":"refunds-0","from":"c2","to":null}],)"
      R"("spread":{"min":0,"max":4},"rebalances":2,"withheld":[{"partition":"orders-3","from":["c0"],"to":"c1"}],"warnings":[]})");
}

TEST_CASE("without a previous assignment nothing is compared; a settled even group says so; warnings come first") {
  auto r = report();
  r.previous_assignment = false;
  r.plan.moved.clear();
  r.plan.withheld.clear();
  r.plan.idle.clear();
  r.plan.rebalances = 1;
  r.plan.partitions = {{{"orders", 0}}, {{"orders", 1}}, {{"orders", 2}}};
  r.plan.min_partitions = r.plan.max_partitions = 1;
  r.racks = {"", "", ""};
  r.plan.kafka_failure = "Kafka fails here";
  r.plan.settled = false;
  CHECK(consumers_to_text(r) == R"(cooperative-sticky: 5 partitions of 2 topics to 3 members
warning: Kafka fails here
warning: members still revoke partitions after 1 rebalance: the group has not settled

member  partitions  assigned
c0               1  orders[0]
c1               1  orders[1]
c2               1  orders[2]

spread: every member has 1 partition
idle: none
moved: nothing to compare (no member owned partitions before)
)");
  r.previous_assignment = true;
  CHECK(consumers_to_text(r).find("moved: nothing (every owned partition stays with its owner)\n") !=
        std::string::npos);
  CHECK(consumers_to_json(r)["warnings"].size() == 2);
}
