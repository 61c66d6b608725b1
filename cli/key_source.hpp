#pragma once
// Where the hash and keys commands get their keys: the command line, a template
// ("book-B{i}" for i = 0..count-1), a file or standard input, in utf8 or hex. Keys come one
// at a time, so a billion of them cost no memory: a template is expanded as it is read and
// a file is read in 1 MiB chunks. A file follows scenarios/loader/key_reader.hpp's rules:
// one key per line, an empty line is the empty key, a trailing CR is dropped, a final
// newline ends the last line.

#include <cstdint>
#include <cstdio>
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

/// The keys of exactly one source, in order.
class KeyStream {
public:
  /// Throws UsageError when no source or several are given (or --template lacks {i} or
  /// --count), InputError when the file cannot be opened.
  explicit KeyStream(const KeySourceOptions& opts);
  ~KeyStream();
  KeyStream(const KeyStream&) = delete;
  KeyStream& operator=(const KeyStream&) = delete;

  /// Puts the next key into `key`; false after the last. Throws InputError for bad hex
  /// (file:line:column) or an unreadable or empty file.
  bool next(std::string& key);
  /// Starts again from the first key; false (and no change) when the source is standard
  /// input, which cannot be read twice.
  bool rewind();
  /// Keys returned so far.
  std::uint64_t count() const { return count_; }
  /// How many keys the source holds, when known before reading (arguments, a template).
  std::optional<std::uint64_t> known_count() const;
  bool hex() const { return encoding_ == scenarios::KeyEncoding::kHex; }

private:
  bool next_line(std::string_view& line);

  enum class Kind { kArguments, kTemplate, kFile } kind_ = Kind::kArguments;
  scenarios::KeyEncoding encoding_ = scenarios::KeyEncoding::kUtf8;
  std::uint64_t count_ = 0;
  std::vector<std::string> arguments_;
  std::vector<std::string> template_parts_;  // the template split at each {i}
  std::uint64_t template_count_ = 0;
  std::string source_;  // the file's name for errors, or "<stdin>"
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  bool eof_ = false;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::size_t line_no_ = 0;
};

}  // namespace partsim::cli
