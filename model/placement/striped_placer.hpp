#pragma once
// The KRaft controller's StripedReplicaPlacer (spec §11.2): racks visited round-robin with
// an offset that moves one rack per partition, brokers within a rack round-robin with a
// per-epoch rotating offset, each broker used at most once per epoch, lists reshuffled
// after every #unfenced partitions; leaders always unfenced, fenced brokers only when
// needed. Randomness from java.util.Random (or Kafka's MockRandom for its tests).

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace partsim::model {

struct UsableBroker {
  std::int32_t id = 0;
  std::optional<std::string> rack;
  bool fenced = false;
};

/// InvalidReplicationFactorException: a placement that cannot be made (message as Kafka's).
class PlacementError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The randomness the placer needs: nextInt(bound) and Collections.shuffle over ints.
struct PlacerRandom {
  std::function<std::int32_t(std::int32_t)> next_int;
};

class RackList {
public:
  /// Brokers in the order the controller iterates them.
  RackList(PlacerRandom random, const std::vector<UsableBroker>& brokers);

  /// Replicas of the next partition, leader first.
  std::vector<std::int32_t> place(std::int32_t replication_factor);

  std::int32_t total_brokers() const { return total_; }
  std::int32_t unfenced_brokers() const { return unfenced_; }
  /// Rack names sorted (no rack first); "" stands for no rack.
  std::vector<std::string> rack_names() const;

private:
  void random_shuffle_sorted();

  struct BrokerList {
    std::vector<std::int32_t> brokers;
    std::int32_t index = 0, offset = 0, epoch = 0;
    void initialize(PlacerRandom& random);
    std::int32_t next(std::int32_t epoch);
    void shuffle(PlacerRandom& random);
  };
  struct Rack {
    std::optional<std::string> name;
    BrokerList fenced, unfenced;
  };

  PlacerRandom random_;
  std::vector<Rack> racks_;          // in Java HashMap iteration order of their names
  std::vector<std::size_t> sorted_;  // racks_ indexes in rackNames order
  std::int32_t total_ = 0, unfenced_ = 0, offset_ = 0, epoch_ = 0;
};

/// StripedReplicaPlacer.place for a whole topic: a fresh RackList, then one place() per
/// partition. Throws PlacementError when the replication factor cannot be met.
std::vector<std::vector<std::int32_t>> striped_place(PlacerRandom random, const std::vector<UsableBroker>& brokers,
                                                     std::int32_t partitions, std::int32_t replication_factor);

}  // namespace partsim::model
