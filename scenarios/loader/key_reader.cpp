#include "scenarios/loader/key_reader.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "scenarios/loader/input_error.hpp"

namespace partsim::scenarios {

KeyEncoding parse_key_encoding(std::string_view text, std::string_view option) {
  if (text == "utf8") return KeyEncoding::kUtf8;
  if (text == "hex") return KeyEncoding::kHex;
  throw InputError({std::string(option)}, "must be utf8 or hex, got '" + std::string(text) + "'");
}

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string decode_hex_key(std::string_view hex, std::string_view source, std::size_t line) {
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); ++i) {
    if (hex_value(hex[i]) < 0) {
      const unsigned char c = static_cast<unsigned char>(hex[i]);
      std::string shown = (c >= 0x20 && c < 0x7f)
                              ? std::string(1, hex[i])
                              : "\\x" + std::string{"0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};
      throw InputError({std::string(source), line, i + 1},
                       "invalid hex digit '" + shown + "' (a hex key uses 0-9, a-f, A-F, two digits per byte)");
    }
  }
  if (hex.size() % 2 != 0)
    throw InputError({std::string(source), line, hex.size()}, "odd number of hex digits (" +
                                                                  std::to_string(hex.size()) +
                                                                  "); a hex key has two digits per byte");
  for (std::size_t i = 0; i < hex.size(); i += 2)
    out.push_back(static_cast<char>(hex_value(hex[i]) * 16 + hex_value(hex[i + 1])));
  return out;
}

std::vector<std::string> parse_keys(std::string_view text, KeyEncoding encoding, std::string_view source) {
  std::vector<std::string> keys;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    if (encoding == KeyEncoding::kHex) keys.push_back(decode_hex_key(line, source, line_no));
    else keys.emplace_back(line);
    pos = end + 1;
  }
  return keys;
}

std::string read_input_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    if (std::cin.bad()) throw InputError({"<stdin>"}, "cannot read standard input");
    return ss.str();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError({path}, "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path}, std::string("cannot open file: ") + std::strerror(errno));
  std::string data;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) data.append(chunk, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw InputError({path}, "cannot read file");
  return data;
}

}  // namespace partsim::scenarios
