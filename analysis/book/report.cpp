#include "analysis/book/report.hpp"

#include <algorithm>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis::book {
namespace {

const char* test_name(Test t) {
  switch (t) {
    case Test::kPublishedNotInTail: return "published_not_in_tails";
    case Test::kPublishedProbability: return "published_probability_binomial";
    case Test::kMedianIn: return "median_in";
    case Test::kEveryIn: return "every_replication_in";
  }
  return "";
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string random_partsim(const RandomResult& e) {
  return e.error.empty() ? describe(e.spread, e.criterion, e.decimals) : "not run";
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "pass";
    case Verdict::kFail: return "fail";
    case Verdict::kUndecided: return "undecided";
  }
  return "";
}

// "undecided at R = 102400": the row says where it stopped.
std::string verdict_text(const RandomResult& e) {
  const auto v = e.verdict();
  if (v == Verdict::kUndecided) return "undecided at R = " + std::to_string(e.spread.replications);
  return verdict_name(v);
}

double r6(double v) { return round_to(v, 6); }

}  // namespace

std::string book_to_text(const BookResult& result) {
  std::string out;
  std::size_t passed = 0, total = 0;
  std::vector<std::string> errors;
  if (!result.exact.empty()) {
    Table t({{"entry", Align::kLeft},
             {"figure", Align::kLeft},
             {"published", Align::kLeft},
             {"partsim", Align::kLeft},
             {"verdict", Align::kLeft}});
    for (const auto& e : result.exact) {
      t.add_row({e.id, e.figure, e.published, e.error.empty() ? e.partsim : "not run", e.pass() ? "exact" : "differs"});
      passed += e.pass() ? 1 : 0;
      if (!e.error.empty()) errors.push_back(e.id + ": " + e.error);
    }
    total += result.exact.size();
    out += "Exact entries: partsim must print the published figure.\n" + t.to_text() + "\n";
  }
  if (!result.random.empty()) {
    Table t({{"entry", Align::kLeft},
             {"statistic", Align::kLeft},
             {"published", Align::kLeft},
             {"partsim", Align::kLeft},
             {"R", Align::kRight},
             {"p [99.9% interval]", Align::kLeft},
             {"criterion", Align::kLeft},
             {"why", Align::kLeft},
             {"verdict", Align::kLeft}});
    for (const auto& e : result.random) {
      t.add_row({e.key, e.statistic, e.published, random_partsim(e),
                 e.error.empty() ? std::to_string(e.spread.replications) : "",
                 e.error.empty() ? describe_p(e.spread, e.criterion) : "", describe(e.criterion, e.decimals),
                 e.criterion.reason, verdict_text(e)});
      passed += e.pass() ? 1 : 0;
      if (!e.error.empty() && std::find(errors.begin(), errors.end(), e.id + ": " + e.error) == errors.end())
        errors.push_back(e.id + ": " + e.error);
    }
    total += result.random.size();
    out += "Entries from runs with random choices: a statistic per replication; " +
           std::to_string(result.replications) + " replications";
    const bool outcomes = std::any_of(result.random.begin(), result.random.end(), [](const RandomResult& e) {
      return e.error.empty() && e.criterion.test == Test::kPublishedNotInTail;
    });
    if (outcomes)
      out += "; one run's outcomes from " + std::to_string(result.outcome_replications) +
             ", doubled while undecided up to " + std::to_string(result.outcome_max_replications);
    out +=
        ".\n" + t.to_text() +
        "\npartsim: median [2.5%, 97.5%] of the R replications; for a probability, the pooled share: successes of trials;\n"
        "for a rule, the median [min, max]. A statistic undefined in any replication fails its criterion.\n";
    if (result.family_rows > 0)
      out +=
          "One run's outcome v: p = min(1, 2 min(1 + #{x <= v}, 1 + #{x >= v}) / (R + 1)) over partsim's R values x, the\n"
          "two-sided Monte Carlo p-value, and the 99.9% Clopper-Pearson interval of the p an unlimited R would give; R doubles\n"
          "while that interval contains the threshold (Besag & Clifford 1991), and a row still undecided at the cap is not\n"
          "reproduced. A probability: the exact two-sided binomial test of the published value on the pooled counts.\n"
          "A p-value fails below " +
          fixed(kFamilyAlpha, 2) + " / " + std::to_string(result.family_rows) + " = " +
          fixed(result.family_threshold, 4) + " (Bonferroni over the " + std::to_string(result.family_rows) +
          " rows tested against a published value: a correct model fails one in at most " +
          fixed(kFamilyAlpha * 100, 0) + "% of books).\n";
    out += "'about x' reads as x ± " + fixed(kAboutTolerance * 100, 0) + "% in every claim (docs/cli/book.md).\n";
  }
  if (!result.sets.empty()) out += "--set applied to every scenario: " + joined(result.sets) + "\n";
  if (!result.published.empty()) out += "published figures replaced: " + joined(result.published) + "\n";
  for (const auto& e : errors) out += "not run: " + e + "\n";
  out += std::to_string(passed) + " of " + std::to_string(total) + " entries reproduced.\n";
  return out;
}

nlohmann::ordered_json book_to_json(const BookResult& result) {
  nlohmann::ordered_json j;
  j["replications"] = result.replications;
  j["outcome_replications"] = result.outcome_replications;
  j["outcome_max_replications"] = result.outcome_max_replications;
  j["decision_confidence"] = kDecisionConfidence;
  j["family_alpha"] = kFamilyAlpha;
  j["family_rows"] = result.family_rows;
  j["family_threshold"] = r6(result.family_threshold);
  j["sets"] = result.sets;
  j["published_replaced"] = result.published;
  j["about_tolerance"] = kAboutTolerance;
  auto& exact = j["exact"] = nlohmann::ordered_json::array();
  for (const auto& e : result.exact) {
    nlohmann::ordered_json x{{"entry", e.id},
                             {"figure", e.figure},
                             {"published", e.published},
                             {"partsim", e.partsim},
                             {"verdict", e.pass() ? "exact" : "differs"}};
    if (!e.error.empty()) x["error"] = e.error;
    exact.push_back(std::move(x));
  }
  auto& random = j["random"] = nlohmann::ordered_json::array();
  for (const auto& e : result.random) {
    const auto& c = e.criterion;
    nlohmann::ordered_json x{{"entry", e.id},
                             {"key", e.key},
                             {"statistic", e.statistic},
                             {"published", e.published},
                             {"test", test_name(c.test)},
                             {"criterion", describe(c, e.decimals)},
                             {"reason", c.reason}};
    if (in_family(c.test)) {
      x["published_value"] = r6(c.published);
      x["threshold"] = r6(c.threshold);
    } else {
      x["bounds"] = {{"lo", r6(c.interval.lo)},
                     {"hi", r6(c.interval.hi)},
                     {"lo_open", c.interval.lo_open},
                     {"hi_open", c.interval.hi_open}};
    }
    const auto& s = e.spread;
    x["partsim"] = {{"replications", s.replications},
                    {"undefined", s.undefined},
                    {"median", r6(s.median)},
                    {"q025", r6(s.q025)},
                    {"q975", r6(s.q975)},
                    {"min", r6(s.min)},
                    {"max", r6(s.max)},
                    {"mean", r6(s.mean)},
                    {"ci99_low", r6(s.ci99_low)},
                    {"ci99_high", r6(s.ci99_high)}};
    if (s.p_value && c.test == Test::kPublishedNotInTail) {
      x["partsim"]["p_value"] = r6(*s.p_value);
      x["partsim"]["p_interval"] = {{"lo", r6(s.p_interval.lo)}, {"hi", r6(s.p_interval.hi)}};
      x["partsim"]["at_or_below"] = s.at_or_below;
      x["partsim"]["at_or_above"] = s.at_or_above;
    } else if (s.p_value && c.test == Test::kPublishedProbability) {
      x["partsim"]["p_value"] = r6(*s.p_value);
      x["partsim"]["successes"] = s.successes;
      x["partsim"]["trials"] = s.trials;
    }
    x["verdict"] = verdict_name(e.verdict());
    if (!e.error.empty()) x["error"] = e.error;
    random.push_back(std::move(x));
  }
  j["all_reproduced"] = result.all_pass();
  return j;
}

}  // namespace partsim::analysis::book
