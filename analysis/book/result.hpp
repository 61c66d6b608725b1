#pragma once
// What `partsim book` found: every selected entry with partsim's figure and its verdict.
// Plain data; report.hpp formats it.

#include <string>
#include <vector>

#include "analysis/book/criterion.hpp"

namespace partsim::analysis::book {

struct ExactResult {
  std::string id, figure, published, partsim;
  std::string error;  ///< why the entry could not run (a --set its scenario refuses); empty when it ran
  bool pass() const { return error.empty() && published == partsim; }
};

struct RandomResult {
  std::string id, key, statistic, published;
  Criterion criterion;
  int decimals = 3;
  Spread spread;      ///< the statistic over the replications
  std::string error;  ///< why the entry could not run; empty when it ran
  /// kFail when the entry could not run.
  Verdict verdict() const { return error.empty() ? book::verdict(criterion, spread) : Verdict::kFail; }
  bool pass() const { return verdict() == Verdict::kPass; }
};

struct BookResult {
  std::size_t replications = 0;              ///< claims, probabilities and rules
  std::size_t outcome_replications = 0;      ///< one run's outcomes: R0, where each starts
  std::size_t outcome_max_replications = 0;  ///< one run's outcomes: the cap
  std::size_t family_rows = 0;               ///< rows tested against a published value that ran: the Bonferroni family
  double family_threshold = 0;               ///< kFamilyAlpha / family_rows (0 without such rows)
  std::vector<std::string> sets;             ///< the user's --set overrides, applied to every scenario
  std::vector<std::string> published;        ///< keys of published figures the user replaced
  std::vector<ExactResult> exact;
  std::vector<RandomResult> random;
  std::size_t setups_loaded = 0;  ///< scenario setups that loaded and ran
  std::size_t setups_failed = 0;  ///< scenario setups the --set overrides made invalid

  bool all_pass() const;
};

}  // namespace partsim::analysis::book
