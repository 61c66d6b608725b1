#include "model/consumer/round_robin_assignor.hpp"

#include <algorithm>
#include <numeric>
#include <set>

#include "model/consumer/detail/assignor_support.hpp"
#include "model/consumer/java_order.hpp"

namespace partsim::model::consumer {

AssignmentResult round_robin_assign(const GroupSpec& spec) {
  AssignmentResult result;
  result.partitions.resize(spec.members.size());
  if (spec.members.empty()) return result;
  const detail::TopicTable topics(spec.topics);
  std::vector<std::size_t> circle(spec.members.size());
  std::iota(circle.begin(), circle.end(), 0);
  std::sort(circle.begin(), circle.end(),
            [&](std::size_t a, std::size_t b) { return detail::member_info_less(spec.members[a], spec.members[b]); });
  std::vector<std::string> names;  // the TreeSet of subscribed topics
  for (const auto& m : spec.members) names.insert(names.end(), m.topics.begin(), m.topics.end());
  std::sort(names.begin(), names.end(), java_string_less);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const auto subscribes = [&](std::size_t m, const std::string& topic) {
    const auto& t = spec.members[m].topics;
    return std::find(t.begin(), t.end(), topic) != t.end();
  };
  std::size_t at = 0;  // CircularIterator: peek() is circle[at]
  for (const auto& name : names) {
    const auto* t = topics.find(name);
    if (t == nullptr) continue;
    for (std::int32_t p = 0; p < t->partitions; ++p) {
      while (!subscribes(circle[at], name)) at = (at + 1) % circle.size();
      result.partitions[circle[at]].push_back({name, p});
      at = (at + 1) % circle.size();
    }
  }
  return result;
}

}  // namespace partsim::model::consumer
