// The replication throttle's rate (model/cluster/replication_quota.hpp), against Kafka's
// SimpleRate over 11 samples of 1 s: a young window counts as one second, the rate is the
// samples' sum over the time since the oldest opened, and a sample 11 s old is gone.

#include <doctest/doctest.h>

#include "model/cluster/replication_quota.hpp"

using partsim::model::ReplicationQuota;
using partsim::sim::SimTime;

TEST_CASE("the throttle's rate: a young window counts as a second, old samples leave after 11 s") {
  ReplicationQuota q;
  q.set_bound(1e6);
  CHECK_FALSE(q.exceeded(SimTime::zero()));
  q.record(2'000'000, SimTime::zero());
  CHECK(q.rate(SimTime::ms(500)) == doctest::Approx(2e6));  // 2 MB over at least one second
  CHECK(q.exceeded(SimTime::ms(500)));
  CHECK(q.rate(SimTime::ms(4000)) == doctest::Approx(0.5e6));  // over the 4 s since it opened
  CHECK_FALSE(q.exceeded(SimTime::ms(4000)));
  // A record 1.5 s on opens a second sample; the first leaves at 11 s, the second at 12.5 s.
  q.record(1'000'000, SimTime::ms(1500));
  CHECK(q.rate(SimTime::ms(10'000)) == doctest::Approx(0.3e6));
  CHECK(q.rate(SimTime::ms(11'000)) == doctest::Approx(1e6 / 9.5));
  CHECK(q.rate(SimTime::ms(12'500)) == doctest::Approx(0.0));
  // No bound: never exceeded.
  q.set_bound(0);
  q.record(100'000'000, SimTime::ms(13'000));
  CHECK_FALSE(q.exceeded(SimTime::ms(13'000)));
}
