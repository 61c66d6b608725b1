#pragma once
// A 4-ary min-heap of keyed events: O(log n) push and pop, compact, cache-friendly for
// the small pending sets a producer model keeps.

#include <cstddef>
#include <utility>
#include <vector>

#include "sim/event_key.hpp"

namespace partsim::sim {

template <class Payload>
class HeapStore {
public:
  using Node = detail::KeyedEvent<Payload>;

  void push(detail::EventKey key, Payload p) {
    heap_.push_back(Node{key, std::move(p)});
    sift_up(heap_.size() - 1);
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  void reserve(std::size_t n) { heap_.reserve(n); }
  /// The smallest key; requires !empty().
  detail::EventKey top_key() { return heap_.front().key; }
  const Payload& top_payload() { return heap_.front().payload; }

  /// Removes the smallest. The hole left by the root descends along the smaller children
  /// to a leaf, then the last node rises from there: the last node usually belongs near
  /// the bottom, so this saves a comparison per level.
  Node pop() {
    Node top = std::move(heap_.front());
    Node last = std::move(heap_.back());
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return top;
    std::size_t hole = 0;
    for (;;) {
      const std::size_t first = hole * kArity + 1;
      if (first >= n) break;
      std::size_t best = first;
      if (first + kArity <= n) {
        const std::size_t b01 = heap_[first + 1].key < heap_[first].key ? first + 1 : first;
        const std::size_t b23 = heap_[first + 3].key < heap_[first + 2].key ? first + 3 : first + 2;
        best = heap_[b23].key < heap_[b01].key ? b23 : b01;
      } else {
        for (std::size_t c = first + 1; c < n; ++c)
          if (heap_[c].key < heap_[best].key) best = c;
      }
      heap_[hole] = std::move(heap_[best]);
      hole = best;
    }
    heap_[hole] = std::move(last);
    sift_up(hole);
    return top;
  }

private:
  static constexpr std::size_t kArity = 4;

  void sift_up(std::size_t i) {
    Node e = std::move(heap_[i]);
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(e.key < heap_[parent].key)) break;
      heap_[i] = std::move(heap_[parent]);
      i = parent;
    }
    heap_[i] = std::move(e);
  }

  std::vector<Node> heap_;
};

}  // namespace partsim::sim
