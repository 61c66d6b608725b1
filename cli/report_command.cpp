// partsim report STORE... --out DIR: a sweep's results for people. Reads one store or the
// stores of several shards (finished or not), and writes DIR/summary.csv, DIR/charts/ (SVG
// charts with their gnuplot scripts and data) and DIR/report.html (self-contained).

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "analysis/format.hpp"
#include "analysis/plots.hpp"
#include "analysis/sweep_report.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/sweep_store.hpp"

namespace partsim::cli {
namespace {

namespace po = boost::program_options;

constexpr const char* kReportUsage =
    "partsim report STORE.sqlite... --out DIR [--x PATH] [--metrics A,B,...]\n"
    "A sweep's results for people: per point and metric the mean and 95% confidence interval\n"
    "over its replications (DIR/summary.csv), each metric against a swept parameter with a\n"
    "line per partitioner or setting (DIR/charts/*.svg, with their gnuplot scripts), and\n"
    "DIR/report.html, one self-contained page with the tables and charts. Several stores\n"
    "are the shards of one sweep, read together (finished or not).\n"
    "  partsim report kip794.sqlite --out kip794-report\n";

struct ReportSettings {
  std::vector<std::string> stores;
  std::string out, x, metrics;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    const auto first = item.find_first_not_of(" \t"), last = item.find_last_not_of(" \t");
    if (first != std::string::npos) out.push_back(item.substr(first, last - first + 1));
  }
  return out;
}

// The stores' rows as the report's plain data: points in store order, the metrics in the
// order the rows hold them.
analysis::SweepData read_stores(std::vector<SweepStore>& stores, Progress& progress) {
  analysis::SweepData d;
  const StoreMeta meta = stores.front().meta();
  d.name = meta.sweep_name;
  d.scenario = meta.scenario;
  d.partsim_version = meta.partsim_version;
  d.replications = meta.replications;
  std::set<std::string> shards;
  for (auto& st : stores) {
    d.source += (d.source.empty() ? "" : ", ") + st.path();
    shards.insert(st.meta().shard);
  }
  for (const auto& sh : shards) d.shard += (d.shard.empty() ? "" : "+") + sh;

  const auto points = stores.front().points();
  std::map<std::int64_t, std::size_t> index;
  for (const auto& p : points) {
    analysis::SweepPointData pd;
    pd.point = p.point;
    pd.arm = p.partitioner;
    try {
      const auto params = nlohmann::ordered_json::parse(p.params);
      for (const auto& [path, value] : params.items())
        pd.params.emplace_back(path, value.is_string() ? value.get<std::string>() : value.dump());
    } catch (const nlohmann::json::exception& e) {
      throw UsageError("store " + stores.front().path() + ": point " + std::to_string(p.point) +
                       " has unreadable params (" + e.what() + ")");
    }
    index[p.point] = d.points.size();
    d.points.push_back(std::move(pd));
  }
  d.rows_total = points.size() * meta.replications;

  // Rows in (point, replication) order whatever store holds them, so that the sums run
  // in one order and shards read together give the one-process numbers to the last bit.
  std::map<RowId, std::size_t> owner;
  for (std::size_t i = 0; i < stores.size(); ++i)
    for (const auto& row : stores[i].done()) owner.emplace(row, i);  // a shard given twice: its rows once
  std::map<std::string, std::size_t> metric_index;
  std::size_t read = 0;
  for (const auto& [row, i] : owner) {
    progress.update(read++, owner.size());
    const auto it = index.find(row.first);
    if (it == index.end())
      throw UsageError("store " + stores[i].path() + ": a done row of point " + std::to_string(row.first) +
                       ", which it does not list");
    auto& pd = d.points[it->second];
    for (const auto& m : stores[i].results(row)) {
      auto [mi, fresh] = metric_index.emplace(m.name, d.metrics.size());
      if (fresh) {
        d.metrics.push_back(m.name);
        for (auto& other : d.points) other.values.emplace_back();
      }
      pd.values[mi->second].push_back(m.value);
    }
  }
  d.rows_done = owner.size();
  progress.update(read, owner.size());
  return d;
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A chart's file name: the metric's name with anything but [A-Za-z0-9._-] as '_', not
// starting with a dot, and made unique among `taken` (metric names are unique, their
// file names might not be).
std::string chart_name(const std::string& metric, std::set<std::string>& taken) {
  std::string base;
  for (char c : metric)
    base += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-') ? c : '_';
  if (base.empty() || base[0] == '.') base = "_" + base;
  std::string name = base;
  for (int k = 2; !taken.insert(name).second; ++k) name = base + "-" + std::to_string(k);
  return name;
}

// Removes a scratch folder and what it holds when it goes out of scope.
class ScratchFolder {
public:
  explicit ScratchFolder(std::filesystem::path path) : path_(std::move(path)) {}
  ~ScratchFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

private:
  std::filesystem::path path_;
};

void move_into_place(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::rename(from, to, ec);
  if (ec) throw std::runtime_error("--out: cannot write '" + to.string() + "': " + ec.message());
}

}  // namespace

int run_report_command(const Args& args) {
  ReportSettings s;
  po::options_description desc("report options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("out", po::value<std::string>(&s.out), "the folder to write (required; created if missing; its report files are replaced whole)")
      ("x", po::value<std::string>(&s.x), "the swept parameter on the charts' x axis (default: the first swept one that varies; 'arm' for the partitioners)")
      ("metrics", po::value<std::string>(&s.metrics), "the metrics reported, comma-separated machine names (default: all)")
      ("stores", po::value<std::vector<std::string>>(&s.stores), "the stores (positional)");
  // clang-format on
  if (help_requested(args, kReportUsage, desc)) return kExitOk;
  po::positional_options_description pos;
  pos.add("stores", -1);
  parse_command_line(args, desc, &pos);
  if (s.stores.empty()) throw UsageError("give the sweep's store: partsim report STORE.sqlite --out DIR");
  if (s.out.empty()) throw UsageError("--out: required: the folder to write the report into");
  if (std::filesystem::exists(s.out) && !std::filesystem::is_directory(s.out))
    throw UsageError("--out: '" + s.out + "' exists and is not a folder");

  auto stores = open_same_sweep(s.stores, "not reported together");
  // A large store takes minutes: progress on stderr, also in a log (a line every few seconds).
  Progress progress("partsim report: rows read", true);
  analysis::SweepData data = read_stores(stores, progress);
  if (data.rows_done == 0)
    throw UsageError("store " + data.source + ": no row is done yet: nothing to report (run partsim sweep first)");
  analysis::SweepReportOptions options;
  options.x = s.x;
  options.metrics = split_list(s.metrics);
  if (!s.metrics.empty() && options.metrics.empty()) throw UsageError("--metrics: give metric names, comma-separated");
  std::unique_ptr<analysis::SweepReport> report;
  try {
    report = std::make_unique<analysis::SweepReport>(std::move(data), options);
  } catch (const analysis::SweepReportInputError& e) {
    throw UsageError("--" + e.option() + ": " + e.what());
  }

  const std::filesystem::path dir(s.out), charts = dir / "charts";
  std::error_code ec;
  std::filesystem::create_directories(charts, ec);
  if (ec) throw UsageError("--out: cannot create '" + charts.string() + "': " + ec.message());

  // Everything is made in a scratch folder first, then moved in: a failure (gnuplot, a
  // full disk) leaves the folder as it was.
  const std::filesystem::path scratch = dir / (".partsim-report.tmp." + std::to_string(::getpid()));
  ScratchFolder guard(scratch);
  std::filesystem::create_directories(scratch / "charts", ec);
  if (ec) throw UsageError("--out: cannot write in '" + dir.string() + "': " + ec.message());
  write_file_atomically((scratch / "summary.csv").string(), report->summary_csv());
  std::map<std::size_t, std::string> svg;
  std::vector<std::string> written;
  std::set<std::string> names;
  progress.rename("partsim report: charts drawn");
  std::size_t charts_total = 0;
  for (std::size_t m : report->metrics()) charts_total += report->has_chart(m) ? 1 : 0;
  for (std::size_t m : report->metrics()) {
    if (!report->has_chart(m)) continue;
    const std::string name = chart_name(report->data().metrics[m], names);
    const analysis::GnuplotChart chart{analysis::kSweepChartTerminal, "svg", report->chart_data(m),
                                       report->chart_script(m)};
    const std::string path = analysis::draw_gnuplot(chart, (scratch / "charts").string(), name);
    // The script and data beside the chart, to redraw it: cd charts && gnuplot NAME.gp
    write_file_atomically((scratch / "charts" / (name + ".dat")).string(), chart.data);
    write_file_atomically((scratch / "charts" / (name + ".gp")).string(),
                          chart.terminal + "set output " + analysis::gnuplot_quoted(name + ".svg") +
                              "\ndatafile = " + analysis::gnuplot_quoted(name + ".dat") + "\n" + chart.script);
    svg[m] = read_whole(path);
    for (const char* ext : {".svg", ".gp", ".dat"}) written.push_back(name + ext);
    progress.update(svg.size(), charts_total);
  }
  write_file_atomically((scratch / "report.html").string(), report->html(svg));

  // In place: the charts, then the earlier report's charts that this one did not draw
  // removed (only those its manifest lists: charts/ may hold the user's own files), the
  // manifest, summary.csv, and report.html last.
  const std::filesystem::path manifest = charts / ".partsim-report";
  std::set<std::string> earlier;
  {
    std::ifstream in(manifest);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line.find('/') == std::string::npos) earlier.insert(line);
  }
  std::string listing;
  for (const auto& f : written) {
    move_into_place(scratch / "charts" / f, charts / f);
    earlier.erase(f);
    listing += f + "\n";
  }
  for (const auto& f : earlier) std::filesystem::remove(charts / f, ec);
  write_file_atomically(manifest.string(), listing);
  move_into_place(scratch / "summary.csv", dir / "summary.csv");
  move_into_place(scratch / "report.html", dir / "report.html");
  std::fprintf(stderr, "partsim report: sweep '%s', %zu/%zu rows done, %s, %s -> %s\n", report->data().name.c_str(),
               report->data().rows_done, report->data().rows_total,
               analysis::count_of(static_cast<std::int64_t>(report->metrics().size()), "metric").c_str(),
               analysis::count_of(static_cast<std::int64_t>(svg.size()), "chart").c_str(),
               (dir / "report.html").c_str());
  return kExitOk;
}

}  // namespace partsim::cli
