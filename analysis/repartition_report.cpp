#include "analysis/repartition_report.hpp"

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

using Json = nlohmann::ordered_json;

nlohmann::ordered_json repartition_to_json(const model::RunResult& r) {
  if (!r.repartition) return nullptr;
  const auto& rp = *r.repartition;
  Json changes = Json::array();
  for (const auto& c : rp.changes)
    changes.push_back({{"topic", c.topic}, {"at_ms", round_to(c.at_ms, 3)}, {"from", c.from}, {"to", c.to}});
  Json producers = Json::array();
  for (const auto& p : rp.producers)
    producers.push_back({{"producer", p.producer},
                         {"saw_new_count_at_ms",
                          p.saw_new_count_at_ms ? Json(round_to(*p.saw_new_count_at_ms, 3)) : Json(nullptr)}});
  return Json{{"changes", std::move(changes)},
              {"producers", std::move(producers)},
              {"records_old_rule_after_change", rp.records_old_rule_after_change},
              {"keys_split", rp.keys_split},
              {"keys_out_of_order", rp.keys_out_of_order ? Json(*rp.keys_out_of_order) : Json(nullptr)},
              {"records_skipped_latest", rp.records_skipped_latest}};
}

std::string repartition_to_text(const model::RunResult& r) {
  if (!r.repartition) return "";
  const auto& rp = *r.repartition;
  std::string out = "\nrepartition\n";
  for (const auto& c : rp.changes)
    out += "  " + escape_controls(c.topic) + ": " + std::to_string(c.from) + " -> " + std::to_string(c.to) +
           " partitions at " + fixed(c.at_ms, 3) + " ms\n";
  Table producers({{"producer", Align::kLeft}, {"saw the new count at ms", Align::kRight}});
  for (const auto& p : rp.producers)
    producers.add_row({escape_controls(p.producer),
                       p.saw_new_count_at_ms ? fixed(*p.saw_new_count_at_ms, 3) : std::string("never")});
  out += producers.to_text();
  Table t({{"figure", Align::kLeft}, {"value", Align::kRight}});
  t.add_row({"records by the old count after the change", std::to_string(rp.records_old_rule_after_change)});
  t.add_row({"keys split over partitions", std::to_string(rp.keys_split)});
  t.add_row({"keys out of order (most of any group)",
             rp.keys_out_of_order ? std::to_string(*rp.keys_out_of_order) : std::string("-")});
  t.add_row({"records skipped by auto.offset.reset=latest", std::to_string(rp.records_skipped_latest)});
  return out + t.to_text();
}

}  // namespace partsim::analysis
