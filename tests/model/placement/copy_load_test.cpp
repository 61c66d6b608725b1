// Bytes a reassignment copies per broker, and the least time under a replication throttle.

#include "model/placement/copy_load.hpp"

#include <doctest/doctest.h>

using namespace partsim::model;

TEST_CASE("a new replica is copied in full from the leader: 20 GB at 50 MB/s take at least 400 s") {
  const auto load = copy_load({{8, 19}}, {{8, 1}}, {20'000'000'000}, {1, 8, 19});
  CHECK(load.total_bytes == 20'000'000'000);
  CHECK(load.in_bytes == std::map<std::int32_t, std::int64_t>{{1, 20'000'000'000}});
  CHECK(load.out_bytes == std::map<std::int32_t, std::int64_t>{{8, 20'000'000'000}});
  CHECK(load.busiest_bytes() == 20'000'000'000);
  CHECK(copy_seconds(load, 50'000'000) == doctest::Approx(400.0));
}

TEST_CASE("kept replicas and a new order copy nothing") {
  const auto load = copy_load({{0, 1, 2}}, {{2, 0, 1}}, {1000}, {0, 1, 2});
  CHECK(load.total_bytes == 0);
  CHECK(load.in_bytes.empty());
  CHECK(load.out_bytes.empty());
  CHECK(load.busiest_bytes() == 0);
}

TEST_CASE("a dead leader's copies come from the first live replica; with none alive nobody sends") {
  auto load = copy_load({{5, 2, 3}}, {{4, 2, 3}}, {7}, {2, 3, 4});
  CHECK(load.out_bytes == std::map<std::int32_t, std::int64_t>{{2, 7}});
  load = copy_load({{5}}, {{3}}, {7}, {0, 1, 2, 3});
  CHECK(load.total_bytes == 7);
  CHECK(load.in_bytes == std::map<std::int32_t, std::int64_t>{{3, 7}});
  CHECK(load.out_bytes.empty());
}

TEST_CASE("the busiest broker, sending or receiving, sets the copy time") {
  // Broker 0 leads both partitions and sends 10 + 20 bytes; 3 and 4 receive 10 and 20.
  const auto load = copy_load({{0, 1}, {0, 2}}, {{0, 3}, {0, 4}}, {10, 20}, {0, 1, 2, 3, 4});
  CHECK(load.total_bytes == 30);
  CHECK(load.out_bytes.at(0) == 30);
  CHECK(load.busiest_bytes() == 30);
  CHECK(copy_seconds(load, 10) == doctest::Approx(3.0));
  // Copies between disjoint pairs run side by side: 30 bytes in all, 20 on the busiest broker.
  const auto apart = copy_load({{0}, {1}}, {{0, 2}, {1, 3}}, {10, 20}, {0, 1, 2, 3});
  CHECK(apart.total_bytes == 30);
  CHECK(apart.busiest_bytes() == 20);
  CHECK(copy_seconds(apart, 10) == doctest::Approx(2.0));
  // Two replicas of one partition to two new brokers: the leader sends the partition twice.
  const auto twice = copy_load({{0}}, {{0, 1, 2}}, {5}, {0, 1, 2});
  CHECK(twice.total_bytes == 10);
  CHECK(twice.out_bytes.at(0) == 10);
}
