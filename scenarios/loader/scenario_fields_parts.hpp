#pragma once
// Internal to the field tables (scenario_fields*.cpp): the limits and helpers they share and
// the section tables scenario_table() composes. scenario_fields.cpp holds the top level,
// run: and migration:; scenario_fields_cluster.cpp cluster: and topics:;
// scenario_fields_producer.cpp producers:; consumer_fields.cpp consumers: (and the
// coordinator rows of cluster:). Include scenario_fields.hpp, not this, elsewhere.

#include <cstdint>
#include <limits>

#include "model/scenario.hpp"
#include "scenarios/loader/field_table.hpp"
#include "scenarios/loader/scenario_checks.hpp"

namespace partsim::scenarios {

inline constexpr double kMaxMs = kMaxSimulatedMs;
inline constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
inline constexpr std::int64_t kMaxRecords = std::int64_t{1} << 50;
inline constexpr auto kMs = TimeUnit::kMillis;
inline constexpr auto kUs = TimeUnit::kMicros;

/// A text or list field written only when it holds something (absent by default).
template <class S>
Field<S> written_when_set(Field<S> f) {
  f.write = [write = f.write](const S& s) {
    YAML::Node n = write(s);
    const bool empty = (n.IsScalar() && n.Scalar().empty()) || (n.IsSequence() && n.size() == 0);
    return empty ? YAML::Node(YAML::NodeType::Undefined) : n;
  };
  f.has_default = false;
  return f;
}

/// `cluster:`: brokers, hosts, the controller, replication and the coordinator rows.
const Table<model::Scenario>& cluster_table();
/// One entry of `topics:`.
const Table<model::TopicConfig>& topic_table();
/// One entry of `producers:`: config, workload, cpu, host.
const Table<model::ProducerSpec>& producer_table();

}  // namespace partsim::scenarios
