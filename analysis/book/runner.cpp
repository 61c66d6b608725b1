#include "analysis/book/runner.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>

#include "analysis/book/rows.hpp"
#include "analysis/book/sequential.hpp"
#include "analysis/format.hpp"
#include "model/cluster_simulation.hpp"
#include "sim/replications.hpp"

namespace partsim::analysis::book {
namespace {

struct Loaded {
  std::optional<model::Scenario> scenario;
  std::string error;  ///< "path: message" when the setup did not load
};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

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

// One replication's value of a row: a sample, or a tally for a probability row.
struct RowValue {
  Sample sample;
  std::optional<Tally> tally;
};

// The values of the rows, grown in stages: extend() runs replications until row r holds
// need[r] values. Replication i of a setup is always the run (seed, i), so a row that
// grows reuses its first runs and reads the same values whatever the thread count and
// however the stages fell.
class RowSampler {
public:
  RowSampler(const std::vector<RandomRow>& rows, const std::map<Setup, Loaded>& loaded, unsigned threads,
             const BookProgress& progress)
      : rows_(rows),
        loaded_(loaded),
        threads_(threads),
        progress_(progress),
        samples_(rows.size()),
        tallies_(rows.size()),
        uses_(rows.size()) {
    for (const auto& [setup, l] : loaded)
      if (l.scenario) setups_.push_back(setup);
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (const auto& s : rows[r].setups)
        uses_[r].push_back(static_cast<std::size_t>(std::find(setups_.begin(), setups_.end(), s) - setups_.begin()));
  }

  std::size_t size(std::size_t r) const { return rows_[r].tally ? tallies_[r].size() : samples_[r].size(); }
  const std::vector<Sample>& samples(std::size_t r) const { return samples_[r]; }
  const std::vector<std::optional<Tally>>& tallies(std::size_t r) const { return tallies_[r]; }

  // Replication i runs each setup read by a row that needs its value i, and reduces each
  // such row to its value at once, so only one replication's results are alive per thread
  // (a result holds two 64 KiB histograms). Rows that pair setups see them on the same
  // seeds, and a row with fewer replications reads the first runs of a setup it shares
  // (R6.split reads 100 of R6.lower-half's runs).
  void extend(const std::vector<std::size_t>& need) {
    std::vector<std::size_t> have(rows_.size());
    std::size_t lo = SIZE_MAX, hi = 0;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      have[r] = size(r);
      if (need[r] <= have[r]) continue;
      lo = std::min(lo, have[r]);
      hi = std::max(hi, need[r]);
    }
    if (hi == 0) return;
    auto wanted = [&](std::size_t r, std::size_t i) { return have[r] <= i && i < need[r]; };
    const std::size_t done_before = done_;
    planned_ += hi - lo;
    sim::for_each_replication<std::vector<RowValue>>(
        hi - lo, threads_,
        [&](std::size_t j) {
          const std::size_t i = lo + j;
          std::vector<model::RunResult> runs(setups_.size());
          std::vector<bool> ran(setups_.size(), false);
          std::vector<RowValue> out(rows_.size());
          for (std::size_t r = 0; r < rows_.size(); ++r) {
            if (!wanted(r, i)) continue;
            Replication rep;
            for (const std::size_t k : uses_[r]) {
              const model::Scenario& s = *loaded_.at(setups_[k]).scenario;
              if (!ran[k]) runs[k] = model::run_scenario(s, s.run.seed, i);
              ran[k] = true;
              rep.runs.push_back(&runs[k]);
              rep.scenarios.push_back(&s);
            }
            if (rows_[r].tally) out[r].tally = rows_[r].tally(rep);
            else out[r].sample = rows_[r].sample(rep);
          }
          return out;
        },
        [&](std::size_t j, std::vector<RowValue>&& out) {
          for (std::size_t r = 0; r < rows_.size(); ++r) {
            if (!wanted(r, lo + j)) continue;
            if (rows_[r].tally) tallies_[r].push_back(out[r].tally);
            else samples_[r].push_back(out[r].sample);
          }
        },
        [&](std::size_t done, std::size_t) {
          if (progress_) progress_(done_before + done, planned_);
        });
    done_ = done_before + (hi - lo);
  }

private:
  const std::vector<RandomRow>& rows_;
  const std::map<Setup, Loaded>& loaded_;
  unsigned threads_;
  const BookProgress& progress_;
  std::vector<Setup> setups_;
  std::vector<std::vector<Sample>> samples_;
  std::vector<std::vector<std::optional<Tally>>> tallies_;
  std::vector<std::vector<std::size_t>> uses_;  ///< indexes into setups_ of each row's setups
  std::size_t done_ = 0, planned_ = 0;
};

Spread spread_of(const RandomRow& row, const RowSampler& sampler, std::size_t r) {
  if (row.tally) return spread(sampler.tallies(r), row.criterion.published);
  return is_outcome(row) ? spread(sampler.samples(r), row.criterion.published) : spread(sampler.samples(r));
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
  if (o.outcome_replications > o.outcome_max_replications)
    throw std::invalid_argument("outcome replications " + std::to_string(o.outcome_replications) + " above their cap " +
                                std::to_string(o.outcome_max_replications));
  const auto known = book_selectors();
  for (const auto& s : o.only)
    if (!contains(known, s)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UnknownEntry("unknown entry '" + s + "' (known: " + list + ")");
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

  // Bonferroni over the rows tested against a published value that run: each is tested
  // at kFamilyAlpha / k, so a correct model fails any of them with probability at most
  // kFamilyAlpha, whatever their dependence (R1's three outcome rows read one set of
  // counts; the bound is then conservative).
  const auto family = static_cast<std::size_t>(std::count_if(random.begin(), random.end(), [&](const RandomRow& r) {
    return in_family(r.criterion.test) && first_error(r, random_loaded).empty();
  }));
  const bool any_outcome = std::any_of(random.begin(), random.end(), [&](const RandomRow& r) {
    return is_outcome(r) && first_error(r, random_loaded).empty();
  });
  const double threshold = family > 0 ? kFamilyAlpha / static_cast<double>(family) : 0;
  if (any_outcome && o.outcome_max_replications < minimum_cap(threshold))
    throw TooFewOutcomeReplications(
        std::to_string(o.outcome_max_replications) + " cannot resolve the threshold " + fixed(kFamilyAlpha, 2) + " / " +
        std::to_string(family) + " = " + fixed(threshold, 4) +
        ": with no replication beyond the published value the 99.9% interval of p still reaches 2 (1 - 0.0005^(1/R)), "
        "below the threshold only from R = " +
        std::to_string(minimum_cap(threshold)) + ", so at least that many are needed");
  for (auto& r : random)
    if (in_family(r.criterion.test)) {
      r.criterion.threshold = threshold;
      r.criterion.family = family;
    }

  BookResult result;
  result.replications = o.replications;
  result.outcome_replications = o.outcome_replications;
  result.outcome_max_replications = o.outcome_max_replications;
  result.family_rows = family;
  result.family_threshold = threshold;
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

  // The sequential rule (sequential.hpp): every row runs its first look; an outcome
  // row whose p-value interval still contains the threshold doubles its replications,
  // up to the cap, where it stays undecided.
  RowSampler sampler(random, random_loaded, o.threads, progress);
  std::vector<std::size_t> need(random.size(), 0);
  for (std::size_t r = 0; r < random.size(); ++r)
    if (first_error(random[r], random_loaded).empty())
      need[r] = is_outcome(random[r]) ? o.outcome_replications : o.replications;
  for (bool grow = true; grow;) {
    sampler.extend(need);
    grow = false;
    for (std::size_t r = 0; r < random.size(); ++r) {
      if (!is_outcome(random[r]) || need[r] == 0 || need[r] >= o.outcome_max_replications) continue;
      if (verdict(random[r].criterion, spread_of(random[r], sampler, r)) != Verdict::kUndecided) continue;
      need[r] = next_look(need[r], o.outcome_max_replications);
      grow = true;
    }
  }
  for (std::size_t r = 0; r < random.size(); ++r) {
    const auto& row = random[r];
    RandomResult e{row.id,
                   row.key,
                   row.statistic,
                   row.published,
                   row.criterion,
                   row.decimals,
                   {},
                   first_error(row, random_loaded)};
    if (e.error.empty()) e.spread = spread_of(row, sampler, r);
    result.random.push_back(std::move(e));
  }
  return result;
}

}  // namespace partsim::analysis::book
