#pragma once
// The book's entries as data: each row names the scenario setups it runs and how its
// figure is computed from their results. exact.cpp lists T1-T8, random.cpp
// R1-R6; runner.cpp runs the setups the selected rows need (each once, however many
// rows read it) and evaluates the rows.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/book/criterion.hpp"
#include "analysis/book/published.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::analysis::book {

/// A shipped scenario (path under the scenarios folder) with the entry's own --set
/// overrides. Two rows with equal setups share their runs.
struct Setup {
  std::string path;
  std::vector<std::string> sets;
  bool operator<(const Setup& o) const { return path != o.path ? path < o.path : sets < o.sets; }
  bool operator==(const Setup& o) const = default;
};

/// One replication as a row sees it: the run and the loaded scenario of each of its
/// setups, in the row's order, all on the same seed and replication index.
struct Replication {
  std::vector<const model::RunResult*> runs;
  std::vector<const model::Scenario*> scenarios;
};

/// An entry compared exactly: partsim's string must equal the published one.
struct ExactRow {
  std::string id, figure, published;
  std::optional<Setup> setup;  ///< run once (replication 0) when present
  /// partsim's figure; `run` is null for entries that run no scenario.
  std::function<std::string(const model::RunResult* run)> ours;
};

/// An entry from runs with random choices: a statistic per replication and a criterion.
struct RandomRow {
  std::string id;         ///< "R1"
  std::string key;        ///< "R1.run-length": selects the row (--only), names it in JSON
  std::string statistic;  ///< what is measured, in words
  std::string published;  ///< the book's figure as printed
  Criterion criterion;
  int decimals = 3;
  std::vector<Setup> setups;
  std::function<Sample(const Replication&)> sample;                    ///< every test but kPublishedProbability
  std::function<std::optional<Tally>(const Replication&)> tally = {};  ///< kPublishedProbability
};

std::vector<ExactRow> exact_rows();
std::vector<RandomRow> random_rows(const PublishedFigures& published);

}  // namespace partsim::analysis::book
