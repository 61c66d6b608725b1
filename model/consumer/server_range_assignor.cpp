#include "model/consumer/server_range_assignor.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "model/consumer/detail/server_support.hpp"

namespace partsim::model::consumer {

AssignmentResult server_range_assign(const GroupSpec& spec) {
  AssignmentResult result;
  result.partitions.resize(spec.members.size());
  if (spec.members.empty()) return result;
  const detail::ServerGroup g(spec);
  std::vector<std::size_t> sorted(spec.members.size());
  std::iota(sorted.begin(), sorted.end(), 0);
  std::sort(sorted.begin(), sorted.end(),
            [&](std::size_t a, std::size_t b) { return detail::member_info_less(spec.members[a], spec.members[b]); });
  // TopicMetadata: per topic its subscriber count (every member when homogeneous), quota,
  // extra partitions left and where the next range starts.
  struct Range {
    std::int32_t partitions = 0, members = 0, next = 0, extra = -1, quota = -1;
  };
  std::map<std::string, Range> ranges;
  for (auto m : sorted)
    for (const auto& t : g.homogeneous ? g.subscribed[sorted.front()] : g.subscribed[m]) {
      auto& r = ranges[t];
      r.partitions = g.topics.find(t)->partitions;
      r.members = g.homogeneous ? static_cast<std::int32_t>(spec.members.size()) : r.members + 1;
    }
  for (auto m : sorted)
    for (const auto& t : g.homogeneous ? g.subscribed[sorted.front()] : g.subscribed[m]) {
      auto& r = ranges[t];
      if (r.quota < 0) {  // maybeComputeQuota
        r.quota = r.partitions / r.members;
        r.extra = r.partitions % r.members;
      }
      std::int32_t quota = r.quota;
      if (r.extra > 0) {
        ++quota;
        --r.extra;
      }
      const std::int32_t end = std::min(r.next + quota, r.partitions);
      for (std::int32_t p = r.next; p < end; ++p) result.partitions[m].push_back({t, p});
      r.next = end;
    }
  result.partitions = detail::sorted_result(std::move(result.partitions));
  return result;
}

}  // namespace partsim::model::consumer
