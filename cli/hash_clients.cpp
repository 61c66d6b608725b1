#include "cli/hash_clients.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "cli/cli_error.hpp"
#include "cli/key_display.hpp"
#include "cli/output.hpp"
#include "scenarios/loader/yaml_reader.hpp"

namespace partsim::cli {
namespace {

using model::ClientKeyRule;

const char* hash_name(model::KeyHash h) {
  switch (h) {
    case model::KeyHash::kMurmur2: return "murmur2";
    case model::KeyHash::kCrc32: return "crc32";
    case model::KeyHash::kFnv1a: return "fnv1a";
    case model::KeyHash::kKafkajsLegacy: return "kafkajs-legacy";
    case model::KeyHash::kNone: return "none";
  }
  return "?";
}

const char* rule_name(model::HashToPartition r) {
  switch (r) {
    case model::HashToPartition::kMask: return "mask";
    case model::HashToPartition::kAbs: return "abs";
    case model::HashToPartition::kUnsigned: return "unsigned";
  }
  return "?";
}

/// How the client places keyed records: "murmur2, mask", or "ignores keys".
std::string keyed_rule(const ClientKeyRule& c) {
  return c.uses_keys ? std::string(hash_name(c.hash)) + ", " + rule_name(c.rule) : "ignores keys";
}

/// Places keys for every client and count, and counts the agreements with Java.
class Placer {
public:
  Placer(const std::vector<std::int32_t>& counts, const std::vector<const ClientKeyRule*>& clients)
      : counts_(counts),
        clients_(clients),
        java_(*model::find_client_key_rule("java")),
        agree_(counts.size() * clients.size(), 0),
        cells_(counts.size() * clients.size()) {}

  struct Cell {
    std::optional<std::int32_t> partition;  ///< none: not a function of the key
    bool differs = false;                   ///< from Java's
  };
  /// The cells of `key`, count by count, client by client.
  const std::vector<Cell>& place(std::string_view key) {
    ++keys_;
    // Each hash once per key (five of the clients hash with murmur2), then each count.
    for (auto& h : hashes_) h.reset();
    const auto hash_of = [&](model::KeyHash kind) {
      auto& h = hashes_[static_cast<std::size_t>(kind)];
      if (!h) h = model::key_hash(kind, key);
      return *h;
    };
    const auto partition = [&](const ClientKeyRule& c, std::int32_t n) -> std::optional<std::int32_t> {
      if (!model::hashes_key(c, key)) return std::nullopt;
      return model::hash_to_partition(hash_of(c.hash), c.rule, n);
    };
    for (std::size_t n = 0; n < counts_.size(); ++n) {
      const std::optional<std::int32_t> java = partition(java_, counts_[n]);
      for (std::size_t c = 0; c < clients_.size(); ++c) {
        Cell& cell = cells_[n * clients_.size() + c];
        cell.partition = clients_[c] == &java_ ? java : partition(*clients_[c], counts_[n]);
        cell.differs = cell.partition != java;
        if (!cell.differs) ++agree_[n * clients_.size() + c];
      }
    }
    return cells_;
  }
  std::uint64_t keys() const { return keys_; }
  std::uint64_t agree(std::size_t count, std::size_t client) const { return agree_[count * clients_.size() + client]; }

private:
  const std::vector<std::int32_t>& counts_;
  const std::vector<const ClientKeyRule*>& clients_;
  const ClientKeyRule& java_;
  std::vector<std::uint64_t> agree_;
  std::vector<Cell> cells_;
  std::array<std::optional<std::uint32_t>, 5> hashes_;  // per model::KeyHash, of the key being placed
  std::uint64_t keys_ = 0;
};

std::vector<std::string> column_names(const std::vector<std::int32_t>& counts,
                                      const std::vector<const ClientKeyRule*>& clients) {
  std::vector<std::string> names;
  for (const std::int32_t n : counts)
    for (const ClientKeyRule* c : clients) names.push_back(std::string(c->name) + ".p" + std::to_string(n));
  return names;
}

std::string share(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  return analysis::fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) + "%";
}

analysis::Table summary_table(const Placer& placer, const std::vector<std::int32_t>& counts,
                              const std::vector<const ClientKeyRule*>& clients) {
  std::vector<analysis::Column> columns{{"client", analysis::Align::kLeft},
                                        {"partitioner", analysis::Align::kLeft},
                                        {"keyed records", analysis::Align::kLeft},
                                        {"null key", analysis::Align::kLeft},
                                        {"empty key", analysis::Align::kLeft}};
  for (const std::int32_t n : counts) columns.push_back({"as java p" + std::to_string(n), analysis::Align::kRight});
  analysis::Table t(std::move(columns));
  for (std::size_t c = 0; c < clients.size(); ++c) {
    const ClientKeyRule& r = *clients[c];
    std::vector<std::string> row{std::string(r.name), std::string(r.partitioner), keyed_rule(r),
                                 model::unhashed_rule_name(r.null_key), model::unhashed_rule_name(r.empty_key)};
    for (std::size_t n = 0; n < counts.size(); ++n) row.push_back(share(placer.agree(n, c), placer.keys()));
    t.add_row(std::move(row));
  }
  return t;
}

nlohmann::ordered_json summary_json(const Placer& placer, const std::vector<std::int32_t>& counts,
                                    const std::vector<const ClientKeyRule*>& clients) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < clients.size(); ++c) {
    const ClientKeyRule& r = *clients[c];
    nlohmann::ordered_json j;
    j["client"] = r.name;
    j["partitioner"] = r.partitioner;
    j["hash"] = r.uses_keys ? nlohmann::ordered_json(hash_name(r.hash)) : nlohmann::ordered_json(nullptr);
    j["rule"] = r.uses_keys ? nlohmann::ordered_json(rule_name(r.rule)) : nlohmann::ordered_json(nullptr);
    j["null_key"] = model::unhashed_rule_name(r.null_key);
    j["empty_key"] = model::unhashed_rule_name(r.empty_key);
    nlohmann::ordered_json agree;
    for (std::size_t n = 0; n < counts.size(); ++n)
      agree["p" + std::to_string(counts[n])] = {{"keys", placer.keys()}, {"as_java", placer.agree(n, c)}};
    j["agreement"] = std::move(agree);
    out.push_back(std::move(j));
  }
  return out;
}

// A cell of the aligned table: the partition with '*' where it differs from Java's, or '-'
// where the client does not place the key by its hash (the summary says how it does).
void append_table_cell(std::string& out, const Placer::Cell& cell, std::size_t width) {
  std::string text;
  if (cell.partition) analysis::append_int(text, *cell.partition);
  else text = "-";
  text += cell.partition && cell.differs ? '*' : ' ';
  out += "  ";
  out.append(width > text.size() ? width - text.size() : 0, ' ');
  out += text;
}

void write_table(KeyStream& keys, const std::vector<std::int32_t>& counts,
                 const std::vector<const ClientKeyRule*>& clients, bool summary_only) {
  Placer placer(counts, clients);
  const bool hex = keys.hex();
  std::string key;
  if (summary_only) {
    while (keys.next(key)) placer.place(key);
    write_stdout(summary_table(placer, counts, clients).to_text());
    return;
  }
  const std::vector<std::string> names = column_names(counts, clients);
  std::vector<std::size_t> width;
  for (std::size_t i = 0; i < names.size(); ++i)
    width.push_back(std::max(names[i].size(), int_width(counts[i / clients.size()] - 1) + 1));
  std::size_t key_width = 3;  // "key"
  const auto shown = [&](const std::string& k) { return !hex && plain_key(k) ? k : display_key(k, hex, true); };
  // Keys that can be read twice: a first pass sizes the key column. Standard input: its
  // first keys do (a longer key later shifts its own row only).
  std::vector<std::pair<std::string, std::string>> block;  // (key, as shown)
  if (keys.rewind()) {
    while (keys.next(key)) key_width = std::max(key_width, analysis::display_width(shown(key)));
    keys.rewind();
  } else {
    while (block.size() < kStdinTableRows && keys.next(key)) {
      block.emplace_back(key, shown(key));
      key_width = std::max(key_width, analysis::display_width(block.back().second));
    }
  }
  std::string out = "key";
  out.append(key_width - 3, ' ');
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += "  ";
    out.append(width[i] - names[i].size(), ' ');
    out += names[i];
  }
  out += '\n';
  const auto row = [&](const std::string& raw, const std::string& text) {
    out += text;
    const std::size_t w = analysis::display_width(text);
    out.append(key_width > w ? key_width - w : 0, ' ');
    const auto& cells = placer.place(raw);
    for (std::size_t i = 0; i < cells.size(); ++i) append_table_cell(out, cells[i], width[i]);
    while (out.back() == ' ') out.pop_back();  // the last cell's empty marker
    out += '\n';
    write_stdout_when_full(out);
  };
  for (const auto& [raw, text] : block) row(raw, text);
  block.clear();
  while (keys.next(key)) row(key, shown(key));
  out += '\n';
  out += summary_table(placer, counts, clients).to_text();
  write_stdout(out);
}

// CSV: key, then a cell per client and count: the partition, empty where the client does
// not place the key by its hash. The summary alone with summary_only.
void write_csv(KeyStream& keys, const std::vector<std::int32_t>& counts,
               const std::vector<const ClientKeyRule*>& clients, bool summary_only) {
  Placer placer(counts, clients);
  std::string key;
  if (summary_only) {
    while (keys.next(key)) placer.place(key);
    write_stdout(summary_table(placer, counts, clients).to_csv());
    return;
  }
  const bool hex = keys.hex();
  std::string out = "key";
  for (const std::string& name : column_names(counts, clients)) {
    out += ',';
    analysis::append_csv_cell(out, name);
  }
  out += '\n';
  while (keys.next(key)) {
    analysis::append_csv_cell(out, hex ? display_key(key, true, false) : key);
    for (const Placer::Cell& cell : placer.place(key)) {
      out += ',';
      if (cell.partition) analysis::append_int(out, *cell.partition);
    }
    out += '\n';
    write_stdout_when_full(out);
  }
  write_stdout(out);
}

// JSON: {"key_encoding", "partition_counts", "clients", "keys": [{"key", "<client>.p<N>"...}],
// "summary": [...]}, the keys written one at a time (null where the client does not place
// the key by its hash); with summary_only, the same without "keys".
void write_json(KeyStream& keys, const std::vector<std::int32_t>& counts,
                const std::vector<const ClientKeyRule*>& clients, bool summary_only) {
  Placer placer(counts, clients);
  const bool hex = keys.hex();
  nlohmann::ordered_json head;
  head["key_encoding"] = hex ? "hex" : "utf8";
  head["partition_counts"] = counts;
  head["clients"] = nlohmann::ordered_json::array();
  for (const ClientKeyRule* c : clients) head["clients"].push_back(c->name);
  std::string out = head.dump(2);
  out.resize(out.size() - 2);  // drop "\n}"
  std::string key;
  if (summary_only) {
    while (keys.next(key)) placer.place(key);
  } else {
    std::vector<std::string> names;
    for (const std::string& name : column_names(counts, clients)) names.push_back(",\n      \"" + name + "\": ");
    out += ",\n  \"keys\": [";
    bool first = true;
    while (keys.next(key)) {
      out += first ? "\n    {\n      \"key\": " : ",\n    {\n      \"key\": ";
      first = false;
      out += nlohmann::ordered_json(hex ? display_key(key, true, false) : key)
                 .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
      const auto& cells = placer.place(key);
      for (std::size_t i = 0; i < cells.size(); ++i) {
        out += names[i];
        if (cells[i].partition) analysis::append_int(out, *cells[i].partition);
        else out += "null";
      }
      out += "\n    }";
      write_stdout_when_full(out);
    }
    out += first ? "]" : "\n  ]";
  }
  // The summary, indented as dump(2) would inside the object.
  std::string summary = summary_json(placer, counts, clients).dump(2);
  std::string indented;
  for (const char ch : summary) {
    indented += ch;
    if (ch == '\n') indented += "  ";
  }
  out += ",\n  \"summary\": " + indented + "\n}\n";
  write_stdout(out);
}

}  // namespace

std::vector<const ClientKeyRule*> parse_hash_clients(const std::string& text) {
  std::vector<const ClientKeyRule*> out, named;
  std::set<std::string> known{"all"};
  std::string names;
  for (const ClientKeyRule& c : model::client_key_rules()) {
    known.insert(std::string(c.name));
    names += (names.empty() ? "" : ", ") + std::string(c.name);
  }
  if (text.empty()) throw UsageError("--clients: no client given; known: " + names + ", or all");
  bool all = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    start = comma + 1;
    if (name.empty()) throw UsageError("--clients: an empty name in '" + text + "'; known: " + names + ", or all");
    if (name == "all") {  // the clients not named yet
      if (all) throw UsageError("--clients: 'all' is given twice");
      all = true;
      for (const ClientKeyRule& c : model::client_key_rules())
        if (std::find(out.begin(), out.end(), &c) == out.end()) out.push_back(&c);
      continue;
    }
    const ClientKeyRule* c = model::find_client_key_rule(name);
    if (!c) {
      std::string message = "--clients: unknown client '" + name + "'";
      if (const auto guess = scenarios::did_you_mean(name, known)) message += " (did you mean '" + *guess + "'?)";
      throw UsageError(message + "; known: " + names + ", or all");
    }
    if (std::find(named.begin(), named.end(), c) != named.end())
      throw UsageError("--clients: '" + name + "' is given twice");
    named.push_back(c);
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);  // else "all" named it before
  }
  return out;
}

void write_hash_clients(KeyStream& keys, const std::vector<std::int32_t>& counts,
                        const std::vector<const ClientKeyRule*>& clients, OutputFormat format, bool summary_only) {
  switch (format) {
    case OutputFormat::kTable: write_table(keys, counts, clients, summary_only); break;
    case OutputFormat::kCsv: write_csv(keys, counts, clients, summary_only); break;
    case OutputFormat::kJson: write_json(keys, counts, clients, summary_only); break;
  }
}

}  // namespace partsim::cli
