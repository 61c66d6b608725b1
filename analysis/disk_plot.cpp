// Plotter::disks_by_run: the brokers' disks over time, run beside run (run --plot draws one
// run, compare --plot every arm's first replication; docs/disks.md).

#include <algorithm>

#include "analysis/format.hpp"
#include "analysis/plots.hpp"

namespace partsim::analysis {

void Plotter::disks_by_run(const std::string& title,
                           const std::vector<std::pair<std::string, const model::DiskResult*>>& runs, double until_ms) {
  // One data block per run: time s, then GB in use per broker.
  std::string data, plots, sizes;
  std::vector<std::int64_t> drawn;  // the disk sizes with a line already
  std::size_t block = 0;
  for (const auto& [name, d] : runs) {
    if (!d || !d->enabled() || d->samples.empty()) continue;
    for (const auto& s : d->samples) {
      data += fixed(s.time_ms / 1000, 3);
      for (const auto u : s.used) data += " " + fixed(static_cast<double>(u) / 1e9, 6);
      data += "\n";
    }
    data += "\n\n";  // gnuplot index separator
    for (std::size_t b = 0; b < d->brokers.size(); ++b) {
      plots += std::string(plots.empty() ? "" : ", ") + "datafile index " + std::to_string(block) +
               " using 1:" + std::to_string(b + 2) + " with lines lw 2 lc " + std::to_string(block + 1) + " dt " +
               std::to_string(b % 5 + 1) + " title " +
               gnuplot_quoted(name + ": broker " + std::to_string(d->brokers[b].broker));
      const std::int64_t size = d->brokers[b].capacity;
      if (size <= 0 || std::find(drawn.begin(), drawn.end(), size) != drawn.end()) continue;
      drawn.push_back(size);
      const std::string gb = fixed(static_cast<double>(size) / 1e9, 6);
      sizes +=
          "set arrow from graph 0, first " + gb + " to graph 1, first " + gb + " nohead dt 3 lw 2 lc rgb '#888888'\n";
    }
    ++block;
  }
  if (block == 0) return;
  const std::string script = "set title " + gnuplot_quoted(title + " (grey: disk.bytes)") +
                             "\nset grid\nset key outside right top\nset xlabel 'simulated time (s)'\n"
                             "set ylabel 'disk in use (GB)'\nset yrange [0:*]\n" +
                             (until_ms > 0 ? "set xrange [0:" + fixed(until_ms / 1000, 3) + "]\n" : std::string()) +
                             sizes + "plot " + plots + "\n";
  draw("disks", data, script, "set terminal pngcairo size 1100,600 font 'sans,11'\n");
}

}  // namespace partsim::analysis
