#include "model/producer/hot_keys.hpp"

#include "model/partitioners/key_hash.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <tuple>

namespace partsim::model {
namespace {

std::uint64_t hash_of(std::size_t partition, std::uint32_t key_hash) {
  // Only the table's layout depends on the hash, never a count: the result is the same
  // with any hash function. The key's own hash is the murmur2 the producer already took.
  std::uint64_t h = (std::uint64_t{key_hash} << 32 | key_hash) ^
                    (static_cast<std::uint64_t>(partition) * 0x9E3779B97F4A7C15ull);
  h ^= h >> 31;
  return h * 0xBF58476D1CE4E5B9ull;
}

}  // namespace

HotKeys::HotKeys(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {
  table_.assign(std::bit_ceil(capacity_ * 4), Slot{});  // load factor <= 1/4: short probe runs
}

std::int32_t HotKeys::find(std::uint64_t hash, std::size_t partition, std::string_view key) const {
  const auto h = static_cast<std::uint32_t>(hash);
  for (std::size_t i = probe_start(h);; i = (i + 1) & (table_.size() - 1)) {
    const Slot& slot = table_[i];
    if (slot.counter == kNone) return kNone;
    if (slot.hash != h) continue;
    const Counter& k = counters_[static_cast<std::size_t>(slot.counter)];
    if (k.hash == hash && k.partition == partition && k.key == key) return slot.counter;
  }
}

void HotKeys::table_insert(std::int32_t counter) {
  const auto h = static_cast<std::uint32_t>(counters_[static_cast<std::size_t>(counter)].hash);
  std::size_t i = probe_start(h);
  while (table_[i].counter != kNone) i = (i + 1) & (table_.size() - 1);
  table_[i] = {counter, h};
}

void HotKeys::table_erase(std::int32_t counter) {
  const std::size_t mask = table_.size() - 1;
  std::size_t i = probe_start(static_cast<std::uint32_t>(counters_[static_cast<std::size_t>(counter)].hash));
  while (table_[i].counter != counter) i = (i + 1) & mask;
  // Backward-shift deletion: move later entries of the probe run into the hole when their
  // home slot does not lie cyclically in (hole, j].
  for (std::size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
    const Slot slot = table_[j];
    if (slot.counter == kNone) break;
    const std::size_t home = probe_start(slot.hash);
    const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    table_[i] = slot;
    i = j;
  }
  table_[i] = Slot{};
}

std::int32_t HotKeys::new_bucket(std::int64_t count, std::int32_t after) {
  std::int32_t b;
  if (!free_buckets_.empty()) {
    b = free_buckets_.back();
    free_buckets_.pop_back();
  } else {
    b = static_cast<std::int32_t>(buckets_.size());
    buckets_.emplace_back();
  }
  Bucket& n = buckets_[static_cast<std::size_t>(b)];
  n = Bucket{};
  n.count = count;
  n.prev = after;
  n.next = after == kNone ? smallest_ : buckets_[static_cast<std::size_t>(after)].next;
  if (n.next != kNone) buckets_[static_cast<std::size_t>(n.next)].prev = b;
  if (after == kNone) smallest_ = b;
  else buckets_[static_cast<std::size_t>(after)].next = b;
  return b;
}

void HotKeys::append(std::int32_t counter, std::int32_t bucket) {
  Counter& c = counters_[static_cast<std::size_t>(counter)];
  Bucket& b = buckets_[static_cast<std::size_t>(bucket)];
  c.bucket = bucket;
  c.prev = b.last;
  c.next = kNone;
  if (b.last != kNone) counters_[static_cast<std::size_t>(b.last)].next = counter;
  else b.first = counter;
  b.last = counter;
}

void HotKeys::unlink(std::int32_t counter) {
  Counter& c = counters_[static_cast<std::size_t>(counter)];
  Bucket& b = buckets_[static_cast<std::size_t>(c.bucket)];
  if (c.prev != kNone) counters_[static_cast<std::size_t>(c.prev)].next = c.next;
  else b.first = c.next;
  if (c.next != kNone) counters_[static_cast<std::size_t>(c.next)].prev = c.prev;
  else b.last = c.prev;
  if (b.first != kNone) return;
  // The bucket is empty: take it out of the list and keep it for reuse.
  if (b.prev != kNone) buckets_[static_cast<std::size_t>(b.prev)].next = b.next;
  else smallest_ = b.next;
  if (b.next != kNone) buckets_[static_cast<std::size_t>(b.next)].prev = b.prev;
  free_buckets_.push_back(c.bucket);
}

void HotKeys::increment(std::int32_t counter) {
  const std::int32_t from = counters_[static_cast<std::size_t>(counter)].bucket;
  const std::int64_t count = buckets_[static_cast<std::size_t>(from)].count + 1;
  std::int32_t to = buckets_[static_cast<std::size_t>(from)].next;
  if (to == kNone || buckets_[static_cast<std::size_t>(to)].count != count) to = new_bucket(count, from);
  unlink(counter);  // after the new bucket is linked behind `from`, so the list stays whole
  append(counter, to);
}

void HotKeys::add(std::size_t partition, std::string_view key) {
  add(partition, key, static_cast<std::uint32_t>(murmur2(key)));
}

void HotKeys::add(std::size_t partition, std::string_view key, std::uint32_t key_hash) {
  ++counted_;
  if (partition >= per_partition_.size()) per_partition_.resize(partition + 1, 0);
  ++per_partition_[partition];
  const std::uint64_t h = hash_of(partition, key_hash);
  if (const std::int32_t found = find(h, partition, key); found != kNone) {
    increment(found);
    return;
  }
  if (counters_.size() < capacity_) {
    const auto id = static_cast<std::int32_t>(counters_.size());
    counters_.push_back({std::string(key), partition, 0, h, kNone, kNone, kNone});
    table_insert(id);
    // A new pair starts at 1: the bucket of count 1 is the smallest if it exists.
    const std::int32_t one = smallest_ != kNone && buckets_[static_cast<std::size_t>(smallest_)].count == 1
                                 ? smallest_
                                 : new_bucket(1, kNone);
    append(id, one);
    return;
  }
  // Take over the oldest counter of the smallest count: the newcomer may have been seen up
  // to that many times while it was not held.
  const std::int32_t id = buckets_[static_cast<std::size_t>(smallest_)].first;
  table_erase(id);
  Counter& c = counters_[static_cast<std::size_t>(id)];
  c.key.assign(key);
  c.partition = partition;
  c.error = buckets_[static_cast<std::size_t>(smallest_)].count;
  c.hash = h;
  table_insert(id);
  increment(id);
}

HotKeyCounts HotKeys::result() const {
  HotKeyCounts out;
  out.counted = counted_;
  out.capacity = static_cast<std::int64_t>(capacity_);
  out.partition_counted = per_partition_;
  out.keys.reserve(counters_.size());
  for (const auto& c : counters_)
    out.keys.push_back({c.partition, c.key, buckets_[static_cast<std::size_t>(c.bucket)].count, c.error});
  std::sort(out.keys.begin(), out.keys.end(), [](const HotKey& a, const HotKey& b) {
    return std::tie(b.records, a.partition, a.key) < std::tie(a.records, b.partition, b.key);
  });
  return out;
}

}  // namespace partsim::model
