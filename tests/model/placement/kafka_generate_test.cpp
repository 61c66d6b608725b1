// kafka-reassign-partitions --generate as partsim models it: AdminUtils per topic with the
// start index and replica shift drawn from java.util.Random (values checked against Java's
// own: new Random(0).nextInt(3) gives 0, then 1, 1, 2; nextInt(4) gives 2, then 3), and its
// moves over every draw, counted here by hand.

#include "model/placement/kafka_generate.hpp"

#include <doctest/doctest.h>

using namespace partsim::model;

namespace {

// t-0 [0,1], t-1 [1,2], t-2 [2,0] on brokers 0..2, rf 2: AdminUtils with start s and shift h
// puts p on (p+s)%3 and its follower one further for even h, two further for odd h (no
// shift grows within the first round). So (s,h) = (0,0),(0,2) keep everything, (1,1) only
// swaps leaders, and each other draw adds one new replica per partition:
//   moves  h=0 h=1 h=2
//   s=0     0   3   0
//   s=1     3   0   3
//   s=2     3   3   3     min 0, max 3, mean 18/9 = 2.0
GenerateRequest three_brokers() {
  GenerateRequest r;
  r.partitions = {{"t", 0}, {"t", 1}, {"t", 2}};
  r.current = {{0, 1}, {1, 2}, {2, 0}};
  r.rf = {2, 2, 2};
  r.targets = {{2, ""}, {0, ""}, {1, ""}};  // any order: AdminUtils gets them sorted by id
  return r;
}

}  // namespace

TEST_CASE("--generate's seeded draw: start 0, shift 1 from java.util.Random(0) moves every follower") {
  const auto g = kafka_generate(three_brokers());
  CHECK_FALSE(g.rack_aware);
  CHECK(g.seeded == Assignment{{0, 2}, {1, 0}, {2, 1}});
  CHECK(g.moves == 3);
  CHECK(g.leader_changes == 0);
}

TEST_CASE("--generate's moves over all its draws, enumerated while cheap") {
  const auto g = kafka_generate(three_brokers());
  CHECK_FALSE(g.sampled);
  CHECK(g.draws == 9);
  CHECK(g.possible == 9);
  CHECK(g.min_moves == 0);
  CHECK(g.max_moves == 3);
  CHECK(g.mean_moves == doctest::Approx(2.0));
  auto r = three_brokers();
  r.max_work = 27;  // 9 draws x 3 partitions: still every draw
  CHECK_FALSE(kafka_generate(r).sampled);
}

TEST_CASE("--generate's moves over a sample of draws when enumerating costs more than max_work") {
  auto r = three_brokers();
  r.max_work = 26;
  const auto g = kafka_generate(r);
  CHECK(g.sampled);
  CHECK(g.draws == 100);  // at least 100 pairs, from java.util.Random(seed + 1)
  CHECK(g.possible == 9);
  CHECK(g.min_moves == 0);
  CHECK(g.max_moves == 3);
  // Java: new Random(1), 100 pairs (nextInt(3), nextInt(3)) looked up in the table above sum to 210.
  CHECK(g.mean_moves == doctest::Approx(2.1));
  CHECK(g.seeded == kafka_generate(three_brokers()).seeded);  // sampling leaves the seeded draw alone
}

TEST_CASE("--generate is rack-aware when every target has a rack: leaders follow the rack-alternated list") {
  // Racks a: 0, 3; b: 1, 2 -> alternated 0, 1, 3, 2. Random(0).nextInt(4): start 2 (then
  // shift 3), so with rf 1 partition p goes to list[(p + 2) % 4]: 3, 2, 0, 1.
  GenerateRequest r;
  r.partitions = {{"t", 0}, {"t", 1}, {"t", 2}, {"t", 3}};
  r.current = {{0}, {1}, {2}, {3}};
  r.rf = {1, 1, 1, 1};
  r.targets = {{3, "a"}, {1, "b"}, {0, "a"}, {2, "b"}};
  const auto g = kafka_generate(r);
  CHECK(g.rack_aware);
  CHECK(g.seeded == Assignment{{3}, {2}, {0}, {1}});
  CHECK(g.moves == 4);
  CHECK(g.leader_changes == 4);
  r.targets[0].rack = "";  // one broker without a rack: rack-unaware, as with --disable-rack-aware
  CHECK_FALSE(kafka_generate(r).rack_aware);
}

TEST_CASE("--generate draws per topic in topic name order from one java.util.Random") {
  // Random(0).nextInt(3): 0, 1 for topic a; 1, 2 for topic b, although b comes first here.
  GenerateRequest r;
  r.partitions = {{"b", 0}, {"a", 0}};
  r.current = {{0}, {0}};
  r.rf = {1, 1};
  r.targets = {{0, ""}, {1, ""}, {2, ""}};
  const auto g = kafka_generate(r);
  CHECK(g.seeded == Assignment{{1}, {0}});
  CHECK(g.moves == 1);
  CHECK(g.draws == 9);
  CHECK(g.min_moves == 0);  // each topic can keep its one replica...
  CHECK(g.max_moves == 2);  // ...or move it
}

TEST_CASE(
    "--generate places a topic's partition count (highest number + 1) with its first partition's replication factor") {
  // t-2 listed without t-1: AdminUtils still places 3 partitions, t-2 gets the third;
  // t-2's rf 1 is ignored, the topic's first row says 2.
  GenerateRequest r;
  r.partitions = {{"t", 0}, {"t", 2}};
  r.current = {{0, 1}, {2}};
  r.rf = {2, 1};
  r.targets = {{0, ""}, {1, ""}, {2, ""}};
  const auto g = kafka_generate(r);
  CHECK(g.seeded == Assignment{{0, 2}, {2, 1}});  // start 0, shift 1 as above: p0 [0,2], p1 [1,0], p2 [2,1]
}
