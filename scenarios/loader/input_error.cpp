#include "scenarios/loader/input_error.hpp"

namespace partsim::scenarios {

std::string to_string(const InputLocation& where) {
  std::string s = where.file;
  if (where.line > 0) {
    s.append(":").append(std::to_string(where.line));
    if (where.column > 0) s.append(":").append(std::to_string(where.column));
  }
  return s;
}

namespace {
std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) s += '\n';
    s += lines[i];
  }
  return s;
}
}  // namespace

InputError::InputError(InputLocation where, const std::string& message)
    : std::runtime_error(to_string(where) + ": " + message), messages_{what()} {}

InputError::InputError(std::vector<std::string> messages)
    : std::runtime_error(join(messages)), messages_(std::move(messages)) {}

}  // namespace partsim::scenarios
