#pragma once
// The inputs `leaders` and `reassign` share: the current assignment (Kafka's reassignment
// JSON or kafka-topics --describe text), the brokers (a JSON file or ID[:RACK],...), and
// per-broker bounds from --balance or an explicit LO:HI.

#include <cstdint>
#include <string>
#include <vector>

#include "model/placement/leader_balance.hpp"
#include "scenarios/loader/assignment_reader.hpp"

namespace partsim::cli {

/// Exactly one of the two files must be given, with at least one partition (UsageError otherwise).
std::vector<scenarios::PartitionReplicas> load_current_assignment(const std::string& current_file,
                                                                  const std::string& describe_file);

/// `text` names an existing file (brokers JSON) or is a list ID[:RACK],... (all alive).
std::vector<scenarios::BrokerEntry> load_brokers(const std::string& text);

/// The brokers that are alive, with their racks, in the order given.
std::vector<model::RackedBroker> live_brokers(const std::vector<scenarios::BrokerEntry>& brokers);

/// The partitions (rows of `current`) with no replica on a broker in `live`: none can lead
/// them, and a reassignment has nothing to copy them from.
std::vector<std::size_t> without_live_replica(const std::vector<scenarios::PartitionReplicas>& current,
                                              const std::vector<model::RackedBroker>& live);

/// Bounds for `total` items on `brokers` brokers: `explicit_text` "LO:HI" when given (named
/// `option` in errors), else `balance`: "exact" (floor/ceil of the average) or "band:T".
model::LeaderBounds per_broker_bounds(const std::string& explicit_text, const std::string& option,
                                      const std::string& balance, std::int64_t total, std::int32_t brokers);

}  // namespace partsim::cli
