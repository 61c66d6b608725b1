#pragma once
// The classic protocol's RangeAssignor (spec §2.2, RGA:122-296). Per topic, its subscribers
// in MemberInfo order (static members by instance id first, then member id) take contiguous
// runs: with n partitions and c subscribers, subscriber i takes
// [i*(n/c) + min(i, n%c), (i+1)*(n/c) + min(i+1, n%c)). Worked example: 7 partitions, 3
// subscribers -> 0-2, 3-4, 5-6.
// KIP-881 rack awareness, when some topic needs it (use_rack_aware_assignment): topics with
// the same subscribers and the same partition count are first assigned co-partitioned, each
// partition number to the first subscriber whose rack holds a replica of it in every such
// topic; a topic on its own first gets a range pass over rack-matching partitions only; a
// plain range pass within the same quotas assigns the rest, and each member's list is sorted.

#include "model/consumer/assignor.hpp"

namespace partsim::model::consumer {

/// RangeAssignor.assignPartitions. Without rack awareness a member's list follows the
/// iteration order of Kafka's HashMap of topic names, each topic's run ascending.
AssignmentResult range_assign(const GroupSpec& spec);

}  // namespace partsim::model::consumer
