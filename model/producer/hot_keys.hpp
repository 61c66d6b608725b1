#pragma once
// The hottest keys per partition in bounded memory: Space-Saving (Metwally, Agrawal and
// El Abbadi, "Efficient computation of frequent and top-k elements in data streams",
// ICDT 2005) over (partition, key) pairs. `capacity` counters are kept; a pair not held
// takes over the counter with the smallest count c and starts at c + 1 with error c. So
// every count is an overestimate by at most its error, the true count lies in
// [count - error, count], and every pair seen more than N / capacity times out of N is
// held. Memory is O(capacity) whatever the number of keys (plus one exact total per
// partition); an update costs one hash lookup and a sift in a binary min-heap of the counters.

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

  /// Records counted so far (N).
  std::int64_t counted() const { return counted_; }

  /// The counters held, highest count first (then partition, then key, for a stable order).
  HotKeyCounts result() const;

private:
  struct Counter {
    std::string key;
    std::size_t partition = 0;
    std::int64_t count = 0;
    std::int64_t error = 0;
    std::uint64_t hash = 0;
    std::uint32_t heap_pos = 0;
  };
  static constexpr std::int32_t kEmpty = -1;

  std::size_t probe_start(std::uint64_t hash) const { return static_cast<std::size_t>(hash) & (table_.size() - 1); }
  std::int32_t find(std::uint64_t hash, std::size_t partition, std::string_view key) const;
  void table_insert(std::uint32_t counter);
  void table_erase(std::uint32_t counter);
  void sift_up(std::uint32_t pos);
  void sift_down(std::uint32_t pos);
  void swap_heap(std::uint32_t a, std::uint32_t b);

  std::size_t capacity_;
  std::int64_t counted_ = 0;
  std::vector<Counter> counters_;
  std::vector<std::uint32_t> heap_;   // counter indexes, min-heap by count
  std::vector<std::int32_t> table_;   // open addressing, linear probing: counter index or kEmpty
  std::vector<std::int64_t> per_partition_;  // exact keyed records per partition
};

}  // namespace partsim::model
