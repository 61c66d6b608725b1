#pragma once
// Speed only: the producer's look-ahead, which asks for the state a send() will append to
// while other events run. It is a copy of what the send would compute anyway, so that
// taking it out changes no result. The cache hints themselves are sim/prefetch.hpp; the rest
// of the speed work is in how state is laid out (aligned slots, member order, huge pages),
// marked where it is with a comment that starts "Speed:" (docs/performance.md).

#include <cstdint>
#include <string_view>

#include "model/partitioners/key_hash.hpp"

namespace partsim::model::speed {

/// The next send()'s key, hashed a send ahead (KafkaProducer::look_ahead): while other
/// events run, the partition state its record will be appended to is asked for. The hash is
/// kept so that the send does not hash its key twice; the peek makes the same draws in the
/// same order as the send would.
class SendLookAhead {
public:
  void enable(bool on) { on_ = on; }
  bool enabled() const { return on_; }
  /// Send `index`'s key hashes to `hash`, which picks `partition` among the partitions
  /// the producer knew then.
  void note(std::int64_t index, std::int32_t hash, std::int32_t partition) {
    index_ = index;
    hash_ = hash;
    partition_ = partition;
  }
  /// murmur2 of send `index`'s key: the one noted, or computed now.
  std::int32_t hash_of(std::int64_t index, std::string_view key) const {
    return index == index_ ? hash_ : murmur2(key);
  }
  /// The partition noted for send `index`, or -1.
  std::int32_t partition_of(std::int64_t index) const { return index == index_ ? partition_ : -1; }

private:
  bool on_ = false;
  std::int64_t index_ = -1;  // the send whose key hash_ is
  std::int32_t hash_ = 0;
  std::int32_t partition_ = -1;  // where hash_ sends the record, as the metadata was then
};

}  // namespace partsim::model::speed
