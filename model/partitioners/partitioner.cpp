#include "model/partitioners/partitioner.hpp"

#include "model/partitioners/legacy_partitioner.hpp"
#include "model/partitioners/round_robin_partitioner.hpp"
#include "model/partitioners/rule_partitioner.hpp"
#include "model/partitioners/sticky_kip480_partitioner.hpp"

namespace partsim::model {

const std::vector<std::string>& partitioner_names() {
  static const std::vector<std::string> names{"builtin",       "round-robin",           "round-robin-fixed",
                                              "sticky-kip480", "uniform-sticky-kip480", "legacy",
                                              "rules"};
  return names;
}

std::unique_ptr<Partitioner> make_partitioner(const PartitionerSpec& spec, PartitionDraw draw) {
  switch (spec.kind) {
    case PartitionerKind::kBuiltin: return nullptr;
    case PartitionerKind::kRoundRobin: return std::make_unique<RoundRobinPartitioner>(false);
    case PartitionerKind::kRoundRobinFixed: return std::make_unique<RoundRobinPartitioner>(true);
    case PartitionerKind::kStickyKip480: return std::make_unique<StickyKip480Partitioner>(false, std::move(draw));
    case PartitionerKind::kUniformStickyKip480: return std::make_unique<StickyKip480Partitioner>(true, std::move(draw));
    case PartitionerKind::kLegacy: return std::make_unique<LegacyPartitioner>(std::move(draw));
    case PartitionerKind::kRules: return std::make_unique<RulePartitioner>(spec.rules, spec.fallback);
    case PartitionerKind::kCode: return spec.factory ? spec.factory(std::move(draw)) : nullptr;
  }
  return nullptr;
}

}  // namespace partsim::model
