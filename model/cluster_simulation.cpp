// run_scenario: the engine's setup, the run loop, metadata and sampling.

#include "model/cluster_simulation.hpp"

#include "model/detail/producer_engine.hpp"
#include "model/producer/partition_order.hpp"

namespace partsim::model::detail {

// ---- construction --------------------------------------------------------------------------

Engine::Engine(const Scenario& s, std::uint64_t seed, std::uint64_t replication, const RunOptions& options)
    : s_(s), options_(options), streams_(seed, replication) {
  result_.scenario = s.name;
  result_.seed = seed;
  result_.window_ms = s.run.window.to_ms();
  for (const auto& bc : s.brokers) {
    Broker b;
    b.cfg = &bc;
    b.rtt = bc.rtt;
    b.request_time = bc.request_time;
    b.bytes_per_second = bc.bytes_per_second;
    b.jitter_rng = streams_.stream("broker/" + std::to_string(bc.id) + "/jitter");
    brokers_.push_back(std::move(b));
    BrokerStats bs;
    bs.broker = bc.id;
    result_.brokers.push_back(bs);
  }
  const auto num_brokers = static_cast<std::int32_t>(brokers_.size());
  for (const auto& tc : s.topics) {
    TopicState t;
    t.cfg = &tc;
    t.stats_offset = result_.partitions.size();
    // Replicas round-robin over the brokers, leader first (placement is refined later).
    for (std::int32_t p = 0; p < tc.partitions; ++p) {
      std::vector<std::int32_t> r;
      for (std::int32_t j = 0; j < tc.replication_factor; ++j) r.push_back((p + j) % num_brokers);
      t.leader.push_back(r.front());
      t.replicas.push_back(std::move(r));
      PartitionStats ps;
      ps.topic = tc.name;
      ps.partition = p;
      result_.partitions.push_back(ps);
    }
    if (s.run.sorted_partition_order) {
      t.client_order.resize(static_cast<std::size_t>(tc.partitions));
      for (std::int32_t p = 0; p < tc.partitions; ++p) t.client_order[static_cast<std::size_t>(p)] = p;
    } else {
      t.client_order = java_hashmap_partition_order(tc.name, tc.partitions);
    }
    topics_.push_back(std::move(t));
  }
  for (std::uint32_t i = 0; i < s.producers.size(); ++i) {
    const auto& spec = s.producers[i];
    Producer p;
    p.index = i;
    p.spec = &spec;
    p.cfg = &spec.config;
    for (std::uint32_t t = 0; t < s.topics.size(); ++t)
      if (s.topics[t].name == spec.workload.topic) p.topic = t;
    p.num_partitions = s.topics[p.topic].partitions;
    p.workload = std::make_unique<WorkloadGenerator>(spec.workload, streams_, spec.name);
    auto draw_rng = std::make_shared<sim::RandomEngine>(streams_.stream("producer/" + spec.name + "/partitioner"));
    // toPositive(nextInt()): 31 uniform bits (spec §2.1).
    const PartitionDraw draw = [draw_rng] { return static_cast<std::int32_t>((*draw_rng)() >> 33); };
    p.partitioner = std::make_unique<BuiltInPartitioner>(spec.config.batch_size_bytes, draw);
    p.custom = make_partitioner(spec.config.partitioner, draw);
    p.backoff_rng = streams_.stream("producer/" + spec.name + "/sender/backoff");
    p.compressed = spec.config.compression != Compression::kNone;
    const auto n = static_cast<std::size_t>(p.num_partitions);
    p.deques.resize(n);
    p.deque_exists.assign(n, 0);
    p.muted.assign(n, 0);
    p.available_memory = spec.config.buffer_memory_bytes;
    p.drain_index.assign(brokers_.size(), 0);
    p.in_flight.assign(brokers_.size(), 0);
    p.node_latency.resize(brokers_.size());
    p.ready_nodes.assign(brokers_.size(), 0);
    p.tokens = spec.workload.arrivals.concurrency;
    producers_.push_back(std::move(p));
  }
  for (auto& p : producers_) refresh_metadata(p);
}

RunResult Engine::run() {
  for (auto& p : producers_) {
    if (p.workload->open_loop()) {
      p.next_due = p.workload->next_arrival(SimTime::zero());
      schedule_app(p, p.next_due);
    } else {
      schedule_app(p, SimTime::zero());
    }
  }
  for (std::uint32_t b = 0; b < brokers_.size(); ++b)
    for (std::uint32_t i = 0; i < brokers_[b].cfg->schedule.size(); ++i) {
      sim_.schedule_at(brokers_[b].cfg->schedule[i].at, BrokerScheduleStep{b, i});
      if (brokers_[b].cfg->schedule[i].kind == BrokerChange::Kind::kFail) track_leaders_ = true;
    }
  if (track_leaders_) {
    snapshot_leaders("start");
    if (s_.controller.auto_leader_rebalance)
      sim_.schedule_in(s_.controller.imbalance_check_interval, LeaderCheck{});
  }

  if (options_.timeseries > SimTime::zero()) {
    result_.timeseries.interval_ms = options_.timeseries.to_ms();
    ts_records_.assign(result_.partitions.size(), 0);
    ts_wait_sum_.assign(brokers_.size(), 0.0);
    ts_wait_count_.assign(brokers_.size(), 0);
    sim_.schedule_at(SimTime::zero(), Sample{});
  }
  // Run in slices so that a cancel request is seen within a few thousand events.
  sim::StopRule slice;
  slice.max_events = 4096;
  for (;;) {
    if (cancelled()) {
      result_.partial = true;
      break;
    }
    if (sim_.run(slice, [this](const Event& e) { std::visit(*this, e); }) != sim::StopReason::kEventLimit) break;
  }

  result_.simulated_ms = last_completion_.to_ms();
  // Work done, not a result: sampling adds events (and breaks inline sends into events).
  result_.events = sim_.events_processed();
  result_.hot_keys = hot_keys_.result();
  for (const auto& t : topics_)
    for (std::size_t p = 0; p < t.leader.size(); ++p) {
      const std::int32_t l = t.leader[p];
      result_.partitions[t.stats_offset + p].leader = l < 0 ? -1 : brokers_[static_cast<std::size_t>(l)].cfg->id;
    }
  for (const auto& p : producers_) {
    result_.partitioner_switches += p.partitioner->switches();
    const auto& chosen = p.partitioner->adaptive_choices();
    const auto& expected = p.partitioner->adaptive_expected();
    const std::size_t base = topics_[p.topic].stats_offset;
    if (chosen.empty()) continue;
    result_.adaptive_choices.resize(result_.partitions.size(), 0);
    result_.adaptive_expected.resize(result_.partitions.size(), 0.0);
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      result_.adaptive_choices[base + i] += chosen[i];
      result_.adaptive_expected[base + i] += expected[i];
    }
  }
  return std::move(result_);
}

std::uint32_t Engine::new_batch() {
  std::uint32_t id;
  if (!free_batches_.empty()) {
    id = free_batches_.back();
    free_batches_.pop_back();
    auto times = std::move(batches_[id].send_times);
    times.clear();
    batches_[id] = Batch{};
    batches_[id].send_times = std::move(times);
  } else {
    id = static_cast<std::uint32_t>(batches_.size());
    batches_.emplace_back();
  }
  return id;
}

void Engine::free_batch(std::uint32_t id) { free_batches_.push_back(id); }

// ---- metadata -------------------------------------------------------------------------------

void Engine::refresh_metadata(Producer& p) {
  const TopicState& t = topics_[p.topic];
  p.leader_view = t.leader;
  p.available.clear();
  for (auto& v : p.parts_for_node) v.clear();
  p.parts_for_node.resize(brokers_.size());
  for (std::int32_t part : t.client_order) {
    const std::int32_t l = t.leader[static_cast<std::size_t>(part)];
    if (l < 0) continue;
    p.available.push_back(part);
    p.parts_for_node[static_cast<std::size_t>(l)].push_back(part);
  }
}

void Engine::operator()(const MetadataRefresh& e) {
  Producer& p = producers_[e.producer];
  refresh_metadata(p);
  wake_sender(p, now());
}


void Engine::operator()(const Sample&) {
  TimeSeries& ts = result_.timeseries;
  ts.time_ms.push_back(now().to_ms());
  std::vector<std::int32_t> queues(result_.partitions.size(), 0);
  std::vector<std::int32_t> in_flight(brokers_.size(), 0);
  std::int64_t buffer = 0;
  for (const auto& p : producers_) {
    const std::size_t base = topics_[p.topic].stats_offset;
    for (std::size_t part = 0; part < p.deques.size(); ++part) queues[base + part] += static_cast<std::int32_t>(p.deques[part].size());
    for (std::size_t b = 0; b < brokers_.size(); ++b) in_flight[b] += p.in_flight[b];
    buffer += p.cfg->buffer_memory_bytes - p.available_memory;
  }
  std::vector<double> waits(brokers_.size(), 0.0);
  for (std::size_t b = 0; b < brokers_.size(); ++b)
    waits[b] = ts_wait_count_[b] ? ts_wait_sum_[b] / static_cast<double>(ts_wait_count_[b]) : 0.0;
  ts.partition_queue.push_back(std::move(queues));
  ts.partition_records.push_back(ts_records_);
  ts.broker_in_flight.push_back(std::move(in_flight));
  ts.broker_queue_wait_ms.push_back(std::move(waits));
  ts.buffer_bytes.push_back(buffer);
  std::fill(ts_records_.begin(), ts_records_.end(), 0);
  std::fill(ts_wait_sum_.begin(), ts_wait_sum_.end(), 0.0);
  std::fill(ts_wait_count_.begin(), ts_wait_count_.end(), 0);
  // Keep sampling while producers send or anything is buffered or in flight.
  bool active = false;
  for (const auto& p : producers_) {
    active = active || !p.stopped || !p.live_requests.empty() || p.blocked;
    for (const auto& dq : p.deques) active = active || !dq.empty();
  }
  if (active && sim_.has_pending()) sim_.schedule_in(options_.timeseries, Sample{});
}

}  // namespace partsim::model::detail

namespace partsim::model {

RunResult run_scenario(const Scenario& scenario, std::uint64_t seed, std::uint64_t replication, const RunOptions& options) {
  detail::Engine engine(scenario, seed, replication, options);
  return engine.run();
}


}  // namespace partsim::model
