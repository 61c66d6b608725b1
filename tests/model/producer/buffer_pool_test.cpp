// BufferPool (spec §3.10) against Kafka's BufferPoolTest (clients/src/test/java/org/apache/
// kafka/clients/producer/internals/BufferPoolTest.java): testSimple,
// testCantAllocateMoreMemoryThanWeHave, testDelayedAllocation and
// testCleanupMemoryAvailabilityWaiterOnBlockTimeout, with Kafka's threads replaced by the
// one waiter partsim models. Kafka's free list of batch.size buffers changes no count here:
// the pool is the available bytes and the waiter's need.

#include "model/producer/buffer_pool.hpp"

#include <doctest/doctest.h>

using partsim::model::BufferPool;
using Allocation = BufferPool::Allocation;

TEST_CASE("testSimple: an allocation that fits is granted and its bytes come back on deallocate") {
  const std::int64_t total = 64 * 1024;
  const std::int32_t size = 1024;
  BufferPool pool(total);
  CHECK(pool.allocate(size) == Allocation::kGranted);
  CHECK(pool.available_bytes() == total - size);
  CHECK(pool.used_bytes() == size);
  CHECK_FALSE(pool.deallocate(size));  // no waiter to hand it to
  CHECK(pool.available_bytes() == total);
  // A non-standard size (twice batch.size) is granted and returned the same way.
  CHECK(pool.allocate(2 * size) == Allocation::kGranted);
  CHECK(pool.available_bytes() == total - 2 * size);
  CHECK_FALSE(pool.deallocate(2 * size));
  CHECK(pool.available_bytes() == total);
  CHECK_FALSE(pool.has_waiter());
}

TEST_CASE(
    "testCantAllocateMoreMemoryThanWeHave: all of buffer.memory is granted, one byte more is over the hard limit") {
  BufferPool pool(1024);
  CHECK(pool.allocate(1024) == Allocation::kGranted);
  CHECK(pool.available_bytes() == 0);
  CHECK_FALSE(pool.deallocate(1024));
  CHECK(pool.allocate(1025) == Allocation::kOverLimit);
  // The hard limit fails at once: nothing taken, nobody waits.
  CHECK(pool.available_bytes() == 1024);
  CHECK_FALSE(pool.has_waiter());
}

TEST_CASE("an allocation over the hard limit fails at once even while memory is in use") {
  BufferPool pool(1024);
  CHECK(pool.allocate(1000) == Allocation::kGranted);
  CHECK(pool.allocate(2000) == Allocation::kOverLimit);  // would wait forever: Kafka throws instead
  CHECK_FALSE(pool.has_waiter());
  CHECK(pool.available_bytes() == 24);
}

TEST_CASE("testDelayedAllocation: a request that does not fit waits and is granted exactly when enough is back") {
  BufferPool pool(5 * 1024);
  CHECK(pool.allocate(512) == Allocation::kGranted);
  CHECK(pool.allocate(1024) == Allocation::kGranted);
  CHECK(pool.allocate(2048) == Allocation::kGranted);
  CHECK(pool.allocate(1024) == Allocation::kGranted);
  REQUIRE(pool.available_bytes() == 512);

  CHECK(pool.allocate(2048) == Allocation::kWait);
  CHECK(pool.has_waiter());
  CHECK(pool.waiter_bytes() == 2048);
  CHECK(pool.available_bytes() == 512);  // waiting takes nothing yet

  CHECK_FALSE(pool.deallocate(512));  // 1024 free: not enough for 2048
  CHECK(pool.has_waiter());
  CHECK(pool.available_bytes() == 1024);

  CHECK(pool.deallocate(1024));  // 2048 free: exactly the need, taken for the waiter
  CHECK_FALSE(pool.has_waiter());
  CHECK(pool.waiter_bytes() == 0);
  CHECK(pool.available_bytes() == 0);
  CHECK(pool.used_bytes() == 5 * 1024);

  // The waiter is served once: later deallocations just return memory.
  CHECK_FALSE(pool.deallocate(2048));
  CHECK(pool.available_bytes() == 2048);
}

TEST_CASE("testCleanupMemoryAvailabilityWaiterOnBlockTimeout: a waiter that gives up leaves the memory as it was") {
  BufferPool pool(2);
  CHECK(pool.allocate(1) == Allocation::kGranted);
  CHECK(pool.allocate(2) == Allocation::kWait);
  pool.cancel_wait();  // max.block.ms elapsed: BufferExhaustedException
  CHECK_FALSE(pool.has_waiter());
  CHECK(pool.available_bytes() == 1);
  CHECK_FALSE(pool.deallocate(1));  // nobody to grant it to
  CHECK(pool.available_bytes() == 2);
  CHECK(pool.allocate(2) == Allocation::kGranted);  // a new request can wait or take again
}

TEST_CASE("peak use is the most taken at once, counting memory granted to a waiter") {
  BufferPool pool(100);
  CHECK(pool.peak_used_bytes() == 0);
  CHECK(pool.allocate(30) == Allocation::kGranted);
  CHECK(pool.allocate(50) == Allocation::kGranted);
  CHECK(pool.peak_used_bytes() == 80);
  CHECK_FALSE(pool.deallocate(50));
  CHECK(pool.peak_used_bytes() == 80);  // a peak stays a peak
  CHECK(pool.allocate(60) == Allocation::kGranted);
  CHECK(pool.peak_used_bytes() == 90);
  CHECK(pool.allocate(40) == Allocation::kWait);  // 10 free
  CHECK(pool.peak_used_bytes() == 90);
  CHECK(pool.deallocate(30));  // 40 free: granted to the waiter, 100 in use
  CHECK(pool.peak_used_bytes() == 100);
  CHECK(pool.total_bytes() == 100);
}
