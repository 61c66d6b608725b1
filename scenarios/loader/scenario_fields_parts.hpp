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
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 60;              ///< a byte count's bound (1 EiB)
inline constexpr std::int64_t kMaxIntMs = static_cast<std::int64_t>(kMaxMs);  ///< an integer ms config's bound
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

/// Reads `client:` (kafka-2.4 ... kafka-4.4, a patch, or the aliases kafka-4.x and
/// kafka-3.x) into `out`; warns for an alias and the unreleased 4.4. Nothing when absent.
std::optional<model::ClientVersion> read_client(MapReader& m);

/// The `client:` row: at the top (`top`), the scenario's client, which every producer and
/// group runs unless it names its own; in a producer or a group, that one's own.
/// `group`: a consumer group's, which runs the Java consumer only (a profile there is an
/// error; under a profile at the top, the group runs the default Java client).
template <class S, class Acc>
Field<S> client_field(Acc acc, bool top, bool group = false) {
  FieldInfo info = field_info(
      FieldInfo::Shape::kValue, "client", "choice", "",
      group ? "kafka-2.4 ... kafka-4.4 (or kafka-X.Y.Z)"
            : "kafka-2.4 ... kafka-4.4 (or kafka-X.Y.Z), librdkafka-2.x, franz-go, sarama, kafkajs, kafka-go",
      top     ? "the client every producer runs (a Java release with its defaults and rules, or another client's "
                "profile, docs/clients.md) and the Java release every consumer group runs, unless one names its own; "
                "kafka-4.x and kafka-3.x are kafka-4.3 and kafka-3.9"
      : group ? "this group's Java client release (default: the scenario's, kafka-4.3 under another client's profile)"
              : "this producer's client: a Java release or another client's profile (default: the scenario's)");
  info.default_text = top ? model::default_client().name() : "the scenario's";
  Field<S> f;
  f.info = std::move(info);
  f.read = [acc, top, group](MapReader& m, S& s) {
    const std::optional<model::ClientVersion> v = read_client(m);
    if (top) {
      if (v) m.context()->client = *v;
    } else if (group && v && !v->java()) {
      m.error("client", v->name() + " is a producer profile: consumer groups run the Java consumer (kafka-2.4 ... "
                                    "kafka-4.4)");
      m.context()->item_client = model::default_client();
    } else if (group && !v && !m.context()->client.java()) {
      m.context()->item_client = model::default_client();  // partsim models Java's consumer only
    } else {
      m.context()->item_client = v;
    }
    std::invoke(acc, s) = m.context()->version();
  };
  f.write = [acc](const S& s) { return YAML::Node(std::invoke(acc, s).name()); };
  f.has_default = false;
  return f;
}

/// topics[].schedule[].reassign (reassign_step_field.cpp).
Field<model::TopicChange> reassign_field();

/// acks under a client's names for 0, 1 and all (a fourth name, if any, is all too).
Field<model::ProducerConfig> acks_choice(std::string key, std::vector<std::string> names, std::string doc);
/// partsim.compression.ratio, in every client's producer config.
Field<model::ProducerConfig> compression_ratio();

/// The config of a producer whose client is another client's profile (scenario_fields_profiles.cpp).
const Table<model::ProducerConfig>& profile_config_table(model::ClientFamily family);

/// `cluster:`: brokers, hosts, the controller, replication and the coordinator rows.
const Table<model::Scenario>& cluster_table();
/// One entry of `topics:`.
const Table<model::TopicConfig>& topic_table();
/// One entry of `producers:`: config, workload, cpu, host.
const Table<model::ProducerSpec>& producer_table();

}  // namespace partsim::scenarios
