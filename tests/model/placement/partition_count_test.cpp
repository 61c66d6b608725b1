// The partition-count planner: the ops guidance's rule (peak / per-partition throughput x
// 1.5..2, ~2,000 replicas per broker) with the counts that spread evenly over brokers and
// members, and what later increases keep of keyed records (book T5's predicted column).

#include "model/placement/partition_count.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace partsim::model;

namespace {
// The placement article's 10 MB/s per partition: 200 MB/s at peak, 12 members, 6 brokers, RF 3.
PartitionCountInputs worked_example() {
  PartitionCountInputs in;
  in.peak_produce = 200e6;
  in.per_partition_produce = 10e6;
  in.consumers = 12;
  in.brokers = 6;
  in.replication_factor = 3;
  return in;
}
}  // namespace

TEST_CASE("keys kept by a partition count change: book T5's gcd / max") {
  CHECK(keys_kept(4, 8) == doctest::Approx(0.5));
  CHECK(keys_kept(4, 5) == doctest::Approx(0.2));
  CHECK(keys_kept(8, 16) == doctest::Approx(0.5));
  CHECK(keys_kept(8, 12) == doctest::Approx(1.0 / 3));
  CHECK(keys_kept(12, 6) == doctest::Approx(0.5));
}

TEST_CASE("10 MB/s per partition: 200 MB/s at peak, 12 members, 6 brokers, RF 3 -> 36") {
  PartitionCountInputs in = worked_example();
  const auto plan = plan_partition_count(in);
  CHECK(plan.for_produce == 20);
  CHECK(plan.for_consumers == 12);
  CHECK(plan.needed == 20);
  CHECK(plan.low == 30);
  CHECK(plan.high == 40);
  REQUIRE(plan.candidates.size() == 11);
  CHECK(plan.recommended == 36);  // the only count in 30..40 both 6 and 12 divide
  const auto& c36 = plan.candidates[6];
  CHECK(c36.partitions == 36);
  CHECK(c36.divisors == 9);
  CHECK(c36.replicas_per_broker == 18);
  CHECK(plan.candidates[1].prime);                 // 31
  CHECK_FALSE(plan.candidates[0].even_consumers);  // 30 over 12 members
  CHECK(plan.brokers_needed == 6);
  REQUIRE(plan.growth.size() == 4);  // 37, 48, 54, 72
  CHECK(plan.growth[0].to == 37);
  CHECK(plan.growth[0].keys_kept == doctest::Approx(1.0 / 37));
  CHECK(plan.growth[1].to == 48);
  CHECK(plan.growth[1].keys_kept == doctest::Approx(0.25));
  CHECK(plan.growth[3].to == 72);
  CHECK(plan.growth[3].keys_kept == doctest::Approx(0.5));
}

TEST_CASE("the consume side and the members can set the count; the per-broker limit asks for brokers") {
  PartitionCountInputs in;
  in.peak_produce = 50e6;
  in.per_partition_produce = 10e6;  // 5 for the producers
  in.peak_consume = 300e6;          // the busiest group reads slower per partition
  in.per_partition_consume = 20e6;  // 15 for the consumers
  in.brokers = 3;
  in.replication_factor = 3;
  auto plan = plan_partition_count(in);
  CHECK(plan.needed == 15);
  CHECK(plan.low == 23);
  CHECK(plan.high == 30);
  CHECK(plan.recommended == 24);  // even over 3 brokers (no members), 8 divisors; 30 has 8 too but is larger
  in.consumers = 40;              // more members than any rate needs
  plan = plan_partition_count(in);
  CHECK(plan.needed == 40);
  CHECK(plan.recommended % 120 == 0);  // none of 60..80 is a multiple of 3 and 40: the next one, 120
  // A broker already holding 1,990 replicas has room for 10: 24 x 3 = 72 replicas need 8 brokers.
  in.consumers = 0;
  in.existing_per_broker = 1990;
  plan = plan_partition_count(in);
  CHECK(plan.recommended == 24);
  CHECK(plan.brokers_needed == 8);
  in.per_partition_consume = 0;
  CHECK_THROWS_AS(plan_partition_count(in), std::invalid_argument);
}

TEST_CASE("over the per-broker limit the fewest replicas win, and the brokers that would hold them are counted") {
  PartitionCountInputs in;
  in.peak_produce = 4e9;  // 400 partitions at 10 MB/s: 600..800 with headroom
  in.per_partition_produce = 10e6;
  in.brokers = 12;
  in.replication_factor = 3;
  in.existing_per_broker = 1900;  // room for 100 more each
  const auto plan = plan_partition_count(in);
  CHECK(plan.low == 600);
  CHECK(plan.recommended == 600);    // within the limit 720 (30 divisors) would win
  CHECK(plan.brokers_needed == 18);  // 1,800 replicas, 100 per broker
  in.existing_per_broker = 0;
  CHECK(plan_partition_count(in).recommended == 720);
}

TEST_CASE(
    "a count within the per-broker limit beats an even one over it; later counts must be increases; no overflow") {
  PartitionCountInputs in = worked_example();
  in.existing_per_broker = 1984;  // 36 would make 2,002: 30 (even over the brokers, 1,999) is within
  auto plan = plan_partition_count(in);
  CHECK(plan.recommended == 30);
  in.existing_per_broker = 2000;  // already at the limit: no broker count helps
  plan = plan_partition_count(in);
  CHECK(plan.brokers_needed == -1);
  in.existing_per_broker = 0;
  in.growth = {36};
  CHECK_THROWS_AS(plan_partition_count(in), std::invalid_argument);
  in.growth = {};
  in.headroom_low = in.headroom_high = 1;
  in.peak_produce = 1;  // one partition: its defaults are increases only
  in.consumers = 0;
  plan = plan_partition_count(in);
  CHECK(plan.recommended == 1);  // no even count within twice the range: the range's own
  for (const auto& g : plan.growth) CHECK(g.to > plan.recommended);
  in.peak_produce = 5e18;
  in.per_partition_produce = 1;
  CHECK_THROWS_AS(plan_partition_count(in), std::invalid_argument);
}
