// partsim assign's reporter on a hand-made result: each placer's method line, the CSV.

#include "analysis/assign_report.hpp"

#include <doctest/doctest.h>

using namespace partsim;

namespace {

// Two partitions on brokers 0 (rack a) and 1 (rack b), rf 2.
analysis::AssignReport two_partitions(model::Placer placer) {
  analysis::AssignReport r;
  r.placer = placer;
  r.seed = 42;
  r.placement = {{{0, 1}, {1, 0}}, true, 1, 0};
  r.score.brokers = {{0, "a", 2, 1}, {1, "b", 2, 1}};
  r.score.replica_min = r.score.replica_max = 2;
  r.score.leader_min = r.score.leader_max = 1;
  r.score.partitions_rack_ok = r.score.partitions = 2;
  r.score.failures = {{0, 2, 2, 0}, {1, 2, 2, 0}};
  r.score.worst_failure_max_leaders = 2;
  r.cost = model::partition_cost(2, 2);
  return r;
}

}  // namespace

TEST_CASE("assign report: the table, from the method line to the cost on disk") {
  CHECK(analysis::assign_to_text(two_partitions(model::Placer::kAdmin)) ==
        R"(Kafka's AdminUtils, rack-aware, start index 1, replica shift 0

partition  replicas (leader first)
        0  0,1
        1  1,0

broker  rack  replicas  preferred leaders
     0  a            2                  1
     1  b            2                  1

score: replicas per broker 2..2, preferred leaders 1..1, rack spread 2/2 partitions, worst single failure leaves a broker with 2 leaders

leaders after one broker fails (first live replica leads):
failed broker  max leaders  min leaders  offline partitions
            0            2            2                   0
            1            2            2                   0

cost on disk: 4 partition directories, 20 files when new, 4 logs, at least 12 segment files
)");
}

TEST_CASE("assign report: each placer names itself and its draws") {
  CHECK(analysis::assign_to_text(two_partitions(model::Placer::kStriped))
            .rfind("the KRaft controller's StripedReplicaPlacer, java.util.Random seed 42\n", 0) == 0);
  CHECK(analysis::assign_to_text(two_partitions(model::Placer::kSimple))
            .rfind("plain round-robin over the brokers as listed (the book's T6)\n", 0) == 0);
  auto unaware = two_partitions(model::Placer::kAdmin);
  unaware.placement.rack_aware = false;
  CHECK(analysis::assign_to_json(unaware)["method"] ==
        "Kafka's AdminUtils, rack-unaware, start index 1, replica shift 0");
  CHECK(analysis::assign_to_json(two_partitions(model::Placer::kSimple))["placer"] == "simple");
}

TEST_CASE("assign report: the CSV is the assignment alone, replica lists quoted") {
  CHECK(analysis::assign_to_csv(two_partitions(model::Placer::kAdmin)) ==
        "partition,replicas (leader first)\n0,\"0,1\"\n1,\"1,0\"\n");
}
