#pragma once
// The produce errors partsim simulates: the retriable error codes a broker can answer a
// produce request's partitions with (Kafka's Errors enum, code in brackets), as a broker's
// error.code injects them, plus the sequence error the idempotent producer's broker check
// returns (kafka-consumer-spec §8). Shared vocabulary of the scenario, the producer and the
// brokers.

#include <array>
#include <cstdint>
#include <string_view>

namespace partsim::model {

enum class ProduceError : std::uint8_t {
  kNone,
  kNotLeaderOrFollower,           ///< NOT_LEADER_OR_FOLLOWER (6): not appended; InvalidMetadataException
  kUnknownTopicOrPartition,       ///< UNKNOWN_TOPIC_OR_PARTITION (3): not appended; InvalidMetadataException
  kRequestTimedOut,               ///< REQUEST_TIMED_OUT (7): appended, acks=all replication timed out
  kNotEnoughReplicas,             ///< NOT_ENOUGH_REPLICAS (19): refused before the append
  kNotEnoughReplicasAfterAppend,  ///< NOT_ENOUGH_REPLICAS_AFTER_APPEND (20): appended, the ISR shrank
  kOutOfOrderSequenceNumber,      ///< OUT_OF_ORDER_SEQUENCE_NUMBER (45): the broker's sequence check
  /// KAFKA_STORAGE_ERROR (56): not appended, the leader's log directory failed (a full disk,
  /// docs/disks.md); KafkaStorageException is an InvalidMetadataException.
  kKafkaStorageError,
};

struct ProduceErrorInfo {
  ProduceError error;
  std::string_view name;  ///< Kafka's name, as scenarios spell it
  bool appended;          ///< the leader appended the records before answering with the error
  bool invalid_metadata;  ///< an InvalidMetadataException: the client asks for a metadata update (spec §6.2)
};

/// The codes a broker's error.code may inject (every one retriable), in the order the
/// scenario reference lists them; the first is the default.
inline constexpr std::array<ProduceErrorInfo, 5> kInjectableErrors{{
    {ProduceError::kNotLeaderOrFollower, "NOT_LEADER_OR_FOLLOWER", false, true},
    {ProduceError::kRequestTimedOut, "REQUEST_TIMED_OUT", true, false},
    {ProduceError::kNotEnoughReplicas, "NOT_ENOUGH_REPLICAS", false, false},
    {ProduceError::kNotEnoughReplicasAfterAppend, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", true, false},
    {ProduceError::kUnknownTopicOrPartition, "UNKNOWN_TOPIC_OR_PARTITION", false, true},
}};

/// What `e` means (kNone and the sequence error: not appended, no metadata update).
constexpr ProduceErrorInfo produce_error_info(ProduceError e) {
  for (const auto& i : kInjectableErrors)
    if (i.error == e) return i;
  if (e == ProduceError::kKafkaStorageError) return {e, "KAFKA_STORAGE_ERROR", false, true};
  return {e, e == ProduceError::kNone ? "NONE" : "OUT_OF_ORDER_SEQUENCE_NUMBER", false, false};
}

}  // namespace partsim::model
