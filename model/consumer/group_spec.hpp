#pragma once
// What a partition assignor is given (spec §2, §3.4): the topics as the cluster metadata
// describes them, and the group's members with their subscriptions, racks and what they
// owned before. The same input serves the client-side assignors of the classic protocol
// (run by the group leader) and the KIP-848 server-side ones (run by the coordinator).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/consumer/topic_id.hpp"
#include "model/topic_partition.hpp"

namespace partsim::model::consumer {

using model::TopicPartition;

/// A topic in the cluster metadata.
struct TopicMetadata {
  std::string name;
  std::int32_t partitions = 0;
  /// Per partition, the racks of its replicas in replica order ("" for a broker without a
  /// rack), offline and out-of-sync replicas included (RGA:90-94). Empty when unknown: then
  /// no KIP-881 rack matching applies to the topic.
  std::vector<std::vector<std::string>> replica_racks;
  /// The topic's id, when known: only the KIP-848 uniform assignor reads it (§3.4). Without
  /// ids it orders topics by name.
  std::optional<TopicId> id;
};

/// A member of the group as its JoinGroup (classic) or heartbeat (KIP-848) describes it.
struct GroupMember {
  std::string id;                          ///< member.id
  std::optional<std::string> instance_id;  ///< group.instance.id of a static member
  std::vector<std::string> topics;         ///< the subscription, each topic once
  std::string rack;                        ///< client.rack ("" = none)
  /// The partitions it owned: the previous assignment the sticky assignors keep (the
  /// subscription's owned partitions or the sticky user data, §2.4) and the previous target
  /// assignment of the KIP-848 uniform assignor. Range and round robin ignore it.
  std::vector<TopicPartition> owned;
  std::optional<std::int32_t> generation;  ///< the generation `owned` dates from (>= 0)
};

/// How the assignors iterate the members (and, for KIP-848, each member's owned partitions).
enum class MemberOrder {
  /// As Kafka does: through the HashMap keyed by member id into which the leader (classic)
  /// or the coordinator (KIP-848) put the members in the order of `GroupSpec::members`;
  /// a member's previous assignment through the HashMap and HashSets the coordinator builds.
  kJavaHashMap,
  /// In the order given, members and owned partitions alike: what Kafka's own unit tests fix
  /// with a TreeMap of members and LinkedHashMaps of owned partitions.
  kAsGiven,
};

struct GroupSpec {
  std::vector<TopicMetadata> topics;  ///< the topics that exist, each name once
  std::vector<GroupMember> members;   ///< in the order the coordinator received them, ids unique
  MemberOrder member_order = MemberOrder::kJavaHashMap;
  /// AbstractPartitionAssignor.preferRackAwareLogic (a switch Kafka's tests set): match racks
  /// even when every partition has replicas on the same racks.
  bool prefer_rack_aware = false;
};

/// The member id for index `index` of a group of `count` members: `prefix` + the index
/// zero-padded to the width of `count`, so that lexical order (which the assignors sort by)
/// is numeric order: count 5 -> c0..c4, count 12 -> c00..c11.
std::string member_id(const std::string& prefix, std::int32_t index, std::int32_t count);

/// Replica racks of a topic whose partition p has its replicas on brokers p, p+1, ...,
/// p+rf-1 (mod the broker count) of `broker_racks` (one rack per broker, "" for none).
std::vector<std::vector<std::string>> striped_replica_racks(std::int32_t partitions,
                                                            const std::vector<std::string>& broker_racks,
                                                            std::int32_t replication_factor);

}  // namespace partsim::model::consumer
