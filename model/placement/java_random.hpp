#pragma once
// java.util.Random reproduced exactly (48-bit LCG, next(bits), nextInt(bound) with its
// rejection loop, Collections.shuffle), so that a seed gives the placement Kafka gives.
// The generator behind next(bits) is a policy: Kafka's tests use MockRandom (spec §11.2).

#include <cstdint>
#include <utility>
#include <vector>

namespace partsim::model {

/// java.util.Random's generator: seed scrambled with 0x5DEECE66D, 48-bit state.
class JavaLcg {
public:
  explicit JavaLcg(std::int64_t seed) : state_((static_cast<std::uint64_t>(seed) ^ 0x5DEECE66DULL) & kMask) {}
  std::int32_t next(int bits) {
    state_ = (state_ * 0x5DEECE66DULL + 0xBULL) & kMask;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(state_ >> (48 - bits)));
  }

private:
  static constexpr std::uint64_t kMask = (std::uint64_t{1} << 48) - 1;
  std::uint64_t state_;
};

/// Kafka's MockRandom (server-common test util): seed 17, a 64-bit LCG.
class MockLcg {
public:
  explicit MockLcg(std::uint64_t seed = 17) : state_(seed) {}
  std::int32_t next(int bits) {
    state_ = state_ * 2862933555777941757ULL + 3037000493ULL;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(state_ >> (64 - bits)));
  }

private:
  std::uint64_t state_;
};

/// The java.util.Random methods over a generator.
template <class Lcg>
class JavaRandom {
public:
  explicit JavaRandom(Lcg lcg) : lcg_(std::move(lcg)) {}

  std::int32_t next_int() { return lcg_.next(32); }

  /// nextInt(bound), bound > 0: uniform in [0, bound) exactly as Java draws it.
  std::int32_t next_int(std::int32_t bound) {
    std::int32_t r = lcg_.next(31);
    const std::int32_t m = bound - 1;
    if ((bound & m) == 0) return static_cast<std::int32_t>((static_cast<std::int64_t>(bound) * r) >> 31);
    // for (u = r; u - (r = u % bound) + m < 0; u = next(31)): the sum overflows int.
    for (std::int32_t u = r;; u = lcg_.next(31)) {
      r = u % bound;
      if (static_cast<std::int32_t>(static_cast<std::uint32_t>(u) - static_cast<std::uint32_t>(r) +
                                    static_cast<std::uint32_t>(m)) >= 0)
        break;
    }
    return r;
  }

  /// Collections.shuffle(list, rnd): for i = size down to 2, swap(i - 1, nextInt(i)).
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[static_cast<std::size_t>(next_int(static_cast<std::int32_t>(i)))]);
  }

private:
  Lcg lcg_;
};

}  // namespace partsim::model
