#pragma once
// Text checks for strings that end up in output: every string in a scenario must be valid
// UTF-8 (YAML is a Unicode format, results are JSON), and messages show bad bytes as \xNN
// instead of printing them raw.

#include <cstddef>
#include <string>
#include <string_view>

namespace partsim::scenarios {

/// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// `text` for a message: valid UTF-8 as is, control characters and bytes that are not
/// part of a valid sequence as \xNN; longer than `max_chars` bytes: the first
/// `max_chars` - 3 and "...".
std::string printable(std::string_view text, std::size_t max_chars = 60);

}  // namespace partsim::scenarios
