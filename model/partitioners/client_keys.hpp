#pragma once
// Where each Kafka client's default (or named) partitioner puts a key, read from the
// clients' sources (../shared/kafka-clients.md): its hash (murmur2, CRC-32, FNV-1a 32, or
// kafkajs' legacy not-quite-murmur2), how it turns the 32-bit hash into a partition (mask,
// abs or unsigned), and what it does with an absent (null) key and with the empty key,
// which every client tells apart. Keyed records go over all N partitions in every client
// (kafka-clients.md §10); what is not a function of the key (a null key, kafka-go's round
// robin, librdkafka consistent_random's empty key) is named, not computed.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace partsim::model {

/// zlib's crc32(): CRC-32 IEEE (reflected, poly 0x04C11DB7, init and xorout 0xFFFFFFFF).
std::uint32_t crc32_ieee(std::string_view bytes);
/// FNV-1a 32: offset basis 0x811C9DC5, prime 0x01000193, xor then multiply.
std::uint32_t fnv1a_32(std::string_view bytes);
/// kafkajs' LegacyPartitioner hash (src/producer/partitioners/legacy/murmur2.js, kafkajs
/// 2.2.4; kafka-clients.md §5): murmur2's steps with JavaScript's numbers, so its block loop
/// runs ceil(len/4) times (the tail and zero padding mixed in as an extra block, then again
/// as the tail) and k *= m, h *= m are IEEE double products, which lose their low bits above
/// 2^53 before ^ and >>> cut them to 32 bits. Returned as JavaScript's signed int32.
std::int32_t kafkajs_legacy_hash(std::string_view bytes);

/// How a client turns a 32-bit hash h into one of n partitions (kafka-clients.md §1).
enum class HashToPartition {
  kMask,      ///< (h & 0x7fffffff) % n: Java's toPositive
  kAbs,       ///< |int32(h)| % n, |INT32_MIN| taken as 2^31 (sarama's default)
  kUnsigned,  ///< h % n on the uint32 (librdkafka consistent)
};
std::int32_t hash_to_partition(std::uint32_t h, HashToPartition rule, std::int32_t n);

enum class KeyHash { kMurmur2, kCrc32, kFnv1a, kKafkajsLegacy, kNone };  // kNone last (a count of kinds)
std::uint32_t key_hash(KeyHash hash, std::string_view key);

/// What a partitioner does with a record that it does not place by its key's hash.
enum class UnhashedRule {
  kHashed,  ///< the empty key: hashed like any other
  kRandomPerRecord,
  kRoundRobin,
  kStickyByTime,   ///< librdkafka: a partition for sticky.partitioning.linger.ms
  kStickyByBytes,  ///< Java 3.3+, franz-go: a partition until batch.size / 64 KiB of records
};
/// "random per record", "sticky by time", ...
const char* unhashed_rule_name(UnhashedRule r);

/// One client's partitioner as `partsim hash --clients` names it.
struct ClientKeyRule {
  std::string_view name;         ///< java, librdkafka, sarama-murmur2, ...
  std::string_view partitioner;  ///< the client's own name of it: consistent_random, NewHashPartitioner, ...
  KeyHash hash = KeyHash::kMurmur2;
  HashToPartition rule = HashToPartition::kMask;
  UnhashedRule null_key = UnhashedRule::kStickyByBytes;
  UnhashedRule empty_key = UnhashedRule::kHashed;
  /// False: keyed records are not placed by their key either (kafka-go's default round
  /// robin): they follow null_key.
  bool uses_keys = true;
};

/// The ten partitioners `hash --clients` knows, java first.
std::span<const ClientKeyRule> client_key_rules();
/// The rule named `name`, or none.
const ClientKeyRule* find_client_key_rule(std::string_view name);

/// Whether `c` places `key` (bytes, non-null) by its hash: not a key-ignoring partitioner,
/// nor the empty key of one that sends it where a null key goes.
bool hashes_key(const ClientKeyRule& c, std::string_view key);

/// The partition `c` gives `key` (bytes, non-null) among n, or none when that is not a
/// function of the key (a key-ignoring partitioner; the empty key of librdkafka's
/// consistent_random, which goes sticky like a null key).
std::optional<std::int32_t> client_partition(const ClientKeyRule& c, std::string_view key, std::int32_t n);

}  // namespace partsim::model
