#pragma once
// Byte-for-byte checks of a command's JSON output without pages of expected text: the
// output must be exactly what nlohmann's dump(2) prints for its own parse, so the compact
// dump() of that parse (one line in the test) pins every byte of the pretty output.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace partsim::testing {

inline std::string compact_json(const std::string& out) {
  const auto j = nlohmann::ordered_json::parse(out);
  CHECK(out == j.dump(2) + "\n");
  return j.dump();
}

}  // namespace partsim::testing
