#pragma once
// The orders Kafka's assignors inherit from Java (spec §2.1, §3.4): the iteration order of a
// java.util.HashMap or HashSet, wherever an assignor walks one keyed by member ids, topic ids
// or partitions, and String.compareTo, wherever it sorts member ids.
//
// A HashMap (JDK 8 and later) is a table of 2^k buckets. A key's bucket is
// (h ^ (h >>> 16)) & (2^k - 1) for its hashCode h; iteration walks the buckets in ascending
// order and each bucket in insertion order. The table doubles when the size passes
// 0.75 x capacity, or when a bucket of a table under 64 buckets gets its 9th key; doubling
// splits bucket j into j and j + old capacity, each keeping its order. Worked example: the
// member ids c0..c4 put in that order into a new HashMap<>() land in buckets 13, 14, 15, 0, 1
// ("c0".hashCode() = 99 x 31 + 48 = 3117, 3117 & 15 = 13), so the map iterates c3, c4, c0, c1, c2.
// Departure: Java turns a bucket of 9+ keys in a table of 64+ buckets into a red-black tree
// whose iteration follows the tree's shape (and, for keys with equal hashes that are not
// Comparable, identity hash codes that differ run to run); partsim keeps insertion order
// there. It takes 9 colliding keys among at least 49, which member ids, topic ids and
// partition numbers almost never produce.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace partsim::model::consumer {

/// The bucket table of one java.util.HashMap (a HashSet is a HashMap of its elements). Keys
/// are the caller's handles (indices into its own arrays); equal keys must have equal hashes.
class JavaHashTable {
public:
  /// new HashMap<>() / new HashSet<>(): 16 buckets from the first insert.
  JavaHashTable() = default;
  /// new HashMap<>(initial_capacity): tableSizeFor(initial_capacity) buckets from the first insert.
  static JavaHashTable with_initial_capacity(std::int32_t initial_capacity);
  /// new HashSet<>(collection) or new HashMap<>(map) of `size` elements:
  /// max((int) (size / 0.75f) + 1, 16) as the initial capacity.
  static JavaHashTable for_copy_of(std::size_t size);

  /// put(key): appends to its bucket unless the key is already there (then nothing moves).
  void insert(std::size_t key, std::int32_t hash);
  /// remove(key); nothing if absent.
  void erase(std::size_t key, std::int32_t hash);

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return buckets_.size(); }
  /// The keys in iteration order.
  std::vector<std::size_t> order() const;
  /// iterator().next(): the first key in iteration order; the table must not be empty.
  std::size_t first() const;

private:
  using Entry = std::pair<std::size_t, std::uint32_t>;  // key, spread hash
  void resize();
  std::size_t bucket_of(std::uint32_t spread) const { return spread & (buckets_.size() - 1); }

  std::vector<std::vector<Entry>> buckets_;  // empty until the first insert, as Java allocates lazily
  std::int32_t threshold_ = 0;               // Java's `threshold`: the initial capacity until allocated
  std::size_t size_ = 0;
};

/// The order in which a new HashMap<>() iterates keys put in the order of `hashes` (their
/// hashCodes); returns indices into `hashes`. Equal hashes are distinct keys.
std::vector<std::size_t> java_hash_map_order(const std::vector<std::int32_t>& hashes);

/// String.compareTo(a, b) < 0 for valid UTF-8 `a` and `b`: Java compares UTF-16 code units,
/// which is code point (= UTF-8 byte) order except that a supplementary character (a
/// surrogate pair, 0xD800...) sorts before U+E000..U+FFFF.
bool java_string_less(std::string_view a, std::string_view b);

}  // namespace partsim::model::consumer
