#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/consumer/java_order.hpp"
#include "model/partitioners/key_hash.hpp"

using partsim::model::java_string_hash;
using partsim::model::consumer::java_hash_map_order;
using partsim::model::consumer::java_string_less;
using partsim::model::consumer::JavaHashTable;

namespace {

// The keys of a new HashMap<>() into which `keys` were put in order, as Java iterates them.
std::vector<std::string> hash_map_order(const std::vector<std::string>& keys) {
  std::vector<std::int32_t> hashes;
  for (const auto& k : keys) hashes.push_back(java_string_hash(k));
  std::vector<std::string> out;
  for (auto i : java_hash_map_order(hashes)) out.push_back(keys[i]);
  return out;
}

std::vector<int> int_order(const JavaHashTable& t, const std::vector<int>& values) {
  std::vector<int> out;
  for (auto i : t.order()) out.push_back(values[i]);
  return out;
}

}  // namespace

// Every expected order below was printed by a JDK 17 java.util.HashMap / HashSet.
TEST_CASE("a HashMap of member ids iterates them in Java's bucket order") {
  CHECK(hash_map_order({"consumer1", "consumer2", "consumer3", "consumer4"}) ==
        std::vector<std::string>{"consumer4", "consumer3", "consumer2", "consumer1"});
  CHECK(hash_map_order({"c0", "c1", "c2", "c3", "c4"}) == std::vector<std::string>{"c3", "c4", "c0", "c1", "c2"});
  CHECK(hash_map_order({"topic1", "topic2", "topic3", "topic"}) ==
        std::vector<std::string>{"topic1", "topic2", "topic3", "topic"});
  CHECK(java_string_hash("c0") == 3117);
}

TEST_CASE("the table doubles past three quarters full and keeps each bucket's order") {
  std::vector<std::string> keys;
  for (int i = 0; i < 13; ++i) keys.push_back((i < 10 ? "c0" : "c1") + std::to_string(i % 10));
  CHECK(hash_map_order(keys) == std::vector<std::string>{"c00", "c11", "c10", "c02", "c01", "c12", "c04", "c03", "c06",
                                                         "c05", "c08", "c07", "c09"});
  // Removing keys never shrinks the table: c00 put back goes behind c11 in their bucket.
  JavaHashTable t;
  for (std::size_t i = 0; i < keys.size(); ++i) t.insert(i, java_string_hash(keys[i]));
  for (std::size_t i = 0; i < 5; ++i) t.erase(i, java_string_hash(keys[i]));
  t.insert(0, java_string_hash(keys[0]));
  std::vector<std::string> order;
  for (auto i : t.order()) order.push_back(keys[i]);
  CHECK(order == std::vector<std::string>{"c11", "c00", "c10", "c12", "c06", "c05", "c08", "c07", "c09"});
  CHECK(t.capacity() == 32);
}

TEST_CASE("a ninth key in one bucket of a small table doubles it instead of making a tree") {
  JavaHashTable t;
  std::vector<int> values;
  for (int i = 8; i >= 0; --i) values.push_back(i * 64);
  for (std::size_t i = 0; i < values.size(); ++i) t.insert(i, values[i]);
  CHECK(t.capacity() == 32);
  CHECK(int_order(t, values) == std::vector<int>{512, 448, 384, 320, 256, 192, 128, 64, 0});
}

TEST_CASE("the sizing constructors size the table as Java does") {
  const std::vector<int> four{20, 3, 17, 1};  // new HashSet<>(Arrays.asList(20, 3, 17, 1))
  auto copy = JavaHashTable::for_copy_of(four.size());
  for (std::size_t i = 0; i < four.size(); ++i) copy.insert(i, four[i]);
  CHECK(int_order(copy, four) == std::vector<int>{17, 1, 3, 20});
  CHECK(copy.capacity() == 16);
  const std::vector<int> three{5, 1, 3};  // new HashMap<>(0): 1 bucket, then 2, then 4
  auto zero = JavaHashTable::with_initial_capacity(0);
  for (std::size_t i = 0; i < three.size(); ++i) zero.insert(i, three[i]);
  CHECK(int_order(zero, three) == std::vector<int>{5, 1, 3});
  CHECK(zero.capacity() == 4);
  auto sized = JavaHashTable::with_initial_capacity(3);  // new HashMap<>(3): 4 buckets, 3 keys fit
  for (std::size_t i = 0; i < three.size(); ++i) sized.insert(i, three[i]);
  CHECK(sized.capacity() == 4);
}

TEST_CASE("putting a key again moves nothing, and first() is the iteration's first") {
  JavaHashTable t;
  t.insert(7, 16);
  t.insert(3, 0);
  t.insert(7, 16);
  CHECK(t.size() == 2);
  CHECK(t.first() == 7);
  t.erase(7, 16);
  CHECK(t.first() == 3);
  t.erase(9, 5);  // absent: nothing happens
  CHECK(t.size() == 1);
}

TEST_CASE("String.compareTo order is UTF-16 order") {
  CHECK(java_string_less("consumer-a", "consumer-b"));
  CHECK(java_string_less("c1", "c10"));
  CHECK_FALSE(java_string_less("c10", "c1"));
  CHECK_FALSE(java_string_less("a", "a"));
  // U+1F600 (a surrogate pair, 0xD83D 0xDE00) sorts before U+FFFD in Java, after it in UTF-8.
  CHECK(java_string_less("a\xF0\x9F\x98\x80", "a\xEF\xBF\xBD"));
  CHECK_FALSE(java_string_less("a\xEF\xBF\xBD", "a\xF0\x9F\x98\x80"));
  CHECK(java_string_less("a\xC3\xA9", "a\xEF\xBF\xBD"));  // é before U+FFFD either way
}
