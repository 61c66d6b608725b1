#include "analysis/replication_summary.hpp"

#include <cmath>
#include <limits>

namespace partsim::analysis {

ReplicationSummary::ReplicationSummary(const model::RunResult& first, std::size_t expected)
    : registry_(first), values_(registry_.size()) {
  for (auto& v : values_) v.reserve(expected);
}

void ReplicationSummary::add(const model::RunResult& r) {
  const auto v = registry_.values(r);
  for (std::size_t i = 0; i < v.size(); ++i) values_[i].push_back(v[i]);
  ++replications_;
  if (r.records_measured == 0) ++unmeasured_;
}

Summary ReplicationSummary::summary(std::size_t metric) const {
  std::vector<double> defined;
  defined.reserve(values_[metric].size());
  for (double v : values_[metric])
    if (is_defined(v)) defined.push_back(v);
  if (defined.empty()) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    Summary s;
    s.mean = s.ci_low = s.ci_high = s.min = s.median = s.max = s.q025 = s.q975 = kNaN;
    return s;
  }
  return summarize(defined);
}

std::vector<Summary> ReplicationSummary::summaries() const {
  std::vector<Summary> out;
  out.reserve(values_.size());
  for (std::size_t i = 0; i < values_.size(); ++i) out.push_back(summary(i));
  return out;
}

}  // namespace partsim::analysis
