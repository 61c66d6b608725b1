#pragma once
// A consumer group's membership as its coordinator and members see it (kafka-consumer-spec.md
// §1 classic, §3 KIP-848), driven with an explicit `now` and no event queue: members join,
// leave and crash; the group decides who owns which partition and tells each member what to
// do at its next coordinator step (which the member runs inside poll(), §1.2, §3.3).
//
// Timing, as modelled:
// - A member heartbeats every heartbeat interval from its join; it learns of a rebalance at
//   its next heartbeat after the change and acts at its next poll() from then on (a member busy processing a
//   batch acts when the batch is done; the caller decides when that is).
// - classic eager (§1.4): each member rejoins at its step, first committing and revoking all
//   it owns; the join completes when every member has rejoined, then everyone is assigned.
// - classic cooperative (KIP-429): members keep their partitions while rejoining (committing
//   first); after the join they revoke what they lost, without a commit (§5.3), and rejoin at
//   once; the withheld partitions are assigned in the follow-up round.
// - consumer (KIP-848, §3.3): the coordinator computes the target assignment at once; each
//   member at its step revokes what it must give up (committing first) and takes the target
//   partitions nobody holds; a partition released later reaches its new owner at that owner's
//   next heartbeat.
// - leave: immediate (LeaveGroup after a commit); crash: the member stops at once and the
//   coordinator notices session timeout after its last heartbeat.
// The initial members join together at the start (group.initial.rebalance.delay.ms elapsed
// before the run starts).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/consumer/assignor.hpp"
#include "model/consumer_groups.hpp"
#include "model/group_result.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model::consumer {

using sim::SimTime;

struct GroupSettings {
  enum class Mode { kEager, kCooperative, kConsumer } mode = Mode::kEager;
  AssignorKind assignor = AssignorKind::kRange;
  SimTime session_timeout = SimTime::ms(45000);
  SimTime heartbeat_interval = SimTime::ms(3000);
};

/// The rebalance mode and assignor a group's config gives (§1.3, §1.4, §3.3): classic uses
/// the first strategy of partition.assignment.strategy and runs cooperatively only when every
/// strategy listed supports it (only cooperative-sticky does).
GroupSettings group_settings(const ConsumerConfig& config, const GroupCoordinatorConfig& coordinator);

/// What a member does to one of its partitions.
struct OwnershipChange {
  enum class Kind {
    kAssign,           ///< start consuming it from the committed offset
    kRevokeCommitted,  ///< commit the position, then stop consuming it
    kRevoke,           ///< stop consuming it without a commit (cooperative revoke after the join)
    kCommit,           ///< commit its position and keep it (classic cooperative pre-rejoin commit)
  } kind = Kind::kAssign;
  std::int32_t member = 0;
  std::int32_t partition = -1;  ///< index into ConsumerGroup::partitions()
  auto operator<=>(const OwnershipChange&) const = default;
};

struct NewMember {
  std::string id;
  std::string rack;
  /// When its heartbeats fall: every heartbeat interval from its join plus this (members
  /// that start together do not heartbeat in step in practice).
  SimTime heartbeat_offset = SimTime::zero();
  std::optional<std::string> instance_id = std::nullopt;  ///< group.instance.id: a static member (§1.5)
};

class ConsumerGroup {
public:
  /// `topics`: the cluster's topics; `subscription`: the topic names every member subscribes to.
  ConsumerGroup(GroupSettings settings, std::vector<TopicMetadata> topics,
                const std::vector<std::string>& subscription);

  /// The partitions of the subscribed topics, topic by topic in subscription order.
  const std::vector<TopicPartition>& partitions() const { return partitions_; }

  /// The group learns that topic `topic` has `partitions` partitions (at most the count it
  /// was built with; a partition beyond it is never assigned). With members, a rebalance
  /// starts as for a membership change (classic §6.3: the leader rejoins; KIP-848 §3.5:
  /// the coordinator bumps the epoch and computes a new target).
  void set_partition_count(const std::string& topic, std::int32_t partitions, SimTime now,
                           std::vector<OwnershipChange>& out);
  /// Members join together (JoinGroup): a rebalance starts (or the one under way takes them).
  void join(const std::vector<NewMember>& members, SimTime now, std::vector<OwnershipChange>& out);
  /// A member leaves (LeaveGroup after close()'s commit): its partitions are revoked now.
  void leave(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out);
  /// A member whose poll() came later than max.poll.interval.ms after the last leaves the
  /// group (§1.2 step 4): its partitions are lost, without a commit (§1.4 generation reset).
  void expel(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out);
  /// An expelled member joins again (at its next poll()), under the same id.
  void rejoin(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out);
  /// A member stops without a word; its partitions stay its own until its session expires.
  void crash(std::int32_t member, SimTime now);
  /// A static member closes (§1.2 step 5, §1.5): after close()'s commit (the caller's) it
  /// sends no LeaveGroup, so the group keeps its partitions, unconsumed, until its session
  /// expires, as after a crash.
  void close_static(std::int32_t member, SimTime now);
  /// A static member's process starts again (after crash() or close_static()) and joins
  /// with its group.instance.id (§1.5). Within its session, the coordinator replaces the
  /// member id and returns the stored assignment, with no rebalance: `out` assigns its
  /// partitions again (from their committed offsets). After its session expired it was
  /// removed: it joins as a new member would, and the group rebalances.
  void restart(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out);

  /// When `member` has a coordinator step to run (SimTime::max() when none).
  SimTime due(std::int32_t member) const;
  /// The member runs its coordinator step in poll() at `now` (>= due).
  void step(std::int32_t member, SimTime now, std::vector<OwnershipChange>& out);
  /// The next session expiry of a crashed member (SimTime::max() when none).
  SimTime next_expiry() const;
  /// Removes the members whose session expired by `now`, starting a rebalance.
  void expire(SimTime now, std::vector<OwnershipChange>& out);

  std::int32_t member_count() const { return static_cast<std::int32_t>(members_.size()); }
  const std::string& member_id(std::int32_t m) const { return members_[static_cast<std::size_t>(m)].id; }
  std::optional<std::int32_t> find(const std::string& id) const;
  bool in_group(std::int32_t m) const { return members_[static_cast<std::size_t>(m)].in_group; }
  /// Stopped (crashed, or a static member closed) and not restarted since.
  bool crashed(std::int32_t m) const { return members_[static_cast<std::size_t>(m)].crashed; }
  /// A static member that closed (rather than crashed) and has not restarted since.
  bool closed(std::int32_t m) const { return members_[static_cast<std::size_t>(m)].closed; }
  bool is_static(std::int32_t m) const { return members_[static_cast<std::size_t>(m)].instance_id.has_value(); }
  /// The partitions `member` consumes (indices, ascending).
  const std::vector<std::int32_t>& owned(std::int32_t member) const {
    return members_[static_cast<std::size_t>(member)].owned;
  }
  /// The member consuming `partition`, or -1.
  std::int32_t owner(std::int32_t partition) const { return owner_[static_cast<std::size_t>(partition)]; }
  bool rebalancing() const { return rebalance_open_; }
  const std::vector<RebalanceRecord>& rebalances() const { return rebalances_; }
  const GroupSettings& settings() const { return settings_; }

private:
  struct Member {
    std::string id;
    std::optional<std::string> instance_id;
    std::string rack;
    SimTime joined;
    SimTime beat;  ///< a heartbeat time: its heartbeats fall every interval from here
    bool in_group = true;
    bool crashed = false;
    bool closed = false;  ///< a static member's close(): stopped like a crash, after a commit
    SimTime crashed_at;
    bool rejoined = false;  ///< classic: has rejoined in the current round
    SimTime due = SimTime::max();
    std::vector<std::int32_t> owned;     ///< what it consumes
    std::vector<std::int32_t> previous;  ///< classic eager: what it owned before revoking (sticky's user data)
    std::vector<std::int32_t> target;    ///< consumer: the coordinator's target assignment
  };

  /// The first heartbeat at or after t (callers pass now + 1 ns: the heartbeat at `now` went
  /// out before what happens at `now`).
  SimTime next_heartbeat(const Member& m, SimTime t) const;
  SimTime last_heartbeat(const Member& m, SimTime t) const;  ///< last heartbeat at or before t
  void open_rebalance(SimTime now, const std::string& cause);
  void start_round(SimTime now);
  void try_complete(SimTime now, std::vector<OwnershipChange>& out);
  void compute_target(SimTime now);
  void reconcile(std::int32_t m, SimTime now, std::vector<OwnershipChange>& out);
  void give(std::int32_t m, std::int32_t p, SimTime now, std::vector<OwnershipChange>& out);
  void take(std::int32_t m, std::int32_t p, SimTime now, OwnershipChange::Kind kind, std::vector<OwnershipChange>& out);
  void membership_changed(SimTime now, const std::string& cause, std::vector<OwnershipChange>& out);
  /// Takes a member out of the group (leave, expel), revoking its partitions with `revoke`.
  void remove(std::int32_t member, SimTime now, OwnershipChange::Kind revoke, const std::string& cause,
              std::vector<OwnershipChange>& out);
  void close_if_settled(SimTime now);
  GroupSpec spec(bool eager_previous, bool targets) const;
  std::vector<std::int32_t> indices(const std::vector<TopicPartition>& tps) const;

  GroupSettings settings_;
  std::vector<TopicMetadata> topics_;      ///< as the assignors see them now
  std::vector<TopicMetadata> all_topics_;  ///< at the count the group was built with
  std::vector<std::string> subscription_;
  std::vector<TopicPartition> partitions_;
  std::vector<std::int32_t> topic_first_;  ///< per topic of topics_: index of its partition 0 in partitions_, or -1
  std::vector<Member> members_;
  std::vector<std::int32_t> owner_;
  std::vector<std::optional<SimTime>> unowned_since_;  ///< per partition: since when no member processes it
  std::vector<RebalanceRecord> rebalances_;
  bool rebalance_open_ = false;
};

}  // namespace partsim::model::consumer
