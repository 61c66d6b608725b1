#pragma once
// Runs the book's entries (../shared/book-tables.md) through partsim: the runner half of
// `partsim book` (book_report.hpp is the reporter). Scenario files are read by the caller
// (analysis does not parse input), through a ScenarioSource.

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/book_published.hpp"
#include "analysis/book_result.hpp"
#include "model/scenario.hpp"

namespace partsim::analysis::book {

/// A loaded scenario, or why it could not be loaded (the message to print).
struct LoadedScenario {
  std::optional<model::Scenario> scenario;
  std::string error;
};

/// Loads a shipped scenario (path under the scenarios folder) with `sets` applied: the
/// entry's own overrides first, then the user's.
using ScenarioSource = std::function<LoadedScenario(const std::string& path, const std::vector<std::string>& sets)>;

/// Called after each run with (runs done, runs planned).
using BookProgress = std::function<void(std::size_t, std::size_t)>;

/// Replications of the rows that compare one run's outcome: enough for the Monte Carlo
/// p-value to resolve 0.05 / 10 (at least 400 for the book's 10 outcome rows, so that
/// 1 of 800 beyond the published value still fails) and few enough to keep `partsim book`
/// within 1.5 times the CPU time of the claims alone: R6's 98,400-record run costs 24 ms,
/// so 700 more replications of it add about 17 s to their 34 s.
inline constexpr std::size_t kDefaultOutcomeReplications = 800;

struct BookOptions {
  std::size_t replications = 100;  ///< for claims, probabilities and rules (>= 2)
  /// For the outcome rows (Test::kPublishedNotInTail); at least
  /// minimum_replications(kFamilyAlpha / outcome rows run).
  std::size_t outcome_replications = kDefaultOutcomeReplications;
  unsigned threads = 0;            ///< 0 = all cores; results do not depend on it
  /// Entry ids ("R4") or row keys ("R4.flat-adaptive"); empty = every entry.
  std::vector<std::string> only;
  PublishedFigures published;
  std::vector<std::string> sets;  ///< the user's overrides, recorded in the result
};

/// Every entry id and random row key, in the book's order (what `only` accepts).
std::vector<std::string> book_selectors();

/// Too few outcome replications for the Monte Carlo p-value to reach the threshold; the
/// message says how many are needed and why.
struct TooFewOutcomeReplications : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Runs the selected entries. Throws std::invalid_argument for an unknown selector and
/// TooFewOutcomeReplications when outcome_replications cannot resolve the threshold.
BookResult run_book(const BookOptions& options, const ScenarioSource& source, const BookProgress& progress = {});

}  // namespace partsim::analysis::book
