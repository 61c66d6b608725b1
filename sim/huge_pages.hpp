#pragma once
// Memory for a run's large, randomly read state, in blocks the kernel may back with 2 MiB
// pages (transparent huge pages on request, madvise MADV_HUGEPAGE). A fleet of producers
// over many partitions reads tens of MB at random, a cache miss per look; with 4 KiB pages
// most of those misses also miss the TLB (a page walk on top). Where the kernel grants no
// huge pages (THP off), the blocks are ordinary memory and nothing else changes.
//
// Monotonic: memory is given back when the resource goes, not before (deallocate does
// nothing), so a run uses it for state that lives as long as the run: a container that
// grows leaves its old buffer behind (at most as much again as it holds).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <memory_resource>
#include <new>
#include <utility>
#include <vector>

#include <sys/mman.h>

namespace partsim::sim {

class HugePageResource final : public std::pmr::memory_resource {
public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kBlock = 2 * kHugePage;

  HugePageResource() = default;
  HugePageResource(const HugePageResource&) = delete;
  HugePageResource& operator=(const HugePageResource&) = delete;
  ~HugePageResource() override {
    for (void* b : blocks_) std::free(b);
  }

  /// Bytes taken from the system so far.
  std::size_t reserved() const { return reserved_; }

private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    std::size_t at = (used_ + align - 1) & ~(align - 1);
    if (current_ == nullptr || at + bytes > capacity_) {
      // A request that does not fit: of more than a quarter block, it gets a block of its
      // own and the current one keeps serving; else a new block becomes the current one.
      if (bytes + align > kBlock / 4) return new_block(bytes + align, align);
      current_ = static_cast<std::byte*>(new_block(kBlock, kHugePage));
      capacity_ = kBlock;
      at = 0;
    }
    used_ = at + bytes;
    return current_ + at;
  }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  // A block of at least `bytes`, whole huge pages, aligned to one (so the kernel can map it
  // with them), aligned to `align` at its start.
  void* new_block(std::size_t bytes, std::size_t align) {
    const std::size_t size = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    blocks_.reserve(blocks_.size() + 1);  // before the block: no throw once it is taken
    void* p = std::aligned_alloc(std::max(kHugePage, align), size);
    if (p == nullptr) throw std::bad_alloc();
    blocks_.push_back(p);
    reserved_ += size;
#ifdef MADV_HUGEPAGE
    ::madvise(p, size, MADV_HUGEPAGE);  // a request: refused (THP off), the block is still memory
#endif
    return p;
  }

  std::vector<void*> blocks_;
  std::byte* current_ = nullptr;
  std::size_t capacity_ = 0, used_ = 0, reserved_ = 0;
};

/// Deletes a T made by make_in back into its memory.
template <class T>
struct MemoryDelete {
  std::pmr::memory_resource* memory;
  void operator()(T* p) const {
    p->~T();
    memory->deallocate(p, sizeof(T), alignof(T));
  }
};

/// A T made in `memory` (given back if its constructor throws).
template <class T, class... Args>
std::unique_ptr<T, MemoryDelete<T>> make_in(std::pmr::memory_resource* memory, Args&&... args) {
  void* place = memory->allocate(sizeof(T), alignof(T));
  try {
    return std::unique_ptr<T, MemoryDelete<T>>(new (place) T(std::forward<Args>(args)...), MemoryDelete<T>{memory});
  } catch (...) {
    memory->deallocate(place, sizeof(T), alignof(T));
    throw;
  }
}

}  // namespace partsim::sim
