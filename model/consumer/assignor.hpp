#pragma once
// The partition assignors, one interface: Kafka's client-side assignors of the classic
// protocol (range, roundrobin, sticky, cooperative-sticky; spec §2) and the KIP-848
// server-side ones (uniform, range; spec §3.4). Each is a pure function of the GroupSpec:
// same members, subscriptions, racks, partition counts and previous assignment -> the same
// assignment as Kafka gives.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/consumer/group_spec.hpp"

namespace partsim::model::consumer {

enum class AssignorKind {
  kRange,              ///< RangeAssignor, "range" (the classic default's first choice)
  kRoundRobin,         ///< RoundRobinAssignor, "roundrobin"
  kSticky,             ///< StickyAssignor, "sticky" (eager)
  kCooperativeSticky,  ///< CooperativeStickyAssignor, "cooperative-sticky" (KIP-429)
  kConsumerUniform,    ///< KIP-848 UniformAssignor, group.remote.assignor "uniform"
  kConsumerRange,      ///< KIP-848 RangeAssignor, group.remote.assignor "range"
};

/// The names the partsim consumers command takes: range, roundrobin, sticky,
/// cooperative-sticky, consumer-uniform, consumer-range.
std::optional<AssignorKind> parse_assignor(std::string_view name);
std::string_view assignor_name(AssignorKind kind);
/// All kinds, in the order above.
const std::vector<AssignorKind>& all_assignors();

/// A partition an assignor leaves out for now because another member must revoke it first.
struct WithheldPartition {
  TopicPartition partition;
  std::vector<std::string> owners;  ///< the members that must revoke it (several if claimed twice)
  std::string to;                   ///< the member the assignor means it for
};

struct AssignmentResult {
  /// Per member of GroupSpec::members, its partitions in the order Kafka lists them.
  std::vector<std::vector<TopicPartition>> partitions;
  /// cooperative-sticky only: what KIP-429 holds back until its owner has revoked it; the
  /// next rebalance assigns it (spec §1.4, §2.4 "cooperative adjustment").
  std::vector<WithheldPartition> withheld;
  /// Set when Kafka's own assignor throws on this input instead of assigning (the one case
  /// known: the sticky assignors' general builder, see detail/sticky_general.cpp); then
  /// `partitions` is what the assignor gives with the failing step left out.
  std::optional<std::string> kafka_failure;
};

/// Runs one assignment. Topics a member subscribes to that are not in `spec.topics` are
/// skipped (the client assignors skip topics without metadata; the coordinator resolves only
/// existing topics); owned partitions of unknown topics or beyond a topic's partition count
/// are ignored.
AssignmentResult assign(AssignorKind kind, const GroupSpec& spec);

}  // namespace partsim::model::consumer
