#include "model/consumer/assignor.hpp"

#include <array>

#include "model/consumer/range_assignor.hpp"
#include "model/consumer/round_robin_assignor.hpp"
#include "model/consumer/server_range_assignor.hpp"
#include "model/consumer/sticky_assignor.hpp"
#include "model/consumer/uniform_assignor.hpp"

namespace partsim::model::consumer {
namespace {

constexpr std::array<std::pair<AssignorKind, std::string_view>, 6> kNames{{
    {AssignorKind::kRange, "range"},
    {AssignorKind::kRoundRobin, "roundrobin"},
    {AssignorKind::kSticky, "sticky"},
    {AssignorKind::kCooperativeSticky, "cooperative-sticky"},
    {AssignorKind::kConsumerUniform, "consumer-uniform"},
    {AssignorKind::kConsumerRange, "consumer-range"},
}};

}  // namespace

std::optional<AssignorKind> parse_assignor(std::string_view name) {
  for (const auto& [kind, n] : kNames)
    if (n == name) return kind;
  return std::nullopt;
}

std::string_view assignor_name(AssignorKind kind) {
  for (const auto& [k, n] : kNames)
    if (k == kind) return n;
  return "?";
}

const std::vector<AssignorKind>& all_assignors() {
  static const std::vector<AssignorKind> kinds = [] {
    std::vector<AssignorKind> out;
    for (const auto& [kind, name] : kNames) out.push_back(kind);
    return out;
  }();
  return kinds;
}

AssignmentResult assign(AssignorKind kind, const GroupSpec& spec) {
  switch (kind) {
    case AssignorKind::kRange: return range_assign(spec);
    case AssignorKind::kRoundRobin: return round_robin_assign(spec);
    case AssignorKind::kSticky: return sticky_assign(spec, false);
    case AssignorKind::kCooperativeSticky: return sticky_assign(spec, true);
    case AssignorKind::kConsumerUniform: return uniform_assign(spec);
    case AssignorKind::kConsumerRange: return server_range_assign(spec);
  }
  return {};
}

}  // namespace partsim::model::consumer
