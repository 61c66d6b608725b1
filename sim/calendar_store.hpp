#pragma once
// A ladder queue (Tang, Goh & Thng, ACM TOMACS 2005): a calendar queue whose crowded
// buckets are split on demand into finer calendars instead of being re-estimated globally.
//
//   top     unsorted events later than every rung (the far future): O(1) append
//   rungs   calendars, coarse to fine; a rung's bucket is unsorted: O(1) append. When the
//           finest rung's next bucket holds more than kSplitAbove events it becomes a new,
//           finer rung (its time span cut into about one bucket per kPerBucket events);
//           otherwise it is moved into the bottom
//   bottom  the few earliest events, sorted by key: a drained bucket is swapped in and
//           sorted, pops take its head, a push that lands there is inserted in order;
//           when pushes have grown it past kBottomMax it is split into a rung instead
// When the ladder runs dry, the whole top becomes the first rung, sized from its own
// (min, max) and count.
//
// Why not Brown's calendar queue, which this store was until now: its one bucket width is
// estimated from the 25 earliest events when the size doubles or halves, so a hold loop at
// constant size never re-estimates it, and one width cannot fit both the producer model's
// dense front (events microseconds apart) and its timers tens of seconds out. Measured in
// hold loops pre-filled from t = 0 with the model's increments (bench/kernel_bench.cpp's
// mix): the width froze at 2 ns, fitted to the near events, while the pending set turned
// into timers; at 10^5 pending each pop then scanned ~3,700 buckets (19 us a pop) and at
// 10^7 each sorted insert shifted 134 events. With exponential increments one width fits
// only the front of the decaying density: at 10^7 pending 13% of 8 M buckets held events,
// and every push went to one of them at random (a miss on the bucket, another on its vector).
// The ladder needs no width estimate that can go stale: every split sizes itself from the
// events it splits, far-future events wait unsorted in the top, and each event is moved a
// bounded number of times (top -> a rung or two -> bottom). Rungs have at most kMaxBuckets
// buckets, so a split scatters into a set of bucket tails that stays in cache (a two-pass
// radix sort at 10^7 pending rather than one pass with a cache miss per event).
//
// Events are ordered by the full (time, sequence) key: buckets are cut on the time half,
// the bottom is sorted on whole keys, so equal times pop first-scheduled first. Nothing
// depends on addresses. A push earlier than the last pop is legal (it joins the bottom).
// Drained buckets keep their buffers (or trade them with the bottom), so a steady state
// seldom allocates: at most 2 allocations per 1,000 holds measured, at 10^6 pending.

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/check.hpp"
#include "sim/event_key.hpp"

namespace partsim::sim {

template <class Payload>
class CalendarStore {
public:
  using Node = detail::KeyedEvent<Payload>;

  CalendarStore() : rungs_(kMaxRungs) {}

  void push(detail::EventKey key, Payload p) {
    ++size_;
    const std::uint64_t t = detail::key_time_bits(key);
    // With the ladder and the bottom empty, the top is the whole queue: anything may join it.
    if (t > ladder_hi_ || (nrungs_ == 0 && bottom_.empty())) {
      top_min_ = top_.empty() ? t : std::min(top_min_, t);
      top_max_ = top_.empty() ? t : std::max(top_max_, t);
      top_.push_back(Node{key, std::move(p)});
      return;
    }
    if (Rung* g = rung_for(t)) {
      g->add(Node{key, std::move(p)});
      return;
    }
    // A bottom that pushes have grown (the rungs ran out while ladder_hi_ is far, say at
    // the end of time) is split like a crowded bucket: each sorted insert shifts events.
    if (bottom_.size() - head_ >= kBottomMax && nrungs_ < kMaxRungs && split_bottom()) {
      if (Rung* g = rung_for(t)) {
        g->add(Node{key, std::move(p)});
        return;
      }
    }
    bottom_insert(Node{key, std::move(p)});
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void reserve(std::size_t n) { top_.reserve(n); }

  /// The smallest key; requires !empty().
  detail::EventKey top_key() {
    if (bottom_.empty()) refill();
    return bottom_[head_].key;
  }

  /// The smallest's payload; requires !empty().
  const Payload& top_payload() {
    if (bottom_.empty()) refill();
    return bottom_[head_].payload;
  }

  /// Removes the smallest; requires !empty().
  Node pop() {
    if (bottom_.empty()) refill();
    --size_;
    Node n = std::move(bottom_[head_++]);
    if (head_ == bottom_.size()) {
      bottom_.clear();
      head_ = 0;
    }
    return n;
  }

private:
  // A bucket of more events than this is split into a finer rung rather than sorted.
  static constexpr std::size_t kSplitAbove = 16;
  // A bottom this large is split into a new rung when a push would join it.
  static constexpr std::size_t kBottomMax = 64;
  // A new rung gets about one bucket per this many events...
  static constexpr std::size_t kPerBucket = 2;
  // ...and at most this many: a split then scatters into 4096 bucket tails (256 KiB of
  // 64-byte lines), which stay in L2. 2^16 or one bucket per event (the paper's first
  // rung) measured 1.5-2.5x slower at 10^6-10^7 pending: a cache miss per event moved.
  static constexpr std::size_t kMaxBuckets = std::size_t{1} << 12;
  // A split of more than kSplitAbove events asks for 8 or more buckets, so its buckets
  // are at most a quarter of the span of the events split; past this depth a bucket is
  // sorted whole instead.
  static constexpr std::size_t kMaxRungs = 16;

  __extension__ typedef unsigned __int128 Bound;  // one past a rung's end can be 2^64

  // One calendar over the times [lo, hi]: bucket i < nbuckets - 1 holds
  // [lo + i * 2^shift, lo + (i + 1) * 2^shift), the last one the rest up to hi (the span
  // is cut for the events split into it; later ones may lie beyond). Buckets before cur
  // are drained: their range now belongs to finer rungs or to the bottom.
  struct Rung {
    std::vector<std::vector<Node>> buckets;  // the first nbuckets are in use, the rest empty
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    int shift = 0;
    std::size_t nbuckets = 0;
    std::size_t cur = 0;
    Bound cur_start = 0;  // the earliest time this rung accepts: the start of bucket cur
    std::size_t count = 0;

    void add(Node&& n) {
      const std::uint64_t i = (detail::key_time_bits(n.key) - lo) >> shift;
      buckets[std::min(static_cast<std::size_t>(i), nbuckets - 1)].push_back(std::move(n));
      ++count;
    }
    // The last time bucket cur holds (inclusive).
    std::uint64_t cur_last() const {
      if (cur + 1 == nbuckets) return hi;
      return lo + ((static_cast<std::uint64_t>(cur) + 1) << shift) - 1;
    }
    void advance() {
      ++cur;
      cur_start = cur < nbuckets ? Bound{lo} + (Bound{cur} << shift) : Bound{hi} + 1;
    }
  };

  // The coarsest rung that accepts time t, or none (t belongs to the bottom).
  Rung* rung_for(std::uint64_t t) {
    for (std::size_t r = 0; r < nrungs_; ++r)
      if (t >= rungs_[r].cur_start) return &rungs_[r];
    return nullptr;
  }

  // Moves the bottom's pending events into a new finest rung over the bottom's range, if
  // they are not all at one time; returns whether it did.
  bool split_bottom() {
    const std::uint64_t lo = detail::key_time_bits(bottom_[head_].key);
    const std::uint64_t max = detail::key_time_bits(bottom_.back().key);
    if (lo == max) return false;
    // The bottom holds what precedes the finest rung's current bucket, or the whole ladder.
    const std::uint64_t hi = nrungs_ > 0 ? static_cast<std::uint64_t>(rungs_[nrungs_ - 1].cur_start - 1) : ladder_hi_;
    bottom_.erase(bottom_.begin(), bottom_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
    split(bottom_, lo, max, hi);
    return true;
  }

  // Makes the (empty) bottom non-empty; requires size_ > 0.
  void refill() {
    for (;;) {
      if (nrungs_ == 0) {
        assert(!top_.empty());
        ladder_hi_ = top_max_;
        if (top_.size() <= kSplitAbove || top_min_ == top_max_) {
          to_bottom(top_);
          return;
        }
        split(top_, top_min_, top_max_, top_max_);
        continue;
      }
      Rung& g = rungs_[nrungs_ - 1];
      if (g.count == 0) {  // the rest of its range is empty: the next event lies beyond it
        --nrungs_;
        continue;
      }
      while (g.cur < g.nbuckets && g.buckets[g.cur].empty()) g.advance();
      PARTSIM_CHECK(g.cur < g.nbuckets, "a calendar rung counts events its buckets do not hold");
      std::vector<Node>& b = g.buckets[g.cur];
      g.count -= b.size();
      const std::uint64_t last = g.cur_last();
      g.advance();
      if (b.size() > kSplitAbove && nrungs_ < kMaxRungs) {
        std::uint64_t lo = last;
        std::uint64_t hi = 0;
        for (const Node& n : b) {
          lo = std::min(lo, detail::key_time_bits(n.key));
          hi = std::max(hi, detail::key_time_bits(n.key));
        }
        if (lo < hi) {  // events at one time cannot be split: sort them by sequence
          split(b, lo, hi, last);
          continue;
        }
      }
      to_bottom(b);
      return;
    }
  }

  // Moves `src`, whose times span [lo, max], into a new finest rung that covers [lo, hi]
  // (hi >= max: the range of the bucket it came from) with buckets cut for [lo, max].
  void split(std::vector<Node>& src, std::uint64_t lo, std::uint64_t max, std::uint64_t hi) {
    Rung& g = rungs_[nrungs_++];
    const std::size_t want = std::clamp<std::size_t>(src.size() / kPerBucket, 2, kMaxBuckets);
    // The smallest shift with (max - lo) >> shift < want. Worked example: 40 events over
    // [1000, 1999] ns: want 20, (999 / 20) = 49 -> shift 6 (64 ns), 999 >> 6 = 15 -> 16 buckets.
    g.shift = static_cast<int>(std::bit_width((max - lo) / want));
    g.nbuckets = static_cast<std::size_t>((max - lo) >> g.shift) + 1;
    if (g.buckets.size() < g.nbuckets) g.buckets.resize(g.nbuckets);
    g.lo = lo;
    g.hi = hi;
    g.cur = 0;
    g.cur_start = lo;
    g.count = 0;
    for (Node& n : src) g.add(std::move(n));
    src.clear();
  }

  // The bottom is empty: take src's events (and leave src the bottom's spare capacity).
  void to_bottom(std::vector<Node>& src) {
    bottom_.swap(src);
    std::sort(bottom_.begin(), bottom_.end(), [](const Node& a, const Node& b) { return a.key < b.key; });
  }

  // Inserts in key order, shifting the shorter side: into the slot freed by a pop when the
  // event is early (the usual case: a near-future event), else toward the end (a burst at
  // one time appends at the end: its keys only grow).
  void bottom_insert(Node&& n) {
    const auto first = bottom_.begin() + static_cast<std::ptrdiff_t>(head_);
    const auto pos =
        std::upper_bound(first, bottom_.end(), n.key, [](detail::EventKey k, const Node& x) { return k < x.key; });
    if (head_ > 0 && pos - first < bottom_.end() - pos) {
      std::move(first, pos, first - 1);
      --head_;
      *(pos - 1) = std::move(n);
    } else {
      bottom_.insert(pos, std::move(n));
    }
  }

  std::vector<Node> top_;
  std::uint64_t top_min_ = 0;
  std::uint64_t top_max_ = 0;
  // The latest time the ladder (rungs and bottom) covers; later events join the top.
  std::uint64_t ladder_hi_ = 0;
  std::vector<Rung> rungs_;  // kMaxRungs slots, never reallocated; [0, nrungs_) in use
  std::size_t nrungs_ = 0;
  // Sorted by key; [head_, end) are pending, the slots before were popped. Cleared when the
  // last is popped, so empty() means no pending event there.
  std::vector<Node> bottom_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace partsim::sim
