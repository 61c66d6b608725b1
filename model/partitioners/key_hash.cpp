#include "model/partitioners/key_hash.hpp"

namespace partsim::model {

std::int32_t murmur2(std::span<const std::uint8_t> data) {
  // Constants from spec §9.
  constexpr std::uint32_t kSeed = 0x9747b28cU;
  constexpr std::uint32_t kM = 0x5bd1e995U;
  constexpr int kR = 24;

  const std::size_t length = data.size();
  std::uint32_t h = kSeed ^ static_cast<std::uint32_t>(length);
  const std::size_t blocks = length / 4;
  const std::uint8_t* p = data.data();
  for (std::size_t i = 0; i < blocks; ++i, p += 4) {
    std::uint32_t k = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
                      (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
    k *= kM;
    k ^= k >> kR;
    k *= kM;
    h *= kM;
    h ^= k;
  }
  // Tail: fall through from 3 to 1; the multiply happens only when a tail exists.
  switch (length % 4) {
    case 3: h ^= static_cast<std::uint32_t>(p[2]) << 16; [[fallthrough]];
    case 2: h ^= static_cast<std::uint32_t>(p[1]) << 8; [[fallthrough]];
    case 1:
      h ^= static_cast<std::uint32_t>(p[0]);
      h *= kM;
      break;
    default: break;
  }
  h ^= h >> 13;
  h *= kM;
  h ^= h >> 15;
  return static_cast<std::int32_t>(h);
}

std::int32_t murmur2(std::string_view bytes) {
  return murmur2(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

namespace {

// Decodes one UTF-8 sequence at s[i]; returns the code point and advances i. A malformed or
// truncated sequence yields U+FFFD and consumes one byte.
std::uint32_t next_code_point(std::string_view s, std::size_t& i) {
  constexpr std::uint32_t kReplacement = 0xFFFD;
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const std::uint8_t b0 = byte(i);
  int extra = 0;
  std::uint32_t cp = 0;
  std::uint32_t min = 0;
  // clang-format off
  if (b0 < 0x80) { ++i; return b0; }
  if ((b0 & 0xE0) == 0xC0) { extra = 1; cp = b0 & 0x1Fu; min = 0x80; }
  else if ((b0 & 0xF0) == 0xE0) { extra = 2; cp = b0 & 0x0Fu; min = 0x800; }
  else if ((b0 & 0xF8) == 0xF0) { extra = 3; cp = b0 & 0x07u; min = 0x10000; }
  else { ++i; return kReplacement; }
  // clang-format on
  if (i + static_cast<std::size_t>(extra) >= s.size()) {  // truncated
    ++i;
    return kReplacement;
  }
  for (int k = 1; k <= extra; ++k) {
    const std::uint8_t b = byte(i + static_cast<std::size_t>(k));
    if ((b & 0xC0) != 0x80) {
      ++i;
      return kReplacement;
    }
    cp = (cp << 6) | (b & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += static_cast<std::size_t>(extra) + 1;
  return cp;
}

}  // namespace

std::int32_t java_string_hash(std::string_view utf8) {
  std::uint32_t h = 0;  // unsigned: Java int arithmetic wraps
  std::size_t i = 0;
  while (i < utf8.size()) {
    const std::uint32_t cp = next_code_point(utf8, i);
    if (cp >= 0x10000) {  // a supplementary character is two UTF-16 code units
      const std::uint32_t v = cp - 0x10000;
      h = 31 * h + (0xD800 + (v >> 10));
      h = 31 * h + (0xDC00 + (v & 0x3FF));
    } else {
      h = 31 * h + cp;
    }
  }
  return static_cast<std::int32_t>(h);
}

}  // namespace partsim::model
