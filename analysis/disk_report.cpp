#include "analysis/disk_report.hpp"

#include <algorithm>
#include <optional>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

namespace {

std::string gigabytes(std::int64_t bytes) { return fixed(static_cast<double>(bytes) / 1e9, 3); }

}  // namespace

std::optional<double> disk_peak_share(const model::DiskResult& d) {
  std::optional<double> m;
  for (const auto& b : d.brokers)
    if (b.capacity > 0) m = std::max(m.value_or(0), static_cast<double>(b.peak) / static_cast<double>(b.capacity));
  return m;
}

std::string disks_to_text(const model::RunResult& r) {
  const model::DiskResult& d = r.replication.disks;
  if (!d.enabled()) return "";
  std::string out = "\ndisks: " + std::to_string(d.retention_checks) + " retention checks, " +
                    std::to_string(d.segments_rolled) + " segments rolled, " +
                    (d.failures()
                         ? std::to_string(d.failures()) + " log directory failures (a full disk halts its broker)"
                         : std::string("no disk filled")) +
                    "\n";
  Table t({{"broker"},
           {"disk GB"},
           {"other GB"},
           {"peak GB"},
           {"peak %"},
           {"at s"},
           {"end GB"},
           {"deleted GB"},
           {"segments deleted"},
           {"removed GB"},
           {"largest partition", Align::kLeft},
           {"GB"},
           {"failed at s", Align::kLeft}});
  for (const auto& b : d.brokers) {
    std::string failures;
    for (const auto ms : b.failures_ms) failures += (failures.empty() ? "" : " ") + fixed(ms / 1000, 1);
    if (failures.empty()) failures = "-";
    t.add_row({std::to_string(b.broker), b.capacity > 0 ? gigabytes(b.capacity) : "unlimited", gigabytes(b.other),
               gigabytes(b.peak),
               b.capacity > 0 ? fixed(100.0 * static_cast<double>(b.peak) / static_cast<double>(b.capacity), 1) : "-",
               fixed(b.peak_ms / 1000, 1), gigabytes(b.end), gigabytes(b.deleted_bytes),
               std::to_string(b.deleted_segments), gigabytes(b.removed_bytes), b.largest.empty() ? "-" : b.largest,
               gigabytes(b.largest_bytes), failures});
  }
  out += t.to_text();
  if (d.samples.empty()) return out;
  const std::size_t n = d.samples.size();
  const std::size_t every = std::max<std::size_t>(1, (n + 23) / 24);
  std::vector<Column> cols{{"time s"}};
  for (const auto& b : d.brokers) cols.push_back({"broker " + std::to_string(b.broker) + " GB"});
  Table u(cols);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % every != 0 && i + 1 != n) continue;
    std::vector<std::string> row{fixed(d.samples[i].time_ms / 1000, 1)};
    for (const auto x : d.samples[i].used) row.push_back(gigabytes(x));
    u.add_row(row);
  }
  out += "\ndisk use over time (every 10 s or --timeseries, at a log directory's failure and at the end; " +
         (every > 1 ? "every " + ordinal(every) + " of " + std::to_string(n) + " samples; JSON has all"
                    : std::to_string(n) + " samples") +
         "; deleted segments count until file.delete.delay.ms has passed):\n" + u.to_text();
  return out;
}

nlohmann::ordered_json disks_to_json(const model::RunResult& r) {
  const model::DiskResult& d = r.replication.disks;
  if (!d.enabled()) return nullptr;
  nlohmann::ordered_json j;
  j["retention_checks"] = d.retention_checks;
  j["segments_rolled"] = d.segments_rolled;
  j["log_dir_failures"] = d.failures();
  auto& brokers = j["brokers"] = nlohmann::ordered_json::array();
  for (const auto& b : d.brokers) {
    auto failures = nlohmann::ordered_json::array();
    for (const auto ms : b.failures_ms) failures.push_back(round_to(ms, 3));
    brokers.push_back({{"broker", b.broker},
                       {"capacity_bytes", b.capacity},
                       {"other_bytes", b.other},
                       {"peak_bytes", b.peak},
                       {"peak_ms", round_to(b.peak_ms, 3)},
                       {"end_bytes", b.end},
                       {"deleted_bytes", b.deleted_bytes},
                       {"deleted_segments", b.deleted_segments},
                       {"removed_bytes", b.removed_bytes},
                       {"largest_partition", b.largest},
                       {"largest_partition_bytes", b.largest_bytes},
                       {"log_dir_failures_ms", failures}});
  }
  auto& samples = j["samples"] = nlohmann::ordered_json::array();
  for (const auto& s : d.samples) samples.push_back({{"time_ms", round_to(s.time_ms, 3)}, {"used_bytes", s.used}});
  return j;
}

}  // namespace partsim::analysis
