#pragma once
// Named random streams. Each component draws from its own Boost.Random engine whose seed
// is a fixed function of (master seed, replication number, stream name), so adding a
// stream, a broker or a producer never changes the draws of another stream, and the
// workload of two runs compared on one seed sees the same numbers (common random numbers).

#include <cstdint>
#include <string_view>

#include <boost/random/mersenne_twister.hpp>

namespace partsim::sim {

/// The engine behind every stream: 64-bit Mersenne Twister, identical on every platform.
using RandomEngine = boost::random::mt19937_64;

/// FNV-1a 64-bit hash of a stream name: stable across runs, builds and machines.
constexpr std::uint64_t stable_name_hash(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

/// SplitMix64 finaliser: a bijective mixer with full avalanche.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The seed of stream `name` in replication `replication` of a run seeded `master_seed`.
constexpr std::uint64_t derive_stream_seed(std::uint64_t master_seed, std::uint64_t replication,
                                           std::string_view name) {
  std::uint64_t s = splitmix64(master_seed);
  s = splitmix64(s ^ splitmix64(replication + 0x632be59bd9b4e019ULL));
  return splitmix64(s ^ stable_name_hash(name));
}

/// Hands out independent engines by stable name, e.g. "producer/0/partitioner".
class RandomStreams {
public:
  constexpr RandomStreams(std::uint64_t master_seed, std::uint64_t replication = 0)
      : master_seed_(master_seed), replication_(replication) {}

  RandomEngine stream(std::string_view name) const {
    return RandomEngine{derive_stream_seed(master_seed_, replication_, name)};
  }

  constexpr std::uint64_t master_seed() const { return master_seed_; }
  constexpr std::uint64_t replication() const { return replication_; }

private:
  std::uint64_t master_seed_;
  std::uint64_t replication_;
};

}  // namespace partsim::sim
