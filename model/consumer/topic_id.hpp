#pragma once
// Kafka's topic id (org.apache.kafka.common.Uuid): 128 bits, written as 22 characters of
// URL-safe base64 without padding ("T1-A4s3VTwiI5CTbEp6POw"), as kafka-topics.sh --describe
// shows it. The KIP-848 uniform assignor walks topics in the order of a HashSet of these ids
// and breaks ties by comparing them (spec §3.4), so its result depends on them.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace partsim::model::consumer {

struct TopicId {
  std::int64_t most = 0;   ///< getMostSignificantBits: the first 8 bytes, big-endian
  std::int64_t least = 0;  ///< getLeastSignificantBits: the last 8 bytes

  /// Uuid.fromString: base64url of exactly 16 bytes (22 characters, or 24 with "=="
  /// padding); nullopt for anything else.
  static std::optional<TopicId> parse(std::string_view text);
  /// Uuid.toString: 22 characters of base64url.
  std::string to_string() const;
  /// Uuid.hashCode: the 64-bit xor of both halves, folded to 32 bits.
  std::int32_t java_hash() const;
  /// Uuid.compareTo: signed comparison of the most, then the least significant bits.
  auto operator<=>(const TopicId&) const = default;
};

}  // namespace partsim::model::consumer
