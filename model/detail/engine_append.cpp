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
    result_.produce_errors.injected += r.batches;
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
          ++result_.produce_errors.duplicates;
          if (injected != ProduceError::kNone) {
            --result_.produce_errors.injected;
            r.errors[k] = ProduceError::kNone;
          }
          // Followers: the original append may not be committed yet; the answer waits
          // for the high watermark to reach the log's end (at or past the original offsets).
          if (replication_ && acks_all && r.live) replication_->append(rb.log, 0, now(), id);
          continue;
        case ProducerStateTable::Verdict::kOutOfOrder:
          ++result_.produce_errors.out_of_order;
          if (r.errors.empty()) r.errors.assign(static_cast<std::size_t>(r.batches), ProduceError::kNone);
          r.errors[k] = ProduceError::kOutOfOrderSequenceNumber;
          continue;
      }
    }
    if (tag_records_) append_records(rb.log, r.tagged[k], readable);
    // Followers: the leader's log grows; an acks=all batch answered without error waits
    // for the high watermark.
    if (replication_) {
      const bool waits = acks_all && r.live && (r.errors.empty() || r.errors[k] == ProduceError::kNone);
      replication_->append(rb.log, rb.bytes, now(), waits ? std::optional<std::uint64_t>(id) : std::nullopt);
    }
  }
}

// The leader appends a batch's records; a record is readable once the high watermark passes
// it. The watermark only advances, so a record appended behind one readable later (another
// producer's acks=all) waits for it. The order check sees each record as it lands.
void Engine::append_records(std::size_t log_index, const std::vector<LogRecord>& tagged, SimTime readable) {
  auto& latest = order_max_[log_index];
  LogOrder& order = result_.log_order;
  for (const LogRecord& rec : tagged) {
    auto& seen = appended_[static_cast<std::size_t>(rec.producer)];
    const auto index = static_cast<std::size_t>(rec.send_index);
    if (index >= seen.size()) seen.resize(std::max(index + 1, seen.size() * 2), false);
    if (seen[index]) {
      ++order.duplicated_records;  // a retry of a batch the leader had appended
    } else if (rec.key != LogRecord::kNullKey) {
      seen[index] = true;
      const std::uint64_t who = (std::uint64_t{static_cast<std::uint32_t>(rec.producer)} << 32) |
                                static_cast<std::uint32_t>(rec.key);
      const auto [it, first] = latest.try_emplace(who, rec.send_index);
      if (!first && rec.send_index < it->second) {
        ++order.reordered_records;
        const auto key = static_cast<std::size_t>(rec.key);
        if (key >= key_reordered_.size()) key_reordered_.resize(key + 1, 0);
        if (!key_reordered_[key]) {
          key_reordered_[key] = 1;
          ++order.reordered_keys;
        }
      } else if (!first) {
        it->second = rec.send_index;
      }
    } else {
      seen[index] = true;
    }
  }
  if (!keep_logs_) return;
  PartitionLog& log = logs_->partitions[log_index];
  const SimTime at = log.records.empty() ? readable : std::max(readable, log.records.back().readable);
  for (LogRecord rec : tagged) {
    rec.readable = at;
    log.records.push_back(rec);
  }
}

void Engine::sequence_gap(std::uint32_t p, std::int32_t partition) {
  sequences_.reset(stats_offset_[topic_of_[p]] + static_cast<std::size_t>(partition), p);
}

}  // namespace partsim::model::detail
