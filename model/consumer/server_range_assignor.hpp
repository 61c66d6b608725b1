#pragma once
// KIP-848's server-side RangeAssignor (group.remote.assignor "range"; spec §3.4, SRA:147-293).
// Members sorted as the classic range assignor sorts them (static members by instance id
// first, then member id); per topic, each subscriber in that order takes the next contiguous
// run of n / c partitions, one more while the n % c extra ones last. With identical
// subscriptions and partition counts that is co-partitioned: member i gets the same partition
// numbers of every topic. It ignores the previous assignment.

#include "model/consumer/assignor.hpp"

namespace partsim::model::consumer {

AssignmentResult server_range_assign(const GroupSpec& spec);

}  // namespace partsim::model::consumer
