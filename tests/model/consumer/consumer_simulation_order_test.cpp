// A group over hand-made logs, for what the run reports of order, duplicates and lag:
// order per key and producer, a record the log holds twice counted once as a duplicate
// (records_consumed = distinct records + duplicates), and the lag of a known backlog.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "group_logs.hpp"
#include "model/consumer/consumer_simulation.hpp"

using namespace partsim::model;
using namespace partsim::model::consumer;
using namespace partsim::model::consumer::testing;

TEST_CASE("one member reading one key from two producers sees no violation when each producer's records are in order") {
  GroupLogs f(1);
  // Producers a (0) and b (1) both send key k, 1 ms apart, b's sends landing first in the
  // log: Kafka orders nothing across producers, and each producer's own order holds.
  for (int i = 0; i < 20; ++i) {
    f.add(0, "k", 1, i, 2.0 * i + 1, 2.0 * i + 1.5);
    f.add(0, "k", 0, i, 2.0 * i, 2.0 * i + 1.6);
  }
  const auto run = simulate_group(group(1, 100), {}, f.in);
  CHECK(run.result.records_consumed == 40);
  CHECK(run.result.order_violations == 0);
  CHECK(run.result.keys_out_of_order == 0);
  CHECK(run.result.duplicates == 0);
}

TEST_CASE("a record a producer's retry wrote twice is processed twice: one duplicate, no violation") {
  GroupLogs f(1);
  // Sends 0..9 of key k; the batch holding send 3 was appended, timed out and was retried
  // after sends 4 and 5 had landed: offsets 0..5 = sends 0..5, offset 6 = send 3 again.
  for (int i = 0; i < 6; ++i) f.add(0, "k", 0, i, i, i + 1);
  f.add(0, "k", 0, 3, 3, 7);
  for (int i = 6; i < 10; ++i) f.add(0, "k", 0, i, i, i + 2);
  const auto run = simulate_group(group(1, 100), {}, f.in);
  CHECK(run.result.records_consumed == 11);
  CHECK(run.result.duplicates == 1);
  CHECK(run.result.order_violations == 0);
  CHECK(run.result.keys_out_of_order == 0);
  // records_consumed = distinct records (10 sends) + duplicates; latency counts first processings.
  CHECK(run.result.records_consumed - run.result.duplicates == 10);
  CHECK(run.result.e2e_latency.count() == 10);
  CHECK(run.result.records_unconsumed == 0);
}

TEST_CASE("lag on a known backlog: 100 readable, 40 returned by poll(), lag 60") {
  GroupLogs f(1);
  for (int i = 0; i < 100; ++i) f.add(0, "", 0, i, 0, 0);
  auto g = group(1, 10'000);  // 10 ms per record
  g.config.max_poll_records = 40;
  f.in.sample_interval = SimTime::ms(100);
  const auto run = simulate_group(g, {}, f.in);
  // One fetch (1 ms) brings all 100; the first poll returns 40 (processed until 401 ms), the
  // next one at 401 ms 40 more, the last 20 at 801 ms.
  REQUIRE(run.result.lag.size() >= 6);
  CHECK(run.result.lag_time_ms[0] == doctest::Approx(0));
  CHECK(run.result.lag[0] == std::vector<std::int64_t>{100});
  CHECK(run.result.lag_time_ms[1] == doctest::Approx(100));
  CHECK(run.result.lag[1] == std::vector<std::int64_t>{60});
  CHECK(run.result.lag[4] == std::vector<std::int64_t>{60});
  CHECK(run.result.lag[5] == std::vector<std::int64_t>{20});
  CHECK(run.result.lag_max == 100);
}
