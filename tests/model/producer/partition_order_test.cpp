#include "model/producer/partition_order.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace partsim::model;

TEST_CASE("the client lists topic t6's six partitions as [3,2,1,0,5,4] (book T8)") {
  CHECK(java_hashmap_partition_order("t6", 6) == std::vector<std::int32_t>{3, 2, 1, 0, 5, 4});
}

TEST_CASE("the order is a permutation for any partition count") {
  for (std::int32_t n : {1, 2, 7, 12, 48, 100}) {
    auto order = java_hashmap_partition_order("events", n);
    std::sort(order.begin(), order.end());
    for (std::int32_t i = 0; i < n; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
  }
}
