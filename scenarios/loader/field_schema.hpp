#pragma once
// A field table's keys without their C++ types: what the generated docs, --set and the
// "did you mean" walk. Each typed Table (field_table.hpp) builds one Schema.

#include <string>
#include <utility>
#include <vector>

namespace partsim::scenarios {

struct Schema;

/// One key as the docs, --set and "did you mean" see it: no C++ types.
struct FieldInfo {
  enum class Shape { kValue, kMapping, kList } shape = Shape::kValue;
  std::string key;
  std::string type;             ///< integer, number, duration, bool, string, choice, list of strings, mapping, list
  std::string unit;             ///< ms, us, s, bytes, records/s, ... ("" when none)
  std::string range;            ///< allowed values: "[1, 2147483647]", "none | gzip | ..." ("" when any)
  std::string doc;              ///< one line
  std::string default_text;     ///< the 4.x default as YAML ("" when none: required, optional, one of several)
  std::string client_text;      ///< how the default depends on `client:` ("0 before kafka-4.0"; "" when it does not)
  bool required = false;        ///< the key must be given
  std::string required_hint;    ///< what "is required" adds: "(a broker id >= 0)"
  std::string example;          ///< for a key without default: a value the reference shows commented out
  const Schema* sub = nullptr;  ///< kMapping: its keys; kList of mappings: an item's keys
  /// kMapping whose keys depend on another key (a producer's config on its `client:`): the
  /// other sets of keys, each under the value that selects it ("sarama").
  std::vector<std::pair<std::string, const Schema*>> variants;
};

/// A FieldInfo with the parts every row has.
FieldInfo field_info(FieldInfo::Shape shape, std::string key, std::string type, std::string unit, std::string range,
                     std::string doc);

/// A table's keys in order, for walking without the C++ types.
struct Schema {
  std::string name;  ///< what the mapping is: "broker", "producer config"
  std::vector<FieldInfo> fields;
  const FieldInfo* find(const std::string& key) const;
};

}  // namespace partsim::scenarios
