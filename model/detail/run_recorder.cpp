#include "model/detail/run_recorder.hpp"

#include <algorithm>

#include "model/partitioners/key_hash.hpp"
#include "model/producer/sender_metrics.hpp"

namespace partsim::model::detail {

RunRecorder::RunRecorder(const Scenario& s, const RunOptions& options, const SimTime& clock, RunLayout layout,
                         std::vector<bool> grows)
    : s_(s),
      options_(options),
      clock_(clock),
      topic_of_(layout.topic_of.data()),
      first_row_(layout.first_row.data()),
      count_(layout.count.data()),
      grows_(std::move(grows)) {
  result_.scenario = s.name;
  result_.client = s.client.name();
  for (const auto& p : s.producers) {
    const PartitionerRun run = partitioner_run(p.config.partitioner.kind, p.config.client);
    const auto name = [&](PartitionerKind k) {
      return k == PartitionerKind::kCode ? p.config.partitioner.code_name
                                         : partitioner_names()[static_cast<std::size_t>(k)];
    };
    // The client's own release when the partitioner runs as it (round-robin-fixed under 3.9 is 3.9.2's).
    const std::string runs_as = !run.before_2_4 && run.line == p.config.client ? p.config.client.name() : run.runs_as();
    if (!p.config.client.java()) {  // another client's profile: its own partitioner, by its own name
      result_.clients.push_back(ClientRun{p.name, false, p.config.client.name(), p.config.profile.partitioner,
                                          p.config.profile.partitioner, p.config.client.name(), "", false});
      continue;
    }
    result_.clients.push_back(ClientRun{p.name, false, p.config.client.name(), name(p.config.partitioner.kind),
                                        name(run.kind), runs_as, p.rack.empty() ? p.config.client_rack : p.rack,
                                        p.config.rack_aware});
  }
  for (const auto& g : s.consumers)
    result_.clients.push_back(ClientRun{g.group, true, g.config.client.name(), "", "", "", g.config.client_rack});
  const bool profiles = std::any_of(s.producers.begin(), s.producers.end(),
                                    [](const ProducerSpec& p) { return !p.config.client.java(); });
  if (options.key_agreement || profiles) result_.key_agreement.emplace();
  result_.window_ms = s.run.window.to_ms();
  for (const auto& bc : s.brokers) {
    BrokerStats bs;
    bs.broker = bc.id;
    result_.brokers.push_back(bs);
  }
  // A topic that grows has a row for every partition it will have (by the run's end).
  for (const auto& tc : s.topics)
    for (std::int32_t p = 0; p < tc.partitions_before(s.run.duration); ++p) {
      PartitionStats ps;
      ps.topic = tc.name;
      ps.partition = p;
      result_.partitions.push_back(ps);
    }
  if (std::find(grows_.begin(), grows_.end(), true) != grows_.end()) {
    result_.repartition.emplace();
    key_partition_.resize(s.topics.size());
  }
}

// ---- what the producers report -----------------------------------------------------------------

void RunRecorder::record_appended(std::uint32_t p, const AppendedRecord& r) {
  result_.bytes_appended += r.bytes;
  last_append_ = now();
  const std::size_t t = topic_of_[p];
  const std::int32_t rows = count_[t];  // the partitions the topic has now
  if (result_.repartition && grows_[t]) {
    // Partition increases: records the producer partitioned by a count it had outgrown, and
    // keys whose records land in more than one partition.
    RepartitionResult& rep = *result_.repartition;
    if (r.partitions_known < rows) ++rep.records_old_rule_after_change;
    if (r.key) {
      auto& keys = key_partition_[t];
      const auto it = keys.find(*r.key);  // heterogeneous: no std::string unless the key is new
      if (it == keys.end()) keys.emplace(std::string(*r.key), r.partition);
      else if (it->second != r.partition) it->second = -1;
    }
  }
  if (r.key && r.partition < rows && r.intended >= s_.run.warmup)
    hot_keys_.add(row(p, r.partition), *r.key, static_cast<std::uint32_t>(r.key_hash));
  if (static_cast<std::int32_t>(result_.trace.size()) < s_.run.trace) result_.trace.push_back(r.partition);
  if (result_.key_agreement && r.key && r.partitions_known > 0 && r.intended >= s_.run.warmup) {
    ++result_.key_agreement->records;
    if (to_positive(r.key_hash) % r.partitions_known == r.partition) ++result_.key_agreement->as_java;
  }
  if (!ts_records_.empty() && r.partition < rows) ++ts_records_[row(p, r.partition)];
}

void RunRecorder::record_failed(std::uint32_t, FailureReason reason) { ++result_.failed[reason]; }
void RunRecorder::batch_retried(std::uint32_t) { ++result_.retries; }
void RunRecorder::send_blocked(std::uint32_t, SimTime waited) { result_.buffer_full_ms += waited.to_ms(); }

void RunRecorder::batch_done(std::uint32_t p, const BatchArena& batches, BatchId id, std::int32_t broker,
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
  // Speed: the per-record step is forced inline at both of for_each_send_time's calls (left
  // to itself, GCC's choice moves with what else shares the unity build's translation unit).
  batches.for_each_send_time(
      id, [&](SimTime t) __attribute__((always_inline)) {
        if (window > 0) {
          const auto w = static_cast<std::size_t>(t.count_ns() / window);
          if (w >= result_.windows.size())
            result_.windows.resize(w + 1, std::vector<std::int64_t>(result_.brokers.size(), 0));
          ++result_.windows[w][ub];
        }
        if (interval_latency_) interval_latency_->record((now() - t).count_ns());
        if (t < warmup) return;
        ++measured;
        result_.latency.record((now() - t).count_ns());
      });
  result_.records_measured += measured;
  PartitionStats& ps = result_.partitions[row(p, b.partition)];
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

void RunRecorder::record_batch(std::uint32_t p, const BatchArena& batches, BatchId id, std::int32_t broker,
                               bool acked) {
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

// ---- what the engine reports ---------------------------------------------------------------------

void RunRecorder::request_waited(std::size_t broker, SimTime waited) {
  const double waited_ms = waited.to_ms();
  result_.brokers[broker].queue_wait_ms_sum += waited_ms;
  if (ts_wait_sum_.empty()) return;
  ts_wait_sum_[broker] += waited_ms;
  ++ts_wait_count_[broker];
}

// The order check sees each record as it lands.
void RunRecorder::check_order(std::size_t log, std::span<const LogRecord> records) {
  if (!unchecked_rows_.empty() && unchecked_rows_[log]) return;
  if (order_max_.empty()) {  // the first records a run checks
    order_max_.resize(result_.partitions.size());
    appended_.resize(s_.producers.size());
  }
  auto& latest = order_max_[log];
  LogOrder& order = result_.log_order;
  for (const LogRecord& rec : records) {
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
}

void RunRecorder::forget_appended(std::size_t log, const LogRecord& record) {
  if (appended_.empty() || (!unchecked_rows_.empty() && unchecked_rows_[log])) return;
  auto& seen = appended_[static_cast<std::size_t>(record.producer)];
  if (static_cast<std::size_t>(record.send_index) < seen.size())
    seen[static_cast<std::size_t>(record.send_index)] = false;
}

void RunRecorder::start_time_series() {
  result_.timeseries.interval_ms = options_.timeseries.to_ms();
  ts_records_.assign(result_.partitions.size(), 0);
  ts_wait_sum_.assign(result_.brokers.size(), 0.0);
  ts_wait_count_.assign(result_.brokers.size(), 0);
}

void RunRecorder::sample(std::vector<std::int32_t> partition_queue, std::vector<std::int32_t> broker_in_flight,
                         std::int64_t buffer_bytes) {
  TimeSeries& ts = result_.timeseries;
  ts.time_ms.push_back(now().to_ms());
  std::vector<double> waits(result_.brokers.size(), 0.0);
  for (std::size_t b = 0; b < waits.size(); ++b)
    waits[b] = ts_wait_count_[b] ? ts_wait_sum_[b] / static_cast<double>(ts_wait_count_[b]) : 0.0;
  ts.partition_queue.push_back(std::move(partition_queue));
  ts.partition_records.push_back(ts_records_);
  ts.broker_in_flight.push_back(std::move(broker_in_flight));
  ts.broker_queue_wait_ms.push_back(std::move(waits));
  ts.buffer_bytes.push_back(buffer_bytes);
  std::fill(ts_records_.begin(), ts_records_.end(), 0);
  std::fill(ts_wait_sum_.begin(), ts_wait_sum_.end(), 0.0);
  std::fill(ts_wait_count_.begin(), ts_wait_count_.end(), 0);
}

void RunRecorder::add_producer(const KafkaProducer& p, std::uint32_t owner, bool copies, SimTime last_completion) {
  std::vector<std::int32_t> node_ids;
  for (const auto& b : result_.brokers) node_ids.push_back(b.broker);
  result_.producer_metrics.push_back(producer_metrics(p.spec().name, p.sender().metrics(), p.buffer_wait(),
                                                      p.send_errors(), last_completion, node_ids));
  if (copies) return;  // not the application's sends
  result_.records_sent += p.sent() - p.sent_before_hand_over();
  ClientRun& client = result_.clients[owner];  // the producers come first, in order
  if (!client.rack.empty()) {
    client.records += p.records_located();
    client.records_in_rack += p.records_in_rack();
  }
  const RecordAccumulator& acc = p.accumulator();
  result_.partitioner_switches += acc.partitioner().switches();
  result_.peak_buffer_bytes = std::max(result_.peak_buffer_bytes, acc.pool().peak_used_bytes());
  const auto& chosen = acc.adaptive_choices();
  if (chosen.empty()) return;
  const auto& expected = acc.adaptive_expected();
  const std::size_t base = first_row_[topic_of_[p.index()]];
  result_.adaptive_choices.resize(result_.partitions.size(), 0);
  result_.adaptive_expected.resize(result_.partitions.size(), 0.0);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    result_.adaptive_choices[base + i] += chosen[i];
    result_.adaptive_expected[base + i] += expected[i];
  }
}

// The statistics weigh a partition's expected share by it (analysis/repartition_report.hpp).
void RunRecorder::note_existence(std::span<const SimTime> created) {
  for (std::size_t i = 0; i < result_.partitions.size(); ++i) {
    const SimTime from = std::max(created[i], s_.run.warmup);
    result_.partitions[i].existed_ms =
        created[i] == SimTime::max() || from >= last_append_ ? 0.0 : (last_append_ - from).to_ms();
  }
}

void RunRecorder::finish() {
  result_.hot_keys = hot_keys_.result();
  if (!result_.repartition) return;
  for (const auto& keys : key_partition_)
    for (const auto& [key, partition] : keys) result_.repartition->keys_split += partition < 0 ? 1 : 0;
}

}  // namespace partsim::model::detail
