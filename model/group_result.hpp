#pragma once
// What a run reports of its consumer groups: plain data, formatted in analysis/ and cli/.

#include <cstdint>
#include <string>
#include <vector>

#include "model/latency_histogram.hpp"

namespace partsim::model {

/// One rebalance, from what set it off until its last partition had an owner again. A
/// cooperative rebalance counts its follow-up round (KIP-429: revoke, then assign) as part
/// of the same rebalance.
struct RebalanceRecord {
  double at_ms = 0;         ///< when it was set off (a join, a leave, a crash detected)
  double done_ms = 0;       ///< when the last moved partition was assigned again
  std::string kind;         ///< "eager", "cooperative" or "consumer" (KIP-848)
  std::string cause;        ///< "start", "join c3", "leave c1", "crash c2"
  std::int32_t rounds = 0;  ///< classic: JoinGroup rounds (cooperative: 2 when something moved)
  std::int32_t paused = 0;  ///< partitions that had no member processing them for a while in it
  /// Per partition, the time no member could process it (revoked or its owner crashed, until
  /// assigned again): the longest and the sum over partitions (ms).
  double pause_max_ms = 0;
  double pause_sum_ms = 0;
};

struct GroupMemberResult {
  std::string member;
  std::vector<std::string> partitions;  ///< at the end ("orders-0"), sorted by topic then partition
  std::int64_t records = 0;             ///< records it processed (duplicates included)
  bool crashed = false;
  bool left = false;
};

struct ConsumeTraceRow {
  std::string group, member, partition;
  std::int64_t offset = 0;
  std::string key;  ///< "" for a null key
  bool null_key = false;
  // Not in the reports: for checks against the brokers' logs (RunOptions::keep_logs).
  std::int32_t log = 0;     ///< the record's partition, as an index into BrokerLogs::partitions
  double processed_ms = 0;  ///< when its processing ended
};

struct GroupResult {
  std::string group;
  std::string protocol;  ///< "classic" or "consumer"
  std::string assignor;  ///< the assignor the group used (AssignorKind name)
  std::vector<GroupMemberResult> members;
  std::int64_t records_consumed = 0;  ///< records processed, duplicates included
  /// Records processed again: an offset processed again (after a crash or an uncommitted
  /// revoke) and the second copy of a record the log holds twice (a producer's retry of an
  /// appended batch); records_consumed = distinct records + duplicates.
  std::int64_t duplicates = 0;
  std::int64_t order_violations = 0;    ///< records processed after one of the same key sent later
  std::int64_t keys_out_of_order = 0;   ///< keys with at least one order violation
  std::int64_t records_unconsumed = 0;  ///< records in the subscribed partitions never processed
  /// Records auto.offset.reset=latest skipped: the high watermark of each partition assigned
  /// without a committed offset (e.g. written to a new partition before the group saw it).
  std::int64_t records_skipped_latest = 0;
  std::int64_t lag_max = 0;      ///< the largest lag of one partition (readable, not yet processed)
  LatencyHistogram e2e_latency;  ///< send() to the end of processing, first processing only
  std::vector<RebalanceRecord> rebalances;
  std::vector<std::string> idle_members;  ///< live members without partitions at the end
  double end_ms = 0;                      ///< when its last record was processed
  /// The group made no progress (no record processed for the first time) for 10 x the
  /// longest of max.poll.interval.ms and the session timeout after the last record became
  /// readable, e.g. members late for poll() in a rebalance storm, and the run stopped it.
  bool stalled = false;
  /// Schedule steps not played: they fall after the run's end and the last record's
  /// readable time, when every record had been processed (nothing more to consume).
  std::int32_t steps_not_played = 0;
  /// Lag per subscribed partition, sampled every RunOptions::timeseries (empty when off).
  std::vector<std::string> lag_partitions;
  std::vector<double> lag_time_ms;
  std::vector<std::vector<std::int64_t>> lag;  ///< [sample][partition of lag_partitions]
  /// Per sample interval (from lag_time_ms[i] to the next sample): the mean and the largest
  /// send()-to-processed latency of the records first processed in it (NaN without any).
  std::vector<double> latency_mean_ms, latency_max_ms;
};

}  // namespace partsim::model
