#include "model/producer/record_size.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

using namespace partsim::model;

TEST_CASE("zig-zag varint sizes") {
  CHECK(varint_size(0) == 1);
  CHECK(varint_size(63) == 1);
  CHECK(varint_size(64) == 2);
  CHECK(varint_size(-64) == 1);
  CHECK(varint_size(-65) == 2);
  CHECK(varint_size(8191) == 2);
  CHECK(varint_size(8192) == 3);
  CHECK(varlong_size(0) == 1);
  CHECK(varlong_size(64) == 2);
  CHECK(varlong_size(-1) == 1);
}

namespace {
// The bytes an unsigned LEB128 encoder writes for the zig-zag of v: an encoder, not a count.
std::int32_t encoded_bytes(std::int64_t v) {
  std::uint64_t z = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  std::vector<std::uint8_t> out;
  do {
    out.push_back(static_cast<std::uint8_t>((z & 0x7f) | (z > 0x7f ? 0x80 : 0)));
    z >>= 7;
  } while (z != 0);
  return static_cast<std::int32_t>(out.size());
}
}  // namespace

TEST_CASE("zig-zag varint sizes at every 7-bit boundary and the extremes, against an encoder") {
  for (int bits = 0; bits <= 62; ++bits) {
    for (const std::int64_t base : {std::int64_t{1} << bits, -(std::int64_t{1} << bits)}) {
      for (const std::int64_t v : {base - 1, base, base + 1}) {
        CAPTURE(v);
        CHECK(varlong_size(v) == encoded_bytes(v));
        if (v >= INT32_MIN && v <= INT32_MAX) CHECK(varint_size(static_cast<std::int32_t>(v)) == encoded_bytes(v));
      }
    }
  }
  CHECK(varint_size(INT32_MAX) == 5);
  CHECK(varint_size(INT32_MIN) == 5);
  CHECK(varlong_size(INT64_MAX) == 10);
  CHECK(varlong_size(INT64_MIN) == 10);
}

TEST_CASE("spec §5.4: a null-key record with value 'value-book-7'") {
  RecordShape shape;
  shape.value_bytes = 12;
  const auto payload = shape.payload_part();
  CHECK(record_size(0, 0, payload) == 19);
  CHECK(batch_size_upper_bound(payload) == 97);
  CHECK(kBatchHeaderBytes + record_size(0, 0, payload) == 80);  // first record of a batch
  CHECK(record_size(63, 0, payload) == 19);
  CHECK(record_size(64, 0, payload) == 20);  // offsetDelta needs 2 bytes
  CHECK(record_size(0, 64, payload) == 20);  // so does tsDelta 64 ms
  CHECK(record_size(64, 64, payload) == 21);
  // 64 records of 19 bytes and 755 of 20 fill a 16384-byte batch to 16377.
  std::int64_t u = 0;
  int records = 0;
  while (kBatchHeaderBytes + u + record_size(records, 0, payload) <= 16384) u += record_size(records++, 0, payload);
  CHECK(records == 819);
  CHECK(kBatchHeaderBytes + u == 16377);
}

TEST_CASE("compressed estimates use float arithmetic with the 1.05 factor") {
  CHECK(estimated_bytes_written(19, true, 1.0f) == 61 + 19);
  CHECK(estimated_bytes_written(38, true, 1.0f) == 61 + 39);
  CHECK(estimated_bytes_written(100, false, 0.5f) == 161);
}

TEST_CASE("headers and keys count in the record size") {
  RecordShape shape;
  shape.key_bytes = 6;
  shape.value_bytes = 7;
  shape.header_count = 2;
  shape.header_key_bytes = 3;
  shape.header_value_bytes = 4;
  // key 1+6, value 1+7, header count 1, headers 2 x (1+3+1+4)
  CHECK(shape.payload_part() == 7 + 8 + 1 + 18);
}
