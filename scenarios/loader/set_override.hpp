#pragma once
// --set PATH=VALUE: the path is checked against the field tables at once (unknown keys with
// a "did you mean", list positions by index or "*"), the value is YAML. The override is
// applied when the loader looks the field up (see ReadContext::override_for).

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "scenarios/loader/field_schema.hpp"
#include "scenarios/loader/yaml_reader.hpp"

namespace partsim::scenarios {

/// Parses one assignment against the scenario's table; throws InputError naming it.
/// At a mapping, the longest run of path segments that is a key wins, so Kafka keys keep
/// their dots: producers.0.config.linger.ms. An empty VALUE is refused (`~` removes).
Override parse_override(const std::string& assignment, const Schema& top);

/// Adds `o` to `overrides`, dropping earlier ones it replaces (the same path or a path
/// inside it), so overrides apply in order as if each edited the file.
void add_override(std::vector<Override>& overrides, Override o);

/// Errors for overrides that named a list item the scenario does not have
/// ("producers: has 1 items, no index 3"); `list_sizes` as the read recorded them.
std::vector<std::string> unused_override_errors(const std::vector<Override>& overrides,
                                                const std::map<std::string, std::size_t>& list_sizes);

}  // namespace partsim::scenarios
