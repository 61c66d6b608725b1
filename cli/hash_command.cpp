// partsim hash: where does a key land? murmur2, toPositive and the partition for each
// requested partition count, exactly as the Java client computes them (spec §9, §2.6).
// Keys stream from their source to standard output in 1 MiB pieces, so memory does not
// grow with their number; only the aligned table of keys from standard input keeps its
// first 65,536 rows to size the columns.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/hash_clients.hpp"
#include "cli/key_display.hpp"
#include "cli/key_source.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/partitioners/key_hash.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kHashUsage = "usage: partsim hash KEY... --partitions N[,M...] [options]\n"
                                   "       partsim hash --keys-file FILE|- --partitions N[,M...] [options]\n"
                                   "       partsim hash --template T --count N --partitions N[,M...] [options]\n"
                                   "Prints murmur2 (signed), toPositive and the partition of each key for each count;\n"
                                   "with --clients, the partition each client's partitioner gives it, and a summary.\n";

struct HashedKey {
  std::int32_t murmur2;
  std::int32_t positive;
};

HashedKey hash(std::string_view key) {
  const std::int32_t h = model::murmur2(key);
  return {h, model::to_positive(h)};
}

// Columns: key, murmur2, to_positive, p<N>...
struct TableLayout {
  std::vector<std::string> header;
  std::vector<std::size_t> width;

  explicit TableLayout(const std::vector<std::int32_t>& counts) {
    header = {"key", "murmur2", "to_positive"};
    for (auto n : counts) header.push_back("p" + std::to_string(n));
    for (const auto& h : header) width.push_back(h.size());
  }
  void fit(const std::string& shown, HashedKey h, const std::vector<std::int32_t>& counts) {
    width[0] = std::max(width[0], analysis::display_width(shown));
    width[1] = std::max(width[1], int_width(h.murmur2));
    width[2] = std::max(width[2], int_width(h.positive));
    for (std::size_t c = 0; c < counts.size(); ++c)
      width[3 + c] = std::max(width[3 + c], int_width(h.positive % counts[c]));
  }
  // Wide enough for any number (the rows after the first block of stdin keys).
  void fit_any_number(const std::vector<std::int32_t>& counts) {
    width[1] = std::max<std::size_t>(width[1], 11);  // -2147483648
    width[2] = std::max<std::size_t>(width[2], 10);
    for (std::size_t c = 0; c < counts.size(); ++c) width[3 + c] = std::max(width[3 + c], int_width(counts[c] - 1));
  }
  void right(std::string& out, std::size_t col, std::string_view cell) const {
    out += "  ";
    out.append(width[col] > cell.size() ? width[col] - cell.size() : 0, ' ');
    out += cell;
  }
  void header_row(std::string& out) const {
    out += header[0];
    out.append(width[0] - header[0].size(), ' ');
    for (std::size_t c = 1; c < header.size(); ++c) right(out, c, header[c]);
    out += '\n';
  }
  void row(std::string& out, const std::string& shown, HashedKey h, const std::vector<std::int32_t>& counts) const {
    out += shown;
    const std::size_t w = analysis::display_width(shown);
    out.append(width[0] > w ? width[0] - w : 0, ' ');
    std::string num;
    analysis::append_int(num, h.murmur2);
    right(out, 1, num);
    num.clear();
    analysis::append_int(num, h.positive);
    right(out, 2, num);
    for (std::size_t c = 0; c < counts.size(); ++c) {
      num.clear();
      analysis::append_int(num, h.positive % counts[c]);
      right(out, 3 + c, num);
    }
    out += '\n';
  }
};

void write_table(KeyStream& keys, const std::vector<std::int32_t>& counts) {
  const bool hex = keys.hex();
  TableLayout layout(counts);
  std::string out;
  std::string key;
  // Keys that can be read twice: a first pass sizes the columns exactly.
  if (keys.rewind()) {
    while (keys.next(key)) layout.fit(!hex && plain_key(key) ? key : display_key(key, hex, true), hash(key), counts);
    keys.rewind();
    layout.header_row(out);
    while (keys.next(key)) {
      layout.row(out, !hex && plain_key(key) ? key : display_key(key, hex, true), hash(key), counts);
      write_stdout_when_full(out);
    }
    write_stdout(out);
    return;
  }
  // Standard input: the first rows size the columns; later keys longer than those shift
  // their own row only.
  std::vector<std::pair<std::string, HashedKey>> block;
  bool more = true;
  while (block.size() < kStdinTableRows && (more = keys.next(key))) {
    block.emplace_back(display_key(key, hex, true), hash(key));
    layout.fit(block.back().first, block.back().second, counts);
  }
  if (more) more = keys.next(key);  // a key beyond the block: numbers may be wider
  if (more) layout.fit_any_number(counts);
  layout.header_row(out);
  for (const auto& [shown, h] : block) {
    layout.row(out, shown, h, counts);
    write_stdout_when_full(out);
  }
  block.clear();
  for (; more; more = keys.next(key)) {
    layout.row(out, display_key(key, hex, true), hash(key), counts);
    write_stdout_when_full(out);
  }
  write_stdout(out);
}

void write_csv(KeyStream& keys, const std::vector<std::int32_t>& counts) {
  const bool hex = keys.hex();
  std::string out = "key,murmur2,to_positive";
  for (auto n : counts) out += ",p" + std::to_string(n);
  out += '\n';
  std::string key;
  while (keys.next(key)) {
    const auto h = hash(key);
    analysis::append_csv_cell(out, hex ? display_key(key, true, false) : key);
    out += ',';
    analysis::append_int(out, h.murmur2);
    out += ',';
    analysis::append_int(out, h.positive);
    for (auto n : counts) {
      out += ',';
      analysis::append_int(out, h.positive % n);
    }
    out += '\n';
    write_stdout_when_full(out);
  }
  write_stdout(out);
}

// The same bytes as nlohmann's dump(2) of {"key_encoding", "partition_counts", "keys": [...]},
// written one key at a time.
void write_json(KeyStream& keys, const std::vector<std::int32_t>& counts) {
  const bool hex = keys.hex();
  nlohmann::ordered_json head;
  head["key_encoding"] = hex ? "hex" : "utf8";
  head["partition_counts"] = counts;
  std::string text = head.dump(2);
  text.resize(text.size() - 2);  // drop "\n}"
  std::string out = text + ",\n  \"keys\": [";
  std::vector<std::string> count_names;
  for (auto n : counts) count_names.push_back(",\n      \"p" + std::to_string(n) + "\": ");
  std::string key;
  bool first = true;
  while (keys.next(key)) {
    const auto h = hash(key);
    out += first ? "\n    {\n      \"key\": " : ",\n    {\n      \"key\": ";
    first = false;
    if (!hex && plain_key(key)) {
      out += '"';
      out += key;
      out += '"';
    } else {
      out += nlohmann::ordered_json(hex ? display_key(key, true, false) : key)
                 .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    }
    out += ",\n      \"murmur2\": ";
    analysis::append_int(out, h.murmur2);
    out += ",\n      \"to_positive\": ";
    analysis::append_int(out, h.positive);
    for (std::size_t c = 0; c < counts.size(); ++c) {
      out += count_names[c];
      analysis::append_int(out, h.positive % counts[c]);
    }
    out += "\n    }";
    write_stdout_when_full(out);
  }
  out += "\n  ]\n}\n";
  write_stdout(out);
}

}  // namespace

int run_hash_command(const Args& args) {
  KeySourceOptions keys_opts;
  std::string partitions_text;
  std::string format_text = "table";
  std::optional<std::string> clients_text;
  bool summary_only = false;
  po::options_description desc("hash options");
  std::string clients_help = "a column per client's partitioner (";
  for (const auto& c : model::client_key_rules()) clients_help += std::string(c.name) + ", ";
  clients_help += "or all), marked where it differs from Java's, and a summary";
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("partitions,p", po::value<std::string>(&partitions_text)->required(), "partition counts, e.g. 3 or 3,6,12")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, csv or json")
      ("clients", po::value<std::string>()->notifier([&](const std::string& v) { clients_text = v; }),
       clients_help.c_str())
      ("summary", po::bool_switch(&summary_only), "with --clients: the summary alone");
  // clang-format on
  add_key_source_options(desc, keys_opts, /*with_template=*/true);
  po::options_description hidden;
  hidden.add_options()("key", po::value<std::vector<std::string>>(&keys_opts.positional), "keys");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("key", -1);

  if (help_requested(args, kHashUsage, desc)) return kExitOk;
  parse_command_line(args, all, &pos);
  const auto counts = parse_partition_counts(partitions_text, "--partitions");
  const auto format = parse_format(format_text);
  if (summary_only && !clients_text) throw UsageError("--summary: only with --clients");
  if (clients_text) {
    const auto clients = parse_hash_clients(*clients_text);
    KeyStream keys(keys_opts);
    write_hash_clients(keys, counts, clients, format, summary_only);
    return kExitOk;
  }
  KeyStream keys(keys_opts);
  switch (format) {
    case OutputFormat::kTable: write_table(keys, counts); break;
    case OutputFormat::kCsv: write_csv(keys, counts); break;
    case OutputFormat::kJson: write_json(keys, counts); break;
  }
  return kExitOk;
}

}  // namespace partsim::cli
