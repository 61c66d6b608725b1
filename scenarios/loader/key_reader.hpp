#pragma once
// Keys from text, one per line: UTF-8 text as is, or hex for arbitrary bytes. An empty
// line is the empty key (which Kafka hashes; it is not a null key). A trailing CR is
// dropped so files written on Windows read the same; a final newline ends the last line
// rather than adding an empty key.

#include <string>
#include <string_view>
#include <vector>

namespace partsim::scenarios {

enum class KeyEncoding { kUtf8, kHex };

/// Parses "utf8" or "hex"; throws InputError naming `option` otherwise.
KeyEncoding parse_key_encoding(std::string_view text, std::string_view option);

/// Splits `text` into keys. `source` names the file (or "<stdin>") for errors, which carry
/// line and column (e.g. "keys.txt:3:5: odd hex digit 'g'").
std::vector<std::string> parse_keys(std::string_view text, KeyEncoding encoding, std::string_view source);

/// Decodes one hex key ("00ff", upper or lower case, even length).
std::string decode_hex_key(std::string_view hex, std::string_view source, std::size_t line);

/// Reads a whole file ("-" = standard input); throws InputError if it cannot be read.
std::string read_input_file(const std::string& path);

}  // namespace partsim::scenarios
