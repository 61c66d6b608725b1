// The leader's append of a produce request's batches: injected errors, the idempotent
// producer's sequence check, the per-key order check of the tagged records and the logs the
// consumer groups read afterwards. The refusals only followers cause: engine_replication.cpp.

#include <algorithm>

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

// The leader serves a request's batches in the order the request carries them. An injected
// error refuses them all, before the append (NOT_LEADER_OR_FOLLOWER, ...) or after it
// (REQUEST_TIMED_OUT, ...). An idempotent producer's batch passes the sequence check first
// (kafka-consumer-spec §8): a duplicate is not appended again, an out-of-order batch is
// refused. `readable`: when the high watermark passes the appended records.
void Engine::serve_batches(std::uint64_t id, Request& r, ProduceError injected, SimTime readable) {
  const ProduceErrorInfo injected_info = produce_error_info(injected);
  if (injected != ProduceError::kNone) {
    result().produce_errors.injected += r.batches;
    r.errors.assign(static_cast<std::size_t>(r.batches), injected);
    if (!injected_info.appended) return;
  }
  const bool idempotent = s_.producers[r.producer].config.idempotence;
  const bool acks_all = s_.producers[r.producer].config.acks == Acks::kAll;
  if (replication_) refuse_for_followers(r, acks_all);
  else if (acks_all && !fixed_min_isr_.empty()) refuse_under_min_isr(r);
  for (std::size_t k = 0; k < r.described.size(); ++k) {
    RequestBatch& rb = r.described[k];
    if (refused(r, k)) continue;
    if (idempotent && rb.base_sequence >= 0) {
      switch (sequences_.append(rb.log, r.producer, rb.base_sequence, rb.records)) {
        case ProducerStateTable::Verdict::kAppend: break;
        case ProducerStateTable::Verdict::kDuplicate:
          // Answered with the original offsets, already replicated: success, whatever
          // error a new append would have met (UnifiedLog.scala:893-898).
          ++result().produce_errors.duplicates;
          if (injected != ProduceError::kNone) {
            --result().produce_errors.injected;
            r.errors[k] = ProduceError::kNone;
          }
          // Followers: the original append may not be committed yet; the answer waits
          // for the high watermark to reach the log's end (at or past the original offsets).
          if (replication_ && acks_all && r.live) replication_->append(rb.log, 0, now(), id);
          continue;
        case ProducerStateTable::Verdict::kOutOfOrder:
          ++result().produce_errors.out_of_order;
          if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
          r.errors[k] = ProduceError::kOutOfOrderSequenceNumber;
          continue;
      }
    }
    if (tag_records_) append_records(rb.log, r.tagged[k], replication_ ? SimTime::max() : readable);
    // Followers: the leader's log grows; an acks=all batch answered without error waits
    // for the high watermark. The records are readable once it passes them
    // (high_watermark_moved), which may be at once.
    if (replication_) {
      unreplicated_[rb.log].push_back({replication_->log_end(rb.log) + rb.bytes,
                                       keep_logs_ ? logs_->partitions[rb.log].records.size() : 0, r.producer,
                                       idempotent ? rb.base_sequence : -1, rb.records});
      const bool waits = acks_all && r.live && (r.errors.empty() || r.errors[k] == ProduceError::kNone);
      replication_->append(rb.log, rb.bytes, now(), waits ? std::optional<std::uint64_t>(id) : std::nullopt);
    }
  }
}

// The leader appends a batch's records; a record is readable once the high watermark passes
// it. The watermark only advances, so a record appended behind one readable later (another
// producer's acks=all) waits for it. The order check sees each record as it lands.
void Engine::append_records(std::size_t log_index, const std::vector<LogRecord>& tagged, SimTime readable) {
  recorder_->check_order(log_index, tagged);
  if (!keep_logs_) return;
  PartitionLog& log = logs_->partitions[log_index];
  const SimTime at = log.records.empty() ? readable : std::max(readable, log.records.back().readable);
  for (LogRecord rec : tagged) {
    rec.readable = at;
    log.records.push_back(rec);
  }
  readable_changed(log_index);
}

// Followers: the high watermark passed the records of the batches below `hw`.
void Engine::high_watermark_moved(std::size_t partition, std::int64_t hw) {
  auto& waiting = unreplicated_[partition];
  if (!keep_logs_) {
    while (!waiting.empty() && waiting.front().end_bytes <= hw) waiting.pop_front();
    return;
  }
  auto& records = logs_->partitions[partition].records;
  std::size_t& readable = readable_records_[partition];
  for (; !waiting.empty() && waiting.front().end_bytes <= hw; waiting.pop_front())
    for (; readable < waiting.front().records_end; ++readable) records[readable].readable = now();
  readable_changed(partition);
}

// Followers: a new leader's log ends at `end`; the batches past it are gone (the records
// the high watermark never passed), from the idempotence state too: a producer that
// retries them appends them again.
void Engine::log_truncated(std::size_t partition, std::int64_t end) {
  auto& waiting = unreplicated_[partition];
  for (; !waiting.empty() && waiting.back().end_bytes > end; waiting.pop_back()) {
    replication_truncated_ += waiting.back().records;
    if (waiting.back().base_sequence >= 0)
      sequences_.truncate(partition, waiting.back().producer, waiting.back().base_sequence);
  }
  if (!keep_logs_) return;
  auto& records = logs_->partitions[partition].records;
  const std::size_t keep = waiting.empty() ? readable_records_[partition] : waiting.back().records_end;
  for (std::size_t i = keep; i < records.size(); ++i) recorder_->forget_appended(records[i]);
  records.resize(keep);
}

// Followers, the run over: records still above the high watermark were never readable (an
// ISR below min.insync.replicas kept it): the logs the consumers read end at it.
void Engine::drop_unreadable_records() {
  if (!replication_) return;
  for (std::size_t i = 0; i < unreplicated_.size(); ++i) {
    for (const Unreplicated& u : unreplicated_[i]) replication_uncommitted_ += u.records;
    unreplicated_[i].clear();
    if (keep_logs_) logs_->partitions[i].records.resize(readable_records_[i]);
  }
}

void Engine::sequence_gap(std::uint32_t p, std::int32_t partition) {
  sequences_.reset(stats_offset_[topic_of_[p]] + static_cast<std::size_t>(partition), p);
}

}  // namespace partsim::model::detail
