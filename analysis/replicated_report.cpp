#include "analysis/replicated_report.hpp"

#include <cmath>

#include "analysis/format.hpp"
#include "analysis/run_metrics.hpp"
#include "analysis/run_report.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

nlohmann::ordered_json number(double v, int decimals) {
  if (!std::isfinite(v)) return nullptr;  // e.g. max/min with an idle partition
  return round_to(v, decimals);
}
std::string text(double v, int decimals) { return std::isfinite(v) ? fixed(v, decimals) : "inf"; }

}  // namespace

std::vector<MetricSummary> summarize_replications(const std::vector<model::RunResult>& reps) {
  std::vector<std::vector<Metric>> flat;
  for (const auto& r : reps) flat.push_back(flatten_metrics(r));
  std::vector<MetricSummary> out;
  if (flat.empty()) return out;
  for (std::size_t i = 0; i < flat.front().size(); ++i) {
    std::vector<double> values;
    for (const auto& f : flat) values.push_back(f[i].second);
    out.emplace_back(flat.front()[i].first, summarize(values));
  }
  return out;
}

std::string mean_pm(const Summary& s, int decimals) {
  if (!std::isfinite(s.mean)) return "inf";
  return fixed(s.mean, decimals) + " ± " + fixed((s.ci_high - s.ci_low) / 2, decimals);
}

nlohmann::ordered_json summary_to_json(const std::string& name, const Summary& s) {
  return {{"name", name},          {"mean", number(s.mean, 6)},     {"ci95_low", number(s.ci_low, 6)},
          {"ci95_high", number(s.ci_high, 6)}, {"min", number(s.min, 6)}, {"median", number(s.median, 6)},
          {"max", number(s.max, 6)}};
}

std::string replicated_to_text(const std::vector<model::RunResult>& reps) {
  const auto sums = summarize_replications(reps);
  std::string out = "scenario " + reps.front().scenario + "  seed " + std::to_string(reps.front().seed) + "  " +
                    std::to_string(reps.size()) + " replications: mean ± 95% confidence half-width (Student t)\n\n";
  Table parts({{"partition", Align::kLeft}, {"records"}, {"min"}, {"median"}, {"max"}, {"batches"}});
  Table brokers({{"broker", Align::kLeft}, {"share"}, {"min"}, {"max"}, {"records/batch"}, {"requests"}});
  Table others({{"metric", Align::kLeft}, {"mean"}, {"95% CI"}, {"min"}, {"median"}, {"max"}});
  const Summary* records = nullptr;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const auto& [name, s] = sums[i];
    if (name.rfind("partition.", 0) == 0) {
      if (name.size() > 8 && name.compare(name.size() - 8, 8, ".records") == 0) {
        records = &s;
      } else if (name.size() > 8 && name.compare(name.size() - 8, 8, ".batches") == 0 && records) {
        parts.add_row({name.substr(10, name.size() - 18), mean_pm(*records, 1), text(records->min, 0), text(records->median, 1),
                       text(records->max, 0), mean_pm(s, 1)});
      }
      continue;
    }
    if (name.rfind("broker.", 0) == 0) {
      const auto dot = name.find('.', 7);
      const std::string field = name.substr(dot + 1);
      if (field == "share") {
        const auto& rpb = sums[i + 4].second;  // records_per_batch follows share, bytes_share, batches, requests
        const auto& req = sums[i + 3].second;
        brokers.add_row({name.substr(7, dot - 7), mean_pm(s, 4), text(s.min, 4), text(s.max, 4), mean_pm(rpb, 2), mean_pm(req, 0)});
      }
      continue;
    }
    others.add_row({name, text(s.mean, 4), "[" + text(s.ci_low, 4) + ", " + text(s.ci_high, 4) + "]", text(s.min, 4),
                    text(s.median, 4), text(s.max, 4)});
  }
  out += parts.to_text() + "\n" + brokers.to_text() + "\n" + others.to_text();
  return out;
}

nlohmann::ordered_json replicated_to_json(const std::vector<model::RunResult>& reps) {
  nlohmann::ordered_json j;
  j["scenario"] = reps.front().scenario;
  j["seed"] = reps.front().seed;
  j["replications"] = reps.size();
  bool partial = false;
  for (const auto& r : reps) partial = partial || r.partial;
  if (partial) j["partial"] = true;
  auto& metrics = j["metrics"] = nlohmann::ordered_json::array();
  for (const auto& [name, s] : summarize_replications(reps)) metrics.push_back(summary_to_json(name, s));
  auto& runs = j["runs"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < reps.size(); ++i) {
    auto r = run_to_json(reps[i]);
    r["replication"] = i;
    runs.push_back(std::move(r));
  }
  return j;
}

std::string replicated_to_csv(const std::vector<model::RunResult>& reps) {
  Table t({{"metric"}, {"mean"}, {"ci95_low"}, {"ci95_high"}, {"min"}, {"median"}, {"max"}});
  for (const auto& [name, s] : summarize_replications(reps))
    t.add_row({name, text(s.mean, 6), text(s.ci_low, 6), text(s.ci_high, 6), text(s.min, 6), text(s.median, 6), text(s.max, 6)});
  return t.to_csv();
}

}  // namespace partsim::analysis
