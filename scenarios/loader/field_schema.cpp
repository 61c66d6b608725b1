#include "scenarios/loader/field_schema.hpp"

namespace partsim::scenarios {

FieldInfo field_info(FieldInfo::Shape shape, std::string key, std::string type, std::string unit, std::string range,
                     std::string doc) {
  FieldInfo info;
  info.shape = shape;
  info.key = std::move(key);
  info.type = std::move(type);
  info.unit = std::move(unit);
  info.range = std::move(range);
  info.doc = std::move(doc);
  return info;
}

const FieldInfo* Schema::find(const std::string& key) const {
  for (const auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace partsim::scenarios
