#include "scenarios/loader/json_input.hpp"

#include "scenarios/loader/input_error.hpp"

namespace partsim::scenarios {
namespace {

InputLocation at_byte(const std::string& source, const std::string& text, std::size_t byte) {
  InputLocation loc{source, 1, 1};
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& source, std::size_t from) {
  try {
    return nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(from), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(at_byte(source, text, from + (e.byte > 0 ? e.byte - 1 : 0)),
                     std::string("invalid JSON: ") + e.what());
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for any type (out_of_range)
    throw InputError({source}, std::string("invalid JSON: ") + e.what());
  }
}

std::string shown_json(const nlohmann::json& v) {
  std::string text = v.dump();
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

std::int32_t json_int(const nlohmann::json& v, const std::string& source, const std::string& path, std::int64_t lo) {
  if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > INT32_MAX)
    throw InputError({source}, path + ": must be an integer >= " + std::to_string(lo) + ", got " + shown_json(v));
  return static_cast<std::int32_t>(v.get<std::int64_t>());
}

}  // namespace partsim::scenarios
