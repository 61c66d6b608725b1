// run_scenario: the engine's setup, the run loop, and the dispatch of every event
// (events.hpp) to the part it concerns. What a producer, a broker or the controller does is
// in its own unit (model/producer/, model/cluster/); the engine's parts own their state in
// model/detail/: the Network (network.hpp: the serve path, from a request sent to its
// response, the brokers' queues and the connections), the Controller (controller.hpp: who
// leads, the topics' partition steps), the leaders' logs (leader_logs.hpp: the append,
// idempotence, high watermarks), the Consumers (consumers.hpp: the consumer groups and
// their fetches, fetch_server.hpp), the MigrationRunner (migration_runner.hpp) and the
// RunRecorder (run_recorder.hpp: the results, which the producers report to). Here and in
// engine_*.cpp is only who is told what, and when: engine_replication.cpp (followers),
// engine_repartition.cpp (producers' metadata refreshes as topics grow),
// engine_controller.cpp (brokers' schedules, failures and leader elections),
// engine_results.cpp (time series samples, the results gathered at the end),
// engine_consumers.cpp (what the groups are told) and engine_migration.cpp (a migration's
// producers).

#include "model/cluster_simulation.hpp"

#include <algorithm>

#include "model/detail/engine.hpp"
#include "model/producer/partition_order.hpp"
#include "sim/check.hpp"

namespace partsim::model::detail {

// ---- setup ------------------------------------------------------------------------------------

namespace {

// A migration's twins (one per producer of its old topic) and its bridge are clients too.
std::uint32_t clients_of(const Scenario& s) {
  std::uint32_t n = static_cast<std::uint32_t>(s.producers.size());
  if (!s.migration) return n;
  for (const auto& p : s.producers) n += p.workload.topic == s.migration->from ? 1 : 0;
  return n + 1;
}

}  // namespace

Engine::Engine(const Scenario& s, std::uint64_t seed, std::uint64_t replication, const RunOptions& options)
    : s_(s), options_(options), streams_(seed, replication), leadership_(s.topics, s.brokers) {
  // Speed: a run whose producers keep many partition states reads them, their batches and the
  // leaders' sequence states at random: those go where huge pages may back them.
  std::size_t states = 0;  // producer x partition states, every topic at the count it reaches
  for (const auto& spec : s.producers) {
    const std::size_t topic = s.topic_index(spec.workload.topic).value_or(0);
    topic_of_.push_back(topic);
    owner_.push_back(static_cast<std::uint32_t>(owner_.size()));
    client_configs_.push_back(&spec.config);
    states += static_cast<std::size_t>(s.topics[topic].partitions_before(s.run.duration));
  }
  setup_migration();  // the twins' topics join topic_of_ before the recorder reads it
  if (states >= kHugePageStates) {
    huge_pages_ = std::make_unique<sim::HugePageResource>();
    memory_ = huge_pages_.get();
  }
  batch_arena_ = std::make_shared<BatchArena>(memory_);
  batch_arena_->keep_sent(options.batches);  // only batches.csv reads drain times
  hosts_.reserve(s.hosts.size());
  for (const auto& h : s.hosts) hosts_.emplace_back(h.cores);
  const auto host_of = [&](const std::string& name) -> HostCores* {
    if (name.empty()) return nullptr;  // no host: (the loader refuses an empty host name)
    for (std::size_t h = 0; h < s.hosts.size(); ++h)
      if (s.hosts[h].name == name) return &hosts_[h];
    return nullptr;  // "": cores of its own (the loader refuses unknown names)
  };
  std::vector<BrokerService> brokers;
  brokers.reserve(s.brokers.size());
  bool injects_errors = false;
  for (const auto& bc : s.brokers) {
    const std::string name = "broker/" + std::to_string(bc.id);
    brokers.emplace_back(bc, streams_.stream(name + "/jitter"), streams_.stream(name + "/errors"));
    brokers.back().place_on(host_of(bc.host));
    injects_errors = injects_errors || bc.error_rate > 0;
    for (const auto& step : bc.schedule)
      injects_errors = injects_errors || step.kind == BrokerChange::Kind::kSetErrorRate;
  }
  std::vector<double> link_rates;
  for (const auto& bc : s.brokers) link_rates.push_back(bc.network_bytes_per_second);
  network_.emplace(std::move(brokers), clients_of(s), !s.replication.followers(), sim_, *this,
                   BrokerLinks(std::move(link_rates)));
  up_.assign(s.brokers.size(), 1);
  if (s.replication.followers()) {
    replication_.emplace(s, leadership_, *this);
    if (network_->links().limited()) replication_->set_links(&network_->links());
  }
  // The rows of RunResult::partitions: topic by topic, a row for every partition a topic
  // will have by the run's end. A step at or after the run's end is never made (the loader
  // warns): its partitions do not exist, in the rows, the statistics or the consumer groups.
  std::vector<bool> grows;
  std::size_t rows = 0;
  for (const auto& tc : s.topics) {
    stats_offset_.push_back(rows);
    rows += static_cast<std::size_t>(tc.partitions_before(s.run.duration));
    grows.push_back(tc.grows_before(s.run.duration));
  }
  controller_.emplace(s, leadership_, up_, replication_ ? &*replication_ : nullptr);
  recorder_.emplace(s, options_, sim_.clock(), RunLayout{topic_of_, stats_offset_, controller_->partition_counts()},
                    std::move(grows));
  result().seed = seed;
  result().log_order.checked = options.keep_logs || injects_errors;
  // Consumer groups and a migration's bridge read the logs as they are written (run_scenario
  // drops them unless asked for); records carry tags (key, send index) to the
  // leader when the run keeps logs or checks order (a broker injects errors).
  LeaderLogs::Keeping keeping;
  keeping.keep_logs = options.keep_logs || !s.consumers.empty() || s.migration.has_value();
  keeping.tag_records = keeping.keep_logs || injects_errors;
  leaders_.emplace(s, keeping, rows, stats_offset_, leadership_, up_, replication_ ? &*replication_ : nullptr,
                   *recorder_, *this, memory_);
  // A stop-replay migration stops the producers of its old topic at its at.ms (book ch.
  // 10.3, strategy A); their twins take the application over once the new topic is
  // verified (migration_runner.hpp). The producers of other topics go on.
  const bool stop_replay = s.migration && s.migration->strategy == MigrationSpec::Strategy::kStopReplay;
  std::vector<std::string> broker_racks;
  for (const auto& b : s.brokers) broker_racks.push_back(b.rack);
  if (s.migration) {  // before the bridge's producer, which reports to it
    const std::size_t to = *s.topic_index(s.migration->to);
    migration_from_ = *s.topic_index(s.migration->from);
    migration_.emplace(s, *leaders_->logs(), result().partitions, stats_offset_[migration_from_], stats_offset_[to],
                       streams_, sim_.clock(), *this);
    // The new topic's order is the migration's figure (a copy repeats its original's send()).
    recorder_->skip_order_check(stats_offset_[to],
                                static_cast<std::size_t>(s.topics[to].partitions_before(s.run.duration)));
  }
  std::vector<std::string> client_racks;  // where each client runs: its rack, else its client.rack
  for (std::uint32_t i = 0; i < topic_of_.size(); ++i) {
    const auto& spec = i >= s.producers.size() ? twin_specs_[i - s.producers.size()] : s.producers[i];
    client_racks.push_back(spec.rack.empty() ? spec.config.client_rack : spec.rack);
  }
  traffic_.emplace(s, std::move(client_racks), bridge_client_ != 0 ? std::int64_t{bridge_client_} : -1, sim_.clock());
  for (std::uint32_t i = 0; i < topic_of_.size(); ++i) {
    const bool twin = i >= s.producers.size();
    const bool bridge = twin && i == bridge_client_;
    const auto& spec = twin ? twin_specs_[i - s.producers.size()] : s.producers[i];
    std::optional<SimTime> stop = s.run.duration;
    if (stop_replay && !twin && spec.workload.topic == s.migration->from)
      stop = stop ? std::min(*stop, s.migration->at) : s.migration->at;
    const SendBudget budget{s.run.records, stop, &total_sent_};
    const std::size_t topic = topic_of_[i];
    ProducerMemory memory{batch_arena_, memory_, nullptr};
    if (leaders_->tags_records())
      memory.key_id = [logs = leaders_->logs().get()](std::string_view key) { return logs->intern(key); };
    producers_.push_back(sim::make_in<KafkaProducer>(
        memory_, i, spec, controller_->client_order(topic, s.topics[topic].partitions), leadership_.leaders(topic), up_,
        streams_, budget, *this, bridge ? static_cast<ProducerObserver&>(*migration_) : *recorder_, std::move(memory)));
    producers_.back()->place_on(host_of(spec.host));
    producers_.back()->locate(broker_racks);
    producers_.back()->skip_idle_passes(options.skip_idle_passes);
    if (bridge) {
      producers_.back()->fed_by_mirror();
      migration_->attach_writer(*producers_.back());
    } else if (twin) {
      producers_.back()->wait_for_application();
    }
  }
  sim_.resize_timers(producers_.size() * kTimersPerProducer);
  setup_repartition();
  // Speed: the look-ahead of sends (KafkaProducer::look_ahead, prefetch_next_send) pays where the
  // producers' partition states do not stay in cache; a few thousand do.
  prefetch_sends_ = states >= kPrefetchStates;
  for (auto& p : producers_) p->look_ahead_sends(prefetch_sends_);
}

RunResult Engine::run() {
  // A topic's steps go first in the queue: a refresh due at the same time sees the change.
  // Steps at 0 ms are made below, before anything runs.
  for (std::uint32_t t = 0; t < s_.topics.size(); ++t)
    for (std::uint32_t i = 0; i < controller_->topic_steps(t).size(); ++i)
      if (const SimTime at = controller_->topic_steps(t)[i].at; at > SimTime::zero())
        sim_.schedule_at(at, TopicStep{t, i});
  for (auto& p : producers_) p->start(now());
  if (result().repartition)
    for (std::uint32_t p = 0; p < producers_.size(); ++p) arm_metadata_refresh(p);
  for (std::uint32_t b = 0; b < network_->brokers(); ++b)
    for (std::uint32_t i = 0; i < s_.brokers[b].schedule.size(); ++i)
      sim_.schedule_at(s_.brokers[b].schedule[i].at, BrokerScheduleStep{b, i}), ++broker_steps_left_;
  if (replication_) {
    replication_->start(now());
    sim_.schedule_in(replication_->isr_check_interval(), IsrCheck{});
    if (replication_->models_disks()) {
      sim_.schedule_in(s_.replication.initial_task_delay, RetentionCheck{});
      disk_interval_ = options_.timeseries > SimTime::zero() ? options_.timeseries : SimTime::ms(10000);
      sim_.schedule_at(SimTime::zero(), DiskSample{});
    }
    bool reassigns = false;
    for (std::uint32_t t = 0; t < s_.topics.size(); ++t)
      for (std::uint32_t i = 0; i < s_.topics[t].schedule.size(); ++i) {
        const TopicChange& c = s_.topics[t].schedule[i];
        if (!c.reassign || (s_.run.duration && c.at >= *s_.run.duration)) continue;
        sim_.schedule_at(c.at, ReassignStart{t, i});
        reassigns = true;
      }
    if (reassigns) {
      // Sampled from the start, so the latency before the move is there to compare.
      reassign_interval_ = options_.timeseries > SimTime::zero() ? options_.timeseries : SimTime::ms(1000);
      recorder_->keep_interval_latency();
      sim_.schedule_at(SimTime::zero(), ReassignSample{});
    }
  }
  if (controller_->keeps_history()) {
    controller_->start(now());
    if (s_.controller.auto_leader_rebalance) sim_.schedule_in(s_.controller.imbalance_check_interval, LeaderCheck{});
  }
  if (!s_.consumers.empty()) {  // before the topic steps at 0 ms, which the groups learn of
    consumers_.emplace(s_, options_, *leaders_->logs(), result(), stats_offset_, leadership_, *network_, sim_, *this,
                       &*traffic_, replication_ ? &*replication_ : nullptr);
    consumers_->start();
  }
  if (migration_) migration_->start();
  start_repartition();
  if (options_.timeseries > SimTime::zero()) {
    recorder_->start_time_series();
    sim_.schedule_at(SimTime::zero(), Sample{});
  }
  // Run in slices so that a cancel request is seen within a few thousand events.
  sim::StopRule slice;
  slice.max_events = 4096;
  for (;;) {
    if (cancelled()) {
      result().partial = true;
      break;
    }
    const auto handle = [this](const Event& e) {
      // Speed: the next event's first cache miss, asked for while this one runs: a send() whose
      // record's partition state a fleet of producers seldom finds in cache.
      if (prefetch_sends_)
        if (const Event* next = sim_.next_payload())
          if (const auto* send = std::get_if<AppSend>(next)) producer(send->producer).prefetch_next_send();
      std::visit(*this, e);
      if (after_event_.empty()) return;
      for (const std::uint32_t p : after_event_) producer(p).after_event(now());
      after_event_.clear();
    };
    if (!consumers_) {
      if (sim_.run(slice, handle) != sim::StopReason::kEventLimit) break;
      continue;
    }
    // Consumer groups: their queues interleave with this one, which goes first at equal times.
    const SimTime next = consumers_->next_time();
    if (sim_.has_pending() && sim_.next_event_time() <= next) {
      // Up to the group's next event, or sooner when an event gives a group an earlier one.
      sim::StopRule upto;
      upto.max_events = slice.max_events;
      upto.until = next;
      upto.predicate = [this] { return consumers_->woken(); };
      consumers_->clear_woken();
      sim_.run(upto, handle);
    } else if (next < SimTime::max()) {
      consumers_->step();
    } else {
      break;
    }
  }

  gather_results();
  if (consumers_) consumers_->finish();
  return std::move(result());
}

// ---- producers ----------------------------------------------------------------------------------

void Engine::operator()(const AppSend& e) {
  KafkaProducer& p = producer(e.producer);
  p.app_event_fired();
  // The application thread sends, then runs inline to its next send() while nothing else
  // happens before it (DESIGN: "a source whose next arrival time is known").
  for (std::uint32_t inline_sends = 0;; ++inline_sends) {
    if ((inline_sends & 4095) == 4095 && cancelled()) return;
    const std::optional<SimTime> next = p.send_next(now());
    if (!next) return;
    // A wake-up left for after this event (an idle pass skipped, by this producer or a dual
    // write's twin) stands for a pass due now, which would have stopped the inline run: the
    // next send is an event, as it was then.
    if (!after_event_.empty() || !sim_.try_advance(*next)) {
      p.schedule_app(*next, now());
      return;
    }
  }
}

void Engine::operator()(const SenderWake& e) { producer(e.producer).on_sender_wake(e.generation, now()); }
void Engine::operator()(const SecondCall& e) { producer(e.producer).on_second_call(e.send, now()); }
void Engine::operator()(const BufferTimeout& e) { producer(e.producer).on_buffer_timeout(e.block, now()); }
void Engine::operator()(const RequestTimeout& e) { producer(e.producer).on_request_deadline(now()); }

void Engine::operator()(const MetadataRefresh& e) {
  const std::size_t t = topic_of_[e.producer];
  KafkaProducer& p = producer(e.producer);
  const std::int32_t count = controller_->partition_counts()[t];
  const bool grows = count > p.metadata().num_partitions();
  p.on_metadata(leadership_.leaders(t), now(),
                grows ? std::span<const std::int32_t>(controller_->client_order(t, count))
                      : std::span<const std::int32_t>());
  if (!result().repartition) return;
  if (grows) saw_new_count_[e.producer] = now().to_ms();
  last_refresh_[e.producer] = now();
  arm_metadata_refresh(e.producer);
}

void Engine::operator()(const Disconnect& e) {
  if (network_->broker(e.broker).epoch() != e.epoch) return;  // the broker came back meanwhile
  producer(e.producer).on_disconnect(e.broker, now());
}

// A producer's next send() is scheduled once and never replaced (KafkaProducer keeps at most
// one pending): an event in the store. Its sender wake-up and its request deadline are
// timer slots, so a wake-up superseded by an earlier one is replaced, not left to surface
// stale.
void Engine::schedule_app(std::uint32_t p, SimTime at) { sim_.schedule_at(at, AppSend{p}); }
void Engine::schedule_sender(std::uint32_t p, std::uint64_t generation, SimTime at) {
  sim_.emplace_timer<SenderWake>(timer_slot(p, kSenderTimer), at, SenderWake{p, generation});
}
void Engine::schedule_buffer_timeout(std::uint32_t p, std::uint64_t block, SimTime at) {
  sim_.schedule_at(at, BufferTimeout{p, block});
}
void Engine::schedule_second_call(std::uint32_t p, std::uint64_t send, SimTime at) {
  sim_.schedule_at(at, SecondCall{p, send});
}
void Engine::schedule_request_deadline(std::uint32_t p, SimTime at) {
  sim_.emplace_timer<RequestTimeout>(timer_slot(p, kDeadlineTimer), at, RequestTimeout{p});
}

void Engine::request_metadata(std::uint32_t p, std::size_t node) {
  sim_.schedule_in(network_->broker(node).rtt(), MetadataRefresh{p});
}

// ---- requests: what travels with them (the network, network.hpp, carries them) ------------------------

std::uint64_t Engine::send_request(std::uint32_t p, std::size_t node, std::int64_t bytes,
                                   std::span<const BatchId> batches, bool expects_response) {
  const ProducerConfig& config = config_of(p);
  traffic_->produce_request(p, static_cast<std::uint32_t>(node), bytes, static_cast<std::int32_t>(batches.size()),
                            s_.topics[topic_of_[p]].name);
  const std::uint64_t id = network_->send(p, static_cast<std::uint32_t>(node), bytes,
                                          static_cast<std::int32_t>(batches.size()), expects_response,
                                          config.acks == Acks::kAll, config.idempotence);
  Request& r = network_->request(id);
  const bool tag_records = leaders_->tags_records();
  if (tag_records || config.idempotence || replication_) {
    // What the leader needs of each batch travels with the request: a batch's slot may be
    // reused before the leader appends it (acks=0 completes at send).
    const RecordAccumulator& acc = producer(p).accumulator();
    const std::size_t base = stats_offset_[topic_of_[p]];
    r.described.resize(batches.size());
    if (tag_records) r.tagged.resize(batches.size());
    for (std::size_t k = 0; k < batches.size(); ++k) {
      const ProducerBatch& b = acc.batch(batches[k]);
      RequestBatch& rb = r.described[k];
      rb.log = static_cast<std::uint32_t>(base + static_cast<std::size_t>(b.partition));
      rb.base_sequence = b.base_sequence;
      rb.records = b.records;
      rb.bytes = b.estimated_bytes();
      rb.id = batches[k];
      if (!tag_records) continue;
      std::vector<LogRecord>& tagged = r.tagged[k];
      tagged.clear();
      const std::span<const RecordTag> tags = acc.batches().tags(batches[k]);
      PARTSIM_CHECK(tags.size() == static_cast<std::size_t>(b.records),
                    "a batch without a tag per record in a run that tags records");
      tagged.reserve(tags.size());
      if (p == bridge_client_ && p != 0) {  // the bridge's copies: each its original's send()
        for (const RecordTag& tag : tags) tagged.push_back(migration_->copied(tag.send_index));
        continue;
      }
      std::size_t i = 0;
      acc.batches().for_each_send_time(batches[k], [&](SimTime t) {
        tagged.push_back(LogRecord{tags[i].key, static_cast<std::int32_t>(owner_[p]), tags[i].send_index, t,
                                   SimTime::zero()});
        ++i;
      });
    }
  }
  if (r.described.empty()) r.batch_ids.assign(batches.begin(), batches.end());
  return id;
}

void Engine::abandon_request(std::uint32_t, std::uint64_t id) {
  network_->abandon(id);  // later events for it find nothing and do nothing
}

// A closed connection takes its mute along (Kafka's Processor forgets a closed channel): the
// producer's next requests come on a new connection, not behind an abandoned request still
// in service. New connections are numbered in the order they open, so a threaded broker
// hands them to its network threads round robin (SocketServer's Acceptor).
void Engine::close_connection(std::uint32_t p, std::size_t node) { network_->reconnect(p, node); }

// ---- the network's neighbours (NetworkHost) --------------------------------------------------------

void Engine::request_started(std::uint32_t broker, SimTime waited, const Request* r) {
  recorder_->request_waited(broker, waited);
  // Speed: the sequence check at BrokerDone reads each batch's producer state: ask for it now.
  if (r && r->idempotent) leaders_->prefetch_states(*r);
}

bool Engine::serve(std::uint64_t id, Request& r, ProduceError error, SimTime at, SimTime replicated) {
  leaders_->serve(id, r, error, at, replicated);
  return replication_ && replication_->waiting(id);
}

void Engine::responding(const Request& r) {
  traffic_->produce_response(r.producer, r.broker, r.batches, s_.topics[topic_of_[r.producer]].name);
  // Speed: the producer's batches a response completes were drained a round trip ago and are
  // seldom in cache; they are asked for now, while other events run.
  const RecordAccumulator& acc = producer(r.producer).accumulator();
  for (const RequestBatch& rb : r.described) acc.prefetch_batch(rb.id);
  for (const BatchId b : r.batch_ids) acc.prefetch_batch(b);
}

}  // namespace partsim::model::detail

namespace partsim::model {

RunResult run_scenario(const Scenario& scenario, std::uint64_t seed, std::uint64_t replication,
                       const RunOptions& options) {
  RunResult result = detail::Engine(scenario, seed, replication, options).run();
  if (!options.keep_logs) result.logs.reset();
  return result;
}

}  // namespace partsim::model
