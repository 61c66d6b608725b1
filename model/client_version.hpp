#pragma once
// Which release of the Java client a producer or a consumer group runs, and every rule of
// the model that depends on it (../shared/kafka-versions.md, read from Kafka's release
// branches). A scenario names a release line, `kafka-3.6`, meaning that line's newest patch
// release (kafka-3.6 = 3.6.2), or a patch where one matters (`kafka-3.9.1`, the last
// release before KAFKA-17632). Each rule below names its version boundary and the row of kafka-versions.md
// it encodes; tests/model/client_version_test.cpp runs each on both sides of its boundary.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::model {

/// Whose client: Java's, or one of the producer profiles of the other clients
/// (model/client_profiles.hpp, ../shared/kafka-clients.md).
enum class ClientFamily { kJava, kLibrdkafka, kFranzGo, kSarama, kKafkajs, kKafkaGo };

struct ClientVersion {
  std::int32_t major_no = 4, minor_no = 3, patch_no = 1;  ///< major.minor.patch
  bool patch_named = false;                               ///< written with its patch (kafka-3.9.0): shown that way
  /// Another client's profile: its own partitioners, defaults and config names on the
  /// Java model's send path, whose rules are then those of the release above (kafka-4.3).
  ClientFamily family = ClientFamily::kJava;

  bool java() const { return family == ClientFamily::kJava; }
  /// "kafka-4.3", or "kafka-3.9.0" when the patch was named; a profile's name ("sarama").
  std::string name() const;
  /// The release line, "4.3".
  std::string line() const;
  /// Compares the family, major, minor and patch (not how it was written).
  friend bool operator==(const ClientVersion& a, const ClientVersion& b) {
    return a.family == b.family && a.major_no == b.major_no && a.minor_no == b.minor_no && a.patch_no == b.patch_no;
  }
  /// Orders the Java releases (a profile by the release whose send path it borrows: at_least
  /// asks that of every client).
  friend bool operator<(const ClientVersion& a, const ClientVersion& b) {
    if (a.major_no != b.major_no) return a.major_no < b.major_no;
    if (a.minor_no != b.minor_no) return a.minor_no < b.minor_no;
    return a.patch_no < b.patch_no;
  }
  /// At or after release major.minor.patch.
  bool at_least(std::int32_t major, std::int32_t minor, std::int32_t patch = 0) const {
    return !(*this < ClientVersion{major, minor, patch, false});
  }
  /// Not released when kafka-versions.md was read (4.4: a branch).
  bool unreleased() const;
};

/// The default, the book's: kafka-4.3 (4.3.1).
ClientVersion default_client();

/// "kafka-2.4" ... "kafka-4.4", the lines a scenario may name.
const std::vector<std::string>& client_lines();

/// The other clients' profile names: librdkafka-2.x, franz-go, sarama, kafkajs, kafka-go.
const std::vector<std::string>& client_profile_names();

/// Reads "kafka-3.6", "kafka-3.9.0", the aliases "kafka-4.x" (4.3) and "kafka-3.x" (3.9),
/// and a profile's name ("librdkafka-2.x", also as "librdkafka"). Nothing, with `why` set, for anything else (a
/// line outside 2.4-4.4, a patch that was never released, an unknown profile).
std::optional<ClientVersion> parse_client(std::string_view text, std::string& why);

/// The rules that differ between versions, each with its boundary (kafka-versions.md).
namespace java {

/// Without partitioner.class: KIP-794's built-in partitioner from 3.3; before, KIP-480's
/// DefaultPartitioner (sticky until a new batch; "since 3.3" row).
bool builtin_partitioner(const ClientVersion& v);
/// The built-in partitioner switches only at a batch boundary, after 1x-2x batch.size
/// (KAFKA-14156, "3.3/3.4" row: in every 3.3 release).
bool batch_boundary_switch(const ClientVersion& v);
/// A partitioner object gets onNewBatch and a second partition() call when a record would
/// open a batch (abortOnNewBatch): 2.4 through 3.9; gone in 4.0 ("4.0: onNewBatch removed").
bool new_batch_second_call(const ClientVersion& v);

/// RoundRobinPartitioner's three behaviours.
enum class RoundRobinRule {
  kSkipping,   ///< through 3.9.1: every partition() call advances the counter (KAFKA-9965)
  kRemembers,  ///< 3.9.2: onNewBatch remembers the partition for the next call (KAFKA-17632)
  kCounter,    ///< 4.0+: a plain per-topic counter, called once per record
};
RoundRobinRule round_robin_rule(const ClientVersion& v);

/// linger.ms: 0, then 5 from 4.0 (KIP-1030).
sim::SimTime default_linger(const ClientVersion& v);
/// acks: 1, then all from 3.0 (KIP-679).
bool default_acks_all(const ClientVersion& v);
/// enable.idempotence on by default in effect: from 3.0.1, 3.1.1 and 3.2.0 (KIP-679 changed
/// the default in 3.0.0, KAFKA-13598 made it take effect).
bool default_idempotence(const ClientVersion& v);
/// Exponential retry backoff up to retry.backoff.max.ms from 3.7 (KIP-580); before, every
/// retry waits a flat retry.backoff.ms and retry.backoff.max.ms is unknown.
bool exponential_backoff(const ClientVersion& v);
/// max.in.flight.requests.per.connection > 5 with a default idempotence: 3.x turns
/// idempotence off quietly, 4.0 refuses the configuration (also with acks=1: the check runs
/// before the quiet disable).
bool refuses_in_flight_over_5(const ClientVersion& v);
/// A batch that expires while its request is in flight keeps its buffer.memory until the
/// request completes (KAFKA-19012: 4.2, and 3.9.2, 4.0.2, 4.1.2).
bool expired_batch_keeps_memory(const ClientVersion& v);

/// Consumer session.timeout.ms: 10 s, then 45 s from 3.0 (KIP-735).
sim::SimTime default_session_timeout(const ClientVersion& v);
/// partition.assignment.strategy: [range], then [range, cooperative-sticky] from 3.0.
std::vector<std::string> default_assignors(const ClientVersion& v);
/// Rack-aware range and sticky assignors (KIP-881) from 3.5.
bool rack_aware_assignors(const ClientVersion& v);
/// group.protocol: consumer (KIP-848) known from 3.7 (early access), generally available
/// from 4.0.
bool consumer_protocol(const ClientVersion& v);
/// auto.offset.reset: by_duration from 4.0 (KIP-1106).
bool offset_reset_by_duration(const ClientVersion& v);

}  // namespace java
}  // namespace partsim::model
