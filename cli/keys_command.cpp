// partsim keys: how many keys move when a topic's partition count changes (spec §2.6:
// a key's partition is toPositive(murmur2(key)) % partitions).

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/key_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/partitioners/key_hash.hpp"
#include "model/partitioners/key_movement.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kKeysUsage =
    "usage: partsim keys (--template T --count N | --keys-file FILE|-) --change FROM:TO... [options]\n"
    "Counts the keys whose partition changes when a topic goes from FROM to TO partitions.\n";

model::PartitionChange parse_change(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw UsageError("--change: must be FROM:TO with partition counts >= 1, e.g. 4:8, got '" + text + "'");
  constexpr std::int64_t kMax = 1'000'000;  // a flow matrix or a topic beyond this is not a real topic
  model::PartitionChange c;
  c.from = static_cast<std::int32_t>(parse_int(std::string_view(text).substr(0, colon), "--change FROM", 1, kMax));
  c.to = static_cast<std::int32_t>(parse_int(std::string_view(text).substr(colon + 1), "--change TO", 1, kMax));
  return c;
}

std::string shown_key(const std::vector<std::string>& keys, const model::KeyMovement& m) {
  return m.example_index ? keys[*m.example_index] : std::string();
}

std::string render_flow_text(const model::KeyMovement& m) {
  std::vector<analysis::Column> cols{{"old\\new", analysis::Align::kLeft}};
  for (std::int32_t n = 0; n < m.change.to; ++n) cols.push_back({"p" + std::to_string(n)});
  analysis::Table t(std::move(cols));
  for (std::int32_t o = 0; o < m.change.from; ++o) {
    std::vector<std::string> row{"p" + std::to_string(o)};
    for (std::int32_t n = 0; n < m.change.to; ++n)
      row.push_back(std::to_string(m.flow[static_cast<std::size_t>(o) * static_cast<std::size_t>(m.change.to) + static_cast<std::size_t>(n)]));
    t.add_row(std::move(row));
  }
  return t.to_text();
}

}  // namespace

int run_keys_command(const Args& args) {
  KeySourceOptions keys_opts;
  std::vector<std::string> change_texts;
  std::string format_text = "table";
  bool flow = false;
  po::options_description desc("keys options");
  desc.add_options()
      ("help,h", "show this help")
      ("change", po::value<std::vector<std::string>>(&change_texts)->required(), "FROM:TO partition counts (repeatable)")
      ("flow", po::bool_switch(&flow), "also print how many keys go from each old partition to each new one")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, csv or json");
  add_key_source_options(desc, keys_opts, /*with_template=*/true);

  if (help_requested(args, kKeysUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  std::vector<model::PartitionChange> changes;
  for (const auto& t : change_texts) changes.push_back(parse_change(t));
  const auto format = parse_format(format_text);
  const auto keys = gather_keys(keys_opts);

  std::vector<std::int32_t> hashes;
  hashes.reserve(keys.size());
  for (const auto& k : keys) hashes.push_back(model::to_positive(model::murmur2(k)));
  std::vector<model::KeyMovement> results;
  for (const auto& c : changes) results.push_back(model::measure_key_movement(hashes, c, flow));

  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json doc;
    doc["keys"] = keys.size();
    auto& rows = doc["changes"] = nlohmann::ordered_json::array();
    for (const auto& m : results) {
      nlohmann::ordered_json r;
      r["from"] = m.change.from;
      r["to"] = m.change.to;
      r["keys"] = m.keys;
      r["changed"] = m.changed;
      r["ratio"] = std::stod(analysis::exact_ratio(m.changed, m.keys, 4));
      r["modulo_stable"] = m.modulo_stable;
      r["unchanged"] = std::stod(analysis::exact_ratio(m.keys - m.changed, m.keys, 4));
      r["predicted_unchanged"] = analysis::round_to(model::predicted_unchanged_share(m.change), 4);
      if (m.example_index) {
        r["example"] = {{"key", shown_key(keys, m)}, {"old", m.example_old}, {"new", m.example_new}};
      } else {
        r["example"] = nullptr;
      }
      if (flow) {
        auto matrix = nlohmann::ordered_json::array();
        for (std::int32_t o = 0; o < m.change.from; ++o) {
          auto row = nlohmann::ordered_json::array();
          for (std::int32_t n = 0; n < m.change.to; ++n)
            row.push_back(m.flow[static_cast<std::size_t>(o) * static_cast<std::size_t>(m.change.to) + static_cast<std::size_t>(n)]);
          matrix.push_back(std::move(row));
        }
        r["flow"] = std::move(matrix);
      }
      rows.push_back(std::move(r));
    }
    write_stdout(doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
    return kExitOk;
  }

  if (format == OutputFormat::kCsv && flow) {
    // One CSV table per stream: with --flow the CSV is the flow in long form.
    analysis::Table t({{"from"}, {"to"}, {"old_partition"}, {"new_partition"}, {"keys"}});
    for (const auto& m : results)
      for (std::int32_t o = 0; o < m.change.from; ++o)
        for (std::int32_t n = 0; n < m.change.to; ++n)
          t.add_row({std::to_string(m.change.from), std::to_string(m.change.to), std::to_string(o), std::to_string(n),
                     std::to_string(m.flow[static_cast<std::size_t>(o) * static_cast<std::size_t>(m.change.to) + static_cast<std::size_t>(n)])});
    write_stdout(t.to_csv());
    return kExitOk;
  }

  const bool csv = format == OutputFormat::kCsv;
  std::vector<analysis::Column> cols{{"from"}, {"to"}, {"keys"}, {"changed"}, {"ratio"}, {"modulo_stable"}};
  if (!csv) cols.push_back({"unchanged"});
  cols.push_back({"predicted_unchanged"});
  cols.push_back({"example_key", analysis::Align::kLeft});
  cols.push_back({"example_old"});
  cols.push_back({"example_new"});
  analysis::Table t(std::move(cols));
  for (const auto& m : results) {
    std::vector<std::string> row{std::to_string(m.change.from), std::to_string(m.change.to), std::to_string(m.keys),
                                 std::to_string(m.changed), analysis::exact_ratio(m.changed, m.keys, 4),
                                 std::to_string(m.modulo_stable)};
    if (!csv) row.push_back(analysis::exact_ratio(m.keys - m.changed, m.keys, 4));
    row.push_back(analysis::fixed(model::predicted_unchanged_share(m.change), 4));
    row.push_back(shown_key(keys, m));
    row.push_back(m.example_index ? std::to_string(m.example_old) : "");
    row.push_back(m.example_index ? std::to_string(m.example_new) : "");
    t.add_row(std::move(row));
  }
  if (csv) {
    write_stdout(t.to_csv());
    return kExitOk;
  }
  std::string out = t.to_text();
  if (flow)
    for (const auto& m : results)
      out += "\nflow " + std::to_string(m.change.from) + " -> " + std::to_string(m.change.to) +
             " (rows: old partition, columns: new partition)\n" + render_flow_text(m);
  write_stdout(out);
  return kExitOk;
}

}  // namespace partsim::cli
