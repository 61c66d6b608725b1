// The other clients' partitioners as their producers run them (kafka-clients.md §3-§7),
// with scripted or seeded draws: the keyed rules against the hashes, and the rules for null
// keys (sticky by time, round robin, random over partitions with a leader, sticky by bytes).

#include <doctest/doctest.h>

#include <deque>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "model/partitioners/client_keys.hpp"
#include "model/partitioners/client_partitioner.hpp"
#include "model/partitioners/key_hash.hpp"
#include "scripted_draws.hpp"

using namespace partsim::model;
using partsim::model::test::scripted;
using partsim::sim::SimTime;

namespace {

PartitionDraw seeded_draws(std::uint32_t seed) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [rng] { return static_cast<std::int32_t>((*rng)() >> 1); };
}

ClientPartitioner make(ClientFamily family, std::string_view name, PartitionDraw draw,
                       ClientPartitionerSettings settings = {}) {
  const ClientPartitionerRule* rule = find_client_partitioner(family, name);
  REQUIRE(rule != nullptr);
  return ClientPartitioner(*rule, settings, std::move(draw));
}

// Six partitions; `leaders[p]` -1 for a partition without a leader.
struct Cluster {
  std::vector<std::int32_t> leaders{0, 1, 2, 0, 1, 2};
  std::uint64_t version = 1;
  PartitionerView at(SimTime now, std::int32_t record_bytes = 0, const BufferedRecords* buffered = nullptr) const {
    return PartitionerView{{},      static_cast<std::int32_t>(leaders.size()), leaders, version, now, record_bytes,
                           buffered};
  }
};

struct FixedBuffered final : BufferedRecords {
  std::vector<std::int64_t> counts;
  std::int64_t buffered_records(std::int32_t p) const override { return counts[static_cast<std::size_t>(p)]; }
};

}  // namespace

TEST_CASE("every profile's default partitioner comes first, and each places keys as hash --clients says") {
  CHECK(client_partitioner_rules(ClientFamily::kLibrdkafka).front()->name == "consistent_random");
  CHECK(client_partitioner_rules(ClientFamily::kSarama).front()->name == "NewHashPartitioner");
  CHECK(client_partitioner_rules(ClientFamily::kKafkajs).front()->name == "DefaultPartitioner");
  CHECK(client_partitioner_rules(ClientFamily::kKafkaGo).front()->name == "RoundRobin");
  CHECK(client_partitioner_rules(ClientFamily::kFranzGo).front()->name == "UniformBytesPartitioner");
  CHECK(find_client_partitioner(ClientFamily::kSarama, "consistent_random") == nullptr);
  const Cluster c;
  // Keyed records: the same partition as the key-compatibility report's rule for the client.
  const std::pair<std::string_view, std::pair<ClientFamily, std::string_view>> pairs[] = {
      {"librdkafka", {ClientFamily::kLibrdkafka, "consistent_random"}},
      {"librdkafka-murmur2", {ClientFamily::kLibrdkafka, "murmur2_random"}},
      {"sarama", {ClientFamily::kSarama, "NewHashPartitioner"}},
      {"sarama-murmur2", {ClientFamily::kSarama, "NewMurmur2Partitioner"}},
      {"kafkajs", {ClientFamily::kKafkajs, "DefaultPartitioner"}},
      {"kafkajs-legacy", {ClientFamily::kKafkajs, "LegacyPartitioner"}},
      {"kafka-go-hash", {ClientFamily::kKafkaGo, "Hash"}},
      {"franz-go", {ClientFamily::kFranzGo, "UniformBytesPartitioner"}},
  };
  for (const auto& [report, partitioner] : pairs) {
    ClientPartitioner p = make(partitioner.first, partitioner.second, seeded_draws(1));
    const ClientKeyRule* rule = find_client_key_rule(report);
    REQUIRE(rule != nullptr);
    for (int i = 0; i < 500; ++i) {
      const std::string key = "user-" + std::to_string(i * 7919);
      CAPTURE(key);
      CAPTURE(report);
      CHECK(p.partition(key, c.at(SimTime::zero())) == *client_partition(*rule, key, 6));
    }
  }
}

TEST_CASE("librdkafka: NULL keys sticky by time, a leaderless partition left at once, a linger of 0 per message") {
  Cluster c;
  ClientPartitioner p = make(ClientFamily::kLibrdkafka, "consistent_random", scripted({4, 1, 5, 3}));
  // 10 ms stickiness: the first draw (4) holds until 10 ms after it.
  CHECK(p.partition(std::nullopt, c.at(SimTime::ms(0))) == 4);
  CHECK(p.partition(std::nullopt, c.at(SimTime::from_ms(9.9))) == 4);
  CHECK(p.partition("", c.at(SimTime::from_ms(9.9))) == 4);  // consistent_random sends the empty key sticky too
  CHECK(p.partition(std::nullopt, c.at(SimTime::ms(10))) == 1);
  // Its leader gone: the next record draws at once; a draw without a leader is drawn once more.
  c.leaders[1] = -1;
  c.version = 2;
  c.leaders[5] = -1;
  CHECK(p.partition(std::nullopt, c.at(SimTime::ms(11))) == 3);  // 5 has no leader: the retry, 3, stands
  // Keys hash with CRC-32, unsigned, over all partitions (leaderless ones too).
  CHECK(p.partition("user-1", c.at(SimTime::ms(11))) == static_cast<std::int32_t>(crc32_ieee("user-1") % 6));

  ClientPartitionerSettings per_message;
  per_message.sticky_linger = SimTime::zero();
  ClientPartitioner q = make(ClientFamily::kLibrdkafka, "murmur2_random", scripted({2, 3}), per_message);
  CHECK(q.partition(std::nullopt, c.at(SimTime::ms(0))) == 2);
  CHECK(q.partition(std::nullopt, c.at(SimTime::ms(0))) == 3);
  // murmur2_random hashes the empty key; murmur2 sends NULL keys to 275646681 % N.
  CHECK(q.partition("", c.at(SimTime::ms(0))) == 275646681 % 6);
  ClientPartitioner fixed = make(ClientFamily::kLibrdkafka, "murmur2", scripted({}));
  CHECK(fixed.partition(std::nullopt, c.at(SimTime::ms(0))) == 275646681 % 6);
  ClientPartitioner fnv = make(ClientFamily::kLibrdkafka, "fnv1a", scripted({}));
  CHECK(fnv.partition(std::nullopt, c.at(SimTime::ms(0))) == 2128831035 % 6);
}

TEST_CASE("kafkajs and kafka-go: round robin, over partitions with a leader from a random start, or all from 0") {
  Cluster c;
  c.leaders[2] = -1;
  // kafkajs: a random 32-bit start from two draws ((5 << 1) ^ 0 = 10), pre-incremented: 11 % 5.
  ClientPartitioner js = make(ClientFamily::kKafkajs, "DefaultPartitioner", scripted({5, 0}));
  const std::vector<std::int32_t> with_leader{0, 1, 3, 4, 5};
  for (std::uint32_t i = 0; i < 12; ++i)
    CHECK(js.partition(std::nullopt, c.at(SimTime::zero())) == with_leader[(11 + i) % 5]);
  // kafka-go's RoundRobin ignores keys and counts over every partition from 0.
  ClientPartitioner go = make(ClientFamily::kKafkaGo, "RoundRobin", scripted({}));
  for (std::int32_t i = 0; i < 12; ++i) CHECK(go.partition("same-key", c.at(SimTime::zero())) == i % 6);
}

TEST_CASE("sarama: nil keys random per message over the partitions with a leader; the empty key hashed") {
  Cluster c;
  c.leaders[0] = -1;
  c.leaders[3] = -1;
  ClientPartitioner p = make(ClientFamily::kSarama, "NewHashPartitioner", seeded_draws(7));
  std::map<std::int32_t, int> seen;
  for (int i = 0; i < 4000; ++i) ++seen[p.partition(std::nullopt, c.at(SimTime::zero()))];
  CHECK(seen.size() == 4);
  CHECK(seen.count(0) == 0);
  CHECK(seen.count(3) == 0);
  for (const auto& [partition, n] : seen) CHECK(n > 850);
  CHECK(p.partition("", c.at(SimTime::zero())) ==
        static_cast<std::int32_t>(2128831035u % 6u));  // |int32| of FNV's basis
}

TEST_CASE("franz-go: sticky by estimated bytes (1000 bytes of 100-byte values: 9 records a partition), adaptive") {
  Cluster c;
  ClientPartitionerSettings s;
  s.sticky_bytes = 1000;
  s.adaptive = false;
  // Draws 0, 1, 2, ...: each switch goes to another partition, so every change is seen.
  std::vector<std::int32_t> draws;
  for (std::int32_t i = 0; i < 20; ++i) draws.push_back(i % 6);
  ClientPartitioner p = make(ClientFamily::kFranzGo, "UniformBytesPartitioner", scripted(draws), s);
  // A null key and a 100-byte value: payload part 1 + 2 + 100 + 1 = 104, estimated 107 bytes.
  std::vector<std::int32_t> runs;
  std::int32_t last = -1;
  for (int i = 0; i < 90; ++i) {
    const std::int32_t q = p.partition(std::nullopt, c.at(SimTime::zero(), 104));
    if (q != last) runs.push_back(1);
    else ++runs.back();
    last = q;
  }
  CHECK(runs == std::vector<std::int32_t>(10, 9));

  // Adaptive: weight 1 / (buffered + 1). Backlog 0, 0, 100 x 4: about 49%, 49%, 0.5% x 4.
  FixedBuffered backlog;
  backlog.counts = {0, 0, 100, 100, 100, 100};
  s.sticky_bytes = 1;  // every record draws
  s.adaptive = true;
  ClientPartitioner a = make(ClientFamily::kFranzGo, "UniformBytesPartitioner", seeded_draws(11), s);
  std::map<std::int32_t, int> seen;
  for (int i = 0; i < 20000; ++i) ++seen[a.partition(std::nullopt, c.at(SimTime::zero(), 104, &backlog))];
  CHECK(seen[0] > 9300);
  CHECK(seen[1] > 9300);
  CHECK(seen[2] + seen[3] + seen[4] + seen[5] < 800);
  CHECK(seen[2] + seen[3] + seen[4] + seen[5] > 100);
}

TEST_CASE("the other partitioners' null and empty keys: fixed, random per message or hashed, as each client does") {
  Cluster c;
  // sarama's reference hash: FNV-1a with Java's sign rule: the empty key at 0x811C9DC5 & 0x7fffffff.
  ClientPartitioner ref = make(ClientFamily::kSarama, "NewReferenceHashPartitioner", scripted({}));
  CHECK(ref.partition("", c.at(SimTime::zero())) == 18652613 % 6);
  CHECK(ref.partition("user-9", c.at(SimTime::zero())) ==
        static_cast<std::int32_t>((fnv1a_32("user-9") & 0x7fffffffu) % 6));
  ClientPartitioner crc = make(ClientFamily::kSarama, "NewConsistentCRCHashPartitioner", scripted({}));
  CHECK(crc.partition("", c.at(SimTime::zero())) == 0);  // crc32 of nothing
  // kafka-go: CRC32Balancer sends nil and empty keys to a random partition, its Consistent form
  // hashes both; Murmur2Balancer.Consistent hashes a nil key as the empty one.
  ClientPartitioner go_crc = make(ClientFamily::kKafkaGo, "CRC32Balancer", scripted({4, 5}));
  CHECK(go_crc.partition("", c.at(SimTime::zero())) == 4);
  CHECK(go_crc.partition(std::nullopt, c.at(SimTime::zero())) == 5);
  ClientPartitioner go_crc_c = make(ClientFamily::kKafkaGo, "CRC32Balancer.Consistent", scripted({}));
  CHECK(go_crc_c.partition(std::nullopt, c.at(SimTime::zero())) == 0);
  ClientPartitioner go_m2 = make(ClientFamily::kKafkaGo, "Murmur2Balancer.Consistent", scripted({}));
  CHECK(go_m2.partition(std::nullopt, c.at(SimTime::zero())) == 275646681 % 6);
  CHECK(go_m2.partition("user-9", c.at(SimTime::zero())) == to_positive(murmur2("user-9")) % 6);
  // librdkafka: consistent sends NULL keys to crc32("") = 0; random ignores keys.
  ClientPartitioner cons = make(ClientFamily::kLibrdkafka, "consistent", scripted({}));
  CHECK(cons.partition(std::nullopt, c.at(SimTime::zero())) == 0);
  ClientPartitioner rnd = make(ClientFamily::kLibrdkafka, "random", scripted({3, 2}));
  CHECK(rnd.partition("user-9", c.at(SimTime::zero())) == 3);
  CHECK(rnd.partition("user-9", c.at(SimTime::zero())) == 2);
}

TEST_CASE("sarama's round robin: an index into the writable list, back to 0 when the list shrinks under it") {
  Cluster c;
  ClientPartitioner rr = make(ClientFamily::kSarama, "NewRoundRobinPartitioner", scripted({}));
  for (std::int32_t i = 0; i < 5; ++i) CHECK(rr.partition("k", c.at(SimTime::zero())) == i);
  c.leaders[1] = -1;
  c.leaders[3] = -1;
  c.version = 2;
  // The index (5) is past the four writable partitions 0, 2, 4, 5: back to the first.
  CHECK(rr.partition("k", c.at(SimTime::zero())) == 0);
  CHECK(rr.partition("k", c.at(SimTime::zero())) == 2);
}
