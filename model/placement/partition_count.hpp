#pragma once
// How many partitions a new topic wants (partsim size): the operator's rule of thumb
// (../shared ops guidance: the peak throughput over one partition's measured throughput,
// x 1.5 to 2 for headroom, checked against the brokers and about 2,000 partition replicas
// per broker), with what the rule leaves out made explicit: consumer parallelism, counts
// that spread evenly over the brokers (leaders) and the members (assignment), and what a
// later increase does to keyed records (book T5: a key keeps its partition when
// hash mod P = hash mod P', for gcd(P, P') / max(P, P') of the keys).
//
// Example: 200 MB/s at peak, 10 MB/s per partition, 12 consumers, 6 brokers, RF 3: 20
// partitions for the produce rate, 12 for the members, x 1.5..2 = 30..40; 36 is the count
// in that range that both 6 brokers and 12 members divide (6 leaders each, 3 partitions
// each), with 9 divisors; 18 replicas per broker.

#include <cstdint>
#include <string>
#include <vector>

namespace partsim::model {

struct PartitionCountInputs {
  double peak_produce = 0;           ///< bytes/s the topic takes at peak (> 0)
  double per_partition_produce = 0;  ///< bytes/s one partition sustains, measured (> 0)
  double peak_consume = 0;           ///< bytes/s every group reads at peak together (0: not given)
  double per_partition_consume = 0;  ///< bytes/s one member reads one partition at (0: not given)
  std::int32_t consumers = 0;        ///< the largest group's members (0: not given)
  std::int32_t brokers = 1;
  std::int32_t replication_factor = 1;
  double headroom_low = 1.5, headroom_high = 2.0;
  std::int32_t max_per_broker = 2000;    ///< partition replicas a broker should hold at most
  std::int32_t existing_per_broker = 0;  ///< replicas a broker already holds (other topics)
  std::vector<std::int32_t> growth;      ///< later counts to show the keys kept for (empty: 2P, P + step)
};

/// A count in the range, and what speaks against it.
struct CountCandidate {
  std::int32_t partitions = 0;
  bool even_brokers = false;    ///< every broker leads as many (brokers divide it)
  bool even_consumers = false;  ///< every member reads as many (members divide it; true without members)
  bool prime = false;           ///< > 3 and prime: an increase keeps few keys unless it multiplies it
  std::int32_t divisors = 0;
  std::int64_t replicas_per_broker = 0;  ///< ceil(P x RF / brokers) + the existing ones
};

struct PartitionCountPlan {
  std::int64_t for_produce = 0;            ///< ceil(peak / per partition)
  std::int64_t for_consume = 0;            ///< ceil(consume peak / per partition), 0 when not given
  std::int64_t for_consumers = 0;          ///< the members (a partition feeds one member of a group)
  std::int64_t needed = 0;                 ///< the largest of the three
  std::int64_t low = 0, high = 0;          ///< needed x headroom, rounded up
  std::vector<CountCandidate> candidates;  ///< low..high, and the next even count above when none is even
  std::int32_t recommended = 0;
  std::int64_t brokers_needed = 0;  ///< for the per-broker limit at the recommended count; -1: no number
                                    ///< of brokers helps (the existing replicas reach the limit)
  struct Growth {
    std::int32_t to = 0;
    double keys_kept = 0;  ///< share of keys that keep their partition
  };
  std::vector<Growth> growth;  ///< from the recommended count
};

/// The share of keys whose partition stays when a topic goes from `from` to `to` partitions
/// under a uniform hash: gcd / max (book T5: 4 -> 8 keeps 0.5, 4 -> 5 0.2, 8 -> 12 1/3).
double keys_kept(std::int64_t from, std::int64_t to);

/// Throws std::invalid_argument for inputs out of range (rates <= 0, headroom low > high, ...).
PartitionCountPlan plan_partition_count(const PartitionCountInputs& in);

}  // namespace partsim::model
