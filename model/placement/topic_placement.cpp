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
      out.assignment = out.rack_aware ? admin_rack_aware(racked, r.partitions, r.replication_factor, out.start_index,
                                                         out.replica_shift, r.start_partition)
                                      : admin_rack_unaware(ids, r.partitions, r.replication_factor, out.start_index,
                                                           out.replica_shift, r.start_partition);
      break;
    }
    case Placer::kStriped:
      out.assignment = striped_place(PlacerRandom{[&random](std::int32_t bound) { return random.next_int(bound); }},
                                     sorted, r.partitions, r.replication_factor);
      break;
  }
  return out;
}

TopicPlacement place_added_partitions(const Assignment& existing, TopicPlacementRequest how) {
  if (existing.empty() || existing[0].empty())
    throw PlacementError("the topic has no partition 0 to take the replication factor from");
  if (how.placer == Placer::kSimple)
    throw PlacementError("no controller places added partitions by plain round-robin (use admin or striped)");
  how.replication_factor = static_cast<std::int32_t>(existing[0].size());
  how.start_index.reset();
  how.start_partition = 0;
  if (how.placer == Placer::kAdmin) {
    // AdminZkClient: max(0, allBrokers.indexWhere(_.id >= partition 0's first replica)).
    std::vector<std::int32_t> ids;
    for (const auto& b : how.brokers) ids.push_back(b.id);
    std::sort(ids.begin(), ids.end());
    const auto at = std::find_if(ids.begin(), ids.end(), [&](std::int32_t id) { return id >= existing[0][0]; });
    how.start_index = at == ids.end() ? 0 : static_cast<std::int32_t>(at - ids.begin());
    how.start_partition = static_cast<std::int32_t>(existing.size());
  }
  return place_topic(how);
}

}  // namespace partsim::model
