// HugePageResource: a run's large state in blocks of whole 2 MiB pages.

#include "sim/huge_pages.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <memory_resource>
#include <vector>

using partsim::sim::HugePageResource;

namespace {
std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
}  // namespace

TEST_CASE("allocations are aligned as asked, never overlap, and small ones share a block") {
  HugePageResource r;
  std::map<std::uintptr_t, std::size_t> taken;  // start -> size
  const std::size_t sizes[] = {1, 40, 64, 1000, 40000, 3000000, 7, 5000000, 64};
  const std::size_t aligns[] = {1, 8, 64, 16, 64, 4096, 2, 64, 32};
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    CAPTURE(i);
    void* p = r.allocate(sizes[i], aligns[i]);
    CHECK(address(p) % aligns[i] == 0);
    std::memset(p, 0xab, sizes[i]);  // the memory is there (ASan sees a bad one)
    const auto [it, fresh] = taken.emplace(address(p), sizes[i]);
    REQUIRE(fresh);
    if (it != taken.begin()) CHECK(std::prev(it)->first + std::prev(it)->second <= it->first);
    if (std::next(it) != taken.end()) CHECK(it->first + it->second <= std::next(it)->first);
  }
  // Blocks are whole huge pages: the first (4 MB) takes every request up to 3 MB, which fit
  // in it; 5 MB do not, and being over a quarter block get a block of their own (6 MB)
  // while the first goes on serving (the 7 and 64 bytes after it).
  CHECK(r.reserved() == HugePageResource::kBlock + 3 * HugePageResource::kHugePage);
}

TEST_CASE("a block that is full starts another; containers grow in it") {
  HugePageResource r;
  std::pmr::vector<std::uint64_t> v(&r);
  for (std::uint64_t i = 0; i < 2'000'000; ++i) v.push_back(i);  // 16 MB, doubled up to it
  std::uint64_t sum = 0;
  for (const std::uint64_t x : v) sum += x;
  CHECK(sum == 1'999'999ULL * 2'000'000ULL / 2);
  CHECK(r.reserved() >= 16'000'000);
  // The grown-out buffers stay (deallocate gives nothing back): at most as much again.
  CHECK(r.reserved() <= 2 * 16'777'216 + 2 * HugePageResource::kBlock);
}
