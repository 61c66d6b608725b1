#pragma once
// The engine behind run_scenario (cluster_simulation.hpp): the Engine that dispatches each
// event (events.hpp) to the part it concerns (a KafkaProducer, the Network, the Controller,
// the Replication, the Consumers, the MigrationRunner), implements what each asks of its
// host, and steps the consumer groups between its events. Internal to partsim_model.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/cluster/broker_service.hpp"
#include "model/cluster/leadership.hpp"
#include "model/cluster/partition_log.hpp"
#include "model/cluster/producer_state.hpp"
#include "model/cluster/replication.hpp"
#include "model/cluster/traffic.hpp"
#include "model/detail/consumers.hpp"
#include "model/detail/controller.hpp"
#include "model/detail/events.hpp"
#include "model/detail/leader_logs.hpp"
#include "model/detail/migration_runner.hpp"
#include "model/detail/network.hpp"
#include "model/detail/run_recorder.hpp"
#include "model/host_cores.hpp"
#include "model/producer/kafka_producer.hpp"
#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"
#include "sim/huge_pages.hpp"
#include "sim/random_streams.hpp"
#include "sim/simulation.hpp"

namespace partsim::model::detail {

class Engine final : public ProducerHost,
                     public ReplicationHost,
                     public ConsumersHost,
                     public ReadableListener,
                     public MigrationHost,
                     public NetworkHost {
public:
  Engine(const Scenario& s, std::uint64_t seed, std::uint64_t replication, const RunOptions& options);
  RunResult run();

  void operator()(const AppSend& e);
  void operator()(const SenderWake& e);
  void operator()(const RequestArrive& e) { (*network_)(e); }
  void operator()(const BrokerDone& e) { (*network_)(e); }
  void operator()(const ResponseSent& e) { (*network_)(e); }
  void operator()(const ResponseArrive& e) { (*network_)(e); }
  void operator()(const RequestTimeout& e);
  void operator()(const Disconnect& e);
  void operator()(const BufferTimeout& e);
  void operator()(const MetadataRefresh& e);
  void operator()(const BrokerScheduleStep& e);
  void operator()(const SecondCall& e);
  void operator()(const Sample& e);
  void operator()(const LeaderCheck& e);
  void operator()(const TopicStep& e);
  void operator()(const PeriodicRefresh& e);
  void operator()(const FetchStep& e);
  void operator()(const IsrCheck& e);
  void operator()(const Fence& e);
  void operator()(const ReassignStart& e);
  void operator()(const ReassignSample& e);
  void operator()(const RetentionCheck& e);
  void operator()(const LogDirFailure& e);
  void operator()(const DiskSample& e);
  void operator()(const ConsumerFetchArrive& e) { (*consumers_)(e); }
  void operator()(const ConsumerFetchDue& e) { (*consumers_)(e); }
  void operator()(const MigrationEvent& e) { migration_->step(e.step, now()); }

  // ReplicationHost
  bool schedule_fetch(ReplicationHost::Step step, std::uint32_t session, std::uint64_t fetch, SimTime at) override;
  std::int64_t readable_records(std::size_t partition) const override { return leaders_->readable_records(partition); }
  void acks_settled(std::uint64_t request) override;
  void ack_error(std::uint64_t request, std::size_t partition, ProduceError error) override;
  std::int64_t records_acked() const override { return recorder_->result().records_acked; }
  void high_watermark_moved(std::size_t partition, std::int64_t hw) override;
  void log_truncated(std::size_t partition, std::int64_t end) override;
  void reassignment_done(std::size_t partition, bool leader_moved) override;
  void log_dir_failed(std::int32_t broker) override {
    sim_.schedule_at(now(), LogDirFailure{static_cast<std::uint32_t>(broker)});
  }
  void follower_high_watermark(std::size_t partition, std::int32_t) override {
    if (consumers_) consumers_->follower_high_watermark(partition, now());
  }
  void fetch_answered(std::int32_t leader, std::int32_t follower, std::int64_t bytes, std::int32_t partitions,
                      std::int32_t topics) override {
    traffic_->replication_fetch(static_cast<std::uint32_t>(leader), static_cast<std::uint32_t>(follower), bytes,
                                partitions, topics);
  }

  // ProducerHost
  void schedule_app(std::uint32_t producer, SimTime at) override;
  void schedule_sender(std::uint32_t producer, std::uint64_t generation, SimTime at) override;
  void schedule_buffer_timeout(std::uint32_t producer, std::uint64_t block, SimTime at) override;
  void schedule_second_call(std::uint32_t producer, std::uint64_t send, SimTime at) override;
  void schedule_request_deadline(std::uint32_t producer, SimTime at) override;
  std::uint64_t send_request(std::uint32_t producer, std::size_t node, std::int64_t bytes,
                             std::span<const BatchId> batches, bool expects_response) override;
  void abandon_request(std::uint32_t producer, std::uint64_t request) override;
  void close_connection(std::uint32_t producer, std::size_t node) override;
  void request_metadata(std::uint32_t producer, std::size_t node) override;
  bool event_due(SimTime t) override { return sim_.has_pending() && sim_.next_event_time() <= t; }
  void call_after_event(std::uint32_t producer) override { after_event_.push_back(producer); }
  void sequence_gap(std::uint32_t producer, std::int32_t partition) override;

  // ConsumersHost: records may still come (the producers, the followers or a migration run on)
  bool logs_growing() const override;

  // ReadableListener: records of `log` were appended or became readable
  void readable_changed(std::size_t log) override;

  // MigrationHost (engine_migration.cpp)
  void schedule_migration(MigrationStep step, SimTime at) override { sim_.schedule_at(at, MigrationEvent{step}); }
  bool sources_stopped(bool and_idle) const override;
  void stop_sources() override;
  void switch_producers(SimTime shift) override;
  void start_dual_write() override;
  void bridge_read(std::int32_t partition, std::int64_t bytes) override {
    const std::int32_t leader = leadership_.leaders(migration_from_)[static_cast<std::size_t>(partition)];
    if (leader >= 0) traffic_->migration_read(static_cast<std::uint32_t>(leader), bytes);
  }

  // NetworkHost (cluster_simulation.cpp): the leaders serve, the producers and fetches are answered
  void request_arrived(std::uint32_t broker) override { ++result().brokers[broker].requests; }
  void request_started(std::uint32_t broker, SimTime waited, const Request* r) override;
  bool serve(std::uint64_t id, Request& r, ProduceError error, SimTime at, SimTime replicated) override;
  void responding(const Request& r) override;
  void response(std::uint32_t p, std::uint64_t id, SimTime at, std::vector<ProduceError> errors) override {
    producer(p).on_response(id, at, errors);
  }
  bool fetch_live(std::uint64_t fetch) const override { return consumers_->holds(fetch); }
  void fetch_started(std::uint64_t fetch, SimTime waited) override { consumers_->started(fetch, waited); }
  void fetch_served(std::uint64_t fetch, SimTime at) override { consumers_->served(fetch, at); }

private:
  SimTime now() const { return sim_.now(); }
  bool cancelled() const { return options_.cancel && options_.cancel->load(std::memory_order_relaxed); }
  KafkaProducer& producer(std::uint32_t i) { return *producers_[i]; }
  /// The config a client's requests carry: a producer's, a migration's twin's or its bridge's.
  /// (Speed: a scenario's producer's from its spec, where a request's other reads are.)
  const ProducerConfig& config_of(std::uint32_t client) const {
    return client < s_.producers.size() ? s_.producers[client].config : *client_configs_[client];
  }
  enum Timer : std::size_t { kSenderTimer, kDeadlineTimer, kMetadataTimer, kTimersPerProducer };
  static std::size_t timer_slot(std::uint32_t producer, Timer t) {
    return std::size_t{producer} * kTimersPerProducer + t;
  }
  void fail_broker(std::uint32_t b);
  void recover_broker(std::uint32_t b);
  void start_repartition();
  void gather_results();  // once the run has stopped
  void refresh_metadata();
  bool quiet() const;  // no producer will send or wait again
  /// Every producer has stopped sending (a run stopped by its duration or its records) and no
  /// migration is under way: a scheduled topic change is not made any more.
  bool run_over() const;
  // Partition increases (a topic's schedule).
  void setup_repartition();
  void arm_metadata_refresh(std::uint32_t producer);
  void finish_repartition();
  // ---- a migration in the event loop (engine_migration.cpp) ----
  // Each producer of the old topic has a twin on the new topic (indexes after the
  // scenario's producers), which the application moves to at the switch (hand_over) or
  // which makes its second sends (dual write); the bridge writes through one more producer
  // on the new topic (the last, bridge_client_), which reports to the MigrationRunner.
  void setup_migration();
  struct TwinMirror final : SendMirror {  // a dual write's second sends (engine_migration.cpp)
    Engine& engine;
    std::uint32_t twin;
    TwinMirror(Engine& e, std::uint32_t t) : engine(e), twin(t) {}
    void mirror(const GeneratedRecord& record, std::int64_t send_index, SimTime intended, SimTime now) override;
    void source_stopped(SimTime now) override;
  };
  std::optional<MigrationRunner> migration_;
  std::deque<ProducerSpec> twin_specs_;                // the twins' specs (their topic the new one), then the bridge's
  std::vector<std::uint32_t> twin_of_;                 // per scenario producer: its twin, or 0 for none
  std::vector<std::uint32_t> owner_;                   // per producer (twins too): whose send() its records are
  std::vector<const ProducerConfig*> client_configs_;  // per producer: the scenario's, twins, the bridge
  std::uint32_t bridge_client_ = 0;                    // the bridge's producer (0: none)
  std::size_t migration_from_ = 0;                     // the old topic (a bridge reads it record by record)
  std::vector<std::unique_ptr<TwinMirror>> mirrors_;

  void leaders_changed();  // parked consumer fetches of partitions moved are answered
  // Whether the logs may still grow (logs_growing): followers' fetch steps and broker
  // schedule steps pending.
  std::size_t replication_steps_ = 0, broker_steps_left_ = 0;
  SimTime reassign_interval_ = SimTime::zero();  // > 0: the reassignments' time series is sampled
  SimTime disk_interval_ = SimTime::zero();      // > 0: the disks' time series is sampled
  const Scenario& s_;
  RunOptions options_;
  // Speed: where the state a large run reads at random lives (producers, their partitions and
  // batches, the leaders' idempotence state): huge pages where the kernel grants them.
  // Declared before everything that uses it, so it goes last.
  std::unique_ptr<sim::HugePageResource> huge_pages_;
  std::pmr::memory_resource* memory_ = std::pmr::new_delete_resource();
  static constexpr std::size_t kHugePageStates = 65536;  // producer x partition states
  sim::RandomStreams streams_;
  EventLoop sim_;
  std::vector<HostCores> hosts_;    // cluster.hosts, in order (brokers and producers point into it)
  std::optional<Network> network_;  // the brokers, the requests on their way, the connections
  std::vector<char> up_;            // per broker: the connection can be used
  Leadership leadership_;
  std::optional<Replication> replication_;   // cluster.replication: followers
  std::vector<std::size_t> topic_of_;        // per producer
  std::vector<std::size_t> stats_offset_;    // per topic: its first row in RunResult::partitions
  std::shared_ptr<BatchArena> batch_arena_;  // the producers' batches
  std::vector<std::unique_ptr<KafkaProducer, sim::MemoryDelete<KafkaProducer>>> producers_;  // in memory_
  std::vector<std::uint32_t> after_event_;  // producers to call once the event is over
  bool prefetch_sends_ = false;             // many partition states: the next send's is prefetched
  static constexpr std::size_t kPrefetchStates = 4096;
  std::int64_t total_sent_ = 0;
  // Partition increases (the topics' counts and steps are the controller's): per producer,
  // when it last refreshed its metadata and when it first saw its topic's latest count.
  std::vector<SimTime> last_refresh_;                 // per producer: its last metadata refresh
  std::vector<std::optional<double>> saw_new_count_;  // per producer: when its count last grew
  // The results (after the layout it reads and the clock: constructed in the body).
  std::optional<RunRecorder> recorder_;
  std::optional<Controller> controller_;  // who leads (after the replication and the results)
  std::optional<LeaderLogs> leaders_;     // the leaders' logs and idempotence state (after the results)
  // The consumer groups, in this loop (consumers.hpp): with groups, from the run's start.
  std::optional<Consumers> consumers_;
  std::optional<TrafficMeter> traffic_;  // the bytes on the wire, by kind and rack
  RunResult& result() { return recorder_->result(); }
};

}  // namespace partsim::model::detail
