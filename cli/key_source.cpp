#include "cli/key_source.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "analysis/format.hpp"
#include "cli/cli_error.hpp"
#include "cli/options.hpp"
#include "scenarios/loader/input_error.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr std::size_t kChunk = 1 << 20;  // bytes read from a key file at a time

}  // namespace

void add_key_source_options(po::options_description& desc, KeySourceOptions& opts, bool with_template) {
  // clang-format off
  desc.add_options()
      ("keys-file", po::value<std::string>()->notifier([&opts](const std::string& v) { opts.keys_file = v; }),
       "read keys from FILE, one per line ('-' = standard input)")
      ("key-encoding", po::value<std::string>(&opts.encoding)->default_value("utf8"),
       "utf8 (keys as text) or hex (two hex digits per byte, for arbitrary bytes)");
  // clang-format on
  if (with_template) {
    // clang-format off
    desc.add_options()
        ("template", po::value<std::string>()->notifier([&opts](const std::string& v) { opts.key_template = v; }),
         "generate keys from a template, {i} = 0..count-1, e.g. 'book-B{i}'")
        ("count", po::value<std::string>()->notifier([&opts](const std::string& v) {
           opts.count = parse_int(v, "--count", 1, 1'000'000'000);
         }), "number of keys generated from --template");
    // clang-format on
  }
}

KeyStream::KeyStream(const KeySourceOptions& opts) {
  encoding_ = scenarios::parse_key_encoding(opts.encoding, "--key-encoding");
  const int sources = (opts.positional.empty() ? 0 : 1) + (opts.keys_file ? 1 : 0) + (opts.key_template ? 1 : 0);
  if (sources == 0)
    throw UsageError("no keys: give keys as arguments, --keys-file FILE (or - for stdin), or --template with --count");
  if (sources > 1) throw UsageError("keys come from one source: arguments, --keys-file or --template, not several");
  if (opts.count && !opts.key_template) throw UsageError("--count: needs --template");

  if (opts.key_template) {
    static constexpr std::string_view kIndex = "{i}";
    const std::string& t = *opts.key_template;
    if (t.find(kIndex) == std::string::npos)
      throw UsageError("--template: must contain {i} (the key's index), got '" + t + "'");
    if (!opts.count) throw UsageError("--template: needs --count N (how many keys)");
    kind_ = Kind::kTemplate;
    template_count_ = static_cast<std::uint64_t>(*opts.count);
    for (std::size_t pos = 0;;) {
      const std::size_t hit = t.find(kIndex, pos);
      template_parts_.push_back(t.substr(pos, hit == std::string::npos ? std::string::npos : hit - pos));
      if (hit == std::string::npos) break;
      pos = hit + kIndex.size();
    }
    return;
  }
  if (opts.keys_file) {
    kind_ = Kind::kFile;
    const std::string& path = *opts.keys_file;
    if (path == "-") {
      source_ = "<stdin>";
      file_ = stdin;
      return;
    }
    source_ = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw scenarios::InputError({path}, "is a directory, expected a file");
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw scenarios::InputError({path}, std::string("cannot open file: ") + std::strerror(errno));
    owns_file_ = true;
    return;
  }
  kind_ = Kind::kArguments;
  arguments_ = opts.positional;
  if (encoding_ == scenarios::KeyEncoding::kHex)
    for (std::size_t i = 0; i < arguments_.size(); ++i)
      arguments_[i] = scenarios::decode_hex_key(arguments_[i], "argument " + std::to_string(i + 1), 0);
}

KeyStream::~KeyStream() {
  if (owns_file_) std::fclose(file_);
}

std::optional<std::uint64_t> KeyStream::known_count() const {
  switch (kind_) {
    case Kind::kArguments: return arguments_.size();
    case Kind::kTemplate: return template_count_;
    case Kind::kFile: return std::nullopt;
  }
  return std::nullopt;
}

bool KeyStream::rewind() {
  if (kind_ == Kind::kFile) {
    if (!owns_file_ || std::fseek(file_, 0, SEEK_SET) != 0) return false;
    std::clearerr(file_);
    eof_ = false;
    buffer_.clear();
    pos_ = 0;
    line_no_ = 0;
  }
  count_ = 0;
  return true;
}

bool KeyStream::next_line(std::string_view& line) {
  for (;;) {
    const std::size_t nl = buffer_.find('\n', pos_);
    if (nl != std::string::npos) {
      line = std::string_view(buffer_).substr(pos_, nl - pos_);
      pos_ = nl + 1;
      return true;
    }
    if (eof_) {
      if (pos_ >= buffer_.size()) return false;
      line = std::string_view(buffer_).substr(pos_);  // the last line, without a newline
      pos_ = buffer_.size();
      return true;
    }
    buffer_.erase(0, pos_);  // keep the unfinished line, read the next chunk after it
    pos_ = 0;
    const std::size_t had = buffer_.size();
    buffer_.resize(had + kChunk);
    const std::size_t got = std::fread(buffer_.data() + had, 1, kChunk, file_);
    buffer_.resize(had + got);
    if (got < kChunk) {
      if (std::ferror(file_))
        throw scenarios::InputError({source_}, file_ == stdin ? "cannot read standard input" : "cannot read file");
      eof_ = true;
    }
  }
}

bool KeyStream::next(std::string& key) {
  switch (kind_) {
    case Kind::kArguments:
      if (count_ >= arguments_.size()) return false;
      key = arguments_[count_];
      break;
    case Kind::kTemplate: {
      if (count_ >= template_count_) return false;
      key.clear();
      for (std::size_t p = 0; p < template_parts_.size(); ++p) {
        if (p > 0) analysis::append_int(key, count_);
        key += template_parts_[p];
      }
      break;
    }
    case Kind::kFile: {
      std::string_view line;
      if (!next_line(line)) {
        if (count_ == 0)
          throw scenarios::InputError({source_},
                                      "contains no keys (an empty line is the empty key; an empty file has none)");
        return false;
      }
      ++line_no_;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (encoding_ == scenarios::KeyEncoding::kHex) key = scenarios::decode_hex_key(line, source_, line_no_);
      else key.assign(line);
      break;
    }
  }
  ++count_;
  return true;
}

}  // namespace partsim::cli
