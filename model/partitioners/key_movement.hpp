#pragma once
// How many keys move when a topic's partition count changes from `from` to `to`. Keys are
// placed by the built-in key rule, toPositive(murmur2(key)) % n (spec §2.6), so only the
// keys' positive hashes matter.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace partsim::model {

struct PartitionChange {
  std::int32_t from = 0;
  std::int32_t to = 0;
};

struct KeyMovement {
  PartitionChange change;
  std::uint64_t keys = 0;
  std::uint64_t changed = 0;        ///< keys whose partition differs
  std::uint64_t modulo_stable = 0;  ///< keys with new % from == old
  /// First moved key in input order: its index and its old and new partition.
  std::optional<std::size_t> example_index;
  std::int32_t example_old = -1;
  std::int32_t example_new = -1;
  /// flow[old * to + new]: keys going from old partition to new partition; empty unless asked.
  std::vector<std::uint64_t> flow;
};

/// Expected share of keys that keep their partition when hashes are uniform:
/// gcd(from, to) / max(from, to). Example: 8 -> 12: gcd 4 / 12 = 0.333.
double predicted_unchanged_share(PartitionChange change);

/// The two-rule window of a live partition increase. Adding partitions raises no error, so a
/// producer keeps the old count until its next periodic metadata refresh, due
/// metadata.max.age.ms after its last one (kafka-consumer-spec §6.2); meanwhile it routes
/// keys by the old modulus. With the change at a moment unrelated to the producers' refresh
/// phases, each producer's wait is uniform on [0, T): expected T/2, at most T; the last of N
/// independent producers sees it after T N/(N+1) on average. Producers sending R records/s
/// in all (R/N each) route R T/2 records by the old rule on average, R T at most.
struct TwoRuleWindow {
  double producer_expected_ms = 0, producer_max_ms = 0;  ///< one producer's wait
  double all_expected_ms = 0;                            ///< until the last producer sees the new count
  double records_old_rule_expected = 0, records_old_rule_max = 0;
};

/// Requires metadata_max_age_ms >= 0, producers >= 1, records_per_second >= 0.
TwoRuleWindow two_rule_window(double metadata_max_age_ms, std::int32_t producers, double records_per_second);

/// Counts movement for one change one key at a time, so keys can stream from a file or a
/// template without being held (partsim keys --count 1000000000).
class KeyMovementCounter {
public:
  /// Requires change.from > 0 and change.to > 0; the flow matrix (from x to counts) is
  /// allocated only `with_flow`.
  KeyMovementCounter(PartitionChange change, bool with_flow);
  /// Counts the key with toPositive(murmur2) `positive_hash`, the `index`-th of the input;
  /// true when it is the first key that moves (the example to show).
  bool add(std::int32_t positive_hash, std::size_t index);
  const KeyMovement& result() const { return m_; }

private:
  KeyMovement m_;
  bool with_flow_;
};

/// Counts movement for one change over the keys' toPositive(murmur2) values.
/// Requires change.from > 0 and change.to > 0.
KeyMovement measure_key_movement(std::span<const std::int32_t> positive_hashes, PartitionChange change, bool with_flow);

}  // namespace partsim::model
