#include "model/placement/topic_placement.hpp"

#include <algorithm>
#include <string>

#include "model/placement/java_random.hpp"

namespace partsim::model {

namespace {

// AdminUtils.assignReplicasToBrokers' own checks (AU:118-136), with its messages; the
// striped placer makes its own (striped_placer.hpp).
void check_admin_counts(const TopicPlacementRequest& r) {
  if (r.partitions < 1) throw PlacementError("Number of partitions must be larger than 0.");
  if (r.replication_factor < 1) throw PlacementError("Replication factor must be larger than 0.");
  if (r.replication_factor > static_cast<std::int32_t>(r.brokers.size()))
    throw PlacementError("Replication factor: " + std::to_string(r.replication_factor) +
                         " larger than available brokers: " + std::to_string(r.brokers.size()) + ".");
}

}  // namespace

TopicPlacement place_topic(const TopicPlacementRequest& r) {
  const auto n = static_cast<std::int32_t>(r.brokers.size());
  if (r.placer != Placer::kStriped) check_admin_counts(r);
  auto sorted = r.brokers;
  std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  JavaRandom<JavaLcg> random{JavaLcg(r.seed)};
  TopicPlacement out;
  switch (r.placer) {
    case Placer::kSimple: {
      std::vector<std::int32_t> ids;
      for (const auto& b : r.brokers) ids.push_back(b.id);
      out.assignment = round_robin_assignment(ids, r.partitions, r.replication_factor);
      break;
    }
    case Placer::kAdmin: {
      std::vector<std::int32_t> ids;
      std::vector<RackedBroker> racked;
      for (const auto& b : sorted) {
        ids.push_back(b.id);
        racked.push_back({b.id, b.rack.value_or("")});
      }
      const auto with_rack =
          std::count_if(sorted.begin(), sorted.end(), [](const auto& b) { return b.rack.has_value(); });
      if (with_rack > 0 && with_rack < n)
        throw PlacementError("Not all brokers have rack information for replica rack aware assignment.");
      out.rack_aware = with_rack > 0;
      if (r.start_index) {
        out.start_index = out.replica_shift = *r.start_index;
      } else {  // AdminUtils draws startIndex, then nextReplicaShift
        out.start_index = random.next_int(n);
        out.replica_shift = random.next_int(n);
      }
      out.assignment =
          out.rack_aware
              ? admin_rack_aware(racked, r.partitions, r.replication_factor, out.start_index, out.replica_shift)
              : admin_rack_unaware(ids, r.partitions, r.replication_factor, out.start_index, out.replica_shift);
      break;
    }
    case Placer::kStriped:
      out.assignment = striped_place(PlacerRandom{[&random](std::int32_t bound) { return random.next_int(bound); }},
                                     sorted, r.partitions, r.replication_factor);
      break;
  }
  return out;
}

}  // namespace partsim::model
