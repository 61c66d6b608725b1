#include "analysis/book_runner.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "analysis/book_rows.hpp"
#include "analysis/format.hpp"
#include "model/cluster_simulation.hpp"
#include "sim/replications.hpp"

namespace partsim::analysis::book {
namespace {

struct Loaded {
  std::optional<model::Scenario> scenario;
  std::string error;  ///< "path: message" when the setup did not load
};

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// Loads each distinct setup once; a setup that does not load keeps its error, and the
// rows that read it report that error.
std::map<Setup, Loaded> load_all(const std::vector<Setup>& setups, const ScenarioSource& source) {
  std::map<Setup, Loaded> out;
  for (const auto& s : setups) {
    if (out.count(s)) continue;
    auto loaded = source(s.path, s.sets);
    auto& l = out[s];
    if (loaded.scenario) l.scenario = std::move(loaded.scenario);
    else l.error = s.path + ": " + loaded.error;
  }
  return out;
}

std::string first_error(const RandomRow& row, const std::map<Setup, Loaded>& loaded) {
  for (const auto& s : row.setups)
    if (!loaded.at(s).error.empty()) return loaded.at(s).error;
  return {};
}

bool is_outcome(const RandomRow& row) { return row.criterion.test == Test::kPublishedNotInTail; }

// Replications of a row: outcome rows have their own count (a tail probability needs more
// runs than a median), every other row the claims' count.
std::size_t replications_of(const RandomRow& row, const BookOptions& o) {
  return is_outcome(row) ? o.outcome_replications : o.replications;
}

// Replication i runs each setup that a row with more than i replications reads, on
// (seed, i), and reduces each such row to its sample at once, so only one replication's
// results are alive per thread (a result holds two 64 KiB histograms). Rows that pair
// setups see them on the same seeds, and a row with fewer replications reads the first
// ones of a setup it shares (R6.split reads 100 of R6.lower-half's runs).
std::vector<std::vector<Sample>> sample_rows(const std::vector<RandomRow>& rows, const std::map<Setup, Loaded>& loaded,
                                             const BookOptions& o, const BookProgress& progress) {
  std::vector<Setup> setups;
  for (const auto& [setup, l] : loaded)
    if (l.scenario) setups.push_back(setup);
  auto index_of = [&](const Setup& s) {
    return static_cast<std::size_t>(std::find(setups.begin(), setups.end(), s) - setups.begin());
  };
  std::vector<std::vector<std::size_t>> uses(rows.size());
  std::vector<std::size_t> runs_of_setup(setups.size(), 0), runs_of_row(rows.size(), 0);
  std::size_t count = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!first_error(rows[r], loaded).empty()) continue;
    runs_of_row[r] = replications_of(rows[r], o);
    count = std::max(count, runs_of_row[r]);
    for (const auto& s : rows[r].setups) {
      uses[r].push_back(index_of(s));
      runs_of_setup[uses[r].back()] = std::max(runs_of_setup[uses[r].back()], runs_of_row[r]);
    }
  }
  return sim::run_replications<std::vector<Sample>>(
      count, o.threads,
      [&](std::size_t i) {
        std::vector<model::RunResult> runs(setups.size());
        for (std::size_t k = 0; k < setups.size(); ++k) {
          if (i >= runs_of_setup[k]) continue;
          const model::Scenario& s = *loaded.at(setups[k]).scenario;
          runs[k] = model::run_scenario(s, s.run.seed, i);
        }
        std::vector<Sample> out(rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r) {
          if (i >= runs_of_row[r]) continue;
          Replication rep;
          for (const std::size_t k : uses[r]) {
            rep.runs.push_back(&runs[k]);
            rep.scenarios.push_back(&*loaded.at(setups[k]).scenario);
          }
          out[r] = rows[r].sample(rep);
        }
        return out;
      },
      [&](std::size_t done, std::size_t total) {
        if (progress) progress(done, total);
      });
}

}  // namespace

bool BookResult::all_pass() const {
  return std::all_of(exact.begin(), exact.end(), [](const auto& e) { return e.pass(); }) &&
         std::all_of(random.begin(), random.end(), [](const auto& e) { return e.pass(); });
}

std::vector<std::string> book_selectors() {
  std::vector<std::string> s;
  auto add = [&](const std::string& x) {
    if (!contains(s, x)) s.push_back(x);
  };
  for (const auto& r : exact_rows()) add(r.id);
  for (const auto& r : random_rows(PublishedFigures{})) {
    add(r.id);
    add(r.key);
  }
  return s;
}

BookResult run_book(const BookOptions& o, const ScenarioSource& source, const BookProgress& progress) {
  if (o.replications < 2 || o.outcome_replications < 2) throw std::invalid_argument("replications must be >= 2");
  const auto known = book_selectors();
  for (const auto& s : o.only)
    if (!contains(known, s)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("unknown entry '" + s + "' (known: " + list + ")");
    }
  auto selected = [&](const std::string& id, const std::string& key) {
    return o.only.empty() || contains(o.only, id) || contains(o.only, key);
  };
  std::vector<ExactRow> exact;
  for (auto& r : exact_rows())
    if (selected(r.id, r.id)) exact.push_back(std::move(r));
  std::vector<RandomRow> random;
  for (auto& r : random_rows(o.published))
    if (selected(r.id, r.key)) random.push_back(std::move(r));

  std::vector<Setup> exact_setups, random_setups;
  for (const auto& r : exact)
    if (r.setup) exact_setups.push_back(*r.setup);
  for (const auto& r : random) random_setups.insert(random_setups.end(), r.setups.begin(), r.setups.end());
  const auto exact_loaded = load_all(exact_setups, source);
  const auto random_loaded = load_all(random_setups, source);

  // Bonferroni over the outcome rows that run: each is tested at kFamilyAlpha / k, so a
  // correct model fails any of them with probability at most kFamilyAlpha, whatever their
  // dependence (R1's three rows read one set of counts; the bound is then conservative).
  const auto outcome_rows = static_cast<std::size_t>(std::count_if(random.begin(), random.end(), [&](const RandomRow& r) {
    return is_outcome(r) && first_error(r, random_loaded).empty();
  }));
  const double threshold = outcome_rows > 0 ? kFamilyAlpha / static_cast<double>(outcome_rows) : 0;
  if (outcome_rows > 0 && o.outcome_replications < minimum_replications(threshold))
    throw TooFewOutcomeReplications(
        std::to_string(o.outcome_replications) + " cannot resolve the threshold " + fixed(kFamilyAlpha, 2) + " / " +
        std::to_string(outcome_rows) + " outcome rows = " + fixed(threshold, 4) +
        ": the smallest p-value of R replications is 2 / (R + 1), so at least " +
        std::to_string(minimum_replications(threshold)) + " are needed");
  for (auto& r : random)
    if (is_outcome(r)) {
      r.criterion.threshold = threshold;
      r.criterion.family = outcome_rows;
    }

  BookResult result;
  result.replications = o.replications;
  result.outcome_replications = o.outcome_replications;
  result.outcome_rows = outcome_rows;
  result.outcome_threshold = threshold;
  result.sets = o.sets;
  for (const auto& f : o.published.all())
    if (f.replaced) result.published.push_back(f.key);
  for (const auto* loaded : {&exact_loaded, &random_loaded})
    for (const auto& [setup, l] : *loaded) ++(l.error.empty() ? result.setups_loaded : result.setups_failed);
  // The exact entries' scenarios are deterministic: one run each (replication 0).
  std::map<Setup, model::RunResult> exact_runs;
  for (const auto& [setup, l] : exact_loaded)
    if (l.scenario) exact_runs.emplace(setup, model::run_scenario(*l.scenario, l.scenario->run.seed));
  for (const auto& row : exact) {
    ExactResult e{row.id, row.figure, row.published, {}, {}};
    if (!row.setup) e.partsim = row.ours(nullptr);
    else if (exact_runs.count(*row.setup)) e.partsim = row.ours(&exact_runs.at(*row.setup));
    else e.error = exact_loaded.at(*row.setup).error;
    result.exact.push_back(std::move(e));
  }
  const auto samples = random.empty() ? std::vector<std::vector<Sample>>{} : sample_rows(random, random_loaded, o, progress);
  for (std::size_t r = 0; r < random.size(); ++r) {
    const auto& row = random[r];
    RandomResult e{row.id, row.key, row.statistic, row.published, row.criterion, row.decimals, {}, first_error(row, random_loaded)};
    if (e.error.empty()) {
      std::vector<Sample> values;
      for (std::size_t i = 0; i < replications_of(row, o); ++i) values.push_back(samples[i][r]);
      e.spread = is_outcome(row) ? spread(values, row.criterion.published) : spread(values);
    }
    result.random.push_back(std::move(e));
  }
  return result;
}

}  // namespace partsim::analysis::book
