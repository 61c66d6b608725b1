#pragma once
// The bytes a run puts on the wire, by kind and by (from rack, to rack): the traffic
// between availability zones that a cloud bill charges. Each message is counted once, where
// it starts: a produce request when the producer sends it, its response when the leader
// sends it, a follower's fetch response and a consumer's fetch answer when the leader sends
// them. A message's size is its record batches as the model sizes them (v2 batches, their
// 61-byte header and each record's overhead, kafka-model-spec §4) plus its protocol framing,
// counted from Kafka's message schemas (clients/src/main/resources/common/message/*.json,
// the flexible versions the 3.x and 4.x clients speak): the size prefix, the header and
// each topic's and partition's fields. Fetch requests (tens of bytes, and under incremental
// fetch sessions often no partitions at all) are not counted. An endpoint without a rack
// is counted in the "" rack, never as crossing.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/scenario.hpp"
#include "model/traffic_result.hpp"

namespace partsim::model {

enum class Traffic { kProduceRequest, kProduceResponse, kReplicationFetch, kConsumerFetch, kMigrationCopy, kCount };

/// Protocol framing in bytes (the schemas named above).
namespace wire {
/// The varint length prefix of a compact byte field holding `bytes` (length + 1 as an unsigned varint).
constexpr std::int64_t varint_bytes(std::int64_t bytes) {
  std::int64_t n = 1;
  for (std::uint64_t v = static_cast<std::uint64_t>(bytes + 1) >> 7; v != 0; v >>= 7) ++n;
  return n;
}
// A request's partitions are framed alike: their records' length prefix sized by the mean
// batch (a batch's own size moves it by a byte at most).
// ProduceRequest v9-12: size 4; header v2: api key 2, version 2, correlation id 4, client id
// (int16 length + the Java default "producer-1", 10) 12, tags 1; body: transactional id
// (null) 1, acks 2, timeout 4, topics count 1, tags 1.
inline constexpr std::int64_t kProduceRequest = 4 + 21 + 9;
// Per topic: name (compact string: its varint length + bytes), partitions count 1, tags 1.
constexpr std::int64_t produce_topic(std::size_t name) {
  const auto n = static_cast<std::int64_t>(name);
  return varint_bytes(n) + n + 2;
}
// Per partition: index 4, the records' length prefix, tags 1.
constexpr std::int64_t produce_partition(std::int64_t batch_bytes) { return 4 + varint_bytes(batch_bytes) + 1; }
// ProduceResponse v9-10: size 4; header v1: correlation id 4, tags 1; body: responses count
// 1, throttle time 4, tags 1. Per partition: index 4, error 2, base offset 8, log append
// time 8, log start offset 8, record errors (empty) 1, error message (null) 1, tags 1.
inline constexpr std::int64_t kProduceResponse = 4 + 5 + 6;
inline constexpr std::int64_t kProduceResponsePartition = 33;
// FetchResponse v13+: size 4; header v1 5; throttle 4, error 2, session id 4, responses count
// 1, tags 1. Per topic: topic id 16, partitions count 1, tags 1. Per partition: index 4, error
// 2, high watermark 8, last stable offset 8, log start offset 8, aborted transactions (null)
// 1, preferred read replica 4, the records' length prefix, tags 1.
inline constexpr std::int64_t kFetchResponse = 4 + 5 + 12;
inline constexpr std::int64_t kFetchTopic = 18;
constexpr std::int64_t fetch_partition(std::int64_t records_bytes) { return 36 + varint_bytes(records_bytes) + 1; }
}  // namespace wire

class TrafficMeter {
public:
  /// `client_racks`: per client (the scenario's producers, then a migration's), where it runs;
  /// `bridge`: the migration's bridge among them (its requests and responses are the
  /// migration's copy), or -1; `clock`: the simulation's time (the rates are over
  /// run.duration.ms, or for a run that may stop by records, or was interrupted, the time up
  /// to the last message that moved records).
  TrafficMeter(const Scenario& s, std::vector<std::string> client_racks, std::int64_t bridge, const SimTime& clock);

  /// Client `client` sends a request of `batches` batches (`batch_bytes` in all, one topic
  /// named `topic`) to broker `broker` (node index).
  void produce_request(std::uint32_t client, std::uint32_t broker, std::int64_t batch_bytes, std::int32_t batches,
                       std::string_view topic);
  /// Broker `broker` answers that request.
  void produce_response(std::uint32_t client, std::uint32_t broker, std::int32_t batches, std::string_view topic);
  /// The leader `leader` answers follower `follower`'s fetch (node indexes) with
  /// `records_bytes` of `partitions` partitions (those with records) of `topics` topics.
  void replication_fetch(std::uint32_t leader, std::uint32_t follower, std::int64_t records_bytes,
                         std::int32_t partitions, std::int32_t topics);
  /// The migration's bridge reads `bytes` of records of a partition led by `broker`.
  void migration_read(std::uint32_t broker, std::int64_t bytes);
  /// The leader `broker` answers member `member` of group `group` likewise.
  void consumer_fetch(std::uint32_t group, std::int32_t member, std::uint32_t broker, std::int64_t records_bytes,
                      std::int32_t partitions, std::int32_t topics);

  /// Where member `member` of group `group` runs: the group's rack list round robin, else its client.rack.
  const std::string& member_rack(std::uint32_t group, std::int32_t member) const;
  std::size_t rack_index(const std::string& rack) const;
  std::uint32_t broker_rack(std::uint32_t broker) const { return broker_rack_[broker]; }

  /// The figures, their rates over the simulated time up to the last message.
  /// `partial`: the run was interrupted (its rates are over the time it ran).
  TrafficResult finish(bool partial) const;

private:
  void add(Traffic kind, std::uint32_t from, std::uint32_t to, std::int64_t records_bytes, std::int64_t framing);

  const Scenario& s_;
  std::vector<std::string> racks_;
  std::vector<std::uint32_t> broker_rack_, client_rack_;
  std::int64_t bridge_;
  const SimTime& clock_;
  SimTime last_ = SimTime::zero();  // the last message that moved records (or answered a produce)
  TrafficResult result_;
};

}  // namespace partsim::model
