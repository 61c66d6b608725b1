#include "model/partitioners/client_keys.hpp"

#include <algorithm>
#include <array>

#include <zlib.h>

#include "model/partitioners/key_hash.hpp"

namespace partsim::model {
namespace {

// kafka-clients.md §2-§7, §11: each client's default partitioner and the named ones users
// switch to for Java's rule.
constexpr std::array<ClientKeyRule, 10> kRules{{
    {"java", "BuiltInPartitioner (3.3+)", KeyHash::kMurmur2, HashToPartition::kMask, UnhashedRule::kStickyByBytes,
     UnhashedRule::kHashed, true},
    {"librdkafka", "consistent_random", KeyHash::kCrc32, HashToPartition::kUnsigned, UnhashedRule::kStickyByTime,
     UnhashedRule::kStickyByTime, true},
    {"librdkafka-murmur2", "murmur2_random", KeyHash::kMurmur2, HashToPartition::kMask, UnhashedRule::kStickyByTime,
     UnhashedRule::kHashed, true},
    {"sarama", "NewHashPartitioner", KeyHash::kFnv1a, HashToPartition::kAbs, UnhashedRule::kRandomPerRecord,
     UnhashedRule::kHashed, true},
    {"sarama-murmur2", "NewMurmur2Partitioner (1.50+)", KeyHash::kMurmur2, HashToPartition::kMask,
     UnhashedRule::kRandomPerRecord, UnhashedRule::kHashed, true},
    {"franz-go", "UniformBytesPartitioner", KeyHash::kMurmur2, HashToPartition::kMask, UnhashedRule::kStickyByBytes,
     UnhashedRule::kHashed, true},
    {"kafkajs", "DefaultPartitioner (2.0+)", KeyHash::kMurmur2, HashToPartition::kMask, UnhashedRule::kRoundRobin,
     UnhashedRule::kHashed, true},
    {"kafkajs-legacy", "LegacyPartitioner", KeyHash::kKafkajsLegacy, HashToPartition::kMask, UnhashedRule::kRoundRobin,
     UnhashedRule::kHashed, true},
    {"kafka-go", "RoundRobin", KeyHash::kNone, HashToPartition::kMask, UnhashedRule::kRoundRobin,
     UnhashedRule::kRoundRobin, false},
    {"kafka-go-hash", "Hash", KeyHash::kFnv1a, HashToPartition::kAbs, UnhashedRule::kRoundRobin, UnhashedRule::kHashed,
     true},
}};

constexpr std::uint32_t kM = 0x5bd1e995;

// JavaScript's ToUint32 / ToInt32 of an integral double below 2^63 in magnitude.
std::uint32_t js_uint32(double d) { return static_cast<std::uint32_t>(static_cast<std::int64_t>(d)); }
std::int32_t js_int32(double d) { return static_cast<std::int32_t>(js_uint32(d)); }
// `x *= M` on a JavaScript number: an IEEE double product.
double js_times_m(double x) { return x * static_cast<double>(kM); }

}  // namespace

std::uint32_t crc32_ieee(std::string_view bytes) {
  // zlib takes the length as uInt: feed longer keys in pieces.
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!bytes.empty()) {
    const std::size_t n = std::min<std::size_t>(bytes.size(), 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(n));
    bytes.remove_prefix(n);
  }
  return static_cast<std::uint32_t>(crc);
}

std::uint32_t fnv1a_32(std::string_view bytes) {
  std::uint32_t h = 0x811C9DC5u;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x01000193u;
  }
  return h;
}

std::int32_t kafkajs_legacy_hash(std::string_view bytes) {
  const auto byte = [&](std::size_t i) -> std::int32_t {
    return i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 0;  // data[i] past the end: undefined & 0xff = 0
  };
  const std::size_t length = bytes.size();
  // h = SEED ^ length: an int32.
  double h = static_cast<double>(static_cast<std::int32_t>(0x9747b28cu ^ static_cast<std::uint32_t>(length)));
  // for (i = 0; i < length / 4; i++): length / 4 is not floored.
  for (std::size_t i = 0; 4 * i < length; ++i) {
    const std::size_t i4 = i * 4;
    // The sum of (byte << 0/8/16) and (byte << 24), the last an int32 that may be negative.
    double k = static_cast<double>(byte(i4)) + static_cast<double>(byte(i4 + 1) << 8) +
               static_cast<double>(byte(i4 + 2) << 16) +
               static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(byte(i4 + 3)) << 24));
    k = js_times_m(k);
    k = static_cast<double>(js_int32(k) ^ static_cast<std::int32_t>(js_uint32(k) >> 24));
    k = js_times_m(k);
    h = js_times_m(h);
    h = static_cast<double>(js_int32(h) ^ js_int32(k));
  }
  // The tail, falling through, on the int32 h.
  const std::size_t tail = length & ~std::size_t{3};
  switch (length % 4) {
    case 3: h = static_cast<double>(js_int32(h) ^ (byte(tail + 2) << 16)); [[fallthrough]];
    case 2: h = static_cast<double>(js_int32(h) ^ (byte(tail + 1) << 8)); [[fallthrough]];
    case 1:
      h = static_cast<double>(js_int32(h) ^ byte(tail));
      h = js_times_m(h);
      break;
    default: break;
  }
  h = static_cast<double>(js_int32(h) ^ static_cast<std::int32_t>(js_uint32(h) >> 13));
  h = js_times_m(h);
  return js_int32(h) ^ static_cast<std::int32_t>(js_uint32(h) >> 15);
}

std::int32_t hash_to_partition(std::uint32_t h, HashToPartition rule, std::int32_t n) {
  const auto un = static_cast<std::uint32_t>(n);
  switch (rule) {
    case HashToPartition::kMask: return static_cast<std::int32_t>((h & 0x7fffffffu) % un);
    case HashToPartition::kAbs: {
      const auto s = static_cast<std::int32_t>(h);
      // |INT32_MIN| = 2^31, which an int32 cannot hold: the magnitude as a uint32.
      const std::uint32_t magnitude = s < 0 ? 0u - h : h;
      return static_cast<std::int32_t>(magnitude % un);
    }
    case HashToPartition::kUnsigned: return static_cast<std::int32_t>(h % un);
  }
  return 0;
}

std::uint32_t key_hash(KeyHash hash, std::string_view key) {
  switch (hash) {
    case KeyHash::kMurmur2: return static_cast<std::uint32_t>(murmur2(key));
    case KeyHash::kCrc32: return crc32_ieee(key);
    case KeyHash::kFnv1a: return fnv1a_32(key);
    case KeyHash::kKafkajsLegacy: return static_cast<std::uint32_t>(kafkajs_legacy_hash(key));
    case KeyHash::kNone: return 0;
  }
  return 0;
}

const char* unhashed_rule_name(UnhashedRule r) {
  switch (r) {
    case UnhashedRule::kHashed: return "hashed";
    case UnhashedRule::kRandomPerRecord: return "random per record";
    case UnhashedRule::kRoundRobin: return "round robin";
    case UnhashedRule::kStickyByTime: return "sticky by time";
    case UnhashedRule::kStickyByBytes: return "sticky by bytes";
  }
  return "?";
}

std::span<const ClientKeyRule> client_key_rules() { return kRules; }

const ClientKeyRule* find_client_key_rule(std::string_view name) {
  for (const ClientKeyRule& c : kRules)
    if (c.name == name) return &c;
  return nullptr;
}

bool hashes_key(const ClientKeyRule& c, std::string_view key) {
  return c.uses_keys && (!key.empty() || c.empty_key == UnhashedRule::kHashed);
}

std::optional<std::int32_t> client_partition(const ClientKeyRule& c, std::string_view key, std::int32_t n) {
  if (!hashes_key(c, key)) return std::nullopt;
  return hash_to_partition(key_hash(c.hash, key), c.rule, n);
}

}  // namespace partsim::model
