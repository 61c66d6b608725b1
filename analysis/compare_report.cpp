#include "analysis/compare_report.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "analysis/format.hpp"
#include "analysis/replicated_report.hpp"
#include "analysis/run_metrics.hpp"
#include "analysis/run_report.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

// Calls fn(i, j) for each group [i, j) of consecutive runs that share a sweep value.
template <class Runs, class Fn>
void for_each_sweep_group(const Runs& runs, Fn&& fn) {
  for (std::size_t i = 0, j = 0; i < runs.size(); i = j) {
    for (j = i; j < runs.size() && runs[j].sweep_value == runs[i].sweep_value;) ++j;
    fn(i, j);
  }
}

// A run's JSON entry starts with its name and, in a sweep, its sweep value.
template <class Run>
nlohmann::ordered_json run_entry(const Run& r, const std::string& sweep_path) {
  nlohmann::ordered_json run;
  run["name"] = r.name;
  if (!sweep_path.empty()) run["sweep_value"] = r.sweep_value;
  return run;
}

nlohmann::ordered_json json_value(double v, int decimals) {
  if (!std::isfinite(v)) return nullptr;  // undefined, or max/min with an idle partition
  return round_to(v, decimals);
}

// Runs compared may differ in shape (a variant with more brokers or partitions): each has
// its own registry, and rows are the union of their metric names in order of appearance.
class MetricUnion {
public:
  template <class Keep>
  MetricUnion(const std::vector<const MetricRegistry*>& regs, Keep&& keep) : index_(regs.size()) {
    std::unordered_map<std::string_view, std::size_t> row_of;
    for (std::size_t k = 0; k < regs.size(); ++k)
      for (std::size_t m = 0; m < regs[k]->size(); ++m) {
        const MetricInfo& info = (*regs[k])[m];
        if (!keep(info)) continue;
        index_[k].emplace(info.name, m);
        if (row_of.emplace(info.name, rows_.size()).second) rows_.push_back(&info);
      }
  }
  const std::vector<const MetricInfo*>& rows() const { return rows_; }
  /// The index of `row`'s metric in run k's registry, or nullopt when run k has no such metric.
  std::optional<std::size_t> at(std::size_t k, const MetricInfo& row) const {
    const auto it = index_[k].find(row.name);
    if (it == index_[k].end()) return std::nullopt;
    return it->second;
  }

private:
  std::vector<const MetricInfo*> rows_;
  std::vector<std::unordered_map<std::string_view, std::size_t>> index_;
};

std::vector<const MetricRegistry*> pointers(const std::vector<MetricRegistry>& regs) {
  std::vector<const MetricRegistry*> out;
  for (const auto& r : regs) out.push_back(&r);
  return out;
}

bool headline(const MetricInfo& m) { return m.headline; }
bool not_per_partition(const MetricInfo& m) { return m.scope != MetricScope::kPartition; }

// A table with the headline metrics as rows (machine name, label) and a column per run of
// [i, j): cell(k, metric index in run k's registry).
template <class Runs, class Cell>
std::string metric_table(const Runs& runs, std::size_t i, std::size_t j, const MetricUnion& u, Cell&& cell) {
  std::vector<Column> cols{{"metric", Align::kLeft}, {"meaning", Align::kLeft}};
  for (std::size_t k = i; k < j; ++k) cols.push_back({runs[k].name});
  Table t(std::move(cols));
  for (const MetricInfo* m : u.rows()) {
    std::vector<std::string> row{m->name, label_with_unit(*m)};
    for (std::size_t k = i; k < j; ++k) {
      const auto at = u.at(k, *m);
      row.push_back(at ? cell(k, *at) : "-");
    }
    t.add_row(std::move(row));
  }
  return t.to_text();
}

}  // namespace

std::string compare_to_text(const std::vector<NamedRun>& runs, const std::string& sweep_path) {
  if (runs.empty()) return "";
  std::vector<MetricRegistry> regs;
  std::vector<std::vector<double>> values;
  for (const auto& r : runs) {
    regs.emplace_back(r.result);
    values.push_back(regs.back().values(r.result));
  }
  const MetricUnion u(pointers(regs), headline);
  std::string out;
  for_each_sweep_group(runs, [&](std::size_t i, std::size_t j) {
    if (!sweep_path.empty()) out += (i > 0 ? "\n" : "") + sweep_path + " = " + runs[i].sweep_value + "\n";
    out += metric_table(runs, i, j, u, [&](std::size_t k, std::size_t m) {
      return metric_text(values[k][m], regs[k][m].decimals, "-");
    });
  });
  return out;
}

std::string compare_to_csv(const std::vector<NamedRun>& runs) {
  if (runs.empty()) return "";
  std::vector<MetricRegistry> regs;
  for (const auto& r : runs) regs.emplace_back(r.result);
  const MetricUnion u(pointers(regs), not_per_partition);
  std::string out = "sweep,name";
  for (const MetricInfo* m : u.rows()) {
    out += ',';
    append_csv_cell(out, m->name);
  }
  out += '\n';
  for (std::size_t k = 0; k < runs.size(); ++k) {
    append_csv_cell(out, runs[k].sweep_value);
    out += ',';
    append_csv_cell(out, runs[k].name);
    const auto v = regs[k].values(runs[k].result);
    for (const MetricInfo* m : u.rows()) {
      out += ',';
      if (const auto at = u.at(k, *m)) out += metric_text(v[*at], regs[k][*at].decimals, "");
    }
    out += '\n';
  }
  return out;
}

nlohmann::ordered_json compare_to_json(const std::vector<NamedRun>& runs, const std::string& sweep_path) {
  nlohmann::ordered_json j;
  j["scenario"] = runs.empty() ? "" : runs.front().result.scenario;
  j["seed"] = runs.empty() ? 0 : runs.front().result.seed;
  if (!sweep_path.empty()) j["sweep"] = sweep_path;
  auto& arr = j["runs"] = nlohmann::ordered_json::array();
  for (const auto& r : runs) {
    auto run = run_entry(r, sweep_path);
    const auto fields = run_to_json(r.result);  // keep alive: items() only refers to it
    for (const auto& [k, v] : fields.items()) run[k] = v;
    auto& metrics = run["metrics"] = nlohmann::ordered_json::object();
    const MetricRegistry reg(r.result);
    const auto v = reg.values(r.result);
    for (std::size_t m = 0; m < reg.size(); ++m) metrics[reg[m].name] = json_value(v[m], 6);
    arr.push_back(std::move(run));
  }
  return j;
}

std::string compare_replicated_to_text(const std::vector<NamedReplications>& runs, const std::string& sweep_path) {
  std::string out;
  if (runs.empty()) return out;
  out +=
      std::to_string(runs.front().summary.replications()) + " replications per run: mean ± 95% confidence half-width\n";
  std::vector<const MetricRegistry*> regs;
  std::vector<std::vector<Summary>> sums;
  for (const auto& r : runs) {
    regs.push_back(&r.summary.registry());
    sums.push_back(r.summary.summaries());
  }
  const MetricUnion u(regs, headline);
  for_each_sweep_group(runs, [&](std::size_t i, std::size_t j) {
    if (!sweep_path.empty()) out += "\n" + sweep_path + " = " + runs[i].sweep_value + "\n";
    out += metric_table(runs, i, j, u, [&](std::size_t k, std::size_t m) {
      return mean_pm(sums[k][m], runs[k].summary.registry()[m].decimals);
    });
  });
  return out;
}

std::string compare_replicated_to_csv(const std::vector<NamedReplications>& runs) {
  std::string out = "sweep,name,metric,mean,ci95_low,ci95_high,min,median,max\n";
  for (const auto& r : runs) {
    std::string prefix;
    append_csv_cell(prefix, r.sweep_value);
    prefix += ',';
    append_csv_cell(prefix, r.name);
    prefix += ',';
    append_summary_csv_rows(out, r.summary, prefix);
  }
  return out;
}

nlohmann::ordered_json compare_replicated_to_json(const std::vector<NamedReplications>& runs,
                                                  const std::string& sweep_path, const std::string& scenario,
                                                  std::uint64_t seed) {
  nlohmann::ordered_json j;
  j["scenario"] = scenario;
  j["seed"] = seed;
  j["replications"] = runs.empty() ? 0 : runs.front().summary.replications();
  if (!sweep_path.empty()) j["sweep"] = sweep_path;
  auto& arr = j["runs"] = nlohmann::ordered_json::array();
  for (const auto& r : runs) {
    auto run = run_entry(r, sweep_path);
    run["metrics"] = replicated_metrics_json(r.summary);
    arr.push_back(std::move(run));
  }
  return j;
}

}  // namespace partsim::analysis
