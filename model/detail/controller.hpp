#pragma once
// The controller: the part of the engine that decides who leads. A broker's failure and
// recovery move leadership (replication fixed: at once, to the next live replica;
// followers: when the controller fences the dead broker, from the ISR, kafka-consumer-spec
// §9.4), the periodic preferred leader election gives brokers back their partitions
// (auto.leader.rebalance.enable), and a topic's partition increase places the new
// partitions. It keeps the leader history the run reports. It owns no events: the engine
// asks it at each step and turns its answers into events (a fence, the producers'
// disconnects and metadata refreshes). Internal to partsim_model.

#include <cstdint>
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
  /// history goes to `history`; it is kept only for a scenario that fails a broker.
  Controller(const Scenario& s, Leadership& leadership, std::vector<char>& up, Replication* replication,
             std::vector<LeaderSnapshot>& history);

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

  const Leadership& leadership() const { return leadership_; }

private:
  void snapshot(SimTime now, const std::string& cause);
  std::string broker_name(std::uint32_t b) const { return "broker " + std::to_string(s_.brokers[b].id); }

  const Scenario& s_;
  Leadership& leadership_;
  std::vector<char>& up_;
  Replication* replication_;
  std::vector<LeaderSnapshot>& history_;
  bool keep_history_ = false;
};

}  // namespace partsim::model::detail
