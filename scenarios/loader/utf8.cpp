#include "scenarios/loader/utf8.hpp"

#include <cstdint>
#include <cstdio>

namespace partsim::scenarios {
namespace {

// The length of the well-formed UTF-8 sequence at s[i], or 0 when it is malformed
// (Unicode 15 table 3-7: the second byte's range depends on the first).
std::size_t sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const std::uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string printable(std::string_view text, std::size_t max_chars) {
  std::string out;
  const std::size_t limit = text.size() > max_chars && max_chars > 3 ? max_chars - 3 : max_chars;
  std::size_t i = 0;
  for (; i < text.size() && i < limit;) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = sequence_length(text, i);
    if (n > 1 || (n == 1 && c >= 0x20 && c != 0x7f)) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", c);
    out += buf;
    ++i;
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace partsim::scenarios
