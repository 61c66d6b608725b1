#pragma once
// A FIFO over a power-of-two ring that grows by doubling and never gives memory back:
// std::deque allocates and frees a block every few hundred elements, which a queue that
// streams millions of entries (one per batch) pays for in allocator calls and cold memory.

#include <cstddef>
#include <utility>
#include <vector>

namespace partsim::model::detail {

template <class T>
class RingQueue {
public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return slots_.size(); }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& operator[](std::size_t i) { return slots_[(head_ + i) & mask_]; }
  const T& operator[](std::size_t i) const { return slots_[(head_ + i) & mask_]; }

  void push_back(T v) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & mask_] = std::move(v);
    ++size_;
  }
  /// push_back for a queue whose entries go stale behind a live front: when the ring is
  /// full, drops the entries `keep` refuses (order kept) first, and grows only if more than
  /// half remain, so the ring is bounded by twice the live entries, at amortized O(1).
  template <class Keep>
  void push_back_pruning(T v, Keep keep) {
    if (size_ == slots_.size() && size_ > 0) {
      std::size_t kept = 0;
      for (std::size_t i = 0; i < size_; ++i)
        if (keep(std::as_const((*this)[i]))) (*this)[kept++] = std::move((*this)[i]);
      for (std::size_t i = kept; i < size_; ++i) (*this)[i] = T{};
      size_ = kept;
      if (size_ * 2 > slots_.size()) grow();
    }
    push_back(std::move(v));
  }
  void pop_front() {
    slots_[head_] = T{};
    head_ = (head_ + 1) & mask_;
    --size_;
  }

private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 16 : slots_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    slots_ = std::move(bigger);
    head_ = 0;
    mask_ = slots_.size() - 1;
  }

  std::vector<T> slots_;
  std::size_t head_ = 0, size_ = 0, mask_ = 0;
};

}  // namespace partsim::model::detail
