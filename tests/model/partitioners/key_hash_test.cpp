#include "model/partitioners/key_hash.hpp"

#include <doctest/doctest.h>

#include <array>
#include <map>
#include <string>
#include <vector>

using namespace partsim::model;

TEST_CASE("murmur2 matches the Java client's UtilsTest vectors") {
  CHECK(murmur2("21") == -973932308);
  CHECK(murmur2("foobar") == -790332482);
  CHECK(murmur2("a-little-bit-long-string") == -985981536);
  CHECK(murmur2("a-little-bit-longer-string") == -1486304829);
  CHECK(murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8") == -58897971);
  CHECK(murmur2("abc") == 479470107);
}

TEST_CASE("murmur2 handles the empty key, every tail length, high bytes and long keys") {
  // Values from an independent port of spec §9.
  CHECK(murmur2("") == 275646681);
  CHECK(murmur2("a") == -1563381124);     // tail 1
  CHECK(murmur2("ab") == 316155434);      // tail 2
  CHECK(murmur2("abcd") == -1323649548);  // no tail
  const std::array<std::uint8_t, 1> b80{0x80};
  CHECK(murmur2(b80) == 857690492);  // a byte >= 0x80 is read unsigned
  const std::array<std::uint8_t, 3> tail3{0xff, 0xfe, 0x80};
  CHECK(murmur2(tail3) == -160726397);
  const std::array<std::uint8_t, 5> block_and_tail{0xff, 0xfe, 0x80, 0x90, 0xa0};
  CHECK(murmur2(block_and_tail) == 1162648572);
  CHECK(murmur2(std::string(1000, 'x')) == -1068453602);
  CHECK(murmur2("\xc3\xa9") == 186971271);  // "é" in UTF-8
}

TEST_CASE("table T1: book-0..book-4 on 3 partitions") {
  struct Row {
    const char* key;
    std::int32_t murmur;
    std::int32_t positive;
    std::int32_t partition;
  };
  const Row rows[] = {
      {"book-0", -2108685004, 38798644, 1},  {"book-1", -928100454, 1219383194, 2},
      {"book-2", -1365223455, 782260193, 2}, {"book-3", 1793899242, 1793899242, 0},
      {"book-4", -1799749327, 347734321, 1},
  };
  for (const auto& r : rows) {
    CAPTURE(r.key);
    CHECK(murmur2(r.key) == r.murmur);
    CHECK(to_positive(murmur2(r.key)) == r.positive);
    CHECK(partition_for_key(r.key, 3) == r.partition);
  }
}

TEST_CASE("table T2: keys book-0..book-299 over 6 partitions") {
  std::map<int, int> counts;
  for (int i = 0; i < 300; ++i) ++counts[partition_for_key("book-" + std::to_string(i), 6)];
  CHECK(counts == std::map<int, int>{{0, 56}, {1, 63}, {2, 45}, {3, 52}, {4, 43}, {5, 41}});
}

TEST_CASE("table T3: five keys cycling over 6 partitions leave p3 idle") {
  std::vector<int> sequence;
  std::map<int, int> counts;
  for (int i = 0; i < 300; ++i) {
    const int p = partition_for_key("book-" + std::to_string(i % 5), 6);
    if (i < 5) sequence.push_back(p);
    ++counts[p];
  }
  CHECK(sequence == std::vector<int>{4, 2, 5, 0, 1});
  CHECK(counts == std::map<int, int>{{0, 60}, {1, 60}, {2, 60}, {4, 60}, {5, 60}});
}

TEST_CASE("toPositive masks the sign bit rather than negating") {
  CHECK(to_positive(-1) == 0x7fffffff);
  CHECK(to_positive(INT32_MIN) == 0);
  CHECK(to_positive(5) == 5);
}

TEST_CASE("Java String.hashCode over UTF-16 code units") {
  CHECK(java_string_hash("") == 0);
  CHECK(java_string_hash("hello") == 99162322);
  CHECK(java_string_hash("\xc3\xa9") == 233);              // é: one code unit
  CHECK(java_string_hash("\xf0\x9f\x98\x80") == 1772899);  // U+1F600: two surrogates
  CHECK(java_string_hash("a\xc3\xa9\xf0\x9f\x98\x80z") == 151482831);
  CHECK(java_string_hash("book-bestseller") == -1828528185);    // wraps around
  CHECK(java_string_hash("\xff") == 0xFFFD);                    // malformed -> U+FFFD
  CHECK(java_string_hash("\xe2\x82") == 31 * 0xFFFD + 0xFFFD);  // truncated: one per byte
}

TEST_CASE("floorMod takes the divisor's sign") {
  CHECK(floor_mod(-7, 3) == 2);
  CHECK(floor_mod(7, 3) == 1);
  CHECK(floor_mod(-6, 3) == 0);
  CHECK(floor_mod(INT32_MIN, 5) == 2);
}
