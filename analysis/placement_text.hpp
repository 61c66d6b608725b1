#pragma once
// Small text pieces the placement reports share (assign, leaders, reassign).

#include <cstdint>
#include <string>
#include <vector>

namespace partsim::analysis {

/// Broker ids as Kafka's tools print a replica list: "3,0,1".
std::string replica_list(const std::vector<std::int32_t>& replicas);

}  // namespace partsim::analysis
