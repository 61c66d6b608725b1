#include "model/detail/leader_logs.hpp"

#include <algorithm>

namespace partsim::model::detail {

LeaderLogs::LeaderLogs(const Scenario& s, Keeping keeping, std::size_t rows, const std::vector<std::size_t>& first_row,
                       const Leadership& leadership, const std::vector<char>& up, Replication* replication,
                       RunRecorder& recorder, ReadableListener& listener, std::pmr::memory_resource* memory)
    : s_(s),
      keeping_(keeping),
      first_row_(first_row),
      leadership_(leadership),
      up_(up),
      replication_(replication),
      recorder_(recorder),
      listener_(listener),
      sequences_(memory) {
  keeping_.tag_records = keeping_.tag_records || keeping_.keep_logs;  // the logs hold tagged records
  if (keeping_.tag_records) logs_ = std::make_shared<BrokerLogs>();
  if (keeping_.keep_logs) logs_->partitions.resize(rows);
  if (replication_) {
    unreplicated_.resize(rows);
    readable_records_.assign(rows, 0);
    return;
  }
  // Replication fixed: the ISR of a partition is taken to be its replicas on live brokers
  // (a dead broker leaves it at once, a recovered one is back in sync at once, as its
  // leadership moves at once); acks=all is refused below min.insync.replicas (§9.2).
  std::vector<std::int32_t> min_isr;
  bool any = false;
  for (const auto& tc : s.topics) {
    const std::int32_t configured = tc.min_insync > 0 ? tc.min_insync : s.replication.min_insync;
    min_isr.push_back(std::min(configured, tc.replication_factor));
    any = any || min_isr.back() > 1;
  }
  if (any) fixed_min_isr_ = std::move(min_isr);
}

void LeaderLogs::serve(std::uint64_t id, Request& r, ProduceError injected, SimTime now, SimTime readable) {
  ProduceErrorCounts& counts = recorder_.result().produce_errors;
  if (injected != ProduceError::kNone) {
    counts.injected += r.batches;
    r.errors.assign(static_cast<std::size_t>(r.batches), injected);
    if (!produce_error_info(injected).appended) return;
  }
  const bool idempotent = r.idempotent;
  const bool acks_all = r.acks_all;
  if (replication_) refuse_for_followers(r, acks_all);
  else if (acks_all && !fixed_min_isr_.empty()) refuse_under_min_isr(r);
  for (std::size_t k = 0; k < r.described.size(); ++k) {
    RequestBatch& rb = r.described[k];
    if (refused(r, k)) continue;
    // A failed log directory refuses every write, a duplicate's too (docs/disks.md).
    const auto storage_error = [&] {
      if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
      if (r.errors[k] != ProduceError::kNone) --counts.injected;  // an injected error it replaces
      r.errors[k] = ProduceError::kKafkaStorageError;
    };
    if (replication_ && replication_->disk_refuses(rb.log, 0, now)) {
      storage_error();
      continue;
    }
    if (idempotent && rb.base_sequence >= 0) {
      switch (sequences_.append(rb.log, r.producer, rb.base_sequence, rb.records)) {
        case ProducerStateTable::Verdict::kAppend: break;
        case ProducerStateTable::Verdict::kDuplicate:
          // Answered with the original offsets, already replicated: success, whatever
          // error a new append would have met (UnifiedLog.scala:893-898).
          ++counts.duplicates;
          if (injected != ProduceError::kNone) {
            --counts.injected;
            r.errors[k] = ProduceError::kNone;
          }
          // Followers: the original append may not be committed yet; the answer waits
          // for the high watermark to reach the log's end (at or past the original offsets).
          if (replication_ && acks_all && r.live) replication_->append(rb.log, 0, now, id);
          continue;
        case ProducerStateTable::Verdict::kOutOfOrder:
          ++counts.out_of_order;
          if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
          r.errors[k] = ProduceError::kOutOfOrderSequenceNumber;
          continue;
      }
    }
    // The write itself: one that does not fit on the leader's disk fails its log directory;
    // the producer state forgets the batch (UnifiedLog.append updates it after the write).
    if (replication_ && replication_->disk_refuses(rb.log, rb.bytes, now)) {
      if (idempotent && rb.base_sequence >= 0) sequences_.undo_last_append();
      storage_error();
      continue;
    }
    if (keeping_.tag_records) append_records(rb.log, r.tagged[k], replication_ ? SimTime::max() : readable);
    // Followers: the leader's log grows; an acks=all batch answered without error waits
    // for the high watermark. The records are readable once it passes them
    // (high_watermark_moved), which may be at once.
    if (replication_) {
      unreplicated_[rb.log].push_back({replication_->log_end(rb.log) + rb.bytes,
                                       keeping_.keep_logs ? logs_->partitions[rb.log].records.size() : 0, r.producer,
                                       idempotent ? rb.base_sequence : -1, rb.records});
      const bool waits = acks_all && r.live && (r.errors.empty() || r.errors[k] == ProduceError::kNone);
      replication_->append(rb.log, rb.bytes, now, waits ? std::optional<std::uint64_t>(id) : std::nullopt);
    }
  }
}

// The leader appends a batch's records; a record is readable once the high watermark passes
// it. The watermark only advances, so a record appended behind one readable later (another
// producer's acks=all) waits for it. The order check sees each record as it lands.
void LeaderLogs::append_records(std::size_t log_index, const std::vector<LogRecord>& tagged, SimTime readable) {
  recorder_.check_order(log_index, tagged);
  if (!keeping_.keep_logs) return;
  PartitionLog& log = logs_->partitions[log_index];
  const SimTime at = log.records.empty() ? readable : std::max(readable, log.records.back().readable);
  for (LogRecord rec : tagged) {
    rec.readable = at;
    log.records.push_back(rec);
  }
  listener_.readable_changed(log_index);
}

void LeaderLogs::high_watermark_moved(std::size_t partition, std::int64_t hw, SimTime now) {
  auto& waiting = unreplicated_[partition];
  if (!keeping_.keep_logs) {
    while (!waiting.empty() && waiting.front().end_bytes <= hw) waiting.pop_front();
    return;
  }
  auto& records = logs_->partitions[partition].records;
  std::size_t& readable = readable_records_[partition];
  for (; !waiting.empty() && waiting.front().end_bytes <= hw; waiting.pop_front())
    for (; readable < waiting.front().records_end; ++readable) records[readable].readable = now;
  listener_.readable_changed(partition);
}

// The batches past a new leader's log end are gone (the records the high watermark never
// passed), from the idempotence state too: a producer that retries them appends them again.
void LeaderLogs::log_truncated(std::size_t partition, std::int64_t end) {
  auto& waiting = unreplicated_[partition];
  for (; !waiting.empty() && waiting.back().end_bytes > end; waiting.pop_back()) {
    truncated_ += waiting.back().records;
    if (waiting.back().base_sequence >= 0)
      sequences_.truncate(partition, waiting.back().producer, waiting.back().base_sequence);
  }
  if (!keeping_.keep_logs) return;
  auto& records = logs_->partitions[partition].records;
  const std::size_t keep = waiting.empty() ? readable_records_[partition] : waiting.back().records_end;
  for (std::size_t i = keep; i < records.size(); ++i) recorder_.forget_appended(partition, records[i]);
  records.resize(keep);
}

bool LeaderLogs::unreplicated() const {
  return std::any_of(unreplicated_.begin(), unreplicated_.end(), [](const auto& u) { return !u.empty(); });
}

void LeaderLogs::finish() {
  for (std::size_t i = 0; i < unreplicated_.size(); ++i) {
    for (const Unreplicated& u : unreplicated_[i]) uncommitted_ += u.records;
    unreplicated_[i].clear();
    if (keeping_.keep_logs) logs_->partitions[i].records.resize(readable_records_[i]);
  }
}

// Followers: a batch for a partition this broker no longer leads (an election while the
// request waited, or the partition went offline) is refused NOT_LEADER_OR_FOLLOWER; acks=all
// is refused before the append while the ISR is below min.insync.replicas.
void LeaderLogs::refuse_for_followers(Request& r, bool acks_all) const {
  for (std::size_t k = 0; k < r.described.size(); ++k) {
    ProduceError refusal = ProduceError::kNone;
    if (!replication_->led_by(r.described[k].log, static_cast<std::int32_t>(r.broker))) {
      refusal = ProduceError::kNotLeaderOrFollower;
      replication_->count_error(refusal);
    } else if (acks_all && replication_->refuses(r.described[k].log)) {
      refusal = ProduceError::kNotEnoughReplicas;
    }
    if (refusal == ProduceError::kNone) continue;
    if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
    r.errors[k] = refusal;
  }
}

// Replication fixed: the ISR is the replicas on live brokers, so acks=all is refused
// NOT_ENOUGH_REPLICAS before the append while fewer of a partition's replicas are up than its
// effective min.insync.replicas (kafka-consumer-spec §9.2). The error is retriable: the
// producer retries until delivery.timeout.ms.
void LeaderLogs::refuse_under_min_isr(Request& r) {
  for (std::size_t k = 0; k < r.described.size(); ++k) {
    const std::size_t log = r.described[k].log;
    const auto topic =
        static_cast<std::size_t>(std::upper_bound(first_row_.begin(), first_row_.end(), log) - first_row_.begin() - 1);
    const std::int32_t min_isr = fixed_min_isr_[topic];
    if (min_isr <= 1) continue;
    std::int32_t live = 0;
    for (const std::int32_t b : leadership_.replicas(topic, static_cast<std::int32_t>(log - first_row_[topic])))
      live += up_[static_cast<std::size_t>(b)] ? 1 : 0;
    if (live >= min_isr) continue;
    if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
    if (r.errors[k] != ProduceError::kNone) continue;
    r.errors[k] = ProduceError::kNotEnoughReplicas;
    ++recorder_.result().produce_errors.not_enough_replicas;
  }
}

// A batch refused before the append: below min.insync.replicas, or (followers) sent to a
// broker that does not lead its partition. An injected error that is not appended returns
// earlier.
bool LeaderLogs::refused(const Request& r, std::size_t k) {
  return !r.errors.empty() &&
         (r.errors[k] == ProduceError::kNotEnoughReplicas || r.errors[k] == ProduceError::kNotLeaderOrFollower);
}

}  // namespace partsim::model::detail
