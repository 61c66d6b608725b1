#pragma once
// Runs the book's entries (../shared/book-tables.md) through partsim: the runner half of
// `partsim book` (book_report.hpp is the reporter). Scenario files are read by the caller
// (analysis does not parse input), through a ScenarioSource.

#include <cstddef>
#include <functional>
#include <optional>
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

struct BookOptions {
  std::size_t replications = 100;  ///< for the entries with random choices (>= 2)
  unsigned threads = 0;            ///< 0 = all cores; results do not depend on it
  /// Entry ids ("R4") or row keys ("R4.flat-adaptive"); empty = every entry.
  std::vector<std::string> only;
  PublishedFigures published;
  std::vector<std::string> sets;  ///< the user's overrides, recorded in the result
};

/// Every entry id and random row key, in the book's order (what `only` accepts).
std::vector<std::string> book_selectors();

/// Runs the selected entries. Throws std::invalid_argument for an unknown selector.
BookResult run_book(const BookOptions& options, const ScenarioSource& source, const BookProgress& progress = {});

}  // namespace partsim::analysis::book
