#include "model/placement/assignment_score.hpp"

#include <algorithm>
#include <set>

namespace partsim::model {

AssignmentScore score_assignment(const Assignment& a, const std::vector<RackedBroker>& brokers) {
  AssignmentScore s;
  s.partitions = static_cast<std::int32_t>(a.size());
  std::map<std::int32_t, std::size_t> index;
  std::map<std::int32_t, std::string> rack_of;
  std::set<std::string> racks;
  for (const auto& b : brokers) {
    index[b.id] = s.brokers.size();
    rack_of[b.id] = b.rack;
    racks.insert(b.rack);
    s.brokers.push_back({b.id, b.rack, 0, 0});
  }
  for (const auto& replicas : a) {
    std::set<std::string> used;
    for (std::size_t j = 0; j < replicas.size(); ++j) {
      auto it = index.find(replicas[j]);
      if (it == index.end()) continue;
      ++s.brokers[it->second].replicas;
      if (j == 0) ++s.brokers[it->second].leaders;
      used.insert(rack_of[replicas[j]]);
    }
    if (used.size() >= std::min(replicas.size(), racks.size())) ++s.partitions_rack_ok;
  }
  if (!s.brokers.empty()) {
    auto [rmin, rmax] = std::minmax_element(s.brokers.begin(), s.brokers.end(),
                                            [](auto& x, auto& y) { return x.replicas < y.replicas; });
    auto [lmin, lmax] =
        std::minmax_element(s.brokers.begin(), s.brokers.end(), [](auto& x, auto& y) { return x.leaders < y.leaders; });
    s.replica_min = rmin->replicas;
    s.replica_max = rmax->replicas;
    s.leader_min = lmin->leaders;
    s.leader_max = lmax->leaders;
  }
  for (const auto& f : brokers) {
    FailureLoad fl;
    fl.failed = f.id;
    std::map<std::int32_t, std::int32_t> leaders;
    for (const auto& b : brokers)
      if (b.id != f.id) leaders[b.id] = 0;
    for (const auto& replicas : a) {
      const auto live =
          std::find_if(replicas.begin(), replicas.end(), [&](std::int32_t r) { return r != f.id && leaders.count(r); });
      if (live == replicas.end()) ++fl.offline;
      else ++leaders[*live];
    }
    if (!leaders.empty()) {
      auto [mn, mx] =
          std::minmax_element(leaders.begin(), leaders.end(), [](auto& x, auto& y) { return x.second < y.second; });
      fl.min_leaders = mn->second;
      fl.max_leaders = mx->second;
    }
    s.worst_failure_max_leaders = std::max(s.worst_failure_max_leaders, fl.max_leaders);
    s.failures.push_back(fl);
  }
  return s;
}

}  // namespace partsim::model
