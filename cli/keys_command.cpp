// partsim keys: how many keys move when a topic's partition count changes (spec §2.6:
// a key's partition is toPositive(murmur2(key)) % partitions). Keys stream from their
// source and are counted one at a time, so a billion of them cost no memory; only the
// --flow matrices (FROM x TO counts) are held, and refused past the memory limit.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
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
    "       partsim keys (--template T --count N | --keys-file FILE|-) --plan FROM:TO [--rate R] [--metadata-max-age MS] [--producers N]\n"
    "Counts the keys whose partition changes when a topic goes from FROM to TO partitions.\n"
    "--plan: a live increase planned: the keys moved, the two-rule window while producers\n"
    "keep the old count, and every candidate count from FROM+1 to 4 x FROM.\n";

// --plan's candidate counts: FROM+1 .. 4 x FROM, or, past this many, only the multiples of
// FROM and the planned count (one counter per candidate runs over every key).
constexpr std::int32_t kMaxEveryCandidate = 1000;

constexpr std::int64_t kMaxPartitions = 1'000'000;  // a flow matrix or a topic beyond this is not a real topic

// `option` names it in errors: --change or --plan.
model::PartitionChange parse_change(const std::string& text, const std::string& option = "--change") {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw UsageError(option + ": must be FROM:TO with partition counts >= 1, e.g. 4:8, got '" + text + "'");
  model::PartitionChange c;
  c.from = static_cast<std::int32_t>(parse_int(std::string_view(text).substr(0, colon), option + " FROM", 1,
                                               kMaxPartitions));
  c.to =
      static_cast<std::int32_t>(parse_int(std::string_view(text).substr(colon + 1), option + " TO", 1, kMaxPartitions));
  return c;
}

// The --flow matrices cost 8 bytes a cell; refused past the memory limit, as `run` is.
void refuse_large_flow(const std::vector<model::PartitionChange>& changes) {
  double cells = 0;
  for (const auto& c : changes) cells += static_cast<double>(c.from) * static_cast<double>(c.to);
  const double bytes = cells * 8;
  if (bytes <= model::kMaxMemoryBytes) return;
  char buf[256];
  std::snprintf(
      buf, sizeof buf,
      "--flow: refused: %.3g cells of FROM x TO counts need %.1f GiB (limit %.0f GiB); drop --flow or use smaller "
      "partition counts, or pass --allow-large",
      cells, bytes / (1ull << 30), model::kMaxMemoryBytes / (1ull << 30));
  throw UsageError(buf);
}

std::uint64_t flow_at(const model::KeyMovement& m, std::int32_t o, std::int32_t n) {
  return m.flow[static_cast<std::size_t>(o) * static_cast<std::size_t>(m.change.to) + static_cast<std::size_t>(n)];
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
    write_stdout_when_full(out);
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
    write_stdout_when_full(out);
  }
  out += std::string(indent, ' ') + "]";
}

void write_json(const std::vector<model::KeyMovement>& results, const std::vector<std::string>& examples,
                std::uint64_t keys, bool flow) {
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
    if (flow)
      r["flow"] = "\x01"
                  "flow" +
                  std::to_string(i);
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

// A live partition increase planned (--plan) and the producers that will live through it.
struct PlanSettings {
  model::PartitionChange change;
  double rate = 1000;                   ///< records/s over all producers
  double metadata_max_age_ms = 300000;  ///< Kafka's default (kafka-consumer-spec §6.1)
  std::int32_t producers = 1;
};

// What the command line asks for, checked.
struct KeysSettings {
  KeySourceOptions keys;
  std::vector<model::PartitionChange> changes;  ///< with --plan: the candidates, the planned one among them
  std::optional<PlanSettings> plan;
  OutputFormat format = OutputFormat::kTable;
  bool flow = false;
};

// Kafka's CreatePartitions refuses what is not an increase (kafka-consumer-spec §7), so a
// plan must be one; the messages are Kafka's own.
PlanSettings parse_plan(const std::string& text, const std::string& rate, const std::string& age,
                        const std::string& producers) {
  PlanSettings p;
  p.change = parse_change(text, "--plan");
  if (p.change.to == p.change.from)
    throw UsageError("--plan: " + text + " is no change: Kafka refuses it with \"Topic already has " +
                     std::to_string(p.change.from) + " partition(s).\"; give TO > FROM");
  if (p.change.to < p.change.from)
    throw UsageError("--plan: " + text + " is a decrease: Kafka refuses it with \"The topic currently has " +
                     std::to_string(p.change.from) + " partition(s); " + std::to_string(p.change.to) +
                     " would not be an increase.\"; partitions can only be added");
  if (!rate.empty()) p.rate = parse_number(rate, "--rate", 0, 1e12);
  if (!age.empty())
    p.metadata_max_age_ms =
        static_cast<double>(parse_int(age, "--metadata-max-age", 0, std::numeric_limits<std::int32_t>::max()));
  if (!producers.empty()) p.producers = static_cast<std::int32_t>(parse_int(producers, "--producers", 1, 1'000'000));
  return p;
}

std::vector<model::PartitionChange> plan_candidates(model::PartitionChange planned) {
  std::vector<model::PartitionChange> out;
  const std::int64_t from = planned.from, last = std::min<std::int64_t>(4 * from, kMaxPartitions);
  for (std::int64_t to = from + 1; to <= last; ++to)
    if (from <= kMaxEveryCandidate || to % from == 0 || to == planned.to)
      out.push_back({planned.from, static_cast<std::int32_t>(to)});
  if (planned.to > last) out.push_back(planned);
  return out;
}

// Every key is counted for every candidate count: a plan over many keys and a large FROM
// (3 x FROM candidates) is refused, with how to make it smaller, past ~10^10 counts.
void refuse_slow_plan(const KeysSettings& s, bool allow_large) {
  constexpr double kMaxCounts = 1e10;
  KeyStream probe(s.keys);
  const auto keys = probe.known_count();
  if (!keys || allow_large) return;
  const double counts = static_cast<double>(*keys) * static_cast<double>(s.changes.size());
  if (counts <= kMaxCounts) return;
  char buf[320];
  std::snprintf(
      buf, sizeof buf,
      "--plan: refused: %llu keys x %zu candidate counts is %.3g counts (limit %.0e, about a minute); give fewer keys "
      "(a million measure a share to +-0.001) or pass --allow-large",
      static_cast<unsigned long long>(*keys), s.changes.size(), counts, kMaxCounts);
  throw UsageError(buf);
}

// The settings, or nothing after --help.
std::optional<KeysSettings> parse_keys_args(const Args& args) {
  KeysSettings s;
  std::vector<std::string> change_texts;
  std::string plan_text, rate_text, age_text, producers_text;
  std::string format_text = "table";
  bool allow_large = false;
  po::options_description desc("keys options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("change", po::value<std::vector<std::string>>(&change_texts), "FROM:TO partition counts (repeatable)")
      ("plan", po::value<std::string>(&plan_text), "FROM:TO: a live increase planned: keys moved, the two-rule window, every candidate count to 4 x FROM")
      ("rate", po::value<std::string>(&rate_text), "with --plan: records/s over all producers (default 1000)")
      ("metadata-max-age", po::value<std::string>(&age_text), "with --plan: the producers' metadata.max.age.ms (default 300000)")
      ("producers", po::value<std::string>(&producers_text), "with --plan: the producers sending (default 1)")
      ("flow", po::bool_switch(&s.flow), "also print how many keys go from each old partition to each new one")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, csv or json")
      ("allow-large", po::bool_switch(&allow_large), "print --flow even when its FROM x TO matrices exceed partsim's memory limit; count --plan past 10^10 counts");
  // clang-format on
  add_key_source_options(desc, s.keys, /*with_template=*/true);

  if (help_requested(args, kKeysUsage, desc)) return std::nullopt;
  parse_command_line(args, desc);
  if (change_texts.empty() && plan_text.empty())
    throw UsageError("give --change FROM:TO (repeatable) or --plan FROM:TO");
  if (!change_texts.empty() && !plan_text.empty())
    throw UsageError("--plan: not with --change (the plan measures its own candidate counts)");
  if (plan_text.empty())
    for (const auto& [given, name] : {std::pair{!rate_text.empty(), "--rate"},
                                      {!age_text.empty(), "--metadata-max-age"},
                                      {!producers_text.empty(), "--producers"}})
      if (given) throw UsageError(std::string(name) + ": only with --plan FROM:TO");
  if (!plan_text.empty() && s.flow) throw UsageError("--flow: not with --plan (use --change FROM:TO --flow)");
  for (const auto& t : change_texts) s.changes.push_back(parse_change(t));
  if (!plan_text.empty()) {
    s.plan = parse_plan(plan_text, rate_text, age_text, producers_text);
    s.changes = plan_candidates(s.plan->change);
    refuse_slow_plan(s, allow_large);
  }
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
      write_stdout_when_full(out);
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
    std::vector<std::string> row{std::to_string(m.change.from),
                                 std::to_string(m.change.to),
                                 std::to_string(m.keys),
                                 std::to_string(m.changed),
                                 analysis::exact_ratio(m.changed, m.keys, 4),
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

const model::KeyMovement& planned_movement(const Movements& moves, model::PartitionChange planned) {
  for (const auto& m : moves.results)
    if (m.change.to == planned.to) return m;
  throw std::logic_error("--plan: the planned count is not among the candidates");
}

std::string whole(double v) { return analysis::fixed(v, 0); }

// --plan: the planned change, its two-rule window, then every candidate count.
void write_plan(const Movements& moves, const PlanSettings& plan, std::uint64_t keys, OutputFormat format) {
  const auto& m = planned_movement(moves, plan.change);
  const auto w = model::two_rule_window(plan.metadata_max_age_ms, plan.producers, plan.rate);
  const double ratio = static_cast<double>(m.changed) / static_cast<double>(m.keys);
  // Records routed by the old rule to a partition the new rule would not choose: those of
  // the moved keys, when records spread over the keys as the keys given do (each equally).
  const double misrouted = w.records_old_rule_expected * ratio;
  auto predicted = [](model::PartitionChange c) { return 1.0 - model::predicted_unchanged_share(c); };
  const std::int32_t from = plan.change.from;

  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json doc;
    doc["keys"] = keys;
    auto& p = doc["plan"];
    p["from"] = from;
    p["to"] = plan.change.to;
    p["changed"] = m.changed;
    p["ratio"] = std::stod(analysis::exact_ratio(m.changed, m.keys, 4));
    p["predicted_ratio"] = analysis::round_to(predicted(plan.change), 4);
    p["metadata_max_age_ms"] = plan.metadata_max_age_ms;
    p["rate"] = plan.rate;
    p["producers"] = plan.producers;
    p["window"] = {{"producer_expected_ms", analysis::round_to(w.producer_expected_ms, 1)},
                   {"producer_max_ms", analysis::round_to(w.producer_max_ms, 1)},
                   {"all_producers_expected_ms", analysis::round_to(w.all_expected_ms, 1)}};
    p["records_old_rule_expected"] = analysis::round_to(w.records_old_rule_expected, 1);
    p["records_old_rule_max"] = analysis::round_to(w.records_old_rule_max, 1);
    p["records_misrouted_expected"] = analysis::round_to(misrouted, 1);
    auto& c = doc["candidates"] = nlohmann::ordered_json::array();
    for (const auto& r : moves.results)
      c.push_back({{"to", r.change.to},
                   {"changed", r.changed},
                   {"ratio", std::stod(analysis::exact_ratio(r.changed, r.keys, 4))},
                   {"predicted_ratio", analysis::round_to(predicted(r.change), 4)},
                   {"multiple", r.change.to % from == 0},
                   {"planned", r.change.to == plan.change.to}});
    write_stdout(doc.dump(2) + "\n");
    return;
  }
  const bool csv = format == OutputFormat::kCsv;
  analysis::Table t({{"to"}, {"keys"}, {"changed"}, {"ratio"}, {"predicted_ratio"}, {"multiple"}, {"planned"}});
  for (const auto& r : moves.results)
    t.add_row({std::to_string(r.change.to), std::to_string(r.keys), std::to_string(r.changed),
               analysis::exact_ratio(r.changed, r.keys, 4), analysis::fixed(predicted(r.change), 4),
               r.change.to % from == 0 ? (csv ? "true" : "*") : (csv ? "false" : ""),
               r.change.to == plan.change.to ? (csv ? "true" : "<-") : (csv ? "false" : "")});
  if (csv) {
    write_stdout(t.to_csv());
    return;
  }
  const std::string f = std::to_string(from), to = std::to_string(plan.change.to);
  std::string out = "plan: " + f + " -> " + to + " partitions over " + std::to_string(keys) + " keys\n";
  out += "keys moved: " + std::to_string(m.changed) + " of " + std::to_string(m.keys) + " (" +
         analysis::exact_ratio(m.changed, m.keys, 4) + "); predicted for uniform hashes " +
         analysis::fixed(predicted(plan.change), 4) + " (1 - gcd(" + f + ", " + to + ") / " + to + ")\n";
  out += "two-rule window: adding partitions raises no error, so each producer routes by " + f +
         " partitions until its next metadata refresh (metadata.max.age.ms " + whole(plan.metadata_max_age_ms) + "):\n";
  out += "  one producer: " + whole(w.producer_expected_ms) + " ms expected, " + whole(w.producer_max_ms) +
         " ms at most\n";
  out += "  the last of " + std::to_string(plan.producers) + " producer(s) sees " + to + " partitions after " +
         whole(w.all_expected_ms) + " ms expected\n";
  out += "  at " + analysis::fixed(plan.rate, plan.rate == std::floor(plan.rate) ? 0 : 2) +
         " records/s: " + whole(w.records_old_rule_expected) + " records routed by the old rule expected (" +
         whole(w.records_old_rule_max) + " at most), " + whole(misrouted) +
         " of them to a partition the new rule would not choose (the moved keys' share)\n";
  out += "\ncandidate counts (multiple: * a multiple of " + f + "; planned: <-)\n" + t.to_text();
  write_stdout(out);
}

}  // namespace

int run_keys_command(const Args& args) {
  const auto settings = parse_keys_args(args);
  if (!settings) return kExitOk;
  KeyStream keys(settings->keys);
  const Movements moves = count_movements(keys, *settings);
  if (settings->plan) {
    write_plan(moves, *settings->plan, keys.count(), settings->format);
    return kExitOk;
  }
  if (settings->format == OutputFormat::kJson) write_json(moves.results, moves.examples, keys.count(), settings->flow);
  else if (settings->format == OutputFormat::kCsv && settings->flow) write_flow_csv(moves.results);
  else write_rows(moves, settings->format == OutputFormat::kCsv, settings->flow);
  return kExitOk;
}

}  // namespace partsim::cli
