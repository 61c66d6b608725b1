#include "analysis/migration_report.hpp"

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

using Json = nlohmann::ordered_json;

nlohmann::ordered_json migration_to_json(const model::RunResult& r) {
  if (!r.migration) return nullptr;
  const auto& m = *r.migration;
  Json j{{"strategy", m.strategy},
         {"from", m.from},
         {"to", m.to},
         {"from_partitions", m.from_partitions},
         {"to_partitions", m.to_partitions},
         {"old_records", m.old_records},
         {"new_records", m.new_records},
         {"records_migrated", m.records_migrated},
         {"keys", m.keys},
         {"keys_changed_partition", m.keys_changed_partition},
         {"ratio", m.ratio ? Json(round_to(*m.ratio, 4)) : Json(nullptr)},
         {"order_violations", m.order_violations},
         {"order_violations_old", m.order_violations_old},
         {"keys_out_of_order", m.keys_out_of_order},
         {"keys_with_all_events", m.keys_with_all_events},
         {"stable", m.stable},
         {"downtime_ms", round_to(m.downtime_ms, 3)},
         {"duplicates", m.duplicates},
         {"inconsistent_keys", m.inconsistent_keys}};
  if (m.strategy == "stop-replay") j["records_after_resume"] = m.records_after_resume;
  if (m.sample_old >= 0) j["sample"] = {{"key", m.sample_key}, {"old", m.sample_old}, {"new", m.sample_new}};
  if (m.has_bridge) {
    const auto& b = m.bridge;
    const auto when = [&b](double ms) { return b.caught_up ? Json(round_to(ms, 3)) : Json(nullptr); };
    j["bridge"] = {{"start_ms", round_to(b.start_ms, 3)},
                   {"lag_at_start", b.lag_at_start},
                   {"max_lag", b.max_lag},
                   {"caught_up", b.caught_up},
                   {"caught_up_ms", when(b.caught_up_ms)},
                   {"catch_up_ms", when(b.catch_up_ms)},
                   {"switch_ms", when(b.switch_ms)},
                   {"finished_ms", round_to(b.finished_ms, 3)},
                   {"records_after_switch", b.after_switch},
                   {"records_given_up", b.given_up}};
  }
  return j;
}

std::string migration_to_text(const model::RunResult& r) {
  if (!r.migration) return "";
  const auto& m = *r.migration;
  Table t({{"figure", Align::kLeft}, {"value", Align::kRight}});
  const auto row = [&t](std::string name, std::string value) { t.add_row({std::move(name), std::move(value)}); };
  const auto num = [](std::int64_t v) { return std::to_string(v); };
  row("records in the old topic", num(m.old_records));
  row("records in the new topic", num(m.new_records));
  row("records migrated", num(m.records_migrated));
  row("keys", num(m.keys));
  row("keys changed partition", num(m.keys_changed_partition));
  row("ratio", m.ratio ? fixed(*m.ratio, 4) : "-");
  row("order violations (new topic)", num(m.order_violations));
  row("order violations (old topic)", num(m.order_violations_old));
  row("keys out of order (new topic)", num(m.keys_out_of_order));
  row("keys with all events", num(m.keys_with_all_events));
  row("each key in one new partition", m.stable ? "yes" : "no");
  row("downtime ms", fixed(m.downtime_ms, 3));
  if (m.strategy == "stop-replay") row("records sent to the new topic after the resume", num(m.records_after_resume));
  row("duplicates", num(m.duplicates));
  row("inconsistent keys", num(m.inconsistent_keys));
  if (m.has_bridge) {
    const auto& b = m.bridge;
    row("bridge start ms", fixed(b.start_ms, 3));
    row("bridge lag at start", num(b.lag_at_start));
    row("bridge max lag", num(b.max_lag));
    const auto when = [&b](double ms) { return b.caught_up ? fixed(ms, 3) : std::string("-"); };
    row("bridge caught up ms", when(b.caught_up_ms));
    row("bridge catch-up ms", when(b.catch_up_ms));
    row("switch ms", when(b.switch_ms));
    row("bridge finished ms", fixed(b.finished_ms, 3));
    row("bridged after the switch", num(b.after_switch));
    row("bridge gave up (delivery.timeout.ms)", num(b.given_up));
  }
  std::string out = "\nmigration " + m.strategy + ": " + escape_controls(m.from) + " (" +
                    std::to_string(m.from_partitions) + " partitions) -> " + escape_controls(m.to) + " (" +
                    std::to_string(m.to_partitions) + " partitions)\n" + t.to_text();
  if (m.has_bridge && !m.bridge.caught_up)
    out +=
        "the bridge did not catch up before the producers stopped sending: no switch, the old topic keeps every record\n";
  if (m.sample_old >= 0)
    out += "sample: " + escape_controls(m.sample_key) + " old=p" + std::to_string(m.sample_old) + " new=p" +
           std::to_string(m.sample_new) + "\n";
  return out;
}

}  // namespace partsim::analysis
