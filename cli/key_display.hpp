#pragma once
// How the hash command shows a key and sizes a number's column: shared by its Java columns
// (hash_command.cpp) and its clients' columns (hash_clients.cpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/format.hpp"

namespace partsim::cli {

/// Rows that size an aligned table's key column when the keys come from standard input,
/// which cannot be read twice (a longer key later shifts its own row only).
inline constexpr std::size_t kStdinTableRows = 65536;

/// True for a key that shows as itself everywhere: printable ASCII without quotes or
/// backslashes (most keys; the others take the slower general path).
inline bool plain_key(std::string_view key) {
  for (unsigned char c : key)
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') return false;
  return true;
}

/// The key as shown: the text itself, or its bytes in hex when read as hex. In the aligned
/// table, control characters are escaped so one key stays one line.
inline std::string display_key(const std::string& key, bool hex, bool escape_controls) {
  if (hex) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(key.size() * 2);
    for (unsigned char c : key) {
      out += kDigits[c >> 4];
      out += kDigits[c & 15];
    }
    return out;
  }
  return escape_controls ? analysis::escape_controls(key) : key;
}

/// Characters of `v` in decimal.
inline std::size_t int_width(std::int64_t v) {
  std::size_t w = v < 0 ? 2 : 1;
  for (std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v); u >= 10; u /= 10)
    ++w;
  return w;
}

}  // namespace partsim::cli
