#pragma once
// The classic protocol's RoundRobinAssignor (spec §2.3, RRA:104-138): every partition of
// every subscribed topic, topics by name and partitions ascending, goes to the next member
// subscribed to its topic on a circle of the members in MemberInfo order (static members by
// instance id first, then member id). Worked example (RoundRobinAssignorTest): topic1 with 3
// partitions, topic2 with 2; consumer1 and consumer3 subscribe topic1, consumer2 both ->
// consumer1 [topic1-0], consumer2 [topic1-1, topic2-0, topic2-1], consumer3 [topic1-2].

#include "model/consumer/assignor.hpp"

namespace partsim::model::consumer {

AssignmentResult round_robin_assign(const GroupSpec& spec);

}  // namespace partsim::model::consumer
