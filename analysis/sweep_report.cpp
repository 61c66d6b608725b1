#include "analysis/sweep_report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include "analysis/format.hpp"
#include "analysis/plots.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

const char* const kSweepChartTerminal = "set terminal svg size 860,460 dynamic font 'sans,11' background '#ffffff'\n";

namespace {

constexpr std::size_t kMaxSeries = 10;  // more lines than this and the chart is unreadable: pool by arm
constexpr const char* kMissing = "(base)";
// Paul Tol's bright palette (colour-blind safe), then the same with dashes.
constexpr const char* kColours[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44",
                                    "#66ccee", "#aa3377", "#bbbbbb", "#000000"};

bool parse_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

// A number for people: about four significant digits, without exponents below 10^9.
std::string readable(double v) {
  if (std::isnan(v)) return "–";
  if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
  const double a = std::fabs(v);
  char buf[48];
  if (a >= 1e9 || (a > 0 && a < 1e-3)) std::snprintf(buf, sizeof buf, "%.3e", v);
  else std::snprintf(buf, sizeof buf, "%.*f", a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4, v);
  return buf;
}

std::string anchor(const std::string& metric) {
  std::string out = "m-";
  for (char c : metric)
    out += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-') ? c : '-';
  return out;
}

const std::string* param_of(const SweepPointData& p, const std::string& path) {
  for (const auto& [k, v] : p.params)
    if (k == path) return &v;
  return nullptr;
}

// The summary of the defined (not NaN) values. With an infinite value the mean is their
// sum over n (+inf, -inf, or NaN for both signs) and has no interval.
Summary summarize_defined(const std::vector<double>& values) {
  std::vector<double> defined;
  for (double v : values)
    if (!std::isnan(v)) defined.push_back(v);
  if (std::none_of(defined.begin(), defined.end(), [](double v) { return std::isinf(v); })) return summarize(defined);
  Summary s;
  s.n = defined.size();
  double sum = 0;
  for (double v : defined) sum += v;
  s.mean = s.ci_low = s.ci_high = s.median = s.q025 = s.q975 = sum / static_cast<double>(s.n);
  s.min = *std::min_element(defined.begin(), defined.end());
  s.max = *std::max_element(defined.begin(), defined.end());
  return s;
}

// gnuplot's SVG made fit to sit with others in one page: from its <svg> on (no XML
// prolog), every id prefixed (each chart defines the same ids: gnuplot_canvas, gpPt0, ...)
// and its title the metric's.
std::string inline_svg(const std::string& svg, const std::string& prefix, const std::string& title) {
  const auto start = svg.find("<svg");
  if (start == std::string::npos) return "";
  std::string out;
  out.reserve(svg.size() + svg.size() / 8);
  bool titled = false;
  for (std::size_t i = start; i < svg.size();) {
    bool replaced = false;
    for (const char* from : {"id='", "id=\"", "href='#", "href=\"#", "url(#"}) {
      const std::size_t n = std::strlen(from);
      if (svg.compare(i, n, from) == 0 && (from[0] != 'i' || i == 0 || svg[i - 1] == ' ')) {
        out.append(from, n);
        out += prefix;
        i += n;
        replaced = true;
        break;
      }
    }
    if (replaced) continue;
    if (!titled && svg.compare(i, 7, "<title>") == 0) {
      const std::size_t close = svg.find("</title>", i);
      titled = true;
      if (close != std::string::npos) {
        out += "<title>" + html_escape(title) + "</title>";
        i = close + 8;
        continue;
      }
    }
    out += svg[i++];
  }
  return out;
}

}  // namespace

SweepReportInputError::SweepReportInputError(std::string option, const std::string& message)
    : std::invalid_argument(message), option_(std::move(option)) {}

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
  choose_metrics(options.metrics);
  choose_axis(options.x);
  build_series();
}

std::vector<std::string> SweepReport::distinct_values(const std::string& path) const {
  std::vector<std::string> values;
  for (const auto& p : data_.points) {
    const std::string text = x_of(p, path);
    if (std::find(values.begin(), values.end(), text) == values.end()) values.push_back(text);
  }
  return values;
}

std::string SweepReport::x_of(const SweepPointData& p, const std::string& path) const {
  if (path == "arm" && by_arm_) return p.arm;
  const std::string* v = param_of(p, path);
  return v ? *v : kMissing;
}

// All metrics, or those asked for, each once, in the order asked.
void SweepReport::choose_metrics(const std::vector<std::string>& names) {
  if (names.empty()) {
    for (std::size_t m = 0; m < data_.metrics.size(); ++m) metrics_.push_back(m);
    return;
  }
  for (const auto& name : names) {
    const auto it = std::find(data_.metrics.begin(), data_.metrics.end(), name);
    if (it == data_.metrics.end()) {
      std::string known;
      for (const auto& m : data_.metrics) known += (known.empty() ? "" : ", ") + m;
      throw SweepReportInputError("metrics", "the store has no metric '" + name + "'; it has: " + known);
    }
    const auto m = static_cast<std::size_t>(it - data_.metrics.begin());
    if (std::find(metrics_.begin(), metrics_.end(), m) == metrics_.end()) metrics_.push_back(m);
  }
}

// The parameter asked for, else the first swept one that takes several values, else the
// arm. Numbers are sorted (a log axis when they span a factor of 50), other values keep
// the sweep's order.
void SweepReport::choose_axis(const std::string& x) {
  if (!x.empty()) {
    if (x != "arm" && std::find(params_.begin(), params_.end(), x) == params_.end()) {
      std::string known = "arm";
      for (const auto& p : params_) known += ", " + p;
      throw SweepReportInputError("x", "'" + x + "' is not swept in this store; the axis can be: " + known);
    }
    axis_.name = x;
  } else {
    axis_.name = "arm";
    for (const auto& path : params_)
      if (distinct_values(path).size() > 1) {
        axis_.name = path;
        break;
      }
  }
  by_arm_ = axis_.name == "arm" && std::find(params_.begin(), params_.end(), "arm") == params_.end();
  axis_.values = distinct_values(axis_.name);
  if (by_arm_) return;
  std::vector<double> numbers(axis_.values.size());
  axis_.numeric = !axis_.values.empty();
  for (std::size_t i = 0; i < axis_.values.size(); ++i)
    axis_.numeric = axis_.numeric && parse_number(axis_.values[i], numbers[i]);
  if (!axis_.numeric) return;
  std::vector<std::size_t> order(axis_.values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return numbers[a] < numbers[b]; });
  std::vector<std::string> sorted;
  for (std::size_t i : order) sorted.push_back(axis_.values[i]);
  axis_.values = std::move(sorted);
  const auto [lo, hi] = std::minmax_element(numbers.begin(), numbers.end());
  axis_.log = *lo > 0 && *hi / *lo >= 50;
}

// A line per arm and setting of the other parameters. When that is more than kMaxSeries
// lines and every arm has at most one point at each x (a Latin hypercube sample, where
// every point has its own values), a line per arm; a grid keeps its lines, since pooling
// its settings would average different settings into one mean.
void SweepReport::build_series() {
  auto build = [&](bool with_params) {
    std::vector<SweepSeries> out;
    for (std::size_t i = 0; i < data_.points.size(); ++i) {
      const auto& p = data_.points[i];
      std::string label = by_arm_ ? "" : p.arm;
      if (with_params)
        for (const auto& path : params_)
          if (path != axis_.name) label += (label.empty() ? "" : ", ") + path + "=" + x_of(p, path);
      if (label.empty()) label = "all";
      auto it = std::find_if(out.begin(), out.end(), [&](const SweepSeries& s) { return s.label == label; });
      if (it == out.end()) out.push_back({label, {i}});
      else it->points.push_back(i);
    }
    return out;
  };
  series_ = build(true);
  if (series_.size() <= kMaxSeries || by_arm_) return;
  auto by_arm = build(false);
  for (const auto& line : by_arm) {
    std::set<std::string> xs;
    for (std::size_t i : line.points)
      if (!xs.insert(x_of(data_.points[i], axis_.name)).second) return;  // two settings at one x: keep every line
  }
  series_ = std::move(by_arm);
  pooled_ = true;
}

Summary SweepReport::summary(std::size_t p, std::size_t m) const {
  return summarize_defined(data_.points[p].values[m]);
}

SweepReport::Cell SweepReport::cell(const SweepSeries& series, const std::string& x, std::size_t m) const {
  std::vector<double> values;
  bool any = false;
  for (std::size_t i : series.points) {
    const auto& p = data_.points[i];
    if (x_of(p, axis_.name) != x) continue;
    any = true;
    values.insert(values.end(), p.values[m].begin(), p.values[m].end());
  }
  Cell c;
  c.s = summarize_defined(values);
  c.any = any && c.s.n > 0;
  return c;
}

bool SweepReport::drawable(const SweepSeries& series, std::size_t m) const {
  for (const auto& x : axis_.values) {
    const Cell c = cell(series, x, m);
    if (c.any && std::isfinite(c.s.mean)) return true;
  }
  return false;
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
      if (s.n == 0) out += ",,,,,\n";
      else
        out += "," + exact(s.mean) + "," + exact(s.ci_low) + "," + exact(s.ci_high) + "," + exact(s.min) + "," +
               exact(s.max) + "\n";
    }
  }
  return out;
}

bool SweepReport::has_chart(std::size_t m) const {
  return std::any_of(series_.begin(), series_.end(), [&](const SweepSeries& series) { return drawable(series, m); });
}

std::string SweepReport::chart_data(std::size_t m) const {
  std::string out;
  for (const auto& series : series_) {
    std::string block;
    for (std::size_t i = 0; i < axis_.values.size(); ++i) {
      const Cell c = cell(series, axis_.values[i], m);
      if (!c.any || !std::isfinite(c.s.mean)) continue;
      block += (axis_.numeric ? axis_.values[i] : std::to_string(i)) + " " + exact(c.s.mean) + " " + exact(c.s.ci_low) +
               " " + exact(c.s.ci_high) + "\n";
    }
    if (block.empty()) continue;
    std::string label = series.label;
    std::replace(label.begin(), label.end(), '\n', ' ');
    std::replace(label.begin(), label.end(), '\r', ' ');
    out += "# " + label + "\n" + block + "\n\n";  // gnuplot's index separator
  }
  return out;
}

std::string SweepReport::chart_script(std::size_t m) const {
  const std::string& metric = data_.metrics[m];
  std::string s = "set title " + gnuplot_quoted(metric + " (mean, 95% confidence band)") + " noenhanced\n";
  s += "set xlabel " + gnuplot_quoted(axis_.name) + " noenhanced\nset ylabel " + gnuplot_quoted(metric) +
       " noenhanced\n";
  s += "set grid\nset key below noenhanced\nset style fill transparent solid 0.18 noborder\n";
  if (axis_.numeric) s += "set autoscale xfix\n";
  if (axis_.log) s += "set logscale x\n";
  if (!axis_.numeric) {
    s += "set xrange [-0.5:" + std::to_string(axis_.values.size()) + "-0.5]\nset xtics (";
    for (std::size_t i = 0; i < axis_.values.size(); ++i)
      s += (i ? ", " : "") + gnuplot_quoted(axis_.values[i]) + " " + std::to_string(i);
    s += ") noenhanced\n";
  }
  std::string bands, lines;
  std::size_t index = 0;
  for (std::size_t k = 0; k < series_.size(); ++k) {
    if (!drawable(series_[k], m)) continue;
    const std::string colour = kColours[k % std::size(kColours)];
    const std::string dash = std::to_string(1 + k / std::size(kColours));
    const std::string source = "datafile index " + std::to_string(index++);
    bands += (bands.empty() ? "" : ", ") + source + " using 1:3:4 with filledcurves lc rgb '" + colour + "' notitle";
    lines += ", " + source + " using 1:2 with linespoints lc rgb '" + colour + "' dt " + dash +
             " lw 1.5 pt 7 ps 0.6 title " + gnuplot_quoted(series_[k].label);
  }
  return s + "plot " + bands + lines + "\n";
}

std::string SweepReport::html(const std::map<std::size_t, std::string>& svg) const {
  std::string h = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>partsim sweep report: )" +
                  html_escape(data_.name) + R"(</title>
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
  auto row = [&](const std::string& k, const std::string& v) {
    h += "<tr><th>" + html_escape(k) + "</th><td>" + v + "</td></tr>\n";
  };
  row("base scenario", "<code>" + html_escape(data_.scenario) + "</code>");
  row("store", "<code>" + html_escape(data_.source) + "</code> (shard " + html_escape(data_.shard) + ")");
  row("partsim", html_escape(data_.partsim_version));
  row("rows done", std::to_string(data_.rows_done) + " of " + std::to_string(data_.rows_total) +
                       (data_.rows_done < data_.rows_total
                            ? " <strong>(incomplete: the means are over the replications done)</strong>"
                            : ""));
  row("points", std::to_string(data_.points.size()) + ", " + std::to_string(data_.replications) + " replications each");
  std::vector<std::string> arms;
  for (const auto& p : data_.points)
    if (std::find(arms.begin(), arms.end(), p.arm) == arms.end()) arms.push_back(p.arm);
  std::string arm_list;
  for (const auto& a : arms) arm_list += (arm_list.empty() ? "" : ", ") + ("<code>" + html_escape(a) + "</code>");
  row("partitioners and variants", arm_list);
  for (const auto& path : params_) {
    const std::vector<std::string> values = distinct_values(path);
    std::string list;
    for (std::size_t i = 0; i < values.size() && i < 24; ++i) list += (i ? ", " : "") + html_escape(values[i]);
    if (values.size() > 24) list += ", … (" + std::to_string(values.size()) + " values)";
    row("swept: " + path, list);
  }
  h +=
      "</table>\n<p class=\"note\">Each chart shows a metric against <code>" + html_escape(axis_.name) +
      "</code>: the mean over the replications of each point, and its 95% Student t confidence interval as a band (a point with "
      "one replication has no band). A value a run could not measure (e.g. a latency with no record acked) is left out of "
      "the mean; the tables give the count <span class=\"n\">n</span> of the values behind each mean." +
      std::string(pooled_
                      ? " The other swept parameters take too many values to draw a line for each: the lines are the "
                        "partitioners and variants, each point of the sample at its own x."
                      : "") +
      " The same numbers are in <code>summary.csv</code>, the charts' gnuplot scripts and data in <code>charts/</code>.</p>\n";

  h += "<nav><h2>Metrics</h2><ol>\n";
  for (std::size_t m : metrics_)
    h += "<li><a href=\"#" + anchor(data_.metrics[m]) + "\">" + html_escape(data_.metrics[m]) + "</a></li>\n";
  h += "</ol></nav>\n";

  for (std::size_t m : metrics_) {
    const std::string& metric = data_.metrics[m];
    h += "<section id=\"" + anchor(metric) + "\"><h2>" + html_escape(metric) + "</h2>\n";
    const auto it = svg.find(m);
    if (it != svg.end()) {
      h += "<figure>" + inline_svg(it->second, "c" + std::to_string(m) + "-", metric) + "</figure>\n";
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
        if (c.s.n >= 2 && std::isfinite(c.s.mean))
          h += " <span class=\"ci\">[" + readable(c.s.ci_low) + ", " + readable(c.s.ci_high) + "]</span>";
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
