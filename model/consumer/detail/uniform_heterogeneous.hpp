#pragma once
// UniformHeterogeneousAssignmentBuilder (spec §3.4, UHet:151-926): the uniform assignor when
// members subscribe different topics. See uniform_assignor.hpp.

#include <vector>

#include "model/consumer/detail/server_support.hpp"

namespace partsim::model::consumer::detail {

/// Per member of g.spec.members, its target partitions.
std::vector<std::vector<TopicPartition>> uniform_heterogeneous(const ServerGroup& g);

}  // namespace partsim::model::consumer::detail
