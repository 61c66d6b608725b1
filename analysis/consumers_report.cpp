#include "analysis/consumers_report.hpp"

#include <algorithm>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

std::string plural(std::int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + escape_controls(s);
  return out;
}

std::vector<std::string> warnings(const ConsumersReport& r) {
  std::vector<std::string> out;
  if (r.plan.kafka_failure) out.push_back(*r.plan.kafka_failure);
  if (!r.plan.settled)
    out.push_back("members still revoke partitions after " + plural(r.plan.rebalances, "rebalance", "rebalances") +
                  ": the group has not settled");
  return out;
}

std::string withheld_text(const model::consumer::WithheldPartition& w) {
  return w.partition.name() + " (" + joined(w.owners) + " -> " + escape_controls(w.to) + ")";
}

}  // namespace

std::string compact_partitions(const std::vector<model::TopicPartition>& sorted) {
  std::string out;
  for (std::size_t i = 0; i < sorted.size();) {
    const auto& topic = sorted[i].topic;
    out += (out.empty() ? "" : " ") + topic + "[";
    bool first = true;
    while (i < sorted.size() && sorted[i].topic == topic) {
      std::size_t j = i;
      while (j + 1 < sorted.size() && sorted[j + 1].topic == topic &&
             sorted[j + 1].partition == sorted[j].partition + 1)
        ++j;
      const auto from = sorted[i].partition, to = sorted[j].partition;
      if (!first) out += ",";
      first = false;
      if (j - i >= 2) out += std::to_string(from) + "-" + std::to_string(to);
      else if (j == i + 1) out += std::to_string(from) + "," + std::to_string(to);
      else out += std::to_string(from);
      i = j + 1;
    }
    out += "]";
  }
  return out;
}

nlohmann::ordered_json consumers_to_json(const ConsumersReport& r) {
  const auto& p = r.plan;
  nlohmann::ordered_json j;
  j["assignor"] = std::string(model::consumer::assignor_name(p.assignor));
  auto& members = j["members"] = nlohmann::ordered_json::array();
  for (std::size_t m = 0; m < r.members.size(); ++m) {
    auto names = nlohmann::ordered_json::array();
    for (const auto& tp : p.partitions[m]) names.push_back(tp.name());
    members.push_back({{"member", r.members[m]}, {"partitions", std::move(names)}});
  }
  j["idle"] = p.idle;
  j["left"] = p.left;
  auto& moved = j["moved"] = nlohmann::ordered_json::array();
  for (const auto& mv : p.moved)
    moved.push_back({{"partition", mv.partition.name()},
                     {"from", mv.from},
                     {"to", mv.to ? nlohmann::ordered_json(*mv.to) : nlohmann::ordered_json()}});
  j["spread"] = {{"min", p.min_partitions}, {"max", p.max_partitions}};
  j["rebalances"] = p.rebalances;
  auto& withheld = j["withheld"] = nlohmann::ordered_json::array();
  for (const auto& w : p.withheld)
    withheld.push_back({{"partition", w.partition.name()}, {"from", w.owners}, {"to", w.to}});
  j["warnings"] = warnings(r);
  return j;
}

std::string consumers_to_text(const ConsumersReport& r) {
  const auto& p = r.plan;
  std::string out = std::string(model::consumer::assignor_name(p.assignor)) + ": " +
                    plural(r.partitions, "partition", "partitions") + " of " + plural(r.topics, "topic", "topics") +
                    " to " + plural(static_cast<std::int64_t>(r.members.size()), "member", "members") +
                    (p.rebalances > 1 ? ", " + plural(p.rebalances, "rebalance", "rebalances") : "") + "\n";
  for (const auto& w : warnings(r)) out += "warning: " + w + "\n";
  out += "\n";
  const bool racks = std::any_of(r.racks.begin(), r.racks.end(), [](const std::string& rack) { return !rack.empty(); });
  std::vector<Column> columns{{"member", Align::kLeft}};
  if (racks) columns.push_back({"rack", Align::kLeft});
  columns.push_back({"partitions"});
  columns.push_back({"assigned", Align::kLeft});
  Table t(columns);
  for (std::size_t m = 0; m < r.members.size(); ++m) {
    std::vector<std::string> row{escape_controls(r.members[m])};
    if (racks) row.push_back(r.racks[m].empty() ? "-" : escape_controls(r.racks[m]));
    row.push_back(std::to_string(p.partitions[m].size()));
    row.push_back(p.partitions[m].empty() ? "-" : compact_partitions(p.partitions[m]));
    t.add_row(std::move(row));
  }
  out += t.to_text() + "\n";
  out += p.min_partitions == p.max_partitions
             ? "spread: every member has " + plural(p.max_partitions, "partition", "partitions") + "\n"
             : "spread: " + std::to_string(p.min_partitions) + " to " + std::to_string(p.max_partitions) +
                   " partitions per member\n";
  out += "idle: " +
         (p.idle.empty() ? std::string("none")
                         : joined(p.idle) + " (no partition for " + (p.idle.size() == 1 ? "it" : "them") + ")") +
         "\n";
  if (!p.left.empty()) out += "left the group: " + joined(p.left) + "\n";
  if (!r.previous_assignment) {
    out += "moved: nothing to compare (no member owned partitions before)\n";
  } else if (p.moved.empty()) {
    out += "moved: nothing (every owned partition stays with its owner)\n";
  } else {
    out += "moved: " +
           plural(static_cast<std::int64_t>(p.moved.size()), "partition changes owner", "partitions change owner") +
           "\n\n";
    Table moves({{"partition", Align::kLeft}, {"from", Align::kLeft}, {"to", Align::kLeft}});
    for (const auto& mv : p.moved)
      moves.add_row({mv.partition.name(), escape_controls(mv.from), mv.to ? escape_controls(*mv.to) : "-"});
    out += moves.to_text();
  }
  if (!p.withheld.empty()) {
    std::vector<std::string> items;
    for (const auto& w : p.withheld) items.push_back(withheld_text(w));
    std::string list;
    for (const auto& s : items) list += (list.empty() ? "" : ", ") + s;
    out += "\nwithheld by the first rebalance until revoked (KIP-429): " + list + "\n";
  }
  return out;
}

}  // namespace partsim::analysis
