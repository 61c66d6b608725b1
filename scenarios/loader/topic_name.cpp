#include "scenarios/loader/topic_name.hpp"

#include <algorithm>

#include "scenarios/loader/utf8.hpp"

namespace partsim::scenarios {

std::string topic_name_problem(std::string_view name) {
  constexpr std::size_t kMaxLength = 249;  // Topic.MAX_NAME_LENGTH
  const auto legal_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  };
  if (name == "." || name == "..")
    return "'" + std::string(name) + "' is not a legal Kafka topic name ('.' and '..' are reserved)";
  if (!name.empty() && name.size() <= kMaxLength && std::all_of(name.begin(), name.end(), legal_char)) return "";
  return "'" + printable(name, 80) +
         "' is not a legal Kafka topic name (1 to 249 of letters, digits, '.', '_' and '-')";
}

}  // namespace partsim::scenarios
