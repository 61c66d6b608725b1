#pragma once
// The engine's events: a closed set of small structs, each for the part it concerns (a
// producer, the network, the controller, the followers, a consumer fetch, a migration).
// The parts that schedule their own events (the Network, the Consumers) take the event loop
// itself.
// Internal to partsim_model.

#include <cstdint>
#include <variant>

#include "model/cluster/replication.hpp"
#include "model/detail/migration_runner.hpp"
#include "sim/calendar_store.hpp"
#include "sim/simulation.hpp"

namespace partsim::model::detail {

// ---- events: a closed set of small structs ----------------------------------------------
struct AppSend {
  std::uint32_t producer;
};
struct SenderWake {
  std::uint32_t producer;
  std::uint64_t generation;
};
struct RequestArrive {
  std::uint64_t request;
};
struct BrokerDone {
  std::uint32_t broker;
  std::uint64_t epoch;
  std::uint64_t request;
  std::uint32_t connection;
};
struct ResponseSent {
  std::uint32_t broker;
  std::uint64_t epoch;
  std::uint32_t connection;
};  // threaded brokers: unmute
struct ResponseArrive {
  std::uint64_t request;
};
struct RequestTimeout {
  std::uint32_t producer;
};  // the oldest request deadline of a producer
struct Disconnect {
  std::uint32_t producer;
  std::uint32_t broker;
  std::uint64_t epoch;
};
struct BufferTimeout {
  std::uint32_t producer;
  std::uint64_t block;
};
struct MetadataRefresh {
  std::uint32_t producer;
};
struct SecondCall {
  std::uint32_t producer;
  std::uint64_t send;
};                      // a thread's second partition() call
struct Sample {};       // time series
struct LeaderCheck {};  // the controller's periodic preferred-leader check
struct BrokerScheduleStep {
  std::uint32_t broker;
  std::uint32_t index;
};
struct TopicStep {
  std::uint32_t topic;
  std::uint32_t index;
};  // index into Controller::topic_steps(topic)
struct PeriodicRefresh {
  std::uint32_t producer;
};  // metadata.max.age.ms elapsed since the last refresh
// cluster.replication: followers (model/cluster/replication.hpp)
struct FetchStep {
  ReplicationHost::Step step;
  std::uint32_t session;
  std::uint64_t fetch;
};
struct IsrCheck {};  // the leaders' periodic ISR check
struct ReassignStart {
  std::uint32_t topic;
  std::uint32_t index;
};                         // a reassignment step (index into the topic's schedule)
struct ReassignSample {};  // the reassignment's time series
struct RetentionCheck {};  // the brokers' log retention check (docs/disks.md)
struct DiskSample {};      // the disks' time series
struct LogDirFailure {
  std::uint32_t broker;
};  // a write did not fit on the broker's disk: it halts
struct Fence {
  std::uint32_t broker;
  std::uint64_t epoch;
};  // the controller fences a dead broker
// Consumer groups' fetches (consumers.hpp): one reaches its leader; a fetch parked
// until fetch.min.bytes are readable (or fetch.max.wait.ms passed) is due.
struct ConsumerFetchArrive {
  std::uint64_t fetch;
};
struct ConsumerFetchDue {
  std::uint64_t fetch;
  std::uint32_t generation;
};
struct MigrationEvent {
  MigrationStep step;
};  // a migration's step (migration_runner.hpp)
using Event =
    std::variant<AppSend, SenderWake, RequestArrive, BrokerDone, ResponseArrive, RequestTimeout, Disconnect,
                 BufferTimeout, MetadataRefresh, BrokerScheduleStep, SecondCall, Sample, LeaderCheck, ResponseSent,
                 TopicStep, PeriodicRefresh, FetchStep, IsrCheck, Fence, ConsumerFetchArrive, ConsumerFetchDue,
                 MigrationEvent, ReassignStart, ReassignSample, RetentionCheck, LogDirFailure, DiskSample>;

/// The engine's event loop.
using EventLoop = sim::Simulation<Event, sim::CalendarStore<Event>>;

}  // namespace partsim::model::detail
