#include "analysis/traffic_report.hpp"

#include <algorithm>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

namespace {

std::string rack_name(const std::string& rack) { return rack.empty() ? "-" : rack; }

double per_s(std::int64_t bytes, double seconds) { return seconds > 0 ? static_cast<double>(bytes) / seconds : 0; }

}  // namespace

bool shows_traffic(const model::TrafficResult& t) { return t.racked || t.cost_per_gb > 0; }

nlohmann::ordered_json traffic_to_json(const model::TrafficResult& t) {
  nlohmann::ordered_json j;
  auto& racks = j["racks"] = nlohmann::ordered_json::array();
  for (const auto& r : t.racks)
    racks.push_back(r.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r));
  j["seconds"] = round_to(t.seconds, 6);
  j["replication_simulated"] = t.replication_simulated;
  auto& kinds = j["by_kind"] = nlohmann::ordered_json::object();
  const std::size_t n = t.racks.size();
  for (const auto& k : t.kinds) {
    auto& o = kinds[k.name];
    o["bytes"] = k.bytes;
    o["framing_bytes"] = k.framing_bytes;
    o["messages"] = k.messages;
    o["cross_rack_bytes"] = k.cross_rack_bytes;
    o["cross_rack_bytes_per_s"] = round_to(per_s(k.cross_rack_bytes, t.seconds), 3);
    auto& matrix = o["matrix"] = nlohmann::ordered_json::array();  // [from][to]
    for (std::size_t from = 0; from < n; ++from)
      matrix.push_back(std::vector<std::int64_t>(k.matrix.begin() + static_cast<std::ptrdiff_t>(from * n),
                                                 k.matrix.begin() + static_cast<std::ptrdiff_t>((from + 1) * n)));
  }
  j["bytes"] = t.bytes();
  j["cross_rack_bytes"] = t.cross_rack_bytes();
  j["cross_rack_bytes_per_s"] = round_to(t.cross_rack_bytes_per_s(), 3);
  if (t.cost_per_gb > 0)
    j["cost"] = {{"per_gb", t.cost_per_gb},
                 {"per_hour", round_to(t.cost_per_hour(), 4)},
                 {"per_month", round_to(t.cost_per_month(), 2)}};
  return j;
}

std::string traffic_to_text(const model::TrafficResult& t) {
  Table kinds({{"kind", Align::kLeft}, {"bytes"}, {"cross-rack"}, {"share"}, {"cross-rack GB/h"}});
  const auto row = [&](const std::string& name, std::int64_t bytes, std::int64_t cross) {
    kinds.add_row({name, std::to_string(bytes), std::to_string(cross),
                   bytes > 0 ? fixed(static_cast<double>(cross) / static_cast<double>(bytes), 4) : "-",
                   fixed(per_s(cross, t.seconds) * 3600 / 1e9, 3)});
  };
  for (const auto& k : t.kinds) {
    if (k.name == "replication_fetch" && !t.replication_simulated) {
      kinds.add_row({k.name, "-", "-", "-", "-"});  // the followers are not simulated
      continue;
    }
    if (k.name == "migration_copy" && k.messages == 0) continue;
    row(k.name, k.bytes, k.cross_rack_bytes);
  }
  row("total", t.bytes(), t.cross_rack_bytes());
  std::string racks;
  for (const auto& r : t.racks) racks += (racks.empty() ? "" : ", ") + rack_name(r);
  std::string out = "\ntraffic on the wire over " + fixed(t.seconds, 3) + " s simulated (racks " + racks +
                    "; - is an endpoint without a rack, never counted as crossing):\n" + kinds.to_text();
  if (!t.replication_simulated)
    out += "(replication_fetch: cluster.replication is fixed, so the followers' copies are not simulated)\n";
  if (t.cost_per_gb > 0)
    out += "cross-rack cost at " + fixed(t.cost_per_gb, 4) + " per GB: " + fixed(t.cost_per_hour(), 4) + " per hour, " +
           fixed(t.cost_per_month(), 2) + " per 30-day month\n";
  const std::size_t n = t.racks.size();
  if (n > 1) {
    std::vector<Column> columns{{"from \\ to", Align::kLeft}};
    for (const auto& r : t.racks) columns.push_back({rack_name(r)});
    Table matrix(std::move(columns));
    for (std::size_t from = 0; from < n; ++from) {
      std::vector<std::string> cells{rack_name(t.racks[from])};
      for (std::size_t to = 0; to < n; ++to) {
        std::int64_t bytes = 0;
        for (const auto& k : t.kinds) bytes += k.matrix[from * n + to];
        cells.push_back(std::to_string(bytes));
      }
      matrix.add_row(std::move(cells));
    }
    out += "bytes from rack to rack, all kinds (per kind: --format json or traffic.csv):\n" + matrix.to_text();
  }
  return out;
}

std::string traffic_to_csv(const model::TrafficResult& t) {
  Table csv({{"kind"}, {"from_rack"}, {"to_rack"}, {"bytes"}, {"cross_rack"}});
  const std::size_t n = t.racks.size();
  for (const auto& k : t.kinds)
    for (std::size_t from = 0; from < n; ++from)
      for (std::size_t to = 0; to < n; ++to)
        if (const std::int64_t bytes = k.matrix[from * n + to]; bytes > 0)
          csv.add_row({k.name, t.racks[from], t.racks[to], std::to_string(bytes),
                       from != to && !t.racks[from].empty() && !t.racks[to].empty() ? "1" : "0"});
  return csv.to_csv();
}

}  // namespace partsim::analysis
