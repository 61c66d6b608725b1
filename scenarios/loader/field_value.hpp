#pragma once
// A field of a loaded scenario read back by its --set path, for commands that vary one
// field numerically (partsim calibrate's --fit): its type in the field table and its value.

#include <optional>
#include <string>

#include "model/scenario.hpp"

namespace partsim::scenarios {

struct ResolvedField {
  std::string type;             ///< the field table's type: number, duration, integer, ...
  std::optional<double> value;  ///< the value in `s` (every default filled in), when a number
};

/// The field at `pattern`, a path as --set validates it (parse_override's pattern: keys and
/// list indexes joined by '.', '*' for every item, where the first item is read). Throws
/// InputError naming `option` when the path names no field or a list item `s` lacks.
ResolvedField resolved_field(const model::Scenario& s, const std::string& pattern, const std::string& option);

}  // namespace partsim::scenarios
