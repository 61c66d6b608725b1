#pragma once
// The field tables of the `consumers:` section (consumer groups, their schedule and the
// consumer config under Kafka's names) and of the KIP-848 coordinator keys under `cluster:`,
// with the rules between them: classic-only settings refused with group.protocol consumer as
// Kafka refuses them (kafka-consumer-spec.md §3.1), topics and member ids checked against the
// scenario.

#include "model/scenario.hpp"
#include "scenarios/loader/field_table.hpp"

namespace partsim::scenarios {

const Table<model::ConsumerGroupSpec>& consumer_group_table();
/// The rows of `cluster:` for the group coordinator (group.consumer.*).
std::vector<Field<model::Scenario>> coordinator_fields();
/// Rules across sections: each group's topics exist, leave/crash name a member of the group.
/// (The coordinator's heartbeat stays below its session timeout by their ranges, §3.2.)
void check_consumers(MapReader& top, model::Scenario& s);

}  // namespace partsim::scenarios
