// Plotter::reassignment_by_run: what a reassignment looks like over time, run beside run
// (run --plot draws one run, compare --plot every arm's first replication).

#include "analysis/format.hpp"
#include "analysis/plots.hpp"

namespace partsim::analysis {

void Plotter::reassignment_by_run(const std::string& title,
                                  const std::vector<std::pair<std::string, const model::ReassignmentResult*>>& runs) {
  // One data block per run: time s, MB left, reassigning, under-replicated, p99 ms.
  std::string data, left, counts, latency, steps;
  std::size_t block = 0;
  for (const auto& [name, r] : runs) {
    if (!r || !r->enabled() || r->samples.empty()) continue;
    for (const auto& s : r->samples)
      data += fixed(s.time_ms / 1000, 3) + " " + fixed(static_cast<double>(s.bytes_left) / 1e6, 3) + " " +
              std::to_string(s.reassigning) + " " + std::to_string(s.under_replicated) + " " + fixed(s.p99_ms, 3) +
              "\n";
    data += "\n\n";  // gnuplot index separator
    const std::string index = "datafile index " + std::to_string(block);
    const std::string sep = block ? ", " : "";
    const std::string lc = " lc " + std::to_string(block + 1);
    left += sep + index + " using 1:2 with lines lw 2" + lc + " title " + gnuplot_quoted(name);
    counts += sep + index + " using 1:3 with steps lw 2" + lc + " title " + gnuplot_quoted(name + ": reassigning") +
              ", " + index + " using 1:4 with steps lw 2 dt 2" + lc + " title " + gnuplot_quoted(name + ": URP");
    latency += sep + index + " using 1:5 with lines lw 2" + lc + " title " + gnuplot_quoted(name);
    if (block == 0)
      for (const auto& st : r->steps)
        steps += "set arrow from " + fixed(st.at_ms / 1000, 3) + ", graph 0 to " + fixed(st.at_ms / 1000, 3) +
                 ", graph 1 nohead dt 2 lc rgb '#888888'\n";
    ++block;
  }
  if (block == 0) return;
  const std::string script =
      "set multiplot layout 3,1 title " + gnuplot_quoted(title) +
      "\nset lmargin 12\nset rmargin 4\nset grid\nset key top right opaque\nset format x ''\n" + steps +
      "set ylabel 'MB left to copy'\nset yrange [0:*]\nplot " + left +
      "\nset ylabel 'partitions'\nset yrange [0:*]\nplot " + counts +
      "\nset format x '%g'\nset xlabel 'simulated time (s)'\nset ylabel 'producer p99 (ms)'\nset yrange [0:*]\nplot " +
      latency + "\nunset multiplot\n";
  draw("reassignment", data, script, "set terminal pngcairo size 1000,900 font 'sans,11'\n");
}

}  // namespace partsim::analysis
