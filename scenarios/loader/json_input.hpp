#pragma once
// What the JSON input readers share (assignment_reader, members_reader): parsing with errors
// at file:line:column, values cut short for messages, and bounded integers.

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace partsim::scenarios {

/// Parses text[from..] as JSON; a syntax error is an InputError at its file:line:column.
nlohmann::json parse_json(const std::string& text, const std::string& source, std::size_t from = 0);

/// A JSON value for a message, cut to 80 characters.
std::string shown_json(const nlohmann::json& v);

/// An integer in [lo, INT32_MAX]; otherwise an InputError "path: must be an integer >= lo, got v".
std::int32_t json_int(const nlohmann::json& v, const std::string& source, const std::string& path, std::int64_t lo);

}  // namespace partsim::scenarios
