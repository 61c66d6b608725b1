#pragma once
// The hottest keys per partition in bounded memory: Space-Saving (Metwally, Agrawal and
// El Abbadi, "Efficient computation of frequent and top-k elements in data streams",
// ICDT 2005) over (partition, key) pairs. `capacity` counters are kept; a pair not held
// takes over the counter with the smallest count c and starts at c + 1 with error c. So
// every count is an overestimate by at most its error, the true count lies in
// [count - error, count], and every pair seen more than N / capacity times out of N is
// held. Memory is O(capacity) whatever the number of keys (plus one exact total per
// partition). The counters sit in the paper's Stream-Summary: buckets of equal count in a
// list sorted by count, so an increment and a takeover cost O(1) (a hash lookup and a few
// links), not a heap's O(log capacity): a stream of distinct keys evicts on every record.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.hpp"

namespace partsim::model {

class HotKeys {
public:
  static constexpr std::size_t kDefaultCapacity = 1024;

  explicit HotKeys(std::size_t capacity = kDefaultCapacity);

  /// Counts one record with `key` on `partition` (an index into RunResult::partitions).
  void add(std::size_t partition, std::string_view key);
  /// The same with the key's murmur2 already taken (the producer hashed it to partition it).
  void add(std::size_t partition, std::string_view key, std::uint32_t key_hash);

  /// Records counted so far (N).
  std::int64_t counted() const { return counted_; }

  /// The counters held, highest count first (then partition, then key, for a stable order).
  HotKeyCounts result() const;

private:
  static constexpr std::int32_t kNone = -1;
  struct Counter {
    std::string key;
    std::size_t partition = 0;
    std::int64_t error = 0;
    std::uint64_t hash = 0;
    std::int32_t bucket = kNone;
    std::int32_t prev = kNone, next = kNone;  // within the bucket, oldest first
  };
  struct Bucket {
    std::int64_t count = 0;
    std::int32_t first = kNone, last = kNone;  // its counters
    std::int32_t prev = kNone, next = kNone;   // buckets by ascending count
  };

  // A table slot holds the counter and its hash's low bits, so probing and shifting need
  // not touch the counters.
  struct Slot {
    std::int32_t counter = kNone;
    std::uint32_t hash = 0;
  };

  std::size_t probe_start(std::uint32_t hash) const { return hash & (table_.size() - 1); }
  std::int32_t find(std::uint64_t hash, std::size_t partition, std::string_view key) const;
  void table_insert(std::int32_t counter);
  void table_erase(std::int32_t counter);
  void unlink(std::int32_t counter);  // from its bucket (dropping an emptied bucket)
  void append(std::int32_t counter, std::int32_t bucket);
  std::int32_t new_bucket(std::int64_t count, std::int32_t after);  // after kNone: at the head
  void increment(std::int32_t counter);                             // moves it to the bucket of count + 1

  std::size_t capacity_;
  std::int64_t counted_ = 0;
  std::vector<Counter> counters_;
  std::vector<Bucket> buckets_;
  std::vector<std::int32_t> free_buckets_;
  std::int32_t smallest_ = kNone;            // the bucket of the smallest count
  std::vector<Slot> table_;                  // open addressing, linear probing
  std::vector<std::int64_t> per_partition_;  // exact keyed records per partition
};

}  // namespace partsim::model
