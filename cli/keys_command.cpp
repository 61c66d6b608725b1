// partsim keys: how many keys move when a topic's partition count changes (spec §2.6:
// a key's partition is toPositive(murmur2(key)) % partitions). Keys stream from their
// source and are counted one at a time, so a billion of them cost no memory; only the
// --flow matrices (FROM x TO counts) are held, and refused past the memory limit.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
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
#include "model/run_estimate.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kKeysUsage =
    "usage: partsim keys (--template T --count N | --keys-file FILE|-) --change FROM:TO... [options]\n"
    "Counts the keys whose partition changes when a topic goes from FROM to TO partitions.\n";

constexpr std::size_t kFlushBytes = 1 << 20;

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

// The --flow matrices cost 8 bytes a cell; refused past the memory limit, as `run` is.
void refuse_large_flow(const std::vector<model::PartitionChange>& changes) {
  double cells = 0;
  for (const auto& c : changes) cells += static_cast<double>(c.from) * static_cast<double>(c.to);
  const double bytes = cells * 8;
  if (bytes <= model::kMaxMemoryBytes) return;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "--flow: refused: %.3g cells of FROM x TO counts need %.1f GiB (limit %.0f GiB); drop --flow or use smaller "
                "partition counts, or pass --allow-large",
                cells, bytes / (1ull << 30), model::kMaxMemoryBytes / (1ull << 30));
  throw UsageError(buf);
}

std::uint64_t flow_at(const model::KeyMovement& m, std::int32_t o, std::int32_t n) {
  return m.flow[static_cast<std::size_t>(o) * static_cast<std::size_t>(m.change.to) + static_cast<std::size_t>(n)];
}

// Output gathered in a buffer and written to stdout a piece at a time.
void maybe_flush(std::string& out) {
  if (out.size() >= kFlushBytes) {
    write_stdout(out);
    out.clear();
  }
}

// The flow as an aligned table: rows old partitions, columns new ones.
void append_flow_text(std::string& out, const model::KeyMovement& m) {
  const auto to = static_cast<std::size_t>(m.change.to);
  std::vector<std::size_t> width(to + 1);
  width[0] = std::max<std::size_t>(7, 1 + std::to_string(m.change.from - 1).size());  // "old\new", "p<n>"
  for (std::size_t n = 0; n < to; ++n) {
    width[n + 1] = 1 + std::to_string(n).size();
    for (std::int32_t o = 0; o < m.change.from; ++o)
      width[n + 1] = std::max(width[n + 1], std::to_string(flow_at(m, o, static_cast<std::int32_t>(n))).size());
  }
  auto cell = [&](std::size_t col, const std::string& text) {
    if (col == 0) {
      out += text;
      out.append(width[0] - text.size(), ' ');
    } else {
      out += "  ";
      out.append(width[col] - text.size(), ' ');
      out += text;
    }
  };
  cell(0, "old\\new");
  for (std::size_t n = 0; n < to; ++n) cell(n + 1, "p" + std::to_string(n));
  out += '\n';
  for (std::int32_t o = 0; o < m.change.from; ++o) {
    cell(0, "p" + std::to_string(o));
    for (std::size_t n = 0; n < to; ++n) cell(n + 1, std::to_string(flow_at(m, o, static_cast<std::int32_t>(n))));
    out += '\n';
    maybe_flush(out);
  }
}

// The flow as nlohmann's dump(2) writes a nested array whose opening bracket is at `indent`.
void append_flow_json(std::string& out, const model::KeyMovement& m, std::size_t indent) {
  const std::string row_pad(indent + 2, ' '), cell_pad(indent + 4, ' ');
  out += "[\n";
  for (std::int32_t o = 0; o < m.change.from; ++o) {
    out += row_pad + "[\n";
    for (std::int32_t n = 0; n < m.change.to; ++n) {
      out += cell_pad;
      analysis::append_int(out, flow_at(m, o, n));
      out += n + 1 < m.change.to ? ",\n" : "\n";
    }
    out += row_pad + (o + 1 < m.change.from ? "],\n" : "]\n");
    maybe_flush(out);
  }
  out += std::string(indent, ' ') + "]";
}

void write_json(const std::vector<model::KeyMovement>& results, const std::vector<std::string>& examples, std::uint64_t keys,
                bool flow) {
  nlohmann::ordered_json doc;
  doc["keys"] = keys;
  auto& rows = doc["changes"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& m = results[i];
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
      r["example"] = {{"key", examples[i]}, {"old", m.example_old}, {"new", m.example_new}};
    } else {
      r["example"] = nullptr;
    }
    // A marker where the flow goes: the matrices are written straight out, not as JSON values.
    if (flow) r["flow"] = "\x01" "flow" + std::to_string(i);
    rows.push_back(std::move(r));
  }
  const std::string text = doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  std::string out;
  std::size_t pos = 0;
  for (std::size_t i = 0; flow && i < results.size(); ++i) {
    const std::string marker = "\"\\u0001flow" + std::to_string(i) + "\"";
    const std::size_t at = text.find(marker, pos);
    out.append(text, pos, at - pos);
    append_flow_json(out, results[i], 6);  // "flow" sits at depth 3: 6 spaces
    pos = at + marker.size();
  }
  out.append(text, pos);
  write_stdout(out);
}

// What the command line asks for, checked.
struct KeysSettings {
  KeySourceOptions keys;
  std::vector<model::PartitionChange> changes;
  OutputFormat format = OutputFormat::kTable;
  bool flow = false;
};

// The settings, or nothing after --help.
std::optional<KeysSettings> parse_keys_args(const Args& args) {
  KeysSettings s;
  std::vector<std::string> change_texts;
  std::string format_text = "table";
  bool allow_large = false;
  po::options_description desc("keys options");
  desc.add_options()
      ("help,h", "show this help")
      ("change", po::value<std::vector<std::string>>(&change_texts)->required(), "FROM:TO partition counts (repeatable)")
      ("flow", po::bool_switch(&s.flow), "also print how many keys go from each old partition to each new one")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, csv or json")
      ("allow-large", po::bool_switch(&allow_large), "print --flow even when its FROM x TO matrices exceed partsim's memory limit");
  add_key_source_options(desc, s.keys, /*with_template=*/true);

  if (help_requested(args, kKeysUsage, desc)) return std::nullopt;
  parse_command_line(args, desc);
  for (const auto& t : change_texts) s.changes.push_back(parse_change(t));
  s.format = parse_format(format_text);
  if (s.flow && !allow_large) refuse_large_flow(s.changes);
  return s;
}

// Every change's counts, and its first moved key as read.
struct Movements {
  std::vector<model::KeyMovement> results;
  std::vector<std::string> examples;
};

// One pass over the keys: each is hashed once and counted for every change.
Movements count_movements(KeyStream& keys, const KeysSettings& s) {
  std::vector<model::KeyMovementCounter> counters;
  for (const auto& c : s.changes) counters.emplace_back(c, s.flow);
  Movements m;
  m.examples.resize(s.changes.size());
  std::string key;
  for (std::size_t index = 0; keys.next(key); ++index) {
    const std::int32_t h = model::to_positive(model::murmur2(key));
    for (std::size_t c = 0; c < counters.size(); ++c)
      if (counters[c].add(h, index)) m.examples[c] = key;
  }
  for (const auto& c : counters) m.results.push_back(c.result());
  return m;
}

// With --flow the CSV is the flow in long form (one CSV table per stream).
void write_flow_csv(const std::vector<model::KeyMovement>& results) {
  std::string out = "from,to,old_partition,new_partition,keys\n";
  for (const auto& m : results)
    for (std::int32_t o = 0; o < m.change.from; ++o) {
      for (std::int32_t n = 0; n < m.change.to; ++n) {
        for (std::int32_t v : {m.change.from, m.change.to, o, n}) {
          analysis::append_int(out, v);
          out += ',';
        }
        analysis::append_int(out, flow_at(m, o, n));
        out += '\n';
      }
      maybe_flush(out);
    }
  write_stdout(out);
}

// One row per change, as an aligned table (with the flow matrices after it) or CSV.
void write_rows(const Movements& moves, bool csv, bool flow) {
  std::vector<analysis::Column> cols{{"from"}, {"to"}, {"keys"}, {"changed"}, {"ratio"}, {"modulo_stable"}};
  if (!csv) cols.push_back({"unchanged"});
  cols.push_back({"predicted_unchanged"});
  cols.push_back({"example_key", analysis::Align::kLeft});
  cols.push_back({"example_old"});
  cols.push_back({"example_new"});
  analysis::Table t(std::move(cols));
  for (std::size_t i = 0; i < moves.results.size(); ++i) {
    const auto& m = moves.results[i];
    std::vector<std::string> row{std::to_string(m.change.from), std::to_string(m.change.to), std::to_string(m.keys),
                                 std::to_string(m.changed), analysis::exact_ratio(m.changed, m.keys, 4),
                                 std::to_string(m.modulo_stable)};
    if (!csv) row.push_back(analysis::exact_ratio(m.keys - m.changed, m.keys, 4));
    row.push_back(analysis::fixed(model::predicted_unchanged_share(m.change), 4));
    row.push_back(moves.examples[i]);
    row.push_back(m.example_index ? std::to_string(m.example_old) : "");
    row.push_back(m.example_index ? std::to_string(m.example_new) : "");
    t.add_row(std::move(row));
  }
  if (csv) {
    write_stdout(t.to_csv());
    return;
  }
  std::string out = t.to_text();
  if (flow)
    for (const auto& m : moves.results) {
      out += "\nflow " + std::to_string(m.change.from) + " -> " + std::to_string(m.change.to) +
             " (rows: old partition, columns: new partition)\n";
      append_flow_text(out, m);
    }
  write_stdout(out);
}

}  // namespace

int run_keys_command(const Args& args) {
  const auto settings = parse_keys_args(args);
  if (!settings) return kExitOk;
  KeyStream keys(settings->keys);
  const Movements moves = count_movements(keys, *settings);
  if (settings->format == OutputFormat::kJson)
    write_json(moves.results, moves.examples, keys.count(), settings->flow);
  else if (settings->format == OutputFormat::kCsv && settings->flow)
    write_flow_csv(moves.results);
  else
    write_rows(moves, settings->format == OutputFormat::kCsv, settings->flow);
  return kExitOk;
}

}  // namespace partsim::cli
