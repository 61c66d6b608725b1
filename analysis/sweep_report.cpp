#include "analysis/sweep_report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>

#include "analysis/plots.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

const char* const kSweepChartTerminal = "set terminal svg size 860,460 dynamic font 'sans,11' background '#ffffff'\n";

namespace {

constexpr std::size_t kMaxSeries = 10;  // more lines than this and the chart is unreadable: pool by arm
constexpr const char* kMissing = "(base)";
// Paul Tol's bright palette (colour-blind safe), then the same with dashes.
constexpr const char* kColours[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#000000"};

bool parse_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

// Shortest text that reads back as the same double; "" for NaN.
std::string exact(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// A number for people: about four significant digits, without exponents below 10^9.
std::string readable(double v) {
  if (std::isnan(v)) return "–";
  if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
  const double a = std::fabs(v);
  char buf[48];
  if (a >= 1e9 || (a > 0 && a < 1e-3))
    std::snprintf(buf, sizeof buf, "%.3e", v);
  else
    std::snprintf(buf, sizeof buf, "%.*f", a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4, v);
  return buf;
}

std::string anchor(const std::string& metric) {
  std::string out = "m-";
  for (char c : metric) out += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-') ? c : '-';
  return out;
}

const std::string* param_of(const SweepPointData& p, const std::string& path) {
  for (const auto& [k, v] : p.params)
    if (k == path) return &v;
  return nullptr;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

SweepReport::SweepReport(SweepData data, const SweepReportOptions& options) : data_(std::move(data)) {
  for (const auto& p : data_.points)
    for (const auto& [path, value] : p.params)
      if (std::find(params_.begin(), params_.end(), path) == params_.end()) params_.push_back(path);

  // The metrics: all, or those asked for (each must exist).
  if (options.metrics.empty()) {
    for (std::size_t m = 0; m < data_.metrics.size(); ++m) metrics_.push_back(m);
  } else {
    for (const auto& name : options.metrics) {
      const auto it = std::find(data_.metrics.begin(), data_.metrics.end(), name);
      if (it == data_.metrics.end()) {
        std::string known;
        for (const auto& m : data_.metrics) known += (known.empty() ? "" : ", ") + m;
        throw std::invalid_argument("--metrics: the store has no metric '" + name + "'; it has: " + known);
      }
      metrics_.push_back(static_cast<std::size_t>(it - data_.metrics.begin()));
    }
  }

  // The axis: the parameter asked for, else the first swept one that takes several values,
  // else the arm.
  auto distinct_values = [&](const std::string& path) {
    std::vector<std::string> values;
    for (const auto& p : data_.points) {
      const std::string* v = param_of(p, path);
      const std::string text = v ? *v : kMissing;
      if (std::find(values.begin(), values.end(), text) == values.end()) values.push_back(text);
    }
    return values;
  };
  if (!options.x.empty()) {
    if (options.x != "arm" && std::find(params_.begin(), params_.end(), options.x) == params_.end()) {
      std::string known = "arm";
      for (const auto& p : params_) known += ", " + p;
      throw std::invalid_argument("--x: '" + options.x + "' is not swept in this store; the axis can be: " + known);
    }
    axis_.name = options.x;
  } else {
    axis_.name = "arm";
    for (const auto& path : params_)
      if (distinct_values(path).size() > 1) {
        axis_.name = path;
        break;
      }
  }
  const bool by_arm = axis_.name == "arm" && std::find(params_.begin(), params_.end(), "arm") == params_.end();
  if (by_arm) {
    for (const auto& p : data_.points)
      if (std::find(axis_.values.begin(), axis_.values.end(), p.arm) == axis_.values.end()) axis_.values.push_back(p.arm);
  } else {
    axis_.values = distinct_values(axis_.name);
    std::vector<double> numbers(axis_.values.size());
    axis_.numeric = !axis_.values.empty();
    for (std::size_t i = 0; i < axis_.values.size(); ++i) axis_.numeric = axis_.numeric && parse_number(axis_.values[i], numbers[i]);
    if (axis_.numeric) {
      std::vector<std::size_t> order(axis_.values.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return numbers[a] < numbers[b]; });
      std::vector<std::string> sorted;
      for (std::size_t i : order) sorted.push_back(axis_.values[i]);
      axis_.values = std::move(sorted);
      const auto [lo, hi] = std::minmax_element(numbers.begin(), numbers.end());
      axis_.log = *lo > 0 && *hi / *lo >= 50;
    }
  }

  // The lines: one per arm and setting of the other parameters; pooled by arm when that
  // would be too many lines (a Latin hypercube sample varies every parameter at every point).
  auto build = [&](bool with_params) {
    std::vector<SweepSeries> out;
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < data_.points.size(); ++i) {
      const auto& p = data_.points[i];
      std::string label = by_arm ? "" : p.arm;
      if (with_params)
        for (const auto& path : params_) {
          if (path == axis_.name) continue;
          const std::string* v = param_of(p, path);
          label += (label.empty() ? "" : ", ") + path + "=" + (v ? *v : kMissing);
        }
      if (label.empty()) label = "all";
      const auto it = std::find(keys.begin(), keys.end(), label);
      if (it == keys.end()) {
        keys.push_back(label);
        out.push_back({label, {i}});
      } else {
        out[static_cast<std::size_t>(it - keys.begin())].points.push_back(i);
      }
    }
    return out;
  };
  series_ = build(true);
  if (series_.size() > kMaxSeries && !by_arm) {
    series_ = build(false);
    pooled_ = true;
  }
}

Summary SweepReport::summary(std::size_t p, std::size_t m) const {
  std::vector<double> defined;
  for (double v : data_.points[p].values[m])
    if (!std::isnan(v)) defined.push_back(v);
  const bool infinite = std::any_of(defined.begin(), defined.end(), [](double v) { return std::isinf(v); });
  if (!infinite) return summarize(defined);
  Summary s;
  s.n = defined.size();
  s.mean = s.ci_low = s.ci_high = s.min = s.max = s.median = s.q025 = s.q975 = std::numeric_limits<double>::infinity();
  s.min = *std::min_element(defined.begin(), defined.end());
  return s;
}

SweepReport::Cell SweepReport::cell(const SweepSeries& series, const std::string& x, std::size_t m) const {
  const bool by_arm = axis_.name == "arm" && std::find(params_.begin(), params_.end(), "arm") == params_.end();
  std::vector<double> pooled;
  bool any = false;
  for (std::size_t i : series.points) {
    const auto& p = data_.points[i];
    const std::string* v = by_arm ? &p.arm : param_of(p, axis_.name);
    if ((v ? *v : std::string(kMissing)) != x) continue;
    any = true;
    for (double value : p.values[m])
      if (!std::isnan(value)) pooled.push_back(value);
  }
  Cell c;
  c.any = any && !pooled.empty();
  if (!c.any) return c;
  if (std::any_of(pooled.begin(), pooled.end(), [](double v) { return std::isinf(v); })) {
    c.s.n = pooled.size();
    c.s.mean = c.s.ci_low = c.s.ci_high = std::numeric_limits<double>::infinity();
    return c;
  }
  c.s = summarize(pooled);
  return c;
}

std::string SweepReport::summary_csv() const {
  std::string out = "point,arm";
  for (const auto& path : params_) out += "," + csv_escape(path);
  out += ",metric,n,mean,ci95_low,ci95_high,min,max\n";
  for (std::size_t p = 0; p < data_.points.size(); ++p) {
    const auto& point = data_.points[p];
    std::string head = std::to_string(point.point) + "," + csv_escape(point.arm);
    for (const auto& path : params_) {
      const std::string* v = param_of(point, path);
      head += "," + csv_escape(v ? *v : "");
    }
    for (std::size_t m : metrics_) {
      const Summary s = summary(p, m);
      out += head + "," + csv_escape(data_.metrics[m]) + "," + std::to_string(s.n);
      if (s.n == 0)
        out += ",,,,,\n";
      else
        out += "," + exact(s.mean) + "," + exact(s.ci_low) + "," + exact(s.ci_high) + "," + exact(s.min) + "," + exact(s.max) + "\n";
    }
  }
  return out;
}

bool SweepReport::has_chart(std::size_t m) const {
  for (const auto& series : series_)
    for (const auto& x : axis_.values) {
      const Cell c = cell(series, x, m);
      if (c.any && std::isfinite(c.s.mean)) return true;
    }
  return false;
}

std::string SweepReport::chart_data(std::size_t m) const {
  std::string out;
  for (const auto& series : series_) {
    std::string block;
    for (std::size_t i = 0; i < axis_.values.size(); ++i) {
      const Cell c = cell(series, axis_.values[i], m);
      if (!c.any || !std::isfinite(c.s.mean)) continue;
      block += (axis_.numeric ? axis_.values[i] : std::to_string(i)) + " " + exact(c.s.mean) + " " + exact(c.s.ci_low) + " " + exact(c.s.ci_high) + "\n";
    }
    if (block.empty()) continue;
    out += "# " + series.label + "\n" + block + "\n\n";  // gnuplot's index separator
  }
  return out;
}

std::string SweepReport::chart_script(std::size_t m) const {
  const std::string& metric = data_.metrics[m];
  std::string s = "set title " + gnuplot_quoted(metric + " (mean, 95% confidence band)") + " noenhanced\n";
  s += "set xlabel " + gnuplot_quoted(axis_.name) + " noenhanced\nset ylabel " + gnuplot_quoted(metric) + " noenhanced\n";
  s += "set grid\nset key below noenhanced\nset style fill transparent solid 0.18 noborder\n";
  if (axis_.numeric) s += "set autoscale xfix\n";
  if (axis_.log) s += "set logscale x\n";
  if (!axis_.numeric) {
    s += "set xrange [-0.5:" + std::to_string(axis_.values.size()) + "-0.5]\nset xtics (";
    for (std::size_t i = 0; i < axis_.values.size(); ++i) s += (i ? ", " : "") + gnuplot_quoted(axis_.values[i]) + " " + std::to_string(i);
    s += ") noenhanced\n";
  }
  std::string bands, lines;
  std::size_t index = 0;
  for (std::size_t k = 0; k < series_.size(); ++k) {
    bool any = false;
    for (const auto& x : axis_.values) {
      const Cell c = cell(series_[k], x, m);
      any = any || (c.any && std::isfinite(c.s.mean));
    }
    if (!any) continue;
    const std::string colour = kColours[k % std::size(kColours)];
    const std::string dash = std::to_string(1 + k / std::size(kColours));
    const std::string source = "datafile index " + std::to_string(index++);
    bands += (bands.empty() ? "" : ", ") + source + " using 1:3:4 with filledcurves lc rgb '" + colour + "' notitle";
    lines += ", " + source + " using 1:2 with linespoints lc rgb '" + colour + "' dt " + dash + " lw 1.5 pt 7 ps 0.6 title " +
             gnuplot_quoted(series_[k].label);
  }
  return s + "plot " + bands + lines + "\n";
}

std::string SweepReport::html(const std::map<std::size_t, std::string>& svg) const {
  std::string h = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>partsim sweep report: )" + html_escape(data_.name) + R"(</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
th { background: #f4f4f4; } td.l, th.l { text-align: left; }
table.meta td, table.meta th { text-align: left; }
.ci { color: #777; font-size: 0.85em; } .n { color: #999; font-size: 0.8em; }
figure { margin: 0.5em 0; } figure svg { max-width: 100%; height: auto; }
nav ol { columns: 3; font-size: 0.9em; } code { background: #f4f4f4; padding: 0 0.2em; }
p.note { color: #555; }
</style></head><body>
)";
  h += "<h1>Sweep <code>" + html_escape(data_.name) + "</code></h1>\n<table class=\"meta\">\n";
  auto row = [&](const std::string& k, const std::string& v) { h += "<tr><th>" + html_escape(k) + "</th><td>" + v + "</td></tr>\n"; };
  row("base scenario", "<code>" + html_escape(data_.scenario) + "</code>");
  row("store", "<code>" + html_escape(data_.source) + "</code> (shard " + html_escape(data_.shard) + ")");
  row("partsim", html_escape(data_.partsim_version));
  row("rows done", std::to_string(data_.rows_done) + " of " + std::to_string(data_.rows_total) +
                       (data_.rows_done < data_.rows_total ? " <strong>(incomplete: the means are over the replications done)</strong>" : ""));
  row("points", std::to_string(data_.points.size()) + ", " + std::to_string(data_.replications) + " replications each");
  std::vector<std::string> arms;
  for (const auto& p : data_.points)
    if (std::find(arms.begin(), arms.end(), p.arm) == arms.end()) arms.push_back(p.arm);
  std::string arm_list;
  for (const auto& a : arms) arm_list += (arm_list.empty() ? "" : ", ") + ("<code>" + html_escape(a) + "</code>");
  row("partitioners and variants", arm_list);
  for (const auto& path : params_) {
    std::vector<std::string> values;
    for (const auto& p : data_.points) {
      const std::string* v = param_of(p, path);
      const std::string text = v ? *v : kMissing;
      if (std::find(values.begin(), values.end(), text) == values.end()) values.push_back(text);
    }
    std::string list;
    for (std::size_t i = 0; i < values.size() && i < 24; ++i) list += (i ? ", " : "") + html_escape(values[i]);
    if (values.size() > 24) list += ", … (" + std::to_string(values.size()) + " values)";
    row("swept: " + path, list);
  }
  h += "</table>\n<p class=\"note\">Each chart shows a metric against <code>" + html_escape(axis_.name) +
       "</code>: the mean over the replications of each point, and its 95% Student t confidence interval as a band (a point with "
       "one replication has no band). A value a run could not measure (e.g. a latency with no record acked) is left out of "
       "the mean; the tables give the count <span class=\"n\">n</span> of the values behind each mean." +
       std::string(pooled_ ? " The other swept parameters take too many values to draw a line for each: the lines are the "
                             "partitioners and variants, each point of the sample at its own x."
                           : "") +
       " The same numbers are in <code>summary.csv</code>, the charts' gnuplot scripts and data in <code>charts/</code>.</p>\n";

  h += "<nav><h2>Metrics</h2><ol>\n";
  for (std::size_t m : metrics_) h += "<li><a href=\"#" + anchor(data_.metrics[m]) + "\">" + html_escape(data_.metrics[m]) + "</a></li>\n";
  h += "</ol></nav>\n";

  for (std::size_t m : metrics_) {
    const std::string& metric = data_.metrics[m];
    h += "<section id=\"" + anchor(metric) + "\"><h2>" + html_escape(metric) + "</h2>\n";
    const auto it = svg.find(m);
    if (it != svg.end()) {
      const auto start = it->second.find("<svg");
      h += "<figure>" + (start == std::string::npos ? std::string() : it->second.substr(start)) + "</figure>\n";
    } else {
      h += "<p class=\"note\">No run measured this metric: nothing to draw.</p>\n";
    }
    h += "<table><tr><th class=\"l\">" + html_escape(axis_.name) + "</th>";
    for (const auto& series : series_) h += "<th>" + html_escape(series.label) + "</th>";
    h += "</tr>\n";
    for (const auto& x : axis_.values) {
      h += "<tr><td class=\"l\">" + html_escape(x) + "</td>";
      for (const auto& series : series_) {
        const Cell c = cell(series, x, m);
        if (!c.any) {
          h += "<td>–</td>";
          continue;
        }
        h += "<td>" + readable(c.s.mean);
        if (c.s.n >= 2 && std::isfinite(c.s.mean)) h += " <span class=\"ci\">[" + readable(c.s.ci_low) + ", " + readable(c.s.ci_high) + "]</span>";
        h += " <span class=\"n\">n=" + std::to_string(c.s.n) + "</span></td>";
      }
      h += "</tr>\n";
    }
    h += "</table></section>\n";
  }
  h += "<p class=\"note\">Written by partsim report.</p>\n</body></html>\n";
  return h;
}

}  // namespace partsim::analysis
