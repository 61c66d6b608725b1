#pragma once
// AbstractStickyAssignorTest's fixture for partsim: the `subscriptions` HashMap (puts keep a
// member's place, removals drop it), partitionInfos with nextPartitionIndex advancing one per
// topic, the subscription builders of StickyAssignorTest and CooperativeStickyAssignorTest
// (the eager one's buildSubscriptionV2Above carries no rack), and the two verifiers:
// verifyValidityAndBalance, and for cooperative-sticky its override that re-runs the
// assignor while partitions are being revoked, checking that no partition is given to a new
// owner in the rebalance that revokes it (KIP-429).

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/consumer/kafka_fixtures.hpp"

namespace partsim::testing::kafka {

struct Sticky {
  explicit Sticky(AssignorKind k) : kind(k) {}

  AssignorKind kind;
  int rf = 2, broker_racks = 0, next_partition_index = 0;
  bool consumer_rack = false, prefer = false;
  const std::int32_t generation_id = 1;  // AbstractStickyAssignorTest.generationId
  std::vector<TopicMetadata> topics;     // partitionsPerTopic
  std::vector<GroupMember> subs;         // subscriptions

  bool cooperative() const { return kind == AssignorKind::kCooperativeSticky; }

  void initialize_racks(RackConfig c) {
    rf = 3;
    broker_racks = c != RackConfig::kNoBrokerRack ? 3 : 0;
    consumer_rack = c != RackConfig::kNoConsumerRack;
    prefer = true;
  }
  void put_topic(const std::string& name, int partitions) {
    remove_topic(name);
    topics.push_back(topic_on_racks(name, partitions, rf, broker_racks, next_partition_index++));
  }
  void remove_topic(const std::string& name) {
    std::erase_if(topics, [&](const TopicMetadata& t) { return t.name == name; });
  }
  std::string rack(int index) const {
    const int n = broker_racks > 0 ? broker_racks : static_cast<int>(kAllRacks.size());
    return consumer_rack && index >= 0 ? kAllRacks[static_cast<std::size_t>(index % n)] : "";
  }
  /// subscription(topics, consumerIndex): no owned partitions, no generation.
  GroupMember subscription(const std::string& id, std::vector<std::string> t, int index) const {
    return member(id, std::move(t), rack(index));
  }
  /// buildSubscriptionV2Above(topics, partitions, generation, consumerIndex).
  GroupMember v2(const std::string& id, std::vector<std::string> t, std::vector<TopicPartition> owned, int generation,
                 int index) const {
    return member(id, std::move(t), cooperative() ? rack(index) : "", std::move(owned),
                  generation < 0 ? std::nullopt : std::optional<std::int32_t>(generation));
  }
  void put(GroupMember m) {
    const auto it = std::find_if(subs.begin(), subs.end(), [&](const GroupMember& x) { return x.id == m.id; });
    if (it != subs.end()) *it = std::move(m);
    else subs.push_back(std::move(m));
  }
  void remove(const std::string& id) {
    std::erase_if(subs, [&](const GroupMember& m) { return m.id == id; });
  }
  const GroupMember& get(const std::string& id) const { return subs.at(index_of(spec(), id)); }

  GroupSpec spec() const { return GroupSpec{topics, subs, MemberOrder::kJavaHashMap, prefer}; }
  Result assign() const { return run(kind, spec()); }
  /// partitionsTransferringOwnership of the assignment just made, as "topic-p->member": what
  /// the shared builder computed (the cooperative assignor withholds exactly these).
  std::vector<std::string> transferring() const { return run(AssignorKind::kCooperativeSticky, spec()).withheld(); }

  /// AbstractStickyAssignorTest.verifyValidityAndBalance (and, for cooperative-sticky, the
  /// override's follow-up rebalances, which update `subs` and `r` as Kafka's does).
  void verify(Result& r) {
    for (int rebalances = 0; cooperative() && revoking(r); ++rebalances) {
      REQUIRE(rebalances < 4);
      for (std::size_t m = 0; m < r.spec.members.size(); ++m) {
        const auto& old = r.spec.members[m];
        const int rack_index =
            old.rack.empty()
                ? -1
                : static_cast<int>(std::find(kAllRacks.begin(), kAllRacks.end(), old.rack) - kAllRacks.begin());
        put(v2(old.id, old.topics, r.result.partitions[m], generation_id, rack_index));
      }
      r = assign();
    }
    check_validity_and_balance(r);
  }

  // verifyCooperativeValidity: true while some member loses a partition; never may a
  // partition be added to one member in the rebalance that revokes it from another.
  static bool revoking(const Result& r) {
    std::set<std::string> added, revoked;
    for (std::size_t m = 0; m < r.spec.members.size(); ++m) {
      const auto owned = as_set(r.spec.members[m].owned);
      const auto assigned = as_set(r.result.partitions[m]);
      for (const auto& p : assigned)
        if (!std::binary_search(owned.begin(), owned.end(), p)) added.insert(p);
      for (const auto& p : owned)
        if (!std::binary_search(assigned.begin(), assigned.end(), p)) revoked.insert(p);
    }
    for (const auto& p : added)
      CHECK_MESSAGE(revoked.count(p) == 0, p << " is assigned to a new member in the rebalance that revokes it");
    return !revoked.empty();
  }

  static void check_validity_and_balance(const Result& r) {
    const auto& members = r.spec.members;
    for (std::size_t i = 0; i < members.size(); ++i) {
      const auto& mine = r.result.partitions[i];
      for (const auto& p : mine)
        CHECK_MESSAGE(std::find(members[i].topics.begin(), members[i].topics.end(), p.topic) != members[i].topics.end(),
                      p.name() << " is assigned to " << members[i].id << ", which does not subscribe to it");
      std::set<std::string> my_topics;
      for (const auto& p : mine) my_topics.insert(p.topic);
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        const auto& other = r.result.partitions[j];
        for (const auto& p : as_set(mine)) {
          const auto o = as_set(other);
          CHECK_MESSAGE(!std::binary_search(o.begin(), o.end(), p),
                        p << " is assigned to both " << members[i].id << " and " << members[j].id);
        }
        if (std::abs(static_cast<long>(mine.size()) - static_cast<long>(other.size())) <= 1) continue;
        for (const auto& p : other)
          CHECK_MESSAGE(my_topics.count(p.topic) == 0, "partitions of " << p.topic << " could move between "
                                                                        << members[i].id << " and " << members[j].id
                                                                        << " for a better balance");
      }
    }
  }
};

inline bool fully_balanced(const Result& r) {
  std::size_t lo = SIZE_MAX, hi = 0;
  for (const auto& list : r.result.partitions) {
    lo = std::min(lo, list.size());
    hi = std::max(hi, list.size());
  }
  return r.result.partitions.empty() || hi - lo <= 1;
}

/// AbstractStickyAssignor.isSticky over one rebalance: within a topic, no partition moved
/// from A to B while another moved from B to A. A partition's origin is the member that
/// owned it and still subscribes to its topic (the owner the general builder starts from).
inline bool is_sticky(const GroupSpec& before, const Result& after) {
  std::map<std::string, std::string> origin;
  std::map<std::string, int> claims;
  for (const auto& m : before.members)
    for (const auto& p : m.owned) ++claims[p.name()];
  for (const auto& m : before.members)
    for (const auto& p : m.owned)
      if (claims[p.name()] == 1 && std::find(m.topics.begin(), m.topics.end(), p.topic) != m.topics.end())
        origin[p.name()] = m.id;
  std::map<std::string, std::set<std::pair<std::string, std::string>>> moves;  // topic -> (from, to)
  for (std::size_t m = 0; m < after.spec.members.size(); ++m)
    for (const auto& p : after.result.partitions[m]) {
      const auto o = origin.find(p.name());
      if (o != origin.end() && o->second != after.spec.members[m].id)
        moves[p.topic].insert({o->second, after.spec.members[m].id});
    }
  for (const auto& [topic, pairs] : moves)
    for (const auto& [from, to] : pairs)
      if (pairs.count({to, from}) > 0) return false;
  return true;
}

inline const std::vector<AssignorKind> kStickyKinds{AssignorKind::kSticky, AssignorKind::kCooperativeSticky};

inline const char* kind_name(AssignorKind k) { return k == AssignorKind::kSticky ? "sticky" : "cooperative-sticky"; }

/// Runs `body` on a fresh Sticky for each assignor in `kinds` under each rack configuration
/// (AbstractStickyAssignorTest's @ParameterizedTest over the rack configurations).
template <class Body>
void for_each_config(Body body, const std::vector<AssignorKind>& kinds = kStickyKinds) {
  for (auto kind : kinds)
    for (auto config : kRackConfigs) {
      CAPTURE(kind_name(kind));
      CAPTURE(name(config));
      Sticky s(kind);
      s.initialize_racks(config);
      body(s);
    }
}

}  // namespace partsim::testing::kafka
