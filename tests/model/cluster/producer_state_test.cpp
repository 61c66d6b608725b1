// ProducerStateTable: the broker's sequence check for idempotent producers
// (kafka-consumer-spec §8: PAI:96-147, PSE:36 and 107-143, UnifiedLog.scala:893-898).

#include "model/cluster/producer_state.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

using partsim::model::ProducerStateTable;
using Verdict = ProducerStateTable::Verdict;

TEST_CASE("a producer's batches append in sequence; a gap is OUT_OF_ORDER_SEQUENCE_NUMBER") {
  ProducerStateTable t;
  CHECK(t.append(0, 7, 0, 3) == Verdict::kAppend);      // sequences 0-2
  CHECK(t.append(0, 7, 3, 2) == Verdict::kAppend);      // 3-4
  CHECK(t.append(0, 7, 8, 1) == Verdict::kOutOfOrder);  // 5-7 missing
  CHECK(t.append(0, 7, 5, 1) == Verdict::kAppend);      // the refused batch changed nothing
}

TEST_CASE("a producer the partition has no state for may start anywhere; partitions and producers are apart") {
  ProducerStateTable t;
  CHECK(t.append(0, 1, 40, 2) == Verdict::kAppend);
  CHECK(t.append(1, 1, 0, 1) == Verdict::kAppend);  // another partition
  CHECK(t.append(0, 2, 0, 1) == Verdict::kAppend);  // another producer
  CHECK(t.append(0, 1, 42, 1) == Verdict::kAppend);
  CHECK(t.append(0, 1, 0, 1) == Verdict::kOutOfOrder);
}

TEST_CASE("a retry of one of the last five batches is a duplicate; an older one is out of order") {
  ProducerStateTable t;
  for (std::int32_t i = 0; i < 6; ++i) CHECK(t.append(3, 0, i * 2, 2) == Verdict::kAppend);  // 0-1, 2-3, ..., 10-11
  for (std::int32_t i = 1; i < 6; ++i) CHECK(t.append(3, 0, i * 2, 2) == Verdict::kDuplicate);
  CHECK(t.append(3, 0, 0, 2) == Verdict::kOutOfOrder);   // sixth from last: forgotten (PSE:36)
  CHECK(t.append(3, 0, 10, 1) == Verdict::kOutOfOrder);  // same start, another length: not that batch
  CHECK(t.append(3, 0, 12, 1) == Verdict::kAppend);
}

TEST_CASE("sequences wrap to 0 after Int.MAX") {
  ProducerStateTable t;
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  CHECK(t.append(0, 0, kMax - 1, 2) == Verdict::kAppend);  // kMax-1, kMax
  CHECK(t.append(0, 0, 0, 1) == Verdict::kAppend);
  // A batch across the wrap, then its retry.
  CHECK(t.append(1, 0, kMax - 1, 3) == Verdict::kAppend);  // kMax-1, kMax, 0
  CHECK(t.append(1, 0, kMax - 1, 3) == Verdict::kDuplicate);
  CHECK(t.append(1, 0, kMax - 1, 2) == Verdict::kOutOfOrder);
  CHECK(t.append(1, 0, 1, 1) == Verdict::kAppend);
}

TEST_CASE("reset forgets the producer's state on the partition (partsim's stand-in for the epoch bump)") {
  ProducerStateTable t;
  CHECK(t.append(0, 0, 0, 5) == Verdict::kAppend);
  CHECK(t.append(0, 0, 9, 1) == Verdict::kOutOfOrder);  // 5-8 failed for good on the client
  t.reset(0, 0);
  CHECK(t.append(0, 0, 9, 1) == Verdict::kAppend);
  CHECK(t.append(0, 0, 10, 1) == Verdict::kAppend);
}

TEST_CASE("a truncated log takes its batches out of the state: their retry is appended, not a duplicate") {
  ProducerStateTable t;
  for (std::int32_t i = 0; i < 4; ++i) CHECK(t.append(0, 0, i * 2, 2) == Verdict::kAppend);  // 0-1, 2-3, 4-5, 6-7
  t.truncate(0, 0, 6);                                  // a new leader's log ends after 4-5
  t.truncate(0, 0, 4);                                  // ... after 2-3 (batches are lost from the last back)
  CHECK(t.append(0, 0, 2, 2) == Verdict::kDuplicate);   // still in the log
  CHECK(t.append(0, 0, 6, 2) == Verdict::kOutOfOrder);  // 4-5 must come first
  CHECK(t.append(0, 0, 4, 2) == Verdict::kAppend);
  CHECK(t.append(0, 0, 6, 2) == Verdict::kAppend);
  // A batch older than the five remembered: none is left, the next starts at it.
  for (std::int32_t i = 4; i < 10; ++i) CHECK(t.append(1, 0, i * 2, 2) == Verdict::kAppend);  // 8-9 ... 18-19
  t.truncate(1, 0, 8);
  CHECK(t.append(1, 0, 10, 2) == Verdict::kOutOfOrder);
  CHECK(t.append(1, 0, 8, 2) == Verdict::kAppend);
}

TEST_CASE("a write that failed after its verdict is taken back whole: the state is as before the append") {
  // Five batches remembered; the sixth's write fails (a full disk): the oldest stays
  // remembered, so a retry of it is still a duplicate, and the sixth may come again.
  ProducerStateTable t;
  for (std::int32_t b = 0; b < 5; ++b) CHECK(t.append(0, 1, b, 1) == Verdict::kAppend);
  CHECK(t.append(0, 1, 5, 1) == Verdict::kAppend);
  t.undo_last_append();
  CHECK(t.append(0, 1, 0, 1) == Verdict::kDuplicate);
  CHECK(t.append(0, 1, 5, 1) == Verdict::kAppend);
  // A producer the partition had no state for has none again: it may start anywhere.
  CHECK(t.append(3, 2, 100, 1) == Verdict::kAppend);
  t.undo_last_append();
  CHECK(t.append(3, 2, 7, 1) == Verdict::kAppend);
}
