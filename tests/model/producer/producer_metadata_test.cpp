// ProducerMetadata (spec §2.2): the producer's leaders, the available partitions in the
// client's list order (Cluster.availablePartitionsForTopic, which the built-in partitioner
// indexes) and the partitions each node leads (Cluster.partitionsForNode, which drain()
// walks). The client order here is deliberately not sorted, so a test that passes by
// listing partitions by id would fail.

#include "model/producer/producer_metadata.hpp"

#include <doctest/doctest.h>

#include <vector>

using partsim::model::ProducerMetadata;

namespace {

std::vector<std::int32_t> list(std::span<const std::int32_t> s) { return {s.begin(), s.end()}; }

}  // namespace

TEST_CASE("before the first update no partition has a leader") {
  ProducerMetadata m({2, 0, 1}, 2);
  CHECK(m.num_partitions() == 3);
  CHECK(m.num_nodes() == 2);
  CHECK(m.version() == 0);
  for (std::int32_t p = 0; p < 3; ++p) {
    CHECK(m.leader(p) == -1);
    CHECK(m.position_on_node(p) == -1);
  }
  CHECK(m.available().empty());
  CHECK(m.partitions_for_node(0).empty());
  CHECK(m.partitions_for_node(1).empty());
}

TEST_CASE("available() lists the partitions with a leader in the client's order, skipping leaderless ones") {
  ProducerMetadata m({3, 0, 2, 1}, 2);
  const std::vector<std::int32_t> leaders = {0, -1, 1, 0};  // by partition id
  m.update(leaders);
  CHECK(list(m.available()) == std::vector<std::int32_t>{3, 0, 2});
  CHECK(list(m.leaders()) == leaders);
  CHECK(m.leader(0) == 0);
  CHECK(m.leader(1) == -1);
  CHECK(m.leader(2) == 1);
  CHECK(m.leader(3) == 0);
  CHECK(m.version() == 1);
}

TEST_CASE("partitions_for_node lists a node's partitions in the client's order and position_on_node indexes them") {
  ProducerMetadata m({3, 0, 2, 1}, 2);
  m.update(std::vector<std::int32_t>{0, -1, 1, 0});
  CHECK(list(m.partitions_for_node(0)) == std::vector<std::int32_t>{3, 0});
  CHECK(list(m.partitions_for_node(1)) == std::vector<std::int32_t>{2});
  CHECK(m.position_on_node(3) == 0);
  CHECK(m.position_on_node(0) == 1);
  CHECK(m.position_on_node(2) == 0);
  CHECK(m.position_on_node(1) == -1);  // no leader
}

TEST_CASE("update() replaces the leaders, the available list, every node's list and the positions") {
  ProducerMetadata m({3, 0, 2, 1}, 3);
  m.update(std::vector<std::int32_t>{0, -1, 1, 0});
  m.update(std::vector<std::int32_t>{2, 2, -1, 2});  // node 0 and 1 lose everything, 2 gets 3 partitions
  CHECK(m.version() == 2);
  CHECK(list(m.available()) == std::vector<std::int32_t>{3, 0, 1});
  CHECK(m.partitions_for_node(0).empty());
  CHECK(m.partitions_for_node(1).empty());
  CHECK(list(m.partitions_for_node(2)) == std::vector<std::int32_t>{3, 0, 1});
  CHECK(m.position_on_node(3) == 0);
  CHECK(m.position_on_node(0) == 1);
  CHECK(m.position_on_node(1) == 2);
  CHECK(m.position_on_node(2) == -1);  // lost its leader: no stale position
  CHECK(m.leader(2) == -1);
}

TEST_CASE("leader() of a partition the topic does not have is -1") {
  ProducerMetadata m({0, 1}, 1);
  m.update(std::vector<std::int32_t>{0, 0});
  CHECK(m.leader(-1) == -1);
  CHECK(m.leader(2) == -1);
  CHECK(m.leader(1000) == -1);
  CHECK(m.leader(1) == 0);
}

TEST_CASE(
    "the next useful metadata refresh: at once a max age after the last when behind, else the first at or after the next step") {
  using partsim::model::next_useful_refresh;
  using partsim::sim::SimTime;
  const SimTime age = SimTime::ms(300);
  // The topic grew since the producer looked: its next periodic refresh shows it.
  CHECK(next_useful_refresh(SimTime::ms(100), age, true, std::nullopt) == SimTime::ms(400));
  // A step at 1,000 ms: refreshes at 100 + k * 300; the first at or after it is 1,000.
  CHECK(next_useful_refresh(SimTime::ms(100), age, false, SimTime::ms(1000)) == SimTime::ms(1000));
  CHECK(next_useful_refresh(SimTime::ms(100), age, false, SimTime::ms(1001)) == SimTime::ms(1300));
  // A step already made before the last refresh: the next one (k >= 1).
  CHECK(next_useful_refresh(SimTime::ms(100), age, false, SimTime::ms(50)) == SimTime::ms(400));
  // No step to come and nothing new: none.
  CHECK_FALSE(next_useful_refresh(SimTime::ms(100), age, false, std::nullopt).has_value());
  // A max age of 0: at the step itself.
  CHECK(next_useful_refresh(SimTime::ms(100), SimTime::zero(), false, SimTime::ms(700)) == SimTime::ms(700));
}
