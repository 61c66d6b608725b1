#include "cli/key_source.hpp"

#include "cli/cli_error.hpp"
#include "cli/options.hpp"
#include "scenarios/loader/input_error.hpp"

namespace po = boost::program_options;

namespace partsim::cli {

void add_key_source_options(po::options_description& desc, KeySourceOptions& opts, bool with_template) {
  desc.add_options()
      ("keys-file", po::value<std::string>()->notifier([&opts](const std::string& v) { opts.keys_file = v; }),
       "read keys from FILE, one per line ('-' = standard input)")
      ("key-encoding", po::value<std::string>(&opts.encoding)->default_value("utf8"),
       "utf8 (keys as text) or hex (two hex digits per byte, for arbitrary bytes)");
  if (with_template) {
    desc.add_options()
        ("template", po::value<std::string>()->notifier([&opts](const std::string& v) { opts.key_template = v; }),
         "generate keys from a template, {i} = 0..count-1, e.g. 'book-B{i}'")
        ("count", po::value<std::string>()->notifier([&opts](const std::string& v) {
           opts.count = parse_int(v, "--count", 1, 1'000'000'000);
         }), "number of keys generated from --template");
  }
}

std::vector<std::string> expand_key_template(const std::string& key_template, std::int64_t count) {
  static constexpr std::string_view kIndex = "{i}";
  if (key_template.find(kIndex) == std::string::npos)
    throw UsageError("--template: must contain {i} (the key's index), got '" + key_template + "'");
  std::vector<std::string> keys;
  keys.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    std::string key;
    const std::string index = std::to_string(i);
    std::size_t pos = 0;
    for (;;) {
      const std::size_t hit = key_template.find(kIndex, pos);
      key.append(key_template, pos, hit == std::string::npos ? std::string::npos : hit - pos);
      if (hit == std::string::npos) break;
      key += index;
      pos = hit + kIndex.size();
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

std::vector<std::string> gather_keys(const KeySourceOptions& opts) {
  const auto encoding = scenarios::parse_key_encoding(opts.encoding, "--key-encoding");
  const int sources = (opts.positional.empty() ? 0 : 1) + (opts.keys_file ? 1 : 0) + (opts.key_template ? 1 : 0);
  if (sources == 0) throw UsageError("no keys: give keys as arguments, --keys-file FILE (or - for stdin), or --template with --count");
  if (sources > 1) throw UsageError("keys come from one source: arguments, --keys-file or --template, not several");
  if (opts.count && !opts.key_template) throw UsageError("--count: needs --template");

  if (opts.key_template) {
    if (!opts.count) throw UsageError("--template: needs --count N (how many keys)");
    return expand_key_template(*opts.key_template, *opts.count);
  }
  if (opts.keys_file) {
    const std::string source = *opts.keys_file == "-" ? "<stdin>" : *opts.keys_file;
    auto keys = scenarios::parse_keys(scenarios::read_input_file(*opts.keys_file), encoding, source);
    if (keys.empty()) throw scenarios::InputError({source}, "contains no keys (an empty line is the empty key; an empty file has none)");
    return keys;
  }
  if (encoding == scenarios::KeyEncoding::kUtf8) return opts.positional;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < opts.positional.size(); ++i)
    keys.push_back(scenarios::decode_hex_key(opts.positional[i], "argument " + std::to_string(i + 1), 0));
  return keys;
}

}  // namespace partsim::cli
