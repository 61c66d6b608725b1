#pragma once
// The other clients' partitioners as a producer profile runs them (kafka-clients.md §3-§7,
// §10, §11): for each, the hash and the hash -> partition rule of a keyed record (over all
// partitions in every client), and what it does with a null key, with the empty key, and
// with keyed records when it ignores keys. The choices that are not a function of the key
// draw from the producer's partitioner stream:
//  - sticky by time (librdkafka): one partition per topic until sticky.partitioning.linger.ms
//    has passed since the last switch, or at once when it has no leader; the next is drawn
//    uniformly over all partitions with one retry when the draw has no leader, and may be
//    the same (rd_kafka_msg_sticky_partition); a linger of 0 draws per record;
//  - random: uniform per record over the candidates;
//  - round robin: a counter over the candidates, from 0 or (kafkajs) from a random 32-bit
//    start, pre-incremented and masked;
//  - sticky by bytes (franz-go UniformBytesPartitioner): a partition until the records'
//    estimated bytes (3 + key, value and header parts) reach the threshold; the record that
//    reaches it starts the next partition, drawn uniformly or, adaptive, with weight
//    1 / (buffered records + 1);
//  - the empty key hashed: one fixed partition (librdkafka consistent, murmur2, fnv1a).
// Candidates are all partitions, or those with a leader (sorted by id, as sarama, kafkajs
// and franz-go list them; all of them when none has one).

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/client_version.hpp"
#include "model/partitioners/client_keys.hpp"
#include "model/partitioners/partitioner.hpp"

namespace partsim::model {

/// What a partitioner does with a record it does not place by its key's hash.
enum class Unkeyed : std::uint8_t {
  kHashed,         ///< hashed like any key (the empty key; a null key hashed as the empty one)
  kStickyByTime,   ///< librdkafka
  kRandom,         ///< per record
  kRoundRobin,     ///< per record
  kStickyByBytes,  ///< franz-go
};

/// Which partitions an unkeyed choice draws from.
enum class Candidates : std::uint8_t {
  kAll,           ///< every partition (kafka-go)
  kAllRetryOnce,  ///< every partition, drawn once more when the draw has no leader (librdkafka)
  kWithLeader,    ///< the partitions with a leader, by id (sarama, kafkajs, franz-go)
};

/// One partitioner of one client, by the name the client's config gives it.
struct ClientPartitionerRule {
  ClientFamily family = ClientFamily::kJava;
  std::string_view name;             ///< consistent_random, NewHashPartitioner, RoundRobin, ...
  KeyHash hash = KeyHash::kMurmur2;  ///< kNone: keys are ignored (keyed records follow `keyed`)
  HashToPartition rule = HashToPartition::kMask;
  Unkeyed null_key = Unkeyed::kRandom;
  Unkeyed empty_key = Unkeyed::kHashed;
  Unkeyed keyed = Unkeyed::kHashed;  ///< with hash kNone: what keyed records get
  Candidates candidates = Candidates::kAll;
  bool random_start = false;  ///< round robin from a random 32-bit counter (kafkajs)
};

/// The partitioners a profile knows, its default first.
std::vector<const ClientPartitionerRule*> client_partitioner_rules(ClientFamily family);
/// `family`'s partitioner named `name`, or none.
const ClientPartitionerRule* find_client_partitioner(ClientFamily family, std::string_view name);
/// "sticky by time", "random per record", "round robin", "sticky by bytes", "hashed"
/// ("fixed partition" for a null key hashed as the empty key).
const char* unkeyed_name(Unkeyed u, bool null_key);

/// The settings of a client partitioner beyond its rule.
struct ClientPartitionerSettings {
  sim::SimTime sticky_linger = sim::SimTime::ms(10);  ///< librdkafka sticky.partitioning.linger.ms (0: per record)
  std::int64_t sticky_bytes = 65536;                  ///< franz-go UniformBytesPartitioner bytes
  bool adaptive = true;                               ///< franz-go UniformBytesPartitioner adaptive
  bool keys = true;                                   ///< franz-go UniformBytesPartitioner keys (false: keys ignored)
};

class ClientPartitioner final : public Partitioner {
public:
  ClientPartitioner(const ClientPartitionerRule& rule, const ClientPartitionerSettings& settings, PartitionDraw draw);
  std::int32_t partition(std::optional<std::string_view> key, const PartitionerView& view) override;
  /// Called once per record: no client here has the Java producer's abort-on-new-batch path.
  bool abort_on_new_batch() const override { return false; }

private:
  std::int32_t unkeyed(Unkeyed how, const PartitionerView& view);
  std::span<const std::int32_t> candidates(const PartitionerView& view);
  bool has_leader(std::int32_t p, const PartitionerView& view) const;
  std::int32_t uniform(std::int32_t n) { return static_cast<std::int32_t>(draw_() % n); }
  std::int32_t draw_all_with_retry(const PartitionerView& view);
  std::int32_t draw_adaptive(std::span<const std::int32_t> among, const PartitionerView& view);

  const ClientPartitionerRule& rule_;
  ClientPartitionerSettings settings_;
  PartitionDraw draw_;
  // Candidates with a leader, by id, as of the metadata version they were built from.
  std::vector<std::int32_t> with_leader_;
  std::vector<std::int32_t> all_;
  std::uint64_t built_version_ = UINT64_MAX;
  std::int32_t built_count_ = -1;
  std::int32_t sticky_ = -1;       // sticky by time or by bytes: the current partition
  sim::SimTime switched_;          // sticky by time: the last switch
  std::int64_t sticky_total_ = 0;  // sticky by bytes: estimated bytes on the current partition
  std::uint32_t counter_ = 0;      // round robin
};

}  // namespace partsim::model
