#pragma once
// Runs the book's entries (../shared/book-tables.md) through partsim: the runner half of
// `partsim book` (report.hpp is the reporter). Scenario files are read by the caller
// (analysis does not parse input), through a ScenarioSource.

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/book/published.hpp"
#include "analysis/book/result.hpp"
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

/// Called after each run with (runs done, runs planned so far: an outcome row that grows adds more).
using BookProgress = std::function<void(std::size_t, std::size_t)>;

/// Replications each outcome row starts with (R0): enough that a row whose p-value lies
/// far from the threshold is decided at once (R1, R3, R6 and R2's min / mean and CV at the
/// book's defaults), few enough that R6's 98,400-record run (24 ms) costs 19 s of CPU.
inline constexpr std::size_t kDefaultOutcomeReplications = 800;

/// The most replications an outcome row may grow to (800 doubled 7 times): there the
/// interval leaves the book's threshold 0.0045 once the p-value lies about 22% from it.
/// R1-R3's runs cost 0.2 ms (20 s at the cap); R6's 24 ms would take 41 minutes, so R6
/// reaches the cap only if its p-value lies that close to the threshold.
inline constexpr std::size_t kDefaultOutcomeMaxReplications = 102400;

struct BookOptions {
  std::size_t replications = 100;  ///< for claims, probabilities and rules (>= 2)
  /// For the outcome rows (Test::kPublishedNotInTail): R0, doubled while undecided up to
  /// outcome_max_replications (sequential.hpp). 2 <= R0 <= the cap, and the cap at
  /// least minimum_cap(kFamilyAlpha / k).
  std::size_t outcome_replications = kDefaultOutcomeReplications;
  std::size_t outcome_max_replications = kDefaultOutcomeMaxReplications;
  unsigned threads = 0;  ///< 0 = all cores; results do not depend on it
  /// Entry ids ("R4") or row keys ("R4.flat-adaptive"); empty = every entry.
  std::vector<std::string> only;
  PublishedFigures published;
  std::vector<std::string> sets;  ///< the user's overrides, recorded in the result
};

/// Every entry id and random row key, in the book's order (what `only` accepts).
std::vector<std::string> book_selectors();

/// An `only` selector that names no entry or row.
struct UnknownEntry : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// A cap on the outcome replications at which no row could fail: the message says how
/// many are needed and why.
struct TooFewOutcomeReplications : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Runs the selected entries. Throws UnknownEntry for an unknown selector,
/// TooFewOutcomeReplications when outcome_max_replications cannot resolve the threshold,
/// and std::invalid_argument for fewer than 2 replications or R0 above the cap.
BookResult run_book(const BookOptions& options, const ScenarioSource& source, const BookProgress& progress = {});

}  // namespace partsim::analysis::book
