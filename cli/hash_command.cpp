// partsim hash: where does a key land? murmur2, toPositive and the partition for each
// requested partition count, exactly as the Java client computes them (spec §9, §2.6).

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

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kHashUsage =
    "usage: partsim hash KEY... --partitions N[,M...] [options]\n"
    "       partsim hash --keys-file FILE|- --partitions N[,M...] [options]\n"
    "Prints murmur2 (signed), toPositive and the partition of each key for each count.\n";

struct HashedKey {
  std::int32_t murmur2;
  std::int32_t positive;
};

bool has_controls(const std::string& key) {
  for (unsigned char c : key)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}

// The key as shown: the text itself, or its bytes in hex when read as hex. In the aligned
// table, control characters are escaped so one key stays one line.
std::string display_key(const std::string& key, bool hex, bool escape_controls) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  if (hex) {
    for (unsigned char c : key) {
      out += kDigits[c >> 4];
      out += kDigits[c & 15];
    }
    return out;
  }
  if (!escape_controls) return key;
  for (unsigned char c : key) {
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kDigits[c >> 4];
      out += kDigits[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string render_text(const std::vector<std::string>& shown, const std::vector<HashedKey>& hashed,
                        const std::vector<std::int32_t>& counts) {
  std::vector<std::string> header{"key", "murmur2", "to_positive"};
  for (auto n : counts) header.push_back("p" + std::to_string(n));
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  std::string num;
  auto int_width = [&](std::int64_t v) { num.clear(); analysis::append_int(num, v); return num.size(); };
  for (std::size_t i = 0; i < shown.size(); ++i) {
    width[0] = std::max(width[0], analysis::display_width(shown[i]));
    width[1] = std::max(width[1], int_width(hashed[i].murmur2));
    width[2] = std::max(width[2], int_width(hashed[i].positive));
    for (std::size_t c = 0; c < counts.size(); ++c) width[3 + c] = std::max(width[3 + c], int_width(hashed[i].positive % counts[c]));
  }
  std::string out;
  out.reserve((shown.size() + 1) * (width[0] + 30 + 6 * counts.size()));
  auto right = [&](std::size_t col, std::string_view cell) {
    out += "  ";
    out.append(width[col] - cell.size(), ' ');
    out += cell;
  };
  out += header[0];
  out.append(width[0] - header[0].size(), ' ');
  for (std::size_t c = 1; c < header.size(); ++c) right(c, header[c]);
  out += '\n';
  for (std::size_t i = 0; i < shown.size(); ++i) {
    out += shown[i];
    out.append(width[0] - analysis::display_width(shown[i]), ' ');
    num.clear(); analysis::append_int(num, hashed[i].murmur2); right(1, num);
    num.clear(); analysis::append_int(num, hashed[i].positive); right(2, num);
    for (std::size_t c = 0; c < counts.size(); ++c) {
      num.clear(); analysis::append_int(num, hashed[i].positive % counts[c]); right(3 + c, num);
    }
    out += '\n';
  }
  return out;
}

std::string render_csv(const std::vector<std::string>& shown, const std::vector<HashedKey>& hashed,
                       const std::vector<std::int32_t>& counts) {
  std::string out = "key,murmur2,to_positive";
  for (auto n : counts) out += ",p" + std::to_string(n);
  out += '\n';
  out.reserve(shown.size() * (24 + 4 * counts.size()));
  for (std::size_t i = 0; i < shown.size(); ++i) {
    analysis::append_csv_cell(out, shown[i]);
    out += ',';
    analysis::append_int(out, hashed[i].murmur2);
    out += ',';
    analysis::append_int(out, hashed[i].positive);
    for (auto n : counts) {
      out += ',';
      analysis::append_int(out, hashed[i].positive % n);
    }
    out += '\n';
  }
  return out;
}

std::string render_json(const std::vector<std::string>& shown, const std::vector<HashedKey>& hashed,
                        const std::vector<std::int32_t>& counts, bool hex) {
  nlohmann::ordered_json keys = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < shown.size(); ++i) {
    nlohmann::ordered_json k;
    k["key"] = shown[i];
    k["murmur2"] = hashed[i].murmur2;
    k["to_positive"] = hashed[i].positive;
    for (auto n : counts) k["p" + std::to_string(n)] = hashed[i].positive % n;
    keys.push_back(std::move(k));
  }
  nlohmann::ordered_json doc;
  doc["key_encoding"] = hex ? "hex" : "utf8";
  doc["partition_counts"] = counts;
  doc["keys"] = std::move(keys);
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

int run_hash_command(const Args& args) {
  KeySourceOptions keys_opts;
  std::string partitions_text;
  std::string format_text = "table";
  po::options_description desc("hash options");
  desc.add_options()
      ("help,h", "show this help")
      ("partitions,p", po::value<std::string>(&partitions_text)->required(), "partition counts, e.g. 3 or 3,6,12")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, csv or json");
  add_key_source_options(desc, keys_opts, /*with_template=*/false);
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
  const bool hex = keys_opts.encoding == "hex";
  auto keys = gather_keys(keys_opts);

  std::vector<HashedKey> hashed;
  hashed.reserve(keys.size());
  for (const auto& k : keys) {
    const std::int32_t h = model::murmur2(k);
    hashed.push_back({h, model::to_positive(h)});
  }
  // From here on the keys are only shown: rewrite them in place into their display form.
  const bool escape = format == OutputFormat::kTable;
  for (auto& k : keys)
    if (hex || (escape && has_controls(k))) k = display_key(k, hex, escape);
  const auto& shown = keys;
  switch (format) {
    case OutputFormat::kTable: write_stdout(render_text(shown, hashed, counts)); break;
    case OutputFormat::kCsv: write_stdout(render_csv(shown, hashed, counts)); break;
    case OutputFormat::kJson: write_stdout(render_json(shown, hashed, counts, hex)); break;
  }
  return kExitOk;
}

}  // namespace partsim::cli
