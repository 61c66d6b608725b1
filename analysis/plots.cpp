#include "analysis/plots.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/format.hpp"
#include "analysis/traffic_report.hpp"

namespace partsim::analysis {
namespace {

// A gnuplot string in single quotes: gnuplot expands backquotes (a shell command) and
// backslash escapes inside double quotes, never inside single ones, where '' is a quote.
// Line breaks become spaces (a string is one line of the script).
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "'";
}

// A string cell of a data file: in double quotes, which hold anything but a double quote
// and a line break (gnuplot reads data files without expanding backquotes).
std::string data_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? '\'' : (c == '\n' || c == '\r') ? ' ' : c;
  return out + "\"";
}

// Runs gnuplot on `script` in `dir` without a shell (no name is ever parsed by sh), its
// stderr into `err`; the exit status, or -1 when it could not be started.
int run_gnuplot(const std::string& dir, const std::string& script, const std::string& err) {
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) ::dup2(fd, STDERR_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    ::execlp("gnuplot", "gnuplot", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void write_or_throw(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

constexpr const char* kTerminal = "set terminal pngcairo size 1000,600 font 'sans,11'\n";

}  // namespace

Plotter::Plotter(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("--plot: cannot create directory '" + dir_ + "': " + ec.message());
}

std::string gnuplot_quoted(const std::string& s) { return quoted(s); }

std::string draw_gnuplot(const GnuplotChart& chart, const std::string& dir, const std::string& name) {
  // The scratch files' names are ours (no user text): gnuplot runs in `dir` on them.
  static std::atomic<unsigned> serial{0};
  const std::string stem = ".chart." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  const std::string data_name = stem + ".dat", script_name = stem + ".gp", out_name = stem + "." + chart.extension;
  const std::string base = dir + "/" + stem, err_path = base + ".err", out_tmp = dir + "/" + out_name;
  const std::string target = dir + "/" + name + "." + chart.extension;
  auto clean = [&] {
    std::error_code ec;
    for (const auto& p : {base + ".dat", base + ".gp", err_path}) std::filesystem::remove(p, ec);
  };
  try {
    write_or_throw(base + ".dat", chart.data);
    write_or_throw(base + ".gp", chart.terminal + "set output " + quoted(out_name) +
                                     "\ndatafile = " + quoted(data_name) + "\n" + chart.script);
  } catch (...) {
    clean();
    throw;
  }
  const int status = run_gnuplot(dir, script_name, err_path);
  std::string err;
  {
    std::ifstream in(err_path);
    std::getline(in, err, '\0');
  }
  clean();
  std::error_code ec;
  if (status != 0 || !std::filesystem::exists(out_tmp)) {
    std::filesystem::remove(out_tmp, ec);
    throw std::runtime_error("gnuplot failed drawing " + name +
                             (status == 127 ? " (gnuplot is not installed: make installs it)" : "") +
                             (err.empty() ? "" : ": " + err.substr(0, err.find('\n'))));
  }
  std::filesystem::rename(out_tmp, target, ec);
  if (ec) {
    std::filesystem::remove(out_tmp, ec);
    throw std::runtime_error("cannot write '" + target + "': " + ec.message());
  }
  return target;
}

void Plotter::draw(const std::string& name, const std::string& data, const std::string& script,
                   const std::string& terminal) {
  try {
    written_.push_back(draw_gnuplot({terminal.empty() ? kTerminal : terminal, "png", data, script}, dir_, name));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("--plot: ") + e.what());
  }
}

void Plotter::records_per_partition(const std::string& title, const std::vector<PartitionBar>& bars) {
  std::string data;
  bool whiskers = false;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    data += std::to_string(i) + " " + data_quoted(bars[i].label) + " " + fixed(bars[i].value, 6) + " " +
            fixed(bars[i].low, 6) + " " + fixed(bars[i].high, 6) + "\n";
    whiskers = whiskers || bars[i].low != bars[i].high;
  }
  std::string script = "set title " + quoted(title) +
                       "\nset xlabel 'partition'\nset ylabel 'records'\n"
                       "set style fill solid 0.6 border -1\nset boxwidth 0.7\nset yrange [0:*]\nset grid ytics\n"
                       "set key top right\n";
  if (bars.size() > 24) script += "set xtics rotate by 90 font ',8'\n";
  script += "plot datafile using 1:3:xtic(2) with boxes lc rgb '#4477aa' title 'records (mean)'";
  if (whiskers)
    script += ", datafile using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0 title '95% confidence interval'";
  script += "\n";
  draw("records-per-partition", data, script);
}

void Plotter::partition_strip(const std::string& title, const std::vector<std::int32_t>& trace) {
  std::string data;
  std::int32_t top = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    data += std::to_string(i) + " " + std::to_string(trace[i]) + "\n";
    top = std::max(top, trace[i]);
  }
  const std::string script =
      "set title " + quoted(title) +
      "\nset xlabel 'record (send order)'\nset ylabel 'partition'\n"
      "set yrange [-0.5:" +
      std::to_string(top) +
      ".5]\nset ytics 1\nset grid\nset key top right\n"
      "plot datafile using 1:2 with points pt 5 ps 0.8 lc rgb '#cc3311' title 'partition chosen'\n";
  draw("partition-choices", data, script);
}

void Plotter::broker_queues(const std::string& title, const model::RunResult& r) {
  // Queues often hold 0 or 1 batch, flipping every few samples: drawn raw, every broker's
  // line is a barcode over the others'. Instead each broker gets its own panel on one
  // time axis and one scale, the samples are grouped into at most kBins intervals, and
  // each interval shows the mean (the share of time with a batch waiting, when queues are
  // 0 or 1) as a line over the max as a light area. Integer ticks, with headroom above
  // the highest max.
  constexpr std::size_t kBins = 200;
  constexpr std::size_t kMaxPanels = 8;
  const auto& ts = r.timeseries;
  const std::size_t samples = ts.time_ms.size(), brokers = r.brokers.size();
  if (samples == 0 || brokers == 0) return;
  std::vector<std::vector<std::int64_t>> queue(brokers, std::vector<std::int64_t>(samples, 0));  // [broker][sample]
  for (std::size_t p = 0; p < r.partitions.size(); ++p)
    for (std::size_t b = 0; b < brokers; ++b)
      if (r.partitions[p].leader == r.brokers[b].broker)
        for (std::size_t i = 0; i < samples; ++i) queue[b][i] += ts.partition_queue[i][p];
  const std::size_t bins = std::min(samples, kBins);
  std::vector<std::vector<double>> mean(brokers, std::vector<double>(bins, 0.0));
  std::vector<std::vector<std::int64_t>> peak(brokers, std::vector<std::int64_t>(bins, 0));
  std::vector<double> start(bins);
  for (std::size_t k = 0; k < bins; ++k) {
    const std::size_t lo = k * samples / bins, hi = (k + 1) * samples / bins;
    start[k] = ts.time_ms[lo];
    for (std::size_t b = 0; b < brokers; ++b) {
      std::int64_t sum = 0;
      for (std::size_t i = lo; i < hi; ++i) {
        sum += queue[b][i];
        peak[b][k] = std::max(peak[b][k], queue[b][i]);
      }
      mean[b][k] = static_cast<double>(sum) / static_cast<double>(hi - lo);
    }
  }
  // The brokers with the longest queues on average, in broker order, when there are many.
  std::vector<std::size_t> shown(brokers);
  for (std::size_t b = 0; b < brokers; ++b) shown[b] = b;
  if (brokers > kMaxPanels) {
    auto total = [&](std::size_t b) {
      double t = 0;
      for (double m : mean[b]) t += m;
      return t;
    };
    std::stable_sort(shown.begin(), shown.end(), [&](std::size_t a, std::size_t b) { return total(a) > total(b); });
    shown.resize(kMaxPanels);
    std::sort(shown.begin(), shown.end());
  }
  std::int64_t top = 1;
  for (std::size_t b : shown)
    for (auto m : peak[b]) top = std::max(top, m);
  const double end_ms = ts.time_ms.back() + ts.interval_ms;
  std::string data;
  for (std::size_t k = 0; k <= bins; ++k) {  // a last row at the end time closes the steps
    const std::size_t row = std::min(k, bins - 1);
    data += fixed(k < bins ? start[k] : end_ms, 3);
    for (std::size_t b : shown) data += " " + fixed(mean[b][row], 4) + " " + std::to_string(peak[b][row]);
    data += "\n";
  }
  const double interval = (end_ms - ts.time_ms.front()) / static_cast<double>(bins);
  std::string script = "set terminal pngcairo size 1000," +
                       std::to_string(std::max<std::size_t>(600, 110 + 150 * shown.size())) + " font 'sans,11'\n";
  script += "set multiplot layout " + std::to_string(shown.size()) + ",1 title " +
            quoted(title + " (mean and max per " + fixed(interval, interval < 10 ? 2 : 0) + " ms" +
                   (brokers > shown.size() ? "; the " + std::to_string(shown.size()) + " of " +
                                                 std::to_string(brokers) + " brokers with the longest queues"
                                           : "") +
                   ")") +
            "\n";
  script += "set lmargin 12\nset rmargin 4\nset tmargin 1\nset bmargin 1\nset grid ytics xtics\n"
            "set xrange [" +
            fixed(ts.time_ms.front(), 3) + ":" + fixed(end_ms, 3) +
            "]\n"
            "set yrange [0:" +
            fixed(static_cast<double>(top) * 1.15 + 0.15, 2) + "]\n" +
            (top <= 10 ? "set ytics 0,1\n" : "set ytics autofreq\n") +
            "set format y '%.0f'\nset format x ''\nunset mytics\n";
  for (std::size_t n = 0; n < shown.size(); ++n) {
    const std::size_t b = shown[n];
    const std::string mean_col = std::to_string(2 + 2 * n), max_col = std::to_string(3 + 2 * n);
    if (n + 1 == shown.size()) script += "set bmargin 3\nset format x '%g'\nset xlabel 'simulated time (ms)'\n";
    script += "set ylabel " + quoted("broker " + std::to_string(r.brokers[b].broker)) + "\n";
    script += n == 0 ? "set key top right horizontal opaque\n" : "unset key\n";
    script += "plot datafile using 1:" + max_col +
              " with fillsteps fs solid 1.0 noborder lc rgb '#c6dbef' title 'max in interval', "
              "datafile using 1:" +
              mean_col + " with steps lw 2 lc rgb '#08519c' title 'mean in interval'\n";
  }
  script += "unset multiplot\n";
  draw("broker-queues", data, script);
}

void Plotter::latency_cdf(const std::string& title, const std::vector<LatencyCurve>& curves) {
  std::string data;
  for (std::size_t c = 0; c < curves.size(); ++c) {
    for (int i = 0; i <= 1000; ++i) {
      const double q = i / 1000.0;
      data += fixed(static_cast<double>(curves[c].histogram->quantile(q)) / 1e6, 6) + " " + fixed(q, 4) + "\n";
    }
    data += "\n\n";  // gnuplot index separator
  }
  std::string script = "set title " + quoted(title) +
                       "\nset xlabel 'latency send() to acknowledgement (ms)'\n"
                       "set ylabel 'fraction of records'\nset yrange [0:1]\nset grid\nset key bottom right\nplot ";
  for (std::size_t c = 0; c < curves.size(); ++c)
    script += std::string(c ? ", " : "") + "datafile index " + std::to_string(c) + " using 1:2 with lines lw 2 title " +
              quoted(curves[c].name);
  draw("latency-cdf", data, script + "\n");
}

void Plotter::batch_size_histogram(const std::string& title, const std::vector<std::int64_t>& records_per_batch) {
  std::string data;
  for (std::size_t k = 1; k < records_per_batch.size(); ++k)
    if (records_per_batch[k] > 0) data += std::to_string(k) + " " + std::to_string(records_per_batch[k]) + "\n";
  if (data.empty()) data = "0 0\n";
  std::int64_t lo = 0, hi = 0;
  for (auto c : records_per_batch)
    if (c > 0) {
      lo = lo == 0 ? c : std::min(lo, c);
      hi = std::max(hi, c);
    }
  // Counts that span orders of magnitude go on a log scale, so rare sizes stay visible.
  const bool log_scale = lo > 0 && hi / lo >= 100;
  const std::string script =
      "set title " + quoted(title) + "\nset xlabel 'records per batch'\nset ylabel 'batches" +
      (log_scale ? " (log scale)" : "") + "'\nset style fill solid 0.6 border -1\nset boxwidth 0.8\n" +
      (log_scale ? "set logscale y\nset yrange [0.8:*]\n" : "set yrange [0:*]\n") +
      "set grid ytics\nset key top right\nplot datafile using 1:2 with boxes lc rgb '#228833' title 'batches'\n";
  draw("batch-sizes", data, script);
}

namespace {

// "produce_request" as "produce request" (gnuplot would set "_r" as a subscript).
std::string spaced(std::string s) {
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

double gb_per_hour(std::int64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds * 3600 / 1e9 : 0;
}

// A histogram of rows (a label, then a GB/h column per kind) stacked by kind.
std::string stacked_kinds_script(const std::string& title, const std::string& xlabel,
                                 const std::vector<model::TrafficKind>& kinds) {
  std::string plots;
  for (std::size_t k = 0; k < kinds.size(); ++k)
    plots += std::string(k ? ", '' " : "datafile ") + "using " + std::to_string(k + 2) + (k ? "" : ":xtic(1)") +
             " title " + quoted(spaced(kinds[k].name)) + " lc " + std::to_string(k + 1);
  return "set title " + quoted(title) + "\nset xlabel " + quoted(xlabel) +
         "\nset ylabel 'GB per hour crossing racks'\n"
         "set style data histograms\nset style histogram rowstacked\n"
         "set style fill solid 0.8 border -1\nset boxwidth 0.6\nset yrange [0:*]\n"
         "set grid ytics\nset key outside right top\nplot " +
         plots + "\n";
}

}  // namespace

void Plotter::cross_rack_traffic(const std::string& title, const model::TrafficResult& t) {
  const std::size_t n = t.racks.size();
  std::string data;
  for (std::size_t from = 0; from < n; ++from) {
    if (t.racks[from].empty()) continue;  // an endpoint without a rack never crosses
    data += data_quoted(t.racks[from]);
    for (const auto& k : t.kinds) {
      std::int64_t crossing = 0;
      for (std::size_t to = 0; to < n; ++to)
        if (to != from && !t.racks[to].empty()) crossing += k.matrix[from * n + to];
      data += " " + fixed(gb_per_hour(crossing, t.seconds), 6);
    }
    data += "\n";
  }
  if (data.empty()) return;
  draw("cross-rack-traffic", data, stacked_kinds_script(title, "sending rack", t.kinds));
}

void Plotter::cross_rack_traffic_by_run(const std::string& title,
                                        const std::vector<std::pair<std::string, const model::TrafficResult*>>& runs) {
  std::string data;
  const std::vector<model::TrafficKind>* kinds = nullptr;
  for (const auto& [name, t] : runs) {
    if (!analysis::shows_traffic(*t)) continue;
    kinds = &t->kinds;
    data += data_quoted(name);
    for (const auto& k : t->kinds) data += " " + fixed(gb_per_hour(k.cross_rack_bytes, t->seconds), 6);
    data += "\n";
  }
  if (!kinds) return;
  draw("cross-rack-traffic", data, stacked_kinds_script(title, "run", *kinds));
}

void Plotter::consumer_lag(const std::string& title, const model::RunResult& r) {
  // One data block per group: time, total lag, mean and largest latency in the interval.
  std::string data, lag_plots, latency_plots;
  std::size_t block = 0;
  for (const auto& g : r.consumer_groups) {
    if (g.lag_time_ms.empty()) continue;
    for (std::size_t i = 0; i < g.lag_time_ms.size(); ++i) {
      std::int64_t total = 0;
      for (const auto lag : g.lag[i]) total += lag;
      // An interval without a record processed has no latency: a gap.
      const auto ms = [](const std::vector<double>& v, std::size_t k) {
        return k < v.size() && !std::isnan(v[k]) ? fixed(v[k], 3) : std::string("NaN");
      };
      data += fixed(g.lag_time_ms[i], 3) + " " + std::to_string(total) + " " + ms(g.latency_mean_ms, i) + " " +
              ms(g.latency_max_ms, i) + "\n";
    }
    data += "\n\n";  // gnuplot index separator
    const std::string index = "datafile index " + std::to_string(block);
    const std::string sep = block ? ", " : "";
    lag_plots += sep + index + " using 1:2 with steps lw 2 lc " + std::to_string(block + 1) + " title " +
                 quoted("group " + g.group);
    latency_plots += sep + index + " using 1:4 with steps lw 1 dt 2 lc " + std::to_string(block + 1) + " title " +
                     quoted("group " + g.group + ", max") + ", " + index + " using 1:3 with steps lw 2 lc " +
                     std::to_string(block + 1) + " title " + quoted("group " + g.group + ", mean");
    ++block;
  }
  if (block == 0) return;
  // What changed in the cluster: a dashed line at each change but the start, its cause
  // written along it in the upper panel.
  std::vector<std::pair<double, std::string>> changes;
  for (const auto& h : r.leader_history)
    if (h.cause != "start") changes.emplace_back(h.time_ms, h.cause);
  for (const auto& h : r.replication.history)
    if (h.cause.ends_with(" fenced") || h.cause.starts_with("topic ")) changes.emplace_back(h.time_ms, h.cause);
  std::sort(changes.begin(), changes.end());
  changes.erase(std::unique(changes.begin(), changes.end()), changes.end());
  std::string lines, labels;
  for (const auto& [at, cause] : changes) {
    lines +=
        "set arrow from " + fixed(at, 3) + ", graph 0 to " + fixed(at, 3) + ", graph 1 nohead dt 2 lc rgb '#888888'\n";
    labels += "set label " + quoted(cause) + " at " + fixed(at, 3) +
              ", graph 0.03 rotate by 90 left offset -0.6,0 font ',9' tc rgb '#555555'\n";
  }
  const std::string script = std::string("set multiplot layout 2,1 title ") + quoted(title) +
                             "\nset lmargin 12\nset rmargin 4\nset grid\nset key top right opaque\nset xrange [*:*]\n"
                             "set ylabel 'lag (records readable, not processed)'\nset yrange [0:*]\nset format x ''\n" +
                             lines + labels + "plot " + lag_plots + "\nunset label\n" +
                             "set format x '%g'\nset xlabel 'simulated time (ms)'\n"
                             "set ylabel 'send() to processed (ms)'\nset yrange [0:*]\n" +
                             "plot " + latency_plots + "\nunset multiplot\n";
  draw("consumer-lag", data, script, "set terminal pngcairo size 1000,800 font 'sans,11'\n");
}

}  // namespace partsim::analysis
