#pragma once
// What a run reports of its reassignments (topics[].schedule[].reassign; docs/reassignment.md):
// each step, the gauges Kafka's brokers report sampled over time, and whether the moves
// left at the end could ever finish at their throttle.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace partsim::model {

/// The cluster at one sample (every second of simulated time while a move is under way, or
/// every --timeseries interval when one is given), the counts since the previous sample.
struct ReassignmentSample {
  double time_ms = 0;
  double interval_ms = 0;
  std::int64_t bytes_left = 0;        ///< the log bytes the new replicas still lack
  std::int32_t reassigning = 0;       ///< ReassigningPartitions, summed over the leaders
  std::int32_t under_replicated = 0;  ///< UnderReplicatedPartitions (adding replicas apart)
  std::int64_t bytes_out = 0;         ///< ReassignmentBytesOutPerSec's bytes since the previous sample
  std::int64_t bytes_in = 0;          ///< ReassignmentBytesInPerSec's bytes since the previous sample
  std::int64_t shrinks = 0;           ///< IsrShrinks since the previous sample
  std::int64_t expands = 0;           ///< IsrExpands since the previous sample
  std::vector<std::int32_t> leaders;  ///< LeaderCount per broker (RunResult::brokers order)
  std::vector<std::int64_t> disk;     ///< per broker: the bytes of its replicas' logs
  std::int64_t records = 0;           ///< records the producers had acknowledged in the interval
  double p50_ms = 0, p99_ms = 0;      ///< their latency
};

/// One reassignment step of a topic's schedule.
struct ReassignmentStepResult {
  std::string topic;
  double at_ms = 0;
  std::int32_t partitions = 0;         ///< partitions the plan moves (0: a throttle change)
  double throttle = 0;                 ///< bytes/s (0: none)
  std::int64_t bytes_to_copy = 0;      ///< what the new replicas lacked when it started
  std::optional<double> completed_ms;  ///< when its last partition completed
};

/// A throttled broker's budget for the moves left at the end (over the time since the last
/// throttle change): the throttle less the listed replicas' in-sync traffic it counts, against
/// what is written meanwhile into the partitions it copies (each copy must carry it).
struct ThrottleBudget {
  std::int32_t broker = 0;      ///< its id
  bool leader = true;           ///< leader.replication.throttled.rate; else follower's
  double throttle = 0;          ///< bytes/s
  double listed_in_sync = 0;    ///< bytes/s
  double produced = 0;          ///< bytes/s into its copies
  std::int64_t bytes_left = 0;  ///< what its copies lack at the end
  double spare() const { return throttle - listed_in_sync - produced; }
};

struct ReassignmentResult {
  std::vector<ReassignmentStepResult> steps;
  std::vector<ReassignmentSample> samples;
  std::optional<double> completed_ms;  ///< every move done
  std::int64_t bytes_left = 0;         ///< at the run's end
  std::int32_t partitions_left = 0;    ///< still moving at the run's end
  /// For the moves left: each throttled broker side that copies; `never` when one of them
  /// has no spare (the copy cannot gain on the writes, "never, at this throttle").
  std::vector<ThrottleBudget> budgets;
  bool never = false;
  double window_ms = 0;  ///< the time the budgets are measured over
  bool enabled() const { return !steps.empty(); }
};

}  // namespace partsim::model
