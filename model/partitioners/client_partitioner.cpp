#include "model/partitioners/client_partitioner.hpp"

#include <array>

namespace partsim::model {
namespace {

using Fam = ClientFamily;
using U = Unkeyed;
using C = Candidates;
using H = HashToPartition;

// kafka-clients.md: §3.1-§3.2 (librdkafka's partitioner functions and which records its
// producer sends sticky instead of calling them), §6 (sarama), §5 (kafkajs), §11 (kafka-go
// v0.4.50 balancer.go), §7 (franz-go). Each family's default first.
constexpr std::array<ClientPartitionerRule, 23> kProfileRules{{
    // librdkafka: NULL keys go sticky unless the partitioner is consistent, murmur2 or fnv1a
    // (those hash them as the empty key); consistent_random also sends the empty key sticky.
    {Fam::kLibrdkafka, "consistent_random", KeyHash::kCrc32, H::kUnsigned, U::kStickyByTime, U::kStickyByTime,
     U::kHashed, C::kAllRetryOnce},
    {Fam::kLibrdkafka, "consistent", KeyHash::kCrc32, H::kUnsigned, U::kHashed, U::kHashed, U::kHashed,
     C::kAllRetryOnce},
    {Fam::kLibrdkafka, "murmur2", KeyHash::kMurmur2, H::kMask, U::kHashed, U::kHashed, U::kHashed, C::kAllRetryOnce},
    {Fam::kLibrdkafka, "murmur2_random", KeyHash::kMurmur2, H::kMask, U::kStickyByTime, U::kHashed, U::kHashed,
     C::kAllRetryOnce},
    {Fam::kLibrdkafka, "fnv1a", KeyHash::kFnv1a, H::kAbs, U::kHashed, U::kHashed, U::kHashed, C::kAllRetryOnce},
    {Fam::kLibrdkafka, "fnv1a_random", KeyHash::kFnv1a, H::kAbs, U::kStickyByTime, U::kHashed, U::kHashed,
     C::kAllRetryOnce},
    {Fam::kLibrdkafka, "random", KeyHash::kNone, H::kMask, U::kStickyByTime, U::kRandom, U::kRandom, C::kAllRetryOnce},
    // sarama: only a nil key is absent; random and round robin over the writable partitions.
    {Fam::kSarama, "NewHashPartitioner", KeyHash::kFnv1a, H::kAbs, U::kRandom, U::kHashed, U::kHashed, C::kWithLeader},
    {Fam::kSarama, "NewReferenceHashPartitioner", KeyHash::kFnv1a, H::kMask, U::kRandom, U::kHashed, U::kHashed,
     C::kWithLeader},
    {Fam::kSarama, "NewConsistentCRCHashPartitioner", KeyHash::kCrc32, H::kUnsigned, U::kRandom, U::kHashed, U::kHashed,
     C::kWithLeader},
    {Fam::kSarama, "NewMurmur2Partitioner", KeyHash::kMurmur2, H::kMask, U::kRandom, U::kHashed, U::kHashed,
     C::kWithLeader},
    {Fam::kSarama, "NewRandomPartitioner", KeyHash::kNone, H::kMask, U::kRandom, U::kRandom, U::kRandom,
     C::kWithLeader},
    {Fam::kSarama, "NewRoundRobinPartitioner", KeyHash::kNone, H::kMask, U::kRoundRobin, U::kRoundRobin, U::kRoundRobin,
     C::kWithLeader},
    // kafkajs: round robin over the partitions with a leader, from a random counter.
    {Fam::kKafkajs, "DefaultPartitioner", KeyHash::kMurmur2, H::kMask, U::kRoundRobin, U::kHashed, U::kHashed,
     C::kWithLeader, true},
    {Fam::kKafkajs, "LegacyPartitioner", KeyHash::kKafkajsLegacy, H::kMask, U::kRoundRobin, U::kHashed, U::kHashed,
     C::kWithLeader, true},
    // kafka-go: every balancer gets all partitions 0..N-1; RoundRobin counts from 0.
    {Fam::kKafkaGo, "RoundRobin", KeyHash::kNone, H::kMask, U::kRoundRobin, U::kRoundRobin, U::kRoundRobin},
    {Fam::kKafkaGo, "Hash", KeyHash::kFnv1a, H::kAbs, U::kRoundRobin, U::kHashed},
    {Fam::kKafkaGo, "ReferenceHash", KeyHash::kFnv1a, H::kMask, U::kRandom, U::kHashed},
    {Fam::kKafkaGo, "CRC32Balancer", KeyHash::kCrc32, H::kUnsigned, U::kRandom, U::kRandom},
    {Fam::kKafkaGo, "CRC32Balancer.Consistent", KeyHash::kCrc32, H::kUnsigned, U::kHashed, U::kHashed},
    {Fam::kKafkaGo, "Murmur2Balancer", KeyHash::kMurmur2, H::kMask, U::kRandom, U::kHashed},
    {Fam::kKafkaGo, "Murmur2Balancer.Consistent", KeyHash::kMurmur2, H::kMask, U::kHashed, U::kHashed},
    // franz-go: the default UniformBytesPartitioner(64 KiB, adaptive, keys, murmur2).
    {Fam::kFranzGo, "UniformBytesPartitioner", KeyHash::kMurmur2, H::kMask, U::kStickyByBytes, U::kHashed, U::kHashed,
     C::kWithLeader},
}};

// franz-go's RoundRobinPartitioner: keys ignored, writable partitions, a counter from 0.
constexpr ClientPartitionerRule kFranzGoRoundRobin{Fam::kFranzGo,  "RoundRobinPartitioner", KeyHash::kNone,
                                                   H::kMask,       U::kRoundRobin,          U::kRoundRobin,
                                                   U::kRoundRobin, C::kWithLeader};

}  // namespace

std::vector<const ClientPartitionerRule*> client_partitioner_rules(ClientFamily family) {
  std::vector<const ClientPartitionerRule*> out;
  for (const ClientPartitionerRule& r : kProfileRules)
    if (r.family == family) out.push_back(&r);
  if (family == Fam::kFranzGo) out.push_back(&kFranzGoRoundRobin);
  return out;
}

const ClientPartitionerRule* find_client_partitioner(ClientFamily family, std::string_view name) {
  for (const ClientPartitionerRule* r : client_partitioner_rules(family))
    if (r->name == name) return r;
  return nullptr;
}

const char* unkeyed_name(Unkeyed u, bool null_key) {
  switch (u) {
    case U::kHashed: return null_key ? "fixed partition" : "hashed";
    case U::kStickyByTime: return "sticky by time";
    case U::kRandom: return "random per record";
    case U::kRoundRobin: return "round robin";
    case U::kStickyByBytes: return "sticky by bytes";
  }
  return "?";
}

ClientPartitioner::ClientPartitioner(const ClientPartitionerRule& rule, const ClientPartitionerSettings& settings,
                                     PartitionDraw draw)
    : rule_(rule), settings_(settings), draw_(std::move(draw)) {
  if (rule_.random_start)  // kafkajs: a random uint32 from crypto
    counter_ = (static_cast<std::uint32_t>(draw_()) << 1) ^ static_cast<std::uint32_t>(draw_());
}

std::int32_t ClientPartitioner::partition(std::optional<std::string_view> key, const PartitionerView& view) {
  if (!key) {
    // A null key hashed as the empty key (librdkafka consistent, murmur2, fnv1a; kafka-go's
    // consistent balancers): one fixed partition.
    if (rule_.null_key == U::kHashed)
      return hash_to_partition(key_hash(rule_.hash, ""), rule_.rule, view.num_partitions);
    return unkeyed(rule_.null_key, view);
  }
  if (rule_.hash == KeyHash::kNone || !settings_.keys)
    return unkeyed(rule_.hash == KeyHash::kNone ? rule_.keyed : rule_.null_key, view);
  if (key->empty() && rule_.empty_key != U::kHashed) return unkeyed(rule_.empty_key, view);
  return hash_to_partition(key_hash(rule_.hash, *key), rule_.rule, view.num_partitions);
}

bool ClientPartitioner::has_leader(std::int32_t p, const PartitionerView& view) const {
  return view.leaders.empty() || view.leaders[static_cast<std::size_t>(p)] >= 0;
}

std::span<const std::int32_t> ClientPartitioner::candidates(const PartitionerView& view) {
  if (built_version_ != view.version || built_count_ != view.num_partitions) {
    built_version_ = view.version;
    built_count_ = view.num_partitions;
    all_.clear();
    with_leader_.clear();
    for (std::int32_t p = 0; p < view.num_partitions; ++p) {
      all_.push_back(p);
      if (has_leader(p, view)) with_leader_.push_back(p);
    }
  }
  if (rule_.candidates != C::kWithLeader || with_leader_.empty()) return all_;
  return with_leader_;
}

// rd_kafka_msg_sticky_partition / the *_random functions: uniform over all partitions, and
// once more when the draw has no leader (the second draw stands).
std::int32_t ClientPartitioner::draw_all_with_retry(const PartitionerView& view) {
  const std::int32_t p = uniform(view.num_partitions);
  return has_leader(p, view) ? p : uniform(view.num_partitions);
}

// franz-go's adaptive choice: weight 1 / (buffered records + 1) per writable partition.
std::int32_t ClientPartitioner::draw_adaptive(std::span<const std::int32_t> among, const PartitionerView& view) {
  if (view.buffered == nullptr)
    return among[static_cast<std::size_t>(uniform(static_cast<std::int32_t>(among.size())))];
  double total = 0;
  for (const std::int32_t p : among) total += 1.0 / static_cast<double>(view.buffered->buffered_records(p) + 1);
  double u = static_cast<double>(draw_()) / 2147483648.0 * total;
  for (const std::int32_t p : among) {
    u -= 1.0 / static_cast<double>(view.buffered->buffered_records(p) + 1);
    if (u < 0) return p;
  }
  return among.back();
}

std::int32_t ClientPartitioner::unkeyed(Unkeyed how, const PartitionerView& view) {
  switch (how) {
    case U::kHashed: return hash_to_partition(key_hash(rule_.hash, ""), rule_.rule, view.num_partitions);
    case U::kRandom:
      if (rule_.candidates == C::kAllRetryOnce) return draw_all_with_retry(view);
      {
        const auto among = candidates(view);
        return among[static_cast<std::size_t>(uniform(static_cast<std::int32_t>(among.size())))];
      }
    case U::kRoundRobin: {
      const auto among = candidates(view);
      // kafkajs pre-increments its counter and masks it; kafka-go takes it modulo the count,
      // then adds one; sarama and franz-go keep an index into the writable list, back to 0
      // once it reaches the list's length (which may have shrunk).
      if (rule_.random_start) return among[(++counter_ & 0x7fffffffu) % among.size()];
      if (rule_.candidates == C::kAll) return among[counter_++ % among.size()];
      if (counter_ >= among.size()) counter_ = 0;
      return among[counter_++];
    }
    case U::kStickyByTime: {
      const bool expired = sticky_ < 0 || sticky_ >= view.num_partitions || !has_leader(sticky_, view) ||
                           view.now - switched_ >= settings_.sticky_linger;
      if (settings_.sticky_linger == sim::SimTime::zero()) return draw_all_with_retry(view);
      if (expired) {
        sticky_ = draw_all_with_retry(view);
        switched_ = view.now;
      }
      return sticky_;
    }
    case U::kStickyByBytes: {
      const auto among = candidates(view);
      const std::int64_t size = 3 + view.record_bytes;  // franz-go's estimate of the record
      const bool gone = sticky_ < 0 || sticky_ >= view.num_partitions || !has_leader(sticky_, view);
      sticky_total_ += size;
      if (gone || sticky_total_ >= settings_.sticky_bytes) {
        sticky_ = settings_.adaptive
                      ? draw_adaptive(among, view)
                      : among[static_cast<std::size_t>(uniform(static_cast<std::int32_t>(among.size())))];
        sticky_total_ = size;  // the record that reached the threshold starts the new partition
      }
      return sticky_;
    }
  }
  return 0;
}

}  // namespace partsim::model
