// The engine's part in a migration (migration_runner.hpp): the producers' twins on the new
// topic, which take the application over at the switch or make a dual write's second
// sends, and the bridge's producer.

#include "model/client_version.hpp"
#include "model/detail/engine.hpp"

namespace partsim::model::detail {

// A dual write: each send() of a producer of the old topic is made again by its twin; the
// second send fails with dual.write.failure.rate, or when the twin waits for buffer.memory
// (the model does not block the first producer's thread for it), and nothing repairs it.
void Engine::TwinMirror::mirror(const GeneratedRecord& record, std::int64_t send_index, SimTime intended, SimTime now) {
  if (now < engine.s_.migration->at) return;  // dual writes begin at at.ms
  KafkaProducer& t = engine.producer(twin);
  if (engine.migration_->second_send_fails() || t.blocked()) return;
  t.mirrored_send(record, send_index, intended, now);
}

void Engine::TwinMirror::source_stopped(SimTime now) { engine.producer(twin).close(now); }

// Before the recorder reads topic_of_: a twin per producer of the old topic (its spec the
// producer's, named NAME@NEW-TOPIC, writing the new topic), and the bridge's producer.
void Engine::setup_migration() {
  twin_of_.assign(s_.producers.size(), 0);
  if (!s_.migration) return;
  const std::size_t to = *s_.topic_index(s_.migration->to);
  for (std::uint32_t i = 0; i < s_.producers.size(); ++i) {
    if (s_.producers[i].workload.topic != s_.migration->from) continue;
    ProducerSpec& twin = twin_specs_.emplace_back(s_.producers[i]);
    twin.name += "@" + s_.migration->to;
    twin.workload.topic = s_.migration->to;
    twin_of_[i] = static_cast<std::uint32_t>(topic_of_.size());
    topic_of_.push_back(to);
    owner_.push_back(i);
    client_configs_.push_back(&twin.config);
  }
  // The bridge's producer, on the new topic: the Java client's defaults for the scenario's
  // client line, with acks=all and linger.ms 0 (its writers wait for each acknowledgement,
  // which lingering would only delay: records of several writers still share a batch when
  // they meet in the accumulator).
  ProducerSpec& bridge = twin_specs_.emplace_back();
  bridge.name = "bridge@" + s_.migration->to;
  bridge.workload.topic = s_.migration->to;
  bridge.config.client = s_.client.java() ? s_.client : default_client();
  bridge.config.linger = SimTime::zero();
  bridge.config.idempotence = java::default_idempotence(bridge.config.client);
  bridge.config.acks = Acks::kAll;
  bridge.rack = s_.migration->bridge.rack;
  bridge_client_ = static_cast<std::uint32_t>(topic_of_.size());
  topic_of_.push_back(to);
  owner_.push_back(bridge_client_);
  client_configs_.push_back(&bridge.config);
}

bool Engine::sources_stopped(bool and_idle) const {
  for (std::uint32_t i = 0; i < s_.producers.size(); ++i) {
    if (twin_of_[i] == 0) continue;
    const KafkaProducer& p = *producers_[i];
    if (!p.stopped()) return false;
    if (and_idle && (p.has_in_flight() || p.blocked() || p.accumulator().has_batches())) return false;
  }
  return true;
}

void Engine::stop_sources() {
  for (std::uint32_t i = 0; i < s_.producers.size(); ++i)
    if (twin_of_[i] != 0) producer(i).close(now());
}

// The application moves to the twins; each looks at the new topic's metadata as its first
// refresh would (a partition increase of the new topic meanwhile: at once).
void Engine::switch_producers(SimTime shift) {
  for (std::uint32_t i = 0; i < s_.producers.size(); ++i) {
    if (twin_of_[i] == 0) continue;
    producer(i).hand_over(producer(twin_of_[i]), shift, now());
    if (result().repartition) arm_metadata_refresh(twin_of_[i]);
  }
}

void Engine::start_dual_write() {
  for (std::uint32_t i = 0; i < s_.producers.size(); ++i) {
    if (twin_of_[i] == 0) continue;
    KafkaProducer& twin = producer(twin_of_[i]);
    mirrors_.push_back(std::make_unique<TwinMirror>(*this, twin_of_[i]));
    if (producer(i).stopped()) continue;  // it sends no more: nor does its twin
    twin.fed_by_mirror();
    producer(i).mirror_to(mirrors_.back().get());
  }
}

}  // namespace partsim::model::detail
