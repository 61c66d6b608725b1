#pragma once
// Key hashing exactly as the Java client does it (spec §9, §2.6, §1.3), and Java's
// String.hashCode / Math.floorMod for user partitioners that hash with them.

#include <cstdint>
#include <span>
#include <string_view>

namespace partsim::model {

/// Kafka's murmur2 (Utils.murmur2): seed 0x9747b28c, m 0x5bd1e995, r 24, 32-bit wrap-around,
/// little-endian blocks, tail with fall-through; returned as Java's signed int.
std::int32_t murmur2(std::span<const std::uint8_t> bytes);
std::int32_t murmur2(std::string_view bytes);

/// Utils.toPositive: clears the sign bit (x & 0x7fffffff), which is not abs().
constexpr std::int32_t to_positive(std::int32_t x) { return x & 0x7fffffff; }

/// BuiltInPartitioner.partitionForKey: toPositive(murmur2(key)) % num_partitions, over ALL
/// partitions of the topic (leaderless included). num_partitions must be > 0.
inline std::int32_t partition_for_key(std::string_view key, std::int32_t num_partitions) {
  return to_positive(murmur2(key)) % num_partitions;
}

/// java.lang.String.hashCode of the string whose UTF-8 encoding is `utf8`: s[0]*31^(n-1) +
/// ... + s[n-1] over UTF-16 code units (a supplementary character counts as its two
/// surrogates), with int wrap-around. Malformed UTF-8 decodes as U+FFFD per bad byte, as
/// Java's decoder replaces what it cannot read.
std::int32_t java_string_hash(std::string_view utf8);

/// Math.floorMod(x, m) for m > 0: the result has the sign of m.
constexpr std::int32_t floor_mod(std::int32_t x, std::int32_t m) {
  const std::int32_t r = x % m;
  return (r != 0 && ((r < 0) != (m < 0))) ? r + m : r;
}

}  // namespace partsim::model
