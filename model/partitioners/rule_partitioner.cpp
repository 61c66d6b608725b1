#include "model/partitioners/rule_partitioner.hpp"

#include "model/partitioners/key_hash.hpp"

namespace partsim::model {

RulePartitioner::RulePartitioner(std::vector<PartitionRule> rules, RuleFallback fallback)
    : rules_(std::move(rules)), fallback_(fallback) {
  for (const auto& r : rules_)
    regexes_.emplace_back(r.match == PartitionRule::Match::kRegex ? r.text : std::string(), std::regex::ECMAScript);
}

std::int32_t RulePartitioner::partition(std::optional<std::string_view> key, const PartitionerView& view) {
  const std::int32_t count = fallback_.count > 0 ? fallback_.count : view.num_partitions - fallback_.first;
  if (count <= 0) return -1;  // an empty range: the send fails, as a negative partition does
  if (!key) return fallback_.first + static_cast<std::int32_t>(null_counter_++ % static_cast<std::uint32_t>(count));
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const auto& r = rules_[i];
    bool hit = false;
    switch (r.match) {
      case PartitionRule::Match::kPrefix: hit = key->substr(0, r.text.size()) == r.text; break;
      case PartitionRule::Match::kExact: hit = *key == r.text; break;
      case PartitionRule::Match::kRegex: hit = std::regex_search(key->begin(), key->end(), regexes_[i]); break;
    }
    if (hit) return r.partition;
  }
  if (fallback_.hash == RuleFallback::Hash::kJavaString)
    return fallback_.first + floor_mod(java_string_hash(*key), count);
  return fallback_.first + to_positive(murmur2(*key)) % count;
}

}  // namespace partsim::model
