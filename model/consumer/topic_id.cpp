#include "model/consumer/topic_id.hpp"

#include <array>

namespace partsim::model::consumer {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int sextet(char c) {
  const auto at = kAlphabet.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

}  // namespace

std::optional<TopicId> TopicId::parse(std::string_view text) {
  if (text.size() == 24 && text.substr(22) == "==") text = text.substr(0, 22);
  if (text.size() != 22) return std::nullopt;
  // 22 characters carry 132 bits: the 16 bytes and 4 bits that Java's decoder drops.
  std::array<std::uint8_t, 16> bytes{};
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t out = 0;
  for (char c : text) {
    const int v = sextet(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8 && out < bytes.size()) {
      bits -= 8;
      bytes[out++] = static_cast<std::uint8_t>(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  TopicId id;
  std::uint64_t most = 0, least = 0;
  for (std::size_t i = 0; i < 8; ++i) most = (most << 8) | bytes[i];
  for (std::size_t i = 8; i < 16; ++i) least = (least << 8) | bytes[i];
  id.most = static_cast<std::int64_t>(most);
  id.least = static_cast<std::int64_t>(least);
  return id;
}

std::string TopicId::to_string() const {
  std::array<std::uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < 8; ++i) {
    bytes[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(most) >> (56 - 8 * i));
    bytes[8 + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(least) >> (56 - 8 * i));
  }
  std::string text;
  std::uint32_t acc = 0;
  int bits = 0;
  for (auto b : bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      text += kAlphabet[(acc >> bits) & 0x3F];
    }
    acc &= (1u << bits) - 1;
  }
  if (bits > 0) text += kAlphabet[(acc << (6 - bits)) & 0x3F];
  return text;
}

std::int32_t TopicId::java_hash() const {
  const auto x = static_cast<std::uint64_t>(most ^ least);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x >> 32) ^ static_cast<std::uint32_t>(x));
}

}  // namespace partsim::model::consumer
