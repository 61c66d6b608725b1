#include "analysis/isr_report.hpp"

#include <algorithm>

#include "analysis/disk_report.hpp"
#include "analysis/format.hpp"
#include "analysis/reassignment_report.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
std::int32_t under_replicated_max(const model::ReplicationResult& rep) {
  std::int32_t m = 0;
  for (const auto& h : rep.history) m = std::max(m, h.under_replicated);
  return m;
}

namespace {

std::string errors_text(const model::ReplicationResult& rep) {
  if (rep.errors.empty()) return "none";
  std::string out;
  for (const auto& [code, n] : rep.errors) out += (out.empty() ? "" : ", ") + code + " " + std::to_string(n);
  return out;
}

std::string ids_text(const std::vector<std::int32_t>& ids) {
  std::string out;
  for (const auto id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

}  // namespace

std::string replication_to_text(const model::RunResult& r) {
  const model::ReplicationResult& rep = r.replication;
  if (!rep.enabled) return "";
  std::string out = "\nreplication (followers): ISR shrinks " + std::to_string(rep.shrinks()) + ", expands " +
                    std::to_string(rep.expands()) + ", UnderReplicatedPartitions max " +
                    std::to_string(under_replicated_max(rep)) + "; produce errors (batches): " + errors_text(rep) +
                    "; records cut from the log by a failover " + std::to_string(rep.records_truncated) +
                    ", never committed " + std::to_string(rep.records_uncommitted) + "\n";
  Table parts({{"topic", Align::kLeft},
               {"partition"},
               {"isr at end", Align::kLeft},
               {"isr min"},
               {"shrinks"},
               {"expands"},
               {"fenced out"},
               {"NOT_ENOUGH_REPLICAS"},
               {"under-replicated ms"},
               {"under min isr ms"},
               {"offline ms"}});
  for (std::size_t i = 0; i < rep.partitions.size(); ++i) {
    const auto& p = rep.partitions[i];
    parts.add_row({r.partitions[i].topic, std::to_string(r.partitions[i].partition), ids_text(p.isr),
                   std::to_string(p.isr_min), std::to_string(p.shrinks), std::to_string(p.expands),
                   std::to_string(p.fenced_removals), std::to_string(p.not_enough_replicas),
                   fixed(p.under_replicated_ms, 1), fixed(p.under_min_isr_ms, 1), fixed(p.offline_ms, 1)});
  }
  out += parts.to_text();
  Table h({{"time ms"},
           {"cause", Align::kLeft},
           {"isr sizes", Align::kLeft},
           {"under-replicated"},
           {"under min isr"},
           {"offline"},
           {"NOT_ENOUGH_REPLICAS"},
           {"records acked"}});
  for (const auto& s : rep.history) {
    std::string sizes;
    for (const auto n : s.isr_size) sizes += (sizes.empty() ? "" : " ") + std::to_string(n);
    h.add_row({fixed(s.time_ms, 1), s.cause, sizes, std::to_string(s.under_replicated), std::to_string(s.under_min_isr),
               std::to_string(s.offline), std::to_string(s.not_enough_replicas), std::to_string(s.records_acked)});
  }
  out += "\nISR over time (sizes by partition):\n" + h.to_text();
  return out + reassignment_to_text(r) + disks_to_text(r);
}

nlohmann::ordered_json replication_to_json(const model::RunResult& r) {
  const model::ReplicationResult& rep = r.replication;
  if (!rep.enabled) return nullptr;
  nlohmann::ordered_json j;
  j["errors"] = nlohmann::ordered_json::object();
  for (const auto& [code, n] : rep.errors) j["errors"][code] = n;
  j["isr_shrinks"] = rep.shrinks();
  j["isr_expands"] = rep.expands();
  j["under_replicated_max"] = under_replicated_max(rep);
  j["records_truncated"] = rep.records_truncated;
  j["records_uncommitted"] = rep.records_uncommitted;
  auto& parts = j["partitions"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < rep.partitions.size(); ++i) {
    const auto& p = rep.partitions[i];
    parts.push_back({{"topic", r.partitions[i].topic},
                     {"partition", r.partitions[i].partition},
                     {"isr", p.isr},
                     {"isr_min", p.isr_min},
                     {"shrinks", p.shrinks},
                     {"expands", p.expands},
                     {"fenced_removals", p.fenced_removals},
                     {"not_enough_replicas", p.not_enough_replicas},
                     {"under_replicated_ms", round_to(p.under_replicated_ms, 3)},
                     {"under_min_isr_ms", round_to(p.under_min_isr_ms, 3)},
                     {"offline_ms", round_to(p.offline_ms, 3)}});
  }
  auto& hist = j["isr_history"] = nlohmann::ordered_json::array();
  for (const auto& s : rep.history)
    hist.push_back({{"time_ms", round_to(s.time_ms, 3)},
                    {"cause", s.cause},
                    {"isr_size", s.isr_size},
                    {"under_replicated", s.under_replicated},
                    {"under_min_isr", s.under_min_isr},
                    {"offline", s.offline},
                    {"not_enough_replicas", s.not_enough_replicas},
                    {"records_acked", s.records_acked}});
  if (auto re = reassignment_to_json(r); !re.is_null()) j["reassignment"] = std::move(re);
  if (auto disks = disks_to_json(r); !disks.is_null()) j["disks"] = std::move(disks);
  return j;
}

}  // namespace partsim::analysis
