#pragma once
// The rules between fields, run after a table has read its keys (the field table checks
// each key alone): "a rule needs exactly one of prefix, key, regex", delivery.timeout.ms
// >= linger.ms + request.timeout.ms, a producer's topic and partitions against the
// scenario's topics, the stop rule. Errors and warnings go through the MapReader, located.

#include <string>

#include "model/scenario.hpp"
#include "scenarios/loader/yaml_reader.hpp"

namespace partsim::scenarios {

/// The end of simulated time a scenario may name, ms (~31 years: far inside int64 ns).
inline constexpr double kMaxSimulatedMs = 1e12;
/// migration.bridge.rate's least positive value, records/s (0 = unlimited).
inline constexpr double kMinBridgeRate = 0.001;

/// The reader of item i of the list under `key`, to place an error found across sections.
MapReader list_item(MapReader& parent, const std::string& key, std::size_t i);
/// The settings only one cluster.replication mode models, set under the other
/// (replication_checks.cpp).
void check_replication_mode(MapReader& top, const model::Scenario& s);
void check_jitter(MapReader& m, model::Jitter& j);
void check_step(MapReader& m, model::BrokerChange& c);
/// A topic's schedule only increases its partition count (Kafka's CreatePartitions rules).
void check_topic(MapReader& m, model::TopicConfig& t);
void check_rule(MapReader& m, model::PartitionRule& r);
void check_config(MapReader& m, model::ProducerConfig& c);
/// check_config's rules that depend on the producer's client (client_checks.cpp): unknown
/// keys, client.rack, idempotence; may turn a default idempotence off.
void check_client_rules(MapReader& m, model::ProducerConfig& c);
void check_arrivals(MapReader& m, model::Arrivals& a);
void check_keys(MapReader& m, model::KeySpec& k);
void check_values(MapReader& m, model::ValueSpec& v);
/// The scenario's topic names, comma-separated, for an error that names the choices.
std::string topic_names(const model::Scenario& s);
/// Rules across sections: replication factors against brokers, each producer's topic
/// (defaulted to the only topic), partitions and rule ranges, the stop rule, run.check.
void check_scenario(MapReader& top, model::Scenario& s);
/// migration: from and to name two different topics of the scenario; a producer sends to
/// `from`, none to `to`; bridge.rate is 0 or at least kMinBridgeRate and paces the run's
/// records (when bounded) inside simulated time.
void check_migration(MapReader& top, model::Scenario& s);

}  // namespace partsim::scenarios
