#pragma once
// The consumer side of a scenario (the `consumers:` section): consumer groups, each with its
// members, their processing time, a schedule of joins, leaves and crashes, and the consumer's
// config under Kafka's names with Kafka 4.x defaults (kafka-consumer-spec.md §1.1, §3.1-3.2,
// §4.1, §5.1, §6.1). Shared vocabulary at model/ root: the loader fills it, the engine hands
// it to model/consumer/.

#include <cstdint>
#include <string>
#include <vector>

#include "model/client_version.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model {

using sim::SimTime;

/// A change to a group's membership at a simulated time.
struct MemberChange {
  SimTime at;
  /// kRestart: a static member's process starts again (after a crash or a leave), under its
  /// group.instance.id (kafka-consumer-spec §1.5).
  enum class Kind { kJoin, kLeave, kCrash, kRestart } kind = Kind::kJoin;
  std::int32_t count = 1;  ///< kJoin: members that join
  std::string member;      ///< kLeave, kCrash, kRestart: the member id
};

/// ConsumerConfig with Kafka's names and the defaults of the book's client, kafka-4.3 (the
/// loader sets the defaults of the group's `client` before it reads the keys).
struct ConsumerConfig {
  ClientVersion client;                                                       ///< the Java client's release (`client:`)
  enum class Protocol { kClassic, kConsumer } protocol = Protocol::kClassic;  ///< group.protocol (§3.1)
  std::int32_t fetch_min_bytes = 1;                                           ///< fetch.min.bytes (§4.1)
  SimTime fetch_max_wait = SimTime::ms(500);                                  ///< fetch.max.wait.ms
  std::int32_t max_partition_fetch_bytes = 1048576;                           ///< max.partition.fetch.bytes
  std::int32_t fetch_max_bytes = 52428800;                                    ///< fetch.max.bytes
  std::int32_t max_poll_records = 500;                                        ///< max.poll.records
  /// auto.offset.reset (§5.2). kNone: poll() throws NoOffsetForPartitionException for a
  /// partition without a committed offset; kByDuration (Kafka 4.0, KIP-1106): the first offset
  /// whose timestamp is at or after the lookup time minus auto_offset_reset_by.
  enum class OffsetReset { kLatest, kEarliest, kNone, kByDuration } auto_offset_reset = OffsetReset::kLatest;
  SimTime auto_offset_reset_by = SimTime::zero();    ///< by_duration:<ISO-8601 duration>
  bool enable_auto_commit = true;                    ///< enable.auto.commit (§5.1)
  SimTime auto_commit_interval = SimTime::ms(5000);  ///< auto.commit.interval.ms
  SimTime max_poll_interval = SimTime::ms(300000);   ///< max.poll.interval.ms
  SimTime metadata_max_age = SimTime::ms(300000);    ///< metadata.max.age.ms (§6.1)
  std::string client_rack;                           ///< client.rack ("" = none)
  /// group.instance.id (§1.5): set, the members are static, member i with this prefix and
  /// the index its member id has ("i" -> i0, i1, ...); "" = dynamic members.
  std::string group_instance_id;
  /// partition.assignment.strategy (classic only): the group uses the first entry (every
  /// member has the same list, so every member votes for it, §1.3).
  std::vector<std::string> assignment_strategy{"range", "cooperative-sticky"};
  SimTime session_timeout = SimTime::ms(45000);    ///< session.timeout.ms (classic only)
  SimTime heartbeat_interval = SimTime::ms(3000);  ///< heartbeat.interval.ms (classic only)
  /// group.remote.assignor (consumer only): the KIP-848 server assignor; with none given the
  /// broker uses the first of group.consumer.assignors, uniform (§3.2).
  enum class RemoteAssignor { kUniform, kRange } remote_assignor = RemoteAssignor::kUniform;
};

struct ConsumerGroupSpec {
  std::string group;                     ///< group.id
  std::vector<std::string> topics;       ///< the subscription
  std::int32_t members = 1;              ///< members at the start
  std::string member_prefix = "c";       ///< member ids: prefix + zero-padded index
  SimTime processing = SimTime::zero();  ///< processing.us: application time per record
  /// How the application commits (its own commitSync/commitAsync calls, beside any auto
  /// commit): after each poll's records, synchronously (the member waits a round trip to the
  /// coordinator) or asynchronously, after each record (synchronously), or never.
  enum class Commit { kNone, kSyncPerPoll, kAsyncPerPoll, kPerRecord } commit = Commit::kNone;
  /// Member racks, member i gets racks[i mod n]; empty: every member has config.client_rack.
  std::vector<std::string> racks;
  std::vector<MemberChange> schedule;
  ConsumerConfig config;
};

/// The broker's group coordinator settings for the KIP-848 protocol (§3.2).
struct GroupCoordinatorConfig {
  SimTime consumer_session_timeout = SimTime::ms(45000);    ///< group.consumer.session.timeout.ms
  SimTime consumer_heartbeat_interval = SimTime::ms(5000);  ///< group.consumer.heartbeat.interval.ms
};

}  // namespace partsim::model
