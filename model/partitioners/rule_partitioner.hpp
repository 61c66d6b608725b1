#pragma once
// partsim's declarative user partitioner: ordered rules (key prefix, exact key, regex ->
// partition), then a hash fallback over a range. It expresses the book's
// HotKeyPartitioner (T4): prefix "hot-" -> 0, else 1 + floorMod(hashCode, partitions - 1).

#include "model/partitioners/partitioner.hpp"

namespace partsim::model {

class RulePartitioner final : public Partitioner {
public:
  RulePartitioner(std::vector<PartitionRule> rules, RuleFallback fallback);
  std::int32_t partition(std::optional<std::string_view> key, const PartitionerView& view) override;

private:
  std::vector<PartitionRule> rules_;
  std::vector<std::regex> regexes_;  // one per rule (unused for non-regex rules)
  RuleFallback fallback_;
  std::uint32_t null_counter_ = 0;
};

}  // namespace partsim::model
