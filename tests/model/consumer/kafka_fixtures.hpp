#pragma once
// The fixtures of Kafka's assignor tests, rebuilt for partsim's GroupSpec, so that a ported
// case reads like the Java one: AbstractPartitionAssignorTest.partitionInfos (replicas of
// partition i on nodes (i + j + nextNodeIndex) % brokers, broker racks a, b, c, ...),
// consumer racks ALL_RACKS[index % racks], "t1-0, t1-3" partition lists, and
// verifyRackAssignment's consumer0..N group (whose Java HashMap is sized for N members).

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "model/consumer/assignor.hpp"
#include "model/consumer/java_order.hpp"
#include "model/partitioners/key_hash.hpp"

namespace partsim::testing::kafka {

using model::consumer::AssignmentResult;
using model::consumer::AssignorKind;
using model::consumer::GroupMember;
using model::consumer::GroupSpec;
using model::consumer::MemberOrder;
using model::consumer::TopicMetadata;
using model::consumer::TopicPartition;

inline const std::vector<std::string> kAllRacks{"a", "b", "c", "d", "e", "f"};  // ALL_RACKS

enum class RackConfig { kNoBrokerRack, kNoConsumerRack, kBrokerAndConsumerRack };
inline const std::vector<RackConfig> kRackConfigs{RackConfig::kNoBrokerRack, RackConfig::kNoConsumerRack,
                                                  RackConfig::kBrokerAndConsumerRack};
inline const char* name(RackConfig c) {
  return c == RackConfig::kNoBrokerRack     ? "NO_BROKER_RACK"
         : c == RackConfig::kNoConsumerRack ? "NO_CONSUMER_RACK"
                                            : "BROKER_AND_CONSUMER_RACK";
}

/// racks(n): a, b, c, ... (cycling); nullRacks(n): n brokers without a rack ("").
inline std::vector<std::string> racks(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(kAllRacks[static_cast<std::size_t>(i) % kAllRacks.size()]);
  return out;
}
inline std::vector<std::string> null_racks(int n) { return std::vector<std::string>(static_cast<std::size_t>(n)); }

/// partitionInfos(topic, n, rf, brokerRacks, nextNodeIndex).
inline TopicMetadata topic_on_brokers(const std::string& topic, int partitions, int rf,
                                      const std::vector<std::string>& broker_racks, int next_node_index) {
  TopicMetadata t{topic, partitions, {}, {}};
  const auto brokers = static_cast<int>(broker_racks.size());
  for (int i = 0; i < partitions; ++i) {
    std::vector<std::string> replica_racks;
    for (int j = 0; j < rf; ++j)
      replica_racks.push_back(broker_racks[static_cast<std::size_t>((i + j + next_node_index) % brokers)]);
    t.replica_racks.push_back(std::move(replica_racks));
  }
  return t;
}

/// partitionInfos(topic, n, rf, numBrokerRacks, nextNodeIndex): numBrokerRacks x rf brokers
/// on racks a, b, c, ... in turn (rf brokers without racks when numBrokerRacks <= 0).
inline TopicMetadata topic_on_racks(const std::string& topic, int partitions, int rf, int num_broker_racks,
                                    int next_node_index) {
  const int brokers = num_broker_racks <= 0 ? rf : num_broker_racks * rf;
  std::vector<std::string> broker_racks;
  for (int i = 0; i < brokers; ++i)
    broker_racks.push_back(num_broker_racks <= 0 ? "" : kAllRacks[static_cast<std::size_t>(i % num_broker_racks)]);
  return topic_on_brokers(topic, partitions, rf, broker_racks, next_node_index);
}

/// "t1-0, t1-3" -> partitions (the split on ", " and the last '-' of Kafka's helper).
inline std::vector<TopicPartition> tps(const std::string& list) {
  std::vector<TopicPartition> out;
  if (list.empty()) return out;
  std::size_t pos = 0;
  for (;;) {
    const auto comma = list.find(", ", pos);
    const std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto dash = item.rfind('-');
    out.push_back({item.substr(0, dash), std::stoi(item.substr(dash + 1))});
    if (comma == std::string::npos) break;
    pos = comma + 2;
  }
  return out;
}
inline TopicPartition tp(const std::string& topic, int partition) { return {topic, partition}; }

/// toSortedString: names sorted as strings, joined by ", ".
inline std::string sorted_string(const std::vector<TopicPartition>& partitions) {
  std::vector<std::string> names;
  for (const auto& p : partitions) names.push_back(p.name());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// A partition list in order, as names (Kafka's assertEquals on lists).
inline std::vector<std::string> list(const std::vector<TopicPartition>& partitions) {
  std::vector<std::string> names;
  for (const auto& p : partitions) names.push_back(p.name());
  return names;
}
inline std::vector<std::string> list(const std::string& partitions) { return list(tps(partitions)); }

/// A partition list as a set (Kafka's assertions that convert to HashSet).
inline std::vector<std::string> as_set(const std::vector<TopicPartition>& partitions) {
  std::vector<std::string> names;
  for (const auto& p : partitions) names.push_back(p.name());
  std::sort(names.begin(), names.end());
  return names;
}

inline GroupMember member(const std::string& id, std::vector<std::string> topics, std::string rack = "",
                          std::vector<TopicPartition> owned = {},
                          std::optional<std::int32_t> generation = std::nullopt) {
  return GroupMember{id, std::nullopt, std::move(topics), std::move(rack), std::move(owned), generation};
}

inline std::size_t index_of(const GroupSpec& spec, const std::string& id) {
  for (std::size_t i = 0; i < spec.members.size(); ++i)
    if (spec.members[i].id == id) return i;
  return spec.members.size();
}

/// A result looked up by member id.
struct Result {
  GroupSpec spec;
  AssignmentResult result;
  const std::vector<TopicPartition>& operator[](const std::string& id) const {
    return result.partitions.at(index_of(spec, id));
  }
  /// The withheld partitions as "topic-p->member" strings, sorted.
  std::vector<std::string> withheld() const {
    std::vector<std::string> out;
    for (const auto& w : result.withheld) out.push_back(w.partition.name() + "->" + w.to);
    std::sort(out.begin(), out.end());
    return out;
  }
};

inline Result run(AssignorKind kind, const GroupSpec& spec) { return {spec, model::consumer::assign(kind, spec)}; }

/// Members reordered as a java.util.HashMap created with `new HashMap<>(initial_capacity)`
/// iterates them, for MemberOrder::kAsGiven (verifyRackAssignment sizes its map).
inline std::vector<GroupMember> in_sized_hash_map_order(std::vector<GroupMember> members, int initial_capacity) {
  auto table = model::consumer::JavaHashTable::with_initial_capacity(initial_capacity);
  for (std::size_t i = 0; i < members.size(); ++i) table.insert(i, model::java_string_hash(members[i].id));
  std::vector<GroupMember> out;
  for (auto i : table.order()) out.push_back(members[i]);
  return out;
}

/// AbstractPartitionAssignorTest.verifyRackAssignment: members consumer0..N-1 with the given
/// racks ("" = none), subscriptions and owned partitions (no generation; the eager
/// StickyAssignor reads owned partitions from user data, which the helper leaves null, so
/// it sees none); returns each member's partitions as a sorted string, and the rack mismatches (counted as
/// the Java helper counts them).
struct RackRun {
  std::vector<std::string> assignment;
  int mismatches = 0;
};
inline RackRun verify_rack_assignment(AssignorKind kind,
                                      const std::vector<std::pair<std::string, int>>& partitions_per_topic, int rf,
                                      const std::vector<std::string>& broker_racks,
                                      const std::vector<std::string>& consumer_racks,
                                      const std::vector<std::vector<std::string>>& consumer_topics,
                                      const std::vector<std::string>& owned, bool prefer_rack_aware) {
  GroupSpec spec;
  int next = 0;
  for (const auto& [topic, n] : partitions_per_topic) {
    spec.topics.push_back(topic_on_brokers(topic, n, rf, broker_racks, next));
    next += n;
  }
  std::vector<GroupMember> members;
  for (std::size_t i = 0; i < consumer_racks.size(); ++i)
    members.push_back(member("consumer" + std::to_string(i), consumer_topics[i], consumer_racks[i],
                             i < owned.size() && kind != AssignorKind::kSticky ? tps(owned[i])
                                                                               : std::vector<TopicPartition>{}));
  spec.members = in_sized_hash_map_order(members, static_cast<int>(members.size()));
  spec.member_order = MemberOrder::kAsGiven;
  spec.prefer_rack_aware = prefer_rack_aware;
  const auto result = model::consumer::assign(kind, spec);
  RackRun out;
  for (std::size_t i = 0; i < consumer_racks.size(); ++i) {
    const auto m = index_of(spec, "consumer" + std::to_string(i));
    out.assignment.push_back(sorted_string(result.partitions[m]));
    if (consumer_racks[i].empty()) continue;
    for (const auto& p : result.partitions[m]) {
      const auto& t = *std::find_if(spec.topics.begin(), spec.topics.end(),
                                    [&](const TopicMetadata& x) { return x.name == p.topic; });
      const auto& r = t.replica_racks[static_cast<std::size_t>(p.partition)];
      if (std::find(r.begin(), r.end(), consumer_racks[i]) == r.end()) ++out.mismatches;
    }
  }
  return out;
}

/// The names topic1, topic2, ... of Kafka's assignor tests: topics({1, 3}) is {"topic1", "topic3"}.
inline std::vector<std::string> topics(std::initializer_list<int> ns) {
  std::vector<std::string> out;
  for (int n : ns) out.push_back("topic" + std::to_string(n));
  return out;
}

/// {"topic1", "topic2"}, the subscription most of Kafka's assignor tests use.
inline const std::vector<std::string> kT12{"topic1", "topic2"};

/// `m` with group.instance.id `instance` (a static member).
inline GroupMember with_instance(GroupMember m, std::string instance) {
  m.instance_id = std::move(instance);
  return m;
}

}  // namespace partsim::testing::kafka
