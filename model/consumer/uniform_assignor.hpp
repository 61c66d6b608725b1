#pragma once
// KIP-848's server-side UniformAssignor (group.remote.assignor "uniform", the broker's
// default; spec §3.4), which the coordinator runs on every change of the group to compute the
// target assignment from the previous target assignment (GroupMember::owned).
// Homogeneous (every member subscribes the same topics, UHom:110-254): with T partitions and
// M members, the first T % M members in memberIds() order may hold T / M + 1, the others
// T / M; each keeps what it held up to its quota, and the never-assigned partitions, then the
// released ones, fill the members with room, in the same order. Worked example
// (OptimizedUniformAssignmentBuilderTest): topic1 (3 partitions) and topic3 (2), members A
// and B, nothing owned; the HashSet of the two topic ids walks topic3 first, so A (quota 3)
// gets topic3-0, topic3-1, topic1-0 and B gets topic1-1, topic1-2.
// Heterogeneous (UHet:151-926): members keep what they still subscribe to; the rest goes topic
// by topic (most partitions per subscriber first, then fewest subscribers, then topic id) to
// the least-loaded subscriber; then up to 16 passes move partitions from the most- to the
// least-loaded subscribers of each topic until no topic can be balanced further.
// Without topic ids partsim orders topics by name where Kafka orders them by id.

#include "model/consumer/assignor.hpp"

namespace partsim::model::consumer {

AssignmentResult uniform_assign(const GroupSpec& spec);

}  // namespace partsim::model::consumer
