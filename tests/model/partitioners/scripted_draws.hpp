#pragma once
// The partitioners' tests' random draws, scripted: the values given, in order (like Kafka's
// test helpers), then a failed REQUIRE when a partitioner draws once more than scripted.

#include <doctest/doctest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "model/partitioners/builtin_partitioner.hpp"

namespace partsim::model::test {

inline PartitionDraw scripted(std::vector<std::int32_t> values) {
  auto q = std::make_shared<std::deque<std::int32_t>>(values.begin(), values.end());
  return [q] {
    REQUIRE_FALSE(q->empty());
    const auto v = q->front();
    q->pop_front();
    return v;
  };
}

}  // namespace partsim::model::test
