#include "model/consumer/java_order.hpp"

#include <algorithm>
#include <bit>

#include "sim/check.hpp"

namespace partsim::model::consumer {
namespace {

constexpr std::int32_t kDefaultCapacity = 16;
constexpr std::int32_t kMaximumCapacity = 1 << 30;
constexpr float kLoadFactor = 0.75f;
constexpr std::size_t kTreeifyThreshold = 8;     // a bucket reaching 9 keys is treeified...
constexpr std::size_t kMinTreeifyCapacity = 64;  // ...or, in a smaller table, the table doubles

// HashMap.tableSizeFor: the smallest power of two >= cap (1 for cap <= 1).
std::int32_t table_size_for(std::int32_t cap) {
  if (cap <= 1) return 1;
  if (cap >= kMaximumCapacity) return kMaximumCapacity;
  return static_cast<std::int32_t>(std::bit_ceil(static_cast<std::uint32_t>(cap)));
}

// HashMap.hash: the high half folded into the low half.
std::uint32_t spread(std::int32_t hash) {
  const auto h = static_cast<std::uint32_t>(hash);
  return h ^ (h >> 16);
}

std::int32_t threshold_for(std::size_t capacity) {
  return static_cast<std::int32_t>(static_cast<float>(capacity) * kLoadFactor);
}

}  // namespace

JavaHashTable JavaHashTable::with_initial_capacity(std::int32_t initial_capacity) {
  JavaHashTable t;
  t.threshold_ = table_size_for(initial_capacity);
  return t;
}

JavaHashTable JavaHashTable::for_copy_of(std::size_t size) {
  const auto wanted = static_cast<std::int32_t>(static_cast<float>(size) / kLoadFactor) + 1;
  return with_initial_capacity(std::max(wanted, kDefaultCapacity));
}

// HashMap.resize: the first allocation takes the initial capacity kept in the threshold (or
// 16); later ones double, and each bucket splits in order into j and j + old capacity.
void JavaHashTable::resize() {
  const std::size_t old_cap = buckets_.size();
  std::size_t new_cap = 0;
  std::int32_t new_threshold = 0;
  if (old_cap > 0) {
    PARTSIM_CHECK(old_cap < static_cast<std::size_t>(kMaximumCapacity), "a Java hash table outgrew 2^30 buckets");
    new_cap = old_cap << 1;
    if (old_cap >= static_cast<std::size_t>(kDefaultCapacity)) new_threshold = threshold_ << 1;
  } else if (threshold_ > 0) {
    new_cap = static_cast<std::size_t>(threshold_);
  } else {
    new_cap = kDefaultCapacity;
    new_threshold = threshold_for(kDefaultCapacity);
  }
  if (new_threshold == 0) new_threshold = threshold_for(new_cap);
  threshold_ = new_threshold;
  std::vector<std::vector<Entry>> next(new_cap);
  for (std::size_t j = 0; j < old_cap; ++j)
    for (const auto& e : buckets_[j]) next[(e.second & old_cap) == 0 ? j : j + old_cap].push_back(e);
  buckets_ = std::move(next);
}

// HashMap.putVal: a new key goes to the end of its bucket. A bucket that already held 8 keys
// is treeified, which in a table under 64 buckets means doubling the table instead; then the
// size check may double it again.
void JavaHashTable::insert(std::size_t key, std::int32_t hash) {
  if (buckets_.empty()) resize();
  const std::uint32_t s = spread(hash);
  auto& bucket = buckets_[bucket_of(s)];
  if (std::any_of(bucket.begin(), bucket.end(), [&](const Entry& e) { return e.first == key; })) return;
  bucket.emplace_back(key, s);
  if (bucket.size() > kTreeifyThreshold && buckets_.size() < kMinTreeifyCapacity) resize();
  if (static_cast<std::int64_t>(++size_) > threshold_) resize();
}

void JavaHashTable::erase(std::size_t key, std::int32_t hash) {
  if (buckets_.empty()) return;
  auto& bucket = buckets_[bucket_of(spread(hash))];
  const auto it = std::find_if(bucket.begin(), bucket.end(), [&](const Entry& e) { return e.first == key; });
  if (it == bucket.end()) return;
  bucket.erase(it);
  --size_;
}

std::vector<std::size_t> JavaHashTable::order() const {
  std::vector<std::size_t> keys;
  keys.reserve(size_);
  for (const auto& bucket : buckets_)
    for (const auto& e : bucket) keys.push_back(e.first);
  return keys;
}

std::size_t JavaHashTable::first() const {
  for (const auto& bucket : buckets_)
    if (!bucket.empty()) return bucket.front().first;
  PARTSIM_CHECK(false, "first() of an empty Java hash table");
  return 0;
}

std::vector<std::size_t> java_hash_map_order(const std::vector<std::int32_t>& hashes) {
  JavaHashTable table;
  for (std::size_t i = 0; i < hashes.size(); ++i) table.insert(i, hashes[i]);
  return table.order();
}

bool java_string_less(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  if (i == n) return a.size() < b.size();
  // The characters that differ start at the same byte: back up over continuation bytes.
  std::size_t start = i;
  while (start > 0 && (static_cast<std::uint8_t>(a[start]) & 0xC0) == 0x80) --start;
  const auto lead_a = static_cast<std::uint8_t>(a[start]);
  const auto lead_b = static_cast<std::uint8_t>(b[start]);
  const auto supplementary = [](std::uint8_t lead) { return lead >= 0xF0; };
  const auto private_use_or_above = [](std::uint8_t lead) { return lead == 0xEE || lead == 0xEF; };  // U+E000..U+FFFF
  if (supplementary(lead_a) && private_use_or_above(lead_b)) return true;
  if (supplementary(lead_b) && private_use_or_above(lead_a)) return false;
  return static_cast<std::uint8_t>(a[i]) < static_cast<std::uint8_t>(b[i]);
}

}  // namespace partsim::model::consumer
