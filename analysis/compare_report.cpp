#include "analysis/compare_report.hpp"

#include <cmath>
#include <functional>

#include "analysis/distribution.hpp"
#include "analysis/format.hpp"
#include "analysis/replicated_report.hpp"
#include "analysis/run_report.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

double per(double a, double b) { return b == 0 ? 0.0 : a / b; }
double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

struct Metric {
  std::string name;
  std::function<std::string(const model::RunResult&)> value;
};

std::int64_t total_records(const model::RunResult& r) {
  std::int64_t t = 0;
  for (const auto& b : r.brokers) t += b.records;
  return t;
}
std::int64_t total_bytes(const model::RunResult& r) {
  std::int64_t t = 0;
  for (const auto& b : r.brokers) t += b.bytes;
  return t;
}
std::int64_t total_batches(const model::RunResult& r) {
  std::int64_t t = 0;
  for (const auto& b : r.brokers) t += b.batches;
  return t;
}

// The metrics, in display order; the broker rows depend on the cluster of the first run.
std::vector<Metric> metrics(const model::RunResult& first) {
  std::vector<Metric> m;
  m.push_back({"records acked", [](const auto& r) { return std::to_string(r.records_acked); }});
  m.push_back({"records failed", [](const auto& r) { return std::to_string(r.failed.total()); }});
  for (std::size_t i = 0; i < first.brokers.size(); ++i) {
    const std::string id = std::to_string(first.brokers[i].broker);
    m.push_back({"broker " + id + " records share", [i](const auto& r) {
                   return fixed(per(static_cast<double>(r.brokers[i].records), static_cast<double>(total_records(r))), 4);
                 }});
  }
  for (std::size_t i = 0; i < first.brokers.size(); ++i) {
    const std::string id = std::to_string(first.brokers[i].broker);
    m.push_back({"broker " + id + " bytes share", [i](const auto& r) {
                   return fixed(per(static_cast<double>(r.brokers[i].bytes), static_cast<double>(total_bytes(r))), 4);
                 }});
  }
  for (std::size_t i = 0; i < first.brokers.size(); ++i) {
    const std::string id = std::to_string(first.brokers[i].broker);
    m.push_back({"broker " + id + " requests", [i](const auto& r) { return std::to_string(r.brokers[i].requests); }});
    m.push_back({"broker " + id + " records/batch", [i](const auto& r) {
                   return fixed(per(static_cast<double>(r.brokers[i].records), static_cast<double>(r.brokers[i].batches)), 1);
                 }});
  }
  m.push_back({"batches", [](const auto& r) { return std::to_string(total_batches(r)); }});
  m.push_back({"records/batch", [](const auto& r) {
                 return fixed(per(static_cast<double>(total_records(r)), static_cast<double>(total_batches(r))), 2);
               }});
  m.push_back({"bytes/batch", [](const auto& r) {
                 return fixed(per(static_cast<double>(total_bytes(r)), static_cast<double>(total_batches(r))), 0);
               }});
  m.push_back({"latency p50 ms", [](const auto& r) { return fixed(ms(r.latency.quantile(0.5)), 3); }});
  m.push_back({"latency p99 ms", [](const auto& r) { return fixed(ms(r.latency.quantile(0.99)), 3); }});
  m.push_back({"latency p99.9 ms", [](const auto& r) { return fixed(ms(r.latency.quantile(0.999)), 3); }});
  m.push_back({"buffer full ms", [](const auto& r) { return fixed(r.buffer_full_ms, 1); }});
  auto dist = [](const model::RunResult& r) {
    std::vector<std::int64_t> c;
    for (const auto& p : r.partitions) c.push_back(p.records);
    return distribution_stats(c);
  };
  m.push_back({"partition max/min", [dist](const auto& r) {
                 const auto d = dist(r);
                 return d.has_empty_bin ? std::string("inf") : fixed(d.max_over_min, 3);
               }});
  m.push_back({"partition cv", [dist](const auto& r) { return fixed(dist(r).cv, 4); }});
  m.push_back({"chi-square p", [dist](const auto& r) { return fixed(dist(r).p_value, 4); }});
  return m;
}

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

}  // namespace

std::string compare_to_text(const std::vector<NamedRun>& runs, const std::string& sweep_path) {
  if (runs.empty()) return "";
  std::string out;
  const auto ms = metrics(runs.front().result);
  for_each_sweep_group(runs, [&](std::size_t i, std::size_t j) {
    if (!sweep_path.empty()) out += (i > 0 ? "\n" : "") + sweep_path + " = " + runs[i].sweep_value + "\n";
    std::vector<Column> cols{{"metric", Align::kLeft}};
    for (std::size_t k = i; k < j; ++k) cols.push_back({runs[k].name});
    Table t(std::move(cols));
    for (const auto& m : ms) {
      std::vector<std::string> row{m.name};
      for (std::size_t k = i; k < j; ++k) row.push_back(m.value(runs[k].result));
      t.add_row(std::move(row));
    }
    out += t.to_text();
  });
  return out;
}

std::string compare_to_csv(const std::vector<NamedRun>& runs) {
  if (runs.empty()) return "";
  const auto ms = metrics(runs.front().result);
  std::vector<Column> cols{{"sweep"}, {"name"}};
  for (const auto& m : ms) {
    std::string c;
    for (char ch : m.name) c += (ch == ' ' || ch == '/' || ch == '-') ? '_' : ch;
    cols.push_back({c});
  }
  Table t(std::move(cols));
  for (const auto& r : runs) {
    std::vector<std::string> row{r.sweep_value, r.name};
    for (const auto& m : ms) row.push_back(m.value(r.result));
    t.add_row(std::move(row));
  }
  return t.to_csv();
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
    arr.push_back(std::move(run));
  }
  return j;
}

std::string compare_replicated_to_text(const std::vector<NamedReplications>& runs, const std::string& sweep_path) {
  std::string out;
  if (runs.empty()) return out;
  out += std::to_string(runs.front().replications.size()) + " replications per run: mean ± 95% confidence half-width\n";
  for_each_sweep_group(runs, [&](std::size_t i, std::size_t j) {
    if (!sweep_path.empty()) out += "\n" + sweep_path + " = " + runs[i].sweep_value + "\n";
    std::vector<Column> cols{{"metric", Align::kLeft}};
    std::vector<std::vector<MetricSummary>> sums;
    for (std::size_t k = i; k < j; ++k) {
      cols.push_back({runs[k].name});
      sums.push_back(summarize_replications(runs[k].replications));
    }
    Table t(std::move(cols));
    for (std::size_t m = 0; m < sums.front().size(); ++m) {
      const std::string& name = sums.front()[m].first;
      if (name.rfind("partition.", 0) == 0 || name.rfind("failures.", 0) == 0) continue;
      std::vector<std::string> row{name};
      const int decimals = name.find("share") != std::string::npos || name.rfind("distribution.", 0) == 0 ? 4 : 2;
      for (const auto& s : sums) row.push_back(mean_pm(s[m].second, decimals));
      t.add_row(std::move(row));
    }
    out += t.to_text();
  });
  return out;
}

std::string compare_replicated_to_csv(const std::vector<NamedReplications>& runs) {
  Table t({{"sweep"}, {"name"}, {"metric"}, {"mean"}, {"ci95_low"}, {"ci95_high"}, {"min"}, {"median"}, {"max"}});
  for (const auto& r : runs)
    for (const auto& [name, s] : summarize_replications(r.replications)) {
      auto cell = [](double v) { return std::isfinite(v) ? fixed(v, 6) : std::string("inf"); };
      t.add_row({r.sweep_value, r.name, name, cell(s.mean), cell(s.ci_low), cell(s.ci_high), cell(s.min), cell(s.median), cell(s.max)});
    }
  return t.to_csv();
}

nlohmann::ordered_json compare_replicated_to_json(const std::vector<NamedReplications>& runs, const std::string& sweep_path) {
  nlohmann::ordered_json j;
  j["scenario"] = runs.empty() ? "" : runs.front().replications.front().scenario;
  j["seed"] = runs.empty() ? 0 : runs.front().replications.front().seed;
  j["replications"] = runs.empty() ? 0 : runs.front().replications.size();
  if (!sweep_path.empty()) j["sweep"] = sweep_path;
  auto& arr = j["runs"] = nlohmann::ordered_json::array();
  for (const auto& r : runs) {
    auto run = run_entry(r, sweep_path);
    auto& metrics = run["metrics"] = nlohmann::ordered_json::array();
    for (const auto& [name, s] : summarize_replications(r.replications)) metrics.push_back(summary_to_json(name, s));
    arr.push_back(std::move(run));
  }
  return j;
}

}  // namespace partsim::analysis
