// Each client's key rule against vectors from outside partsim: the CRC-32 check value of
// "123456789" and FNV-1a's published test vectors; kafkajs' legacy hash as the real kafkajs
// 2.2.4 computes it (node, legacy/murmur2.js, run by hand; tests/clients/check_clients.sh
// compares 100,000 keys); the empty key's hashes from kafka-clients.md §1 and §5; and the
// three ways of turning a hash into a partition at the values where they part
// (kafka-clients.md §1).

#include "model/partitioners/client_keys.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/partitioners/key_hash.hpp"

using namespace partsim::model;

TEST_CASE("CRC-32 and FNV-1a give their published check values") {
  CHECK(crc32_ieee("123456789") == 0xCBF43926u);
  CHECK(crc32_ieee("") == 0u);
  CHECK(fnv1a_32("") == 0x811C9DC5u);
  CHECK(fnv1a_32("a") == 0xE40C292Cu);
  CHECK(fnv1a_32("foobar") == 0xBF9CF968u);
}

TEST_CASE("kafkajs' legacy hash is not murmur2: the values the real kafkajs 2.2.4 computes") {
  CHECK(kafkajs_legacy_hash("") == 275646684);  // murmur2: 275646681
  CHECK(murmur2("") == 275646681);
  CHECK(kafkajs_legacy_hash("a") == -809885833);
  CHECK(kafkajs_legacy_hash("ab") == -1686076413);
  CHECK(kafkajs_legacy_hash("abc") == 1545667907);
  CHECK(kafkajs_legacy_hash("abcd") == -2139815384);  // one whole block: only the double products differ
  CHECK(kafkajs_legacy_hash("book-0") == 1859738931);
  CHECK(kafkajs_legacy_hash("customer-12") == 2143923538);
  CHECK(kafkajs_legacy_hash("\xc3\xa9t\xc3\xa9") == -1737070610);  // "été" in UTF-8
}

TEST_CASE("mask, abs and unsigned agree below 2^31 and part above it") {
  for (const std::uint32_t h : {0u, 5u, 12345u, 0x7fffffffu})
    for (const std::int32_t n : {1, 3, 6, 64}) {
      CHECK(hash_to_partition(h, HashToPartition::kMask, n) == static_cast<std::int32_t>(h % n));
      CHECK(hash_to_partition(h, HashToPartition::kAbs, n) == static_cast<std::int32_t>(h % n));
      CHECK(hash_to_partition(h, HashToPartition::kUnsigned, n) == static_cast<std::int32_t>(h % n));
    }
  // h = 0xFFFFFFFF (int32 -1): mask 2^31 - 1, abs 1, unsigned 2^32 - 1.
  CHECK(hash_to_partition(0xFFFFFFFFu, HashToPartition::kMask, 6) == 1);
  CHECK(hash_to_partition(0xFFFFFFFFu, HashToPartition::kAbs, 6) == 1);
  CHECK(hash_to_partition(0xFFFFFFFFu, HashToPartition::kUnsigned, 6) == 3);
  CHECK(hash_to_partition(0xFFFFFFFFu, HashToPartition::kAbs, 4) == 1);
  CHECK(hash_to_partition(0xFFFFFFFFu, HashToPartition::kMask, 4) == 3);
  // INT32_MIN: mask clears the sign bit (0); |INT32_MIN| is 2^31, as is the unsigned value.
  CHECK(hash_to_partition(0x80000000u, HashToPartition::kMask, 6) == 0);
  CHECK(hash_to_partition(0x80000000u, HashToPartition::kAbs, 6) == 2);
  CHECK(hash_to_partition(0x80000000u, HashToPartition::kUnsigned, 6) == 2);
  CHECK(hash_to_partition(0x80000000u, HashToPartition::kAbs, 7) == 2);  // 2^31 mod 7
}

TEST_CASE("every client's partition of a key, and what each does with a key it does not hash") {
  const auto at = [](std::string_view client, std::string_view key, std::int32_t n) {
    return client_partition(*find_client_key_rule(client), key, n);
  };
  // The empty key: hashed by all but librdkafka's consistent_random (sticky like a null key)
  // and kafka-go's round robin; its partition is the empty key's hash (kafka-clients.md §8).
  CHECK(at("java", "", 64) == 275646681 % 64);
  CHECK(at("franz-go", "", 64) == 275646681 % 64);
  CHECK(at("librdkafka-murmur2", "", 64) == 275646681 % 64);
  CHECK(at("sarama", "", 64) == static_cast<std::int32_t>(2128831035u % 64));  // |int32(2166136261)|
  CHECK(at("kafka-go-hash", "", 64) == static_cast<std::int32_t>(2128831035u % 64));
  CHECK(at("kafkajs-legacy", "", 64) == 275646684 % 64);
  CHECK_FALSE(at("librdkafka", "", 64).has_value());
  CHECK_FALSE(at("kafka-go", "book-0", 64).has_value());
  // A key: Java's is toPositive(murmur2) % n; librdkafka's crc32 % n unsigned.
  CHECK(at("java", "book-0", 3) == 1);  // book table T1
  CHECK(at("librdkafka", "book-0", 6) == static_cast<std::int32_t>(3467134649u % 6));
  CHECK(at("sarama", "book-0", 6) == static_cast<std::int32_t>((0u - 2447700013u) % 6));  // negative int32: abs
  CHECK(find_client_key_rule("librdkafka")->null_key == UnhashedRule::kStickyByTime);
  CHECK(find_client_key_rule("sarama")->null_key == UnhashedRule::kRandomPerRecord);
  CHECK(find_client_key_rule("kafkajs")->null_key == UnhashedRule::kRoundRobin);
  CHECK(std::string(unhashed_rule_name(find_client_key_rule("java")->null_key)) == "sticky by bytes");
  CHECK(find_client_key_rule("jav") == nullptr);
  CHECK(client_key_rules().size() == 10);
  CHECK(client_key_rules()[0].name == "java");
}
