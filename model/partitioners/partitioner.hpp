#pragma once
// Partitioner objects: what `partitioner.class` plugs into KafkaProducer (spec §1.3, §7,
// §8). With one configured, KafkaProducer calls partition() for every record without an
// explicit partition and, from 2.4 through 3.9, appends with abortOnNewBatch: when the
// chosen partition has no open batch with room, it calls onNewBatch(previous) and
// partition() again (spec §1.2 steps 7-9); 4.0 removed onNewBatch and calls partition()
// once per record (kafka-versions.md). The built-in partitioner (no object) lives in the
// accumulator.
// Partitioners written in C++ implement this interface; the ones Kafka shipped are below.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/client_version.hpp"
#include "model/partitioners/builtin_partitioner.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model {

/// Records a producer holds per partition, not yet acknowledged (franz-go's adaptive
/// partitioner weighs partitions by them).
class BufferedRecords {
public:
  virtual ~BufferedRecords() = default;
  virtual std::int64_t buffered_records(std::int32_t partition) const = 0;
};

/// What a partitioner sees of the cluster: the topic's partitions with a leader in the
/// client's list order (Cluster.availablePartitionsForTopic) and the partition count. The
/// other clients' partitioners (client_partitioner.hpp) also see each partition's leader,
/// the time, the record's size and the records buffered.
struct PartitionerView {
  std::span<const std::int32_t> available;
  std::int32_t num_partitions = 0;
  std::span<const std::int32_t> leaders{};  ///< per partition, -1: none (empty: every partition has one)
  std::uint64_t version = 0;                ///< bumped when the leaders change
  sim::SimTime now{};
  std::int32_t record_bytes = 0;  ///< the record's key, value and header parts (its payload part)
  const BufferedRecords* buffered = nullptr;
};

class Partitioner {
public:
  virtual ~Partitioner() = default;
  /// Partitioner.partition: `key` is empty for a null key. Any value may come back: the
  /// producer fails the send for a negative one and parks records for one too large.
  virtual std::int32_t partition(std::optional<std::string_view> key, const PartitionerView& view) = 0;
  /// Partitioner.onNewBatch (a no-op by default, as in Kafka's interface).
  virtual void on_new_batch(std::int32_t /*previous*/, const PartitionerView& /*view*/) {}
  /// True for every partitioner object from 2.4 through 3.9 (KP:1068; partitioner_run
  /// decides by the client); false reproduces the pre-2.4 producer, which called
  /// partition() exactly once (spec §8.1).
  virtual bool abort_on_new_batch() const { return true; }
};

enum class PartitionerKind {
  kBuiltin,              ///< no partitioner object: KIP-794 in the accumulator
  kRoundRobin,           ///< RoundRobinPartitioner as the producer's client has it
  kRoundRobinFixed,      ///< RoundRobinPartitioner of 3.9.2 (KAFKA-17632), whatever the client
  kStickyKip480,         ///< 2.4-3.2 DefaultPartitioner: keys hashed, null keys sticky
  kUniformStickyKip480,  ///< 2.4-3.2 UniformStickyPartitioner: keys ignored
  kLegacy,               ///< pre-2.4 DefaultPartitioner: null keys round-robin per record
  kRules,                ///< partsim's declarative user partitioner
  kCode,                 ///< a partitioner written in C++ (PartitionerSpec::factory)
};

/// One ordered rule of a user partitioner: the first that matches the key decides.
struct PartitionRule {
  enum class Match { kPrefix, kExact, kRegex } match = Match::kPrefix;
  std::string text;
  std::int32_t partition = 0;
};

/// Where keys that no rule matches go: first + hash mod count, with Kafka's murmur2
/// (toPositive(murmur2) % count) or Java's String.hashCode (floorMod(hashCode, count)).
/// Null keys go round-robin over the same range.
struct RuleFallback {
  enum class Hash { kMurmur2, kJavaString } hash = Hash::kMurmur2;
  std::int32_t first = 0;
  std::int32_t count = 0;  ///< 0 = all partitions from `first` on
};

/// Makes a partitioner written in C++, given its random draws.
using PartitionerFactory = std::function<std::unique_ptr<Partitioner>(PartitionDraw)>;

struct PartitionerSpec {
  PartitionerKind kind = PartitionerKind::kBuiltin;
  std::vector<PartitionRule> rules;
  RuleFallback fallback;
  PartitionerFactory factory;  ///< kCode: one partitioner per producer, made at run start
  std::string code_name;       ///< kCode: shown in results
};

/// What a producer of `client` runs for a partitioner kind (kafka-versions.md): which
/// partitioner, the client line whose code it is, and whether it gets onNewBatch and a second
/// partition() call when a record would open a batch.
struct PartitionerRun {
  PartitionerKind kind = PartitionerKind::kBuiltin;
  /// The line the partitioner runs as: the client's, except for the historical ones (KIP-480
  /// sticky ones as their last line, 3.9, under a 4.x client; round-robin-fixed as 3.9.2).
  ClientVersion line;
  bool before_2_4 = false;  ///< legacy: the producer before 2.4 (no line partsim models)
  bool second_call = false;
  /// "kafka-3.9.2", "the clients before kafka-2.4".
  std::string runs_as() const;
};
/// kBuiltin below 3.3 is KIP-480's DefaultPartitioner, an object with the abort path.
PartitionerRun partitioner_run(PartitionerKind kind, const ClientVersion& client);

/// The partitioner object `run` names, or nullptr for kBuiltin. `draw` gives
/// toPositive(nextInt()) values from the partitioner's own random stream.
std::unique_ptr<Partitioner> make_partitioner(const PartitionerSpec& spec, const PartitionerRun& run,
                                              PartitionDraw draw);

/// Names as scenarios and --partitioners spell them, in PartitionerKind order.
const std::vector<std::string>& partitioner_names();

}  // namespace partsim::model
