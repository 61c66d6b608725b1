#pragma once
// The one error type for bad input (scenario files, key files, traces, --set values). It
// carries where the problem is, so every message reads "file:line:col: what: rule, got X".

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace partsim::scenarios {

struct InputLocation {
  std::string file;      ///< path, "<stdin>", "--set" or an option name
  std::size_t line = 0;  ///< 1-based; 0 when not applicable
  std::size_t column = 0;
};

/// Renders "file:line:col" (omitting what is unknown).
std::string to_string(const InputLocation& where);

class InputError : public std::runtime_error {
public:
  InputError(InputLocation where, const std::string& message);
  /// Several problems found in one pass (the loader collects all errors of a file).
  explicit InputError(std::vector<std::string> messages);

  const std::vector<std::string>& messages() const { return messages_; }

private:
  std::vector<std::string> messages_;
};

}  // namespace partsim::scenarios
