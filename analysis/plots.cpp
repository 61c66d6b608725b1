#include "analysis/plots.hpp"

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

#include "analysis/format.hpp"

namespace partsim::analysis {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

constexpr const char* kTerminal = "set terminal pngcairo size 1000,600 font 'sans,11'\n";

}  // namespace

Plotter::Plotter(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("--plot: cannot create directory '" + dir_ + "': " + ec.message());
}

void Plotter::draw(const std::string& name, const std::string& data, const std::string& script) {
  const std::string base = dir_ + "/." + name + "." + std::to_string(::getpid());
  const std::string data_path = base + ".dat", script_path = base + ".gp", png_tmp = base + ".png";
  const std::string target = dir_ + "/" + name + ".png";
  std::ofstream(data_path) << data;
  std::ofstream(script_path) << kTerminal << "set output " << quoted(png_tmp) << "\n"
                             << "datafile = " << quoted(data_path) << "\n" << script;
  const std::string cmd = "gnuplot " + quoted(script_path) + " 2>" + quoted(base + ".err");
  const int status = std::system(cmd.c_str());
  std::string err;
  {
    std::ifstream in(base + ".err");
    std::getline(in, err, '\0');
  }
  std::filesystem::remove(data_path);
  std::filesystem::remove(script_path);
  std::filesystem::remove(base + ".err");
  if (status != 0 || !std::filesystem::exists(png_tmp)) {
    std::filesystem::remove(png_tmp);
    throw std::runtime_error("--plot: gnuplot failed drawing " + name + " (is gnuplot installed? make installs it)" +
                             (err.empty() ? "" : ": " + err.substr(0, err.find('\n'))));
  }
  std::filesystem::rename(png_tmp, target);
  written_.push_back(target);
}

void Plotter::records_per_partition(const std::string& title, const std::vector<PartitionBar>& bars) {
  std::string data;
  bool whiskers = false;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    data += std::to_string(i) + " " + quoted(bars[i].label) + " " + fixed(bars[i].value, 6) + " " + fixed(bars[i].low, 6) + " " +
            fixed(bars[i].high, 6) + "\n";
    whiskers = whiskers || bars[i].low != bars[i].high;
  }
  std::string script = "set title " + quoted(title) + "\nset xlabel 'partition'\nset ylabel 'records'\n"
                       "set style fill solid 0.6 border -1\nset boxwidth 0.7\nset yrange [0:*]\nset grid ytics\n"
                       "set key top right\n";
  if (bars.size() > 24) script += "set xtics rotate by 90 font ',8'\n";
  script += "plot datafile using 1:3:xtic(2) with boxes lc rgb '#4477aa' title 'records (mean)'";
  if (whiskers) script += ", datafile using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0 title '95% confidence interval'";
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
  const std::string script = "set title " + quoted(title) + "\nset xlabel 'record (send order)'\nset ylabel 'partition'\n"
                             "set yrange [-0.5:" + std::to_string(top) + ".5]\nset ytics 1\nset grid\nset key top right\n"
                             "plot datafile using 1:2 with points pt 5 ps 0.8 lc rgb '#cc3311' title 'partition chosen'\n";
  draw("partition-choices", data, script);
}

void Plotter::broker_queues(const std::string& title, const model::RunResult& r) {
  const auto& ts = r.timeseries;
  std::string data;
  for (std::size_t i = 0; i < ts.time_ms.size(); ++i) {
    data += fixed(ts.time_ms[i], 3);
    for (std::size_t b = 0; b < r.brokers.size(); ++b) {
      std::int64_t q = 0;
      for (std::size_t p = 0; p < r.partitions.size(); ++p)
        if (r.partitions[p].leader == r.brokers[b].broker) q += ts.partition_queue[i][p];
      data += " " + std::to_string(q);
    }
    data += "\n";
  }
  std::string script = "set title " + quoted(title) + "\nset xlabel 'simulated time (ms)'\nset ylabel 'undrained batches'\n"
                       "set grid\nset key top right\nplot ";
  for (std::size_t b = 0; b < r.brokers.size(); ++b)
    script += std::string(b ? ", " : "") + "datafile using 1:" + std::to_string(b + 2) + " with steps lw 2 title " +
              quoted("broker " + std::to_string(r.brokers[b].broker));
  draw("broker-queues", data, script + "\n");
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
  std::string script = "set title " + quoted(title) + "\nset xlabel 'latency send() to acknowledgement (ms)'\n"
                       "set ylabel 'fraction of records'\nset yrange [0:1]\nset grid\nset key bottom right\nplot ";
  for (std::size_t c = 0; c < curves.size(); ++c)
    script += std::string(c ? ", " : "") + "datafile index " + std::to_string(c) + " using 1:2 with lines lw 2 title " + quoted(curves[c].name);
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
  const std::string script = "set title " + quoted(title) + "\nset xlabel 'records per batch'\nset ylabel 'batches" +
                             (log_scale ? " (log scale)" : "") + "'\nset style fill solid 0.6 border -1\nset boxwidth 0.8\n" +
                             (log_scale ? "set logscale y\nset yrange [0.8:*]\n" : "set yrange [0:*]\n") +
                             "set grid ytics\nset key top right\nplot datafile using 1:2 with boxes lc rgb '#228833' title 'batches'\n";
  draw("batch-sizes", data, script);
}

}  // namespace partsim::analysis
