// The run's results: the counters and histograms the producers report into as the run goes
// (ProducerHost's record_* and batch_* calls), the time series samples, and what is gathered
// from the producers, the leaders and the replication when the run ends.

#include <algorithm>

#include "model/detail/engine.hpp"
#include "model/producer/sender_metrics.hpp"

namespace partsim::model::detail {

void Engine::record_appended(std::uint32_t p, std::int32_t partition, std::int32_t record_bytes,
                             std::optional<std::string_view> key, std::int32_t key_hash, SimTime intended) {
  result_.bytes_appended += record_bytes;
  last_append_ = now();
  if (result_.repartition) note_repartition_record(p, partition, key);
  const std::int32_t rows = topic_count_[topic_of_[p]];  // the partitions the topic has now
  if (key && partition < rows && intended >= s_.run.warmup)
    hot_keys_.add(stats_offset_[topic_of_[p]] + static_cast<std::size_t>(partition), *key,
                  static_cast<std::uint32_t>(key_hash));
  if (static_cast<std::int32_t>(result_.trace.size()) < s_.run.trace) result_.trace.push_back(partition);
  if (!ts_records_.empty() && partition < rows)
    ++ts_records_[stats_offset_[topic_of_[p]] + static_cast<std::size_t>(partition)];
}

void Engine::record_failed(std::uint32_t, FailureReason reason) { ++result_.failed[reason]; }
void Engine::batch_retried(std::uint32_t) { ++result_.retries; }
void Engine::send_blocked(std::uint32_t, SimTime waited) { result_.buffer_full_ms += waited.to_ms(); }

void Engine::batch_done(std::uint32_t p, const BatchArena& batches, BatchId id, std::int32_t broker,
                        std::optional<FailureReason> reason) {
  const ProducerBatch& b = batches[id];
  last_completion_ = now();
  result_.bytes_completed += b.record_bytes;
  if (reason) {
    result_.failed[*reason] += b.records;
    if (options_.batches) record_batch(p, batches, id, -1, false);
    return;
  }
  result_.records_acked += b.records;
  const SimTime warmup = s_.run.warmup;
  std::int64_t measured = 0;
  const std::int64_t window = s_.run.window.count_ns();
  const auto ub = static_cast<std::size_t>(broker);
  batches.for_each_send_time(id, [&](SimTime t) {
    if (window > 0) {
      const auto w = static_cast<std::size_t>(t.count_ns() / window);
      if (w >= result_.windows.size()) result_.windows.resize(w + 1, std::vector<std::int64_t>(brokers_.size(), 0));
      ++result_.windows[w][ub];
    }
    if (t < warmup) return;
    ++measured;
    result_.latency.record((now() - t).count_ns());
  });
  result_.records_measured += measured;
  PartitionStats& ps = result_.partitions[stats_offset_[topic_of_[p]] + static_cast<std::size_t>(b.partition)];
  BrokerStats& bs = result_.brokers[ub];
  ps.records += measured;
  bs.records += measured;
  if (options_.batches) record_batch(p, batches, id, broker, true);
  if (b.created >= warmup) {
    result_.batch_bytes.record(b.built_bytes);
    constexpr std::size_t kMaxBin = 65536;
    const auto bin = std::min<std::size_t>(static_cast<std::size_t>(b.records), kMaxBin);
    if (result_.batch_records.size() <= bin) result_.batch_records.resize(bin + 1, 0);
    ++result_.batch_records[bin];
    ++ps.batches;
    ps.bytes += b.built_bytes;
    ++bs.batches;
    bs.bytes += b.built_bytes;
  }
}

void Engine::record_batch(std::uint32_t p, const BatchArena& batches, BatchId id, std::int32_t broker, bool acked) {
  const ProducerBatch& b = batches[id];
  BatchRecord row;
  row.topic = s_.topics[topic_of_[p]].name;
  row.partition = b.partition;
  row.broker = broker < 0 ? -1 : s_.brokers[static_cast<std::size_t>(broker)].id;
  row.records = b.records;
  row.bytes = b.estimated_bytes();
  row.created_ms = b.created.to_ms();
  row.sent_ms = b.built ? batches.sent(id).to_ms() : -1;
  row.done_ms = now().to_ms();
  row.acked = acked;
  result_.batches.push_back(std::move(row));
}

void Engine::operator()(const Sample&) {
  TimeSeries& ts = result_.timeseries;
  ts.time_ms.push_back(now().to_ms());
  std::vector<std::int32_t> queues(result_.partitions.size(), 0);
  std::vector<std::int32_t> in_flight(brokers_.size(), 0);
  std::int64_t buffer = 0;
  for (const auto& p : producers_) {
    const std::size_t base = stats_offset_[topic_of_[p->index()]];
    const RecordAccumulator& acc = p->accumulator();
    for (std::int32_t part = 0; part < acc.num_partitions(); ++part)
      queues[base + static_cast<std::size_t>(part)] += acc.deque_size(part);
    for (std::size_t b = 0; b < brokers_.size(); ++b) in_flight[b] += p->sender().in_flight(b);
    buffer += acc.pool().used_bytes();
  }
  std::vector<double> waits(brokers_.size(), 0.0);
  for (std::size_t b = 0; b < brokers_.size(); ++b)
    waits[b] = ts_wait_count_[b] ? ts_wait_sum_[b] / static_cast<double>(ts_wait_count_[b]) : 0.0;
  ts.partition_queue.push_back(std::move(queues));
  ts.partition_records.push_back(ts_records_);
  ts.broker_in_flight.push_back(std::move(in_flight));
  ts.broker_queue_wait_ms.push_back(std::move(waits));
  ts.buffer_bytes.push_back(buffer);
  if (replication_) replication_->sample(now());
  std::fill(ts_records_.begin(), ts_records_.end(), 0);
  std::fill(ts_wait_sum_.begin(), ts_wait_sum_.end(), 0.0);
  std::fill(ts_wait_count_.begin(), ts_wait_count_.end(), 0);
  // Keep sampling while producers send or anything is buffered or in flight.
  bool active = false;
  for (const auto& p : producers_)
    active = active || !p->stopped() || p->has_in_flight() || p->blocked() || p->accumulator().has_batches();
  if (active && sim_.has_pending()) sim_.schedule_in(options_.timeseries, Sample{});
}

// Called once the run has stopped (done or cancelled).
void Engine::gather_results() {
  result_.simulated_ms = last_completion_.to_ms();
  // Work done, not a result: sampling adds events (and breaks inline sends into events).
  result_.events = sim_.events_processed();
  result_.hot_keys = hot_keys_.result();
  finish_repartition();
  note_existence();
  // Up to the last completion (the controller's and the leaders' periodic checks run on).
  if (replication_) {
    drop_unreadable_records();
    result_.replication = replication_->finish(last_completion_);
    result_.replication.records_truncated = replication_truncated_;
    result_.replication.records_uncommitted = replication_uncommitted_;
  }
  if (keep_logs_) result_.logs = logs_;
  for (std::size_t t = 0; t < s_.topics.size(); ++t) {
    const auto leaders = leadership_.leaders(t);
    for (std::size_t p = 0; p < leaders.size(); ++p)
      result_.partitions[stats_offset_[t] + p].leader =
          leaders[p] < 0 ? -1 : s_.brokers[static_cast<std::size_t>(leaders[p])].id;
  }
  std::vector<std::int32_t> node_ids;
  for (const auto& b : result_.brokers) node_ids.push_back(b.broker);
  for (const auto& p : producers_) {
    result_.producer_metrics.push_back(producer_metrics(p->spec().name, p->sender().metrics(), p->buffer_wait(),
                                                        p->send_errors(), last_completion_, node_ids));
    result_.records_sent += p->sent();
    const RecordAccumulator& acc = p->accumulator();
    result_.partitioner_switches += acc.partitioner().switches();
    result_.peak_buffer_bytes = std::max(result_.peak_buffer_bytes, acc.pool().peak_used_bytes());
    const auto& chosen = acc.adaptive_choices();
    if (chosen.empty()) continue;
    const auto& expected = acc.adaptive_expected();
    const std::size_t base = stats_offset_[topic_of_[p->index()]];
    result_.adaptive_choices.resize(result_.partitions.size(), 0);
    result_.adaptive_expected.resize(result_.partitions.size(), 0.0);
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      result_.adaptive_choices[base + i] += chosen[i];
      result_.adaptive_expected[base + i] += expected[i];
    }
  }
}

}  // namespace partsim::model::detail
