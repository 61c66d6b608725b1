#pragma once
// The partitions' leaders as the engine keeps them, the part that owns their state: what a
// leader does with a produce request's batches (an injected error, the refusals below
// min.insync.replicas or for a partition it does not lead, the idempotent producer's
// sequence check, the append), the logs consumer groups read (a record is readable once the
// high watermark passes it), the per-key order check of tagged records, and with followers
// the batches above the high watermark, which a new leader may lack (a failover truncates
// them, from the idempotence state too). It knows no events: the engine calls it when a
// broker has read a request and when the followers move a high watermark, and it tells its
// listener when records become readable. Internal to partsim_model.

#include <cstdint>
#include <deque>
#include <memory>
#include <memory_resource>
#include <vector>

#include "model/cluster/leadership.hpp"
#include "model/cluster/partition_log.hpp"
#include "model/cluster/producer_state.hpp"
#include "model/cluster/replication.hpp"
#include "model/detail/network.hpp"
#include "model/detail/run_recorder.hpp"
#include "model/scenario.hpp"

namespace partsim::model::detail {

/// Told when records of a log were appended or became readable (consumer groups wait on it).
class ReadableListener {
public:
  virtual ~ReadableListener() = default;
  virtual void readable_changed(std::size_t log) = 0;
};

class LeaderLogs {
public:
  /// What the leaders keep: the records' tags (key, producer, send index) for the order
  /// check and the logs, and the records themselves only when `keep_logs`.
  struct Keeping {
    bool tag_records = false;
    bool keep_logs = false;
  };
  /// `first_row`: per topic, its partition 0's log index; `rows`: every log's. `up`: per
  /// broker, whether it is alive (the ISR of replication fixed). `replication`: the
  /// followers' model, or null (replication fixed). `memory`: where the idempotence state lives.
  LeaderLogs(const Scenario& s, Keeping keeping, std::size_t rows, const std::vector<std::size_t>& first_row,
             const Leadership& leadership, const std::vector<char>& up, Replication* replication, RunRecorder& recorder,
             ReadableListener& listener, std::pmr::memory_resource* memory);

  bool tags_records() const { return keeping_.tag_records; }
  bool keeps_logs() const { return keeping_.keep_logs; }
  /// The logs (with tags_records(); their records with keeps_logs()), whose key table names
  /// the tagged keys.
  const std::shared_ptr<BrokerLogs>& logs() const { return logs_; }

  /// The leader serves request `id`'s batches in the order it carries them at `now`. An
  /// injected error refuses them all, before the append (NOT_LEADER_OR_FOLLOWER, ...) or
  /// after it (REQUEST_TIMED_OUT, ...). An idempotent producer's batch passes the sequence
  /// check first (kafka-consumer-spec §8): a duplicate is not appended again, an out-of-order
  /// batch is refused. `readable` (replication fixed): when the high watermark passes the
  /// appended records. The answer's errors go into `r.errors`.
  void serve(std::uint64_t id, Request& r, ProduceError injected, SimTime now, SimTime readable);
  /// Speed: the sequence check reads each batch's producer state: asked for ahead.
  void prefetch_states(const Request& r) const {
    for (const RequestBatch& rb : r.described) sequences_.prefetch(rb.log, r.producer);
  }

  /// Followers: the high watermark of `log` passed the records of the batches below `hw`.
  void high_watermark_moved(std::size_t log, std::int64_t hw, SimTime now);
  /// Followers: a new leader's log ends at `end`; the batches past it are gone.
  void log_truncated(std::size_t log, std::int64_t end);
  /// Followers: batches wait above a high watermark.
  bool unreplicated() const;
  /// Followers, the run over: records still above the high watermark were never readable (an
  /// ISR below min.insync.replicas kept it): the logs end at it.
  void finish();
  /// Followers, with logs kept: how many of `log`'s records are below its high watermark (0
  /// without logs).
  std::int64_t readable_records(std::size_t log) const {
    return keeping_.keep_logs ? static_cast<std::int64_t>(readable_records_[log]) : 0;
  }
  /// Followers: records a failover truncated, and those never readable (after finish()).
  std::int64_t records_truncated() const { return truncated_; }
  std::int64_t records_uncommitted() const { return uncommitted_; }

  /// An idempotent producer's sequences of `log` have a gap (it bumps its epoch): the leader
  /// forgets its state there.
  void sequence_gap(std::size_t log, std::uint32_t producer) { sequences_.reset(log, producer); }

private:
  void refuse_for_followers(Request& r, bool acks_all) const;
  void refuse_under_min_isr(Request& r);  // replication fixed, acks=all
  static bool refused(const Request& r, std::size_t k);
  void append_records(std::size_t log, const std::vector<LogRecord>& tagged, SimTime readable);

  const Scenario& s_;
  Keeping keeping_;
  const std::vector<std::size_t>& first_row_;
  const Leadership& leadership_;
  const std::vector<char>& up_;
  Replication* replication_;
  RunRecorder& recorder_;
  ReadableListener& listener_;
  std::shared_ptr<BrokerLogs> logs_;  // with tag_records; its records only with keep_logs
  ProducerStateTable sequences_;      // the leaders' idempotence state (replicated: one per partition)
  // Replication fixed: per topic its effective min.insync.replicas, min(min.insync.replicas,
  // replication.factor); none when no topic's is above 1 (nothing to refuse).
  std::vector<std::int32_t> fixed_min_isr_;
  // Followers: per partition, its batches above the high watermark, oldest first (a new
  // leader may lack them: log_truncated), and with logs kept how many of its records are
  // readable.
  struct Unreplicated {
    std::int64_t end_bytes;   // the batch's end in bytes of the leader's log
    std::size_t records_end;  // with logs kept: the log's record count through the batch
    std::uint32_t producer;
    std::int32_t base_sequence;  // the idempotent producer's, or -1
    std::int32_t records;        // the batch's
  };
  std::vector<std::deque<Unreplicated>> unreplicated_;
  std::vector<std::size_t> readable_records_;
  std::int64_t truncated_ = 0, uncommitted_ = 0;  // records (ReplicationResult)
};

}  // namespace partsim::model::detail
