#pragma once
// The reporter half of `partsim book`: the verdict tables for people and the JSON for
// programs, from a BookResult (runner.hpp).

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/book/result.hpp"

namespace partsim::analysis::book {

/// Two tables (exact entries; entries from runs with random choices, each under its key
/// with its statistic, partsim's figures, the criterion in numbers and in words, and the
/// verdict),
/// then how to read them and the count of entries that pass.
std::string book_to_text(const BookResult& result);

/// {"replications", "outcome_replications", "outcome_max_replications",
///  "decision_confidence", "family_alpha", "family_rows", "family_threshold", "sets",
///  "published_replaced", "about_tolerance", "exact": [...],
///  "random": [{"entry", "key", "statistic", "published", "test", "criterion", "reason",
///  "published_value" and "threshold" or "bounds", "partsim": {"replications", ...,
///  "p_value", "p_interval" or "successes" and "trials"}, "verdict": "pass" | "fail" |
///  "undecided"}], "all_reproduced"}
nlohmann::ordered_json book_to_json(const BookResult& result);

}  // namespace partsim::analysis::book
