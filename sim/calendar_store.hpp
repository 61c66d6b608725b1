#pragma once
// A calendar queue (R. Brown, CACM 1988) of keyed events: time is cut into buckets of a
// fixed width that wrap around a "year" of N buckets, each bucket sorted. Push and pop are
// O(1) on average when the width matches the spacing of the near-future events; the
// bucket count follows the size (doubling and halving) and the width is re-estimated from
// the earliest events at each resize. Deterministic: no pointer order anywhere.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "sim/event_key.hpp"

namespace partsim::sim {

template <class Payload>
class CalendarStore {
public:
  using Node = detail::KeyedEvent<Payload>;

  CalendarStore() { rebuild(kMinBuckets, 20); }

  void push(detail::EventKey key, Payload p) {
    if (located_ && key < buckets_[loc_bucket_].back().key) located_ = false;
    place(Node{key, std::move(p)});
    ++size_;
    if (size_ > 2 * buckets_.size() && buckets_.size() < kMaxBuckets) resize(buckets_.size() * 2);
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void reserve(std::size_t) {}

  /// The smallest key; requires !empty().
  detail::EventKey top_key() {
    locate();
    return buckets_[loc_bucket_].back().key;
  }

  /// Removes the smallest; requires !empty().
  Node pop() {
    locate();
    auto& b = buckets_[loc_bucket_];
    Node n = std::move(b.back());
    b.pop_back();
    --size_;
    cur_ = loc_bucket_;
    top_ = loc_top_;
    last_bits_ = detail::key_time_bits(n.key);
    located_ = false;
    if (size_ < buckets_.size() / 2 && buckets_.size() > kMinBuckets) resize(buckets_.size() / 2);
    return n;
  }

private:
  static constexpr std::size_t kMinBuckets = 2;
  static constexpr std::size_t kMaxBuckets = std::size_t{1} << 24;
  static constexpr std::uint64_t kMaxBits = std::numeric_limits<std::uint64_t>::max();

  std::size_t bucket_of(std::uint64_t bits) const { return static_cast<std::size_t>(bits >> shift_) & mask_; }
  // Exclusive upper time bound of the bucket that holds `bits`, saturating at the end of time.
  std::uint64_t top_of(std::uint64_t bits) const {
    const std::uint64_t slot = bits >> shift_;
    return slot + 1 > (kMaxBits >> shift_) ? kMaxBits : (slot + 1) << shift_;
  }

  // Buckets are sorted by descending key, so the smallest is at the back.
  void place(Node&& n) {
    auto& b = buckets_[bucket_of(detail::key_time_bits(n.key))];
    auto it = b.end();
    while (it != b.begin() && (it - 1)->key < n.key) --it;
    b.insert(it, std::move(n));
  }

  // Finds the bucket holding the smallest event without committing to it (a push of an
  // earlier event before the pop must still be seen).
  void locate() {
    if (located_) return;
    std::size_t i = cur_;
    std::uint64_t top = top_;
    const std::uint64_t width = std::uint64_t{1} << shift_;
    for (std::size_t k = 0; k < buckets_.size(); ++k) {
      const auto& b = buckets_[i];
      if (!b.empty() && detail::key_time_bits(b.back().key) < top) {
        loc_bucket_ = i;
        loc_top_ = top;
        located_ = true;
        return;
      }
      i = (i + 1) & mask_;
      top = top > kMaxBits - width ? kMaxBits : top + width;
    }
    // Nothing within a year: search every bucket's minimum directly.
    std::size_t best = 0;
    bool found = false;
    for (std::size_t j = 0; j < buckets_.size(); ++j)
      if (!buckets_[j].empty() && (!found || buckets_[j].back().key < buckets_[best].back().key)) {
        best = j;
        found = true;
      }
    loc_bucket_ = best;
    loc_top_ = top_of(detail::key_time_bits(buckets_[best].back().key));
    located_ = true;
  }

  // Re-spreads every event over `nbuckets` buckets with a width of about three times the
  // mean gap between the earliest events (Brown's estimate), rounded to a power of two.
  void resize(std::size_t nbuckets) {
    std::vector<Node> all;
    all.reserve(size_);
    for (auto& b : buckets_)
      for (auto& n : b) all.push_back(std::move(n));
    int shift = shift_;
    if (all.size() >= 2) {
      const std::size_t sample = std::min<std::size_t>(all.size(), 25);
      std::vector<std::uint64_t> times;
      times.reserve(all.size());
      for (const auto& n : all) times.push_back(detail::key_time_bits(n.key));
      std::partial_sort(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(sample), times.end());
      const double span = static_cast<double>(times[sample - 1] - times[0]);
      double avg = span / static_cast<double>(sample - 1);
      // Drop the gaps more than twice the average, as Brown does, and average again.
      double sum = 0;
      std::size_t kept = 0;
      for (std::size_t k = 1; k < sample; ++k) {
        const auto gap = static_cast<double>(times[k] - times[k - 1]);
        if (gap <= 2 * avg) {
          sum += gap;
          ++kept;
        }
      }
      if (kept > 0) avg = sum / static_cast<double>(kept);
      if (avg > 0) {
        shift = 0;
        while (shift < 62 && static_cast<double>(std::uint64_t{1} << shift) < 3 * avg) ++shift;
      }
    }
    rebuild(nbuckets, shift);
    for (auto& n : all) place(std::move(n));
  }

  void rebuild(std::size_t nbuckets, int shift) {
    buckets_.clear();
    buckets_.resize(nbuckets);
    mask_ = nbuckets - 1;
    shift_ = shift;
    cur_ = bucket_of(last_bits_);
    top_ = top_of(last_bits_);
    located_ = false;
  }

  std::vector<std::vector<Node>> buckets_;
  std::size_t mask_ = 0;
  int shift_ = 20;
  std::size_t size_ = 0;
  std::size_t cur_ = 0;           // bucket of the last event popped
  std::uint64_t top_ = 0;         // exclusive upper time bound of that bucket this year
  std::uint64_t last_bits_ = 0;   // time of the last event popped (events never precede it)
  bool located_ = false;
  std::size_t loc_bucket_ = 0;
  std::uint64_t loc_top_ = 0;
};

}  // namespace partsim::sim
