#pragma once
// Where the hash and keys commands get their keys: the command line, a template
// ("book-B{i}" for i = 0..count-1), a file or standard input, in utf8 or hex.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "scenarios/loader/key_reader.hpp"

namespace partsim::cli {

struct KeySourceOptions {
  std::vector<std::string> positional;   ///< keys given as arguments
  std::optional<std::string> keys_file;  ///< path or "-"
  std::optional<std::string> key_template;
  std::optional<std::int64_t> count;
  std::string encoding = "utf8";
};

/// Adds --keys-file, --key-encoding (and --template/--count when `with_template`).
void add_key_source_options(boost::program_options::options_description& desc, KeySourceOptions& opts,
                            bool with_template);

/// Expands "book-{i}" for i in [0, count); the template must contain "{i}".
std::vector<std::string> expand_key_template(const std::string& key_template, std::int64_t count);

/// Collects the keys from exactly one source; throws UsageError when none or several are
/// given, InputError for unreadable files or bad hex.
std::vector<std::string> gather_keys(const KeySourceOptions& opts);

}  // namespace partsim::cli
