#include "scenarios/loader/field_value.hpp"

#include <yaml-cpp/yaml.h>

#include "scenarios/loader/field_schema.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/scenario_writer.hpp"

namespace partsim::scenarios {

ResolvedField resolved_field(const model::Scenario& s, const std::string& pattern, const std::string& option) {
  std::vector<std::string> segs;
  for (std::size_t pos = 0;;) {
    const auto dot = pattern.find('.', pos);
    segs.push_back(pattern.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos));
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  const InputLocation where{option};
  const Schema* schema = &scenario_table().schema();
  YAML::Node node = YAML::Load(write_scenario_yaml(s));
  for (std::size_t i = 0; i < segs.size();) {
    // The longest run of segments that is a key here (Kafka keys keep their dots).
    const FieldInfo* field = nullptr;
    std::string key;
    for (std::size_t k = segs.size(); k > i && !field; --k) {
      key.clear();
      for (std::size_t j = i; j < k; ++j) key += (j > i ? "." : "") + segs[j];
      field = schema->find(key);
      if (field) i = k;
    }
    if (!field) throw InputError(where, pattern + ": names no field");
    node = node.IsMap() ? node[key] : YAML::Node();
    if (i == segs.size()) {
      ResolvedField out{field->type, std::nullopt};
      double v = 0;
      if (node.IsScalar() && YAML::convert<double>::decode(node, v)) out.value = v;
      return out;
    }
    schema = field->sub;
    if (field->shape == FieldInfo::Shape::kList) {
      const std::size_t index = segs[i] == "*" ? 0 : std::stoul(segs[i]);
      if (!node.IsSequence() || index >= node.size())
        throw InputError(where, pattern + ": the scenario has no item " + segs[i] + " in " + field->key);
      node = node[index];
      ++i;
    }
    if (!schema) throw InputError(where, pattern + ": names no field");
  }
  throw InputError(where, pattern + ": names no field");
}

}  // namespace partsim::scenarios
