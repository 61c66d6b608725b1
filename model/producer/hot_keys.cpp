#include "model/producer/hot_keys.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <tuple>

namespace partsim::model {
namespace {

std::uint64_t hash_of(std::size_t partition, std::string_view key) {
  // Only the table's layout depends on the hash, never a count: the result is the same
  // with any hash function.
  std::uint64_t h = std::hash<std::string_view>{}(key) ^ (static_cast<std::uint64_t>(partition) * 0x9E3779B97F4A7C15ull);
  h ^= h >> 31;
  return h * 0xBF58476D1CE4E5B9ull;
}

}  // namespace

HotKeys::HotKeys(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {
  table_.assign(std::bit_ceil(capacity_ * 2), kEmpty);  // load factor <= 1/2
}

std::int32_t HotKeys::find(std::uint64_t hash, std::size_t partition, std::string_view key) const {
  for (std::size_t i = probe_start(hash);; i = (i + 1) & (table_.size() - 1)) {
    const std::int32_t c = table_[i];
    if (c == kEmpty) return kEmpty;
    const Counter& k = counters_[static_cast<std::size_t>(c)];
    if (k.hash == hash && k.partition == partition && k.key == key) return c;
  }
}

void HotKeys::table_insert(std::uint32_t counter) {
  std::size_t i = probe_start(counters_[counter].hash);
  while (table_[i] != kEmpty) i = (i + 1) & (table_.size() - 1);
  table_[i] = static_cast<std::int32_t>(counter);
}

void HotKeys::table_erase(std::uint32_t counter) {
  const std::size_t mask = table_.size() - 1;
  std::size_t i = probe_start(counters_[counter].hash);
  while (table_[i] != static_cast<std::int32_t>(counter)) i = (i + 1) & mask;
  // Backward-shift deletion: move later entries of the probe run into the hole when their
  // home slot does not lie cyclically in (hole, j].
  for (std::size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
    const std::int32_t c = table_[j];
    if (c == kEmpty) break;
    const std::size_t home = probe_start(counters_[static_cast<std::size_t>(c)].hash);
    const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    table_[i] = c;
    i = j;
  }
  table_[i] = kEmpty;
}

void HotKeys::swap_heap(std::uint32_t a, std::uint32_t b) {
  std::swap(heap_[a], heap_[b]);
  counters_[heap_[a]].heap_pos = a;
  counters_[heap_[b]].heap_pos = b;
}

void HotKeys::sift_up(std::uint32_t pos) {
  while (pos > 0) {
    const std::uint32_t parent = (pos - 1) / 2;
    if (counters_[heap_[parent]].count <= counters_[heap_[pos]].count) return;
    swap_heap(pos, parent);
    pos = parent;
  }
}

void HotKeys::sift_down(std::uint32_t pos) {
  const auto n = static_cast<std::uint32_t>(heap_.size());
  for (;;) {
    const std::uint32_t l = 2 * pos + 1, r = l + 1;
    std::uint32_t least = pos;
    if (l < n && counters_[heap_[l]].count < counters_[heap_[least]].count) least = l;
    if (r < n && counters_[heap_[r]].count < counters_[heap_[least]].count) least = r;
    if (least == pos) return;
    swap_heap(pos, least);
    pos = least;
  }
}

void HotKeys::add(std::size_t partition, std::string_view key) {
  ++counted_;
  if (partition >= per_partition_.size()) per_partition_.resize(partition + 1, 0);
  ++per_partition_[partition];
  const std::uint64_t h = hash_of(partition, key);
  const std::int32_t found = find(h, partition, key);
  if (found != kEmpty) {
    Counter& c = counters_[static_cast<std::size_t>(found)];
    ++c.count;
    sift_down(c.heap_pos);  // a larger count sinks in a min-heap
    return;
  }
  if (counters_.size() < capacity_) {
    const auto id = static_cast<std::uint32_t>(counters_.size());
    counters_.push_back({std::string(key), partition, 1, 0, h, static_cast<std::uint32_t>(heap_.size())});
    heap_.push_back(id);
    table_insert(id);
    sift_up(counters_[id].heap_pos);
    return;
  }
  // Take over the counter with the smallest count: the newcomer may have been seen up to
  // that many times while it was not held.
  const std::uint32_t id = heap_.front();
  table_erase(id);
  Counter& c = counters_[id];
  c.key.assign(key);
  c.partition = partition;
  c.error = c.count;
  ++c.count;
  c.hash = h;
  table_insert(id);
  sift_down(0);
}

HotKeyCounts HotKeys::result() const {
  HotKeyCounts out;
  out.counted = counted_;
  out.capacity = static_cast<std::int64_t>(capacity_);
  out.partition_counted = per_partition_;
  out.keys.reserve(counters_.size());
  for (const auto& c : counters_) out.keys.push_back({c.partition, c.key, c.count, c.error});
  std::sort(out.keys.begin(), out.keys.end(), [](const HotKey& a, const HotKey& b) {
    return std::tie(b.records, a.partition, a.key) < std::tie(a.records, b.partition, b.key);
  });
  return out;
}

}  // namespace partsim::model
