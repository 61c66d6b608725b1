#pragma once
// The controller: the part of the engine that decides who leads and how many partitions each
// topic has. A broker's failure and recovery move leadership (replication fixed: at once, to
// the next live replica; followers: when the controller fences the dead broker, from the
// ISR, kafka-consumer-spec §9.4), the periodic preferred leader election gives brokers back
// their partitions (auto.leader.rebalance.enable), and a topic's schedule adds partitions
// (CreatePartitions, kafka-consumer-spec §6), placed by the replica rule. It keeps the
// topics' partition counts and steps, the client's partition order at each count (spec
// §2.2), when each partition was made, and the leader history the run reports. It owns no
// events: the engine asks it at each step and turns its answers into events (a fence, the
// producers' disconnects and metadata refreshes, the groups' news). Internal to partsim_model.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster/leadership.hpp"
#include "model/cluster/replication.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::detail {

class Controller {
public:
  /// `up`: per broker, whether it is alive (the controller's view; the engine's connections
  /// read it). `replication`: the followers' model, or null (replication fixed). The leader
  /// history is kept only for a scenario that fails a broker.
  Controller(const Scenario& s, Leadership& leadership, std::vector<char>& up, Replication* replication);

  /// Keeps the leader history from `now` on (its first row: "start").
  void start(SimTime now);
  bool keeps_history() const { return keep_history_; }

  /// Broker `b` failed at `now`. Returns when the controller fences it (followers: its last
  /// heartbeat + broker.session.timeout.ms; leadership moves then), or nothing (fixed:
  /// leadership moved now). A broker already down changes nothing (nothing either).
  std::optional<SimTime> broker_failed(std::uint32_t b, SimTime now);
  /// Broker `b` is back: the offline partitions it can lead are led by it again.
  void broker_recovered(std::uint32_t b, SimTime now);
  /// Followers: the controller fences `b` (out of every ISR, leaders elected from the ISR).
  /// Returns whether a leader moved.
  bool fence(std::uint32_t b, SimTime now);
  /// The preferred leader check (every leader.imbalance.check.interval.seconds). Returns
  /// whether a leader moved.
  bool check_preferred_leaders(SimTime now);
  /// Topic `t` grew to `partitions` (a topic schedule): placed and led, and in the
  /// followers' model.
  void topic_grew(std::size_t t, std::int32_t partitions, SimTime now);

  /// A reassignment moved a leader (the followers' model): the history notes it.
  void leaders_moved(SimTime now, const std::string& cause) { snapshot(now, cause); }

  const Leadership& leadership() const { return leadership_; }
  const std::vector<LeaderSnapshot>& history() const { return history_; }
  std::vector<LeaderSnapshot> take_history() { return std::move(history_); }

  // ---- topics' schedules: partition increases ----
  /// Per topic, its partitions now.
  const std::vector<std::int32_t>& partition_counts() const { return count_; }
  /// Topic `t`'s steps that the run makes (those before run.duration.ms), in time order, equal
  /// times as written.
  const std::vector<TopicChange>& topic_steps(std::size_t t) const { return steps_[t]; }
  /// How many of them are done (made, or passed once the run was over).
  std::size_t steps_done(std::size_t t) const { return done_[t]; }
  /// Whether any topic grows during the run.
  bool topics_grow() const { return grows_; }
  /// Topic `t`'s partitions in the client's order at `count` partitions (spec §2.2; sorted
  /// with run.sorted_partition_order), for the counts it has in the run.
  const std::vector<std::int32_t>& client_order(std::size_t t, std::int32_t count) const {
    return orders_[t].at(count);
  }
  /// Step `i` of topic `t` is due at `now`. Unless the run is over (every producer has
  /// stopped: a step then is not made, as one after run.duration.ms), the new partitions are
  /// placed and led (topic_grew) and the increase made is returned.
  std::optional<PartitionIncrease> make_step(std::size_t t, std::size_t i, SimTime now, bool run_over);
  /// Per row of RunResult::partitions (topic by topic, every partition a topic reaches by the
  /// run's end): when the partition was made (0 for those a topic starts with; max: never).
  const std::vector<SimTime>& created() const { return created_; }

private:
  void snapshot(SimTime now, const std::string& cause);
  std::string broker_name(std::uint32_t b) const { return "broker " + std::to_string(s_.brokers[b].id); }

  const Scenario& s_;
  Leadership& leadership_;
  std::vector<char>& up_;
  Replication* replication_;
  std::vector<LeaderSnapshot> history_;
  bool keep_history_ = false;
  std::vector<std::int32_t> count_;
  std::vector<std::vector<TopicChange>> steps_;
  std::vector<std::size_t> done_;
  bool grows_ = false;
  std::vector<std::map<std::int32_t, std::vector<std::int32_t>>> orders_;  // per topic, by count
  std::vector<SimTime> created_;
  std::vector<std::size_t> first_row_;  // per topic: its partition 0's row in created_
};

}  // namespace partsim::model::detail
