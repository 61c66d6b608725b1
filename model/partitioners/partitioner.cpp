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

std::string PartitionerRun::runs_as() const { return before_2_4 ? "the clients before kafka-2.4" : line.name(); }

PartitionerRun partitioner_run(PartitionerKind kind, const ClientVersion& client) {
  PartitionerRun run;
  run.kind = kind;
  run.line = client;
  switch (kind) {
    case PartitionerKind::kBuiltin:
      // kafka-versions.md "since 3.3": before, no partitioner.class means DefaultPartitioner.
      if (!java::builtin_partitioner(client)) run.kind = PartitionerKind::kStickyKip480;
      break;
    case PartitionerKind::kStickyKip480:
    case PartitionerKind::kUniformStickyKip480:
      // Shipped from 2.4 through 3.9 ("4.0: removed"): under a 4.x client, as 3.9 ran them.
      if (!java::new_batch_second_call(client)) {
        std::string unused;
        run.line = *parse_client("kafka-3.9", unused);
      }
      break;
    case PartitionerKind::kRoundRobinFixed: {
      std::string unused;
      run.line = *parse_client("kafka-3.9.2", unused);  // KAFKA-17632's first release
      break;
    }
    case PartitionerKind::kLegacy: run.before_2_4 = true; break;
    case PartitionerKind::kRoundRobin:
    case PartitionerKind::kRules:
    case PartitionerKind::kCode: break;
  }
  run.second_call = run.kind != PartitionerKind::kBuiltin && run.kind != PartitionerKind::kLegacy &&
                    java::new_batch_second_call(run.line);
  return run;
}

std::unique_ptr<Partitioner> make_partitioner(const PartitionerSpec& spec, const PartitionerRun& run,
                                              PartitionDraw draw) {
  switch (run.kind) {
    case PartitionerKind::kBuiltin: return nullptr;
    case PartitionerKind::kRoundRobin:
    case PartitionerKind::kRoundRobinFixed:
      return std::make_unique<RoundRobinPartitioner>(java::round_robin_rule(run.line) ==
                                                     java::RoundRobinRule::kRemembers);
    case PartitionerKind::kStickyKip480: return std::make_unique<StickyKip480Partitioner>(false, std::move(draw));
    case PartitionerKind::kUniformStickyKip480: return std::make_unique<StickyKip480Partitioner>(true, std::move(draw));
    case PartitionerKind::kLegacy: return std::make_unique<LegacyPartitioner>(std::move(draw));
    case PartitionerKind::kRules: return std::make_unique<RulePartitioner>(spec.rules, spec.fallback);
    case PartitionerKind::kCode: return spec.factory ? spec.factory(std::move(draw)) : nullptr;
  }
  return nullptr;
}

}  // namespace partsim::model
