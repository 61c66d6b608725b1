#include "scenarios/loader/scenario_writer.hpp"

#include <yaml-cpp/yaml.h>

#include "scenarios/loader/scenario_fields.hpp"

namespace partsim::scenarios {

std::string write_scenario_yaml(const model::Scenario& s) {
  YAML::Emitter e;
  // A partitioner written in C++ has no key: say so where a reader of the file looks.
  for (std::size_t i = 0; i < s.producers.size(); ++i)
    if (s.producers[i].config.partitioner.kind == model::PartitionerKind::kCode)
      e << YAML::Comment("producers." + std::to_string(i) + ": partitioner written in C++ (" +
                         s.producers[i].config.partitioner.code_name +
                         "): not expressible here; this file runs the built-in partitioner")
        << YAML::Newline;
  e << scenario_table().write(s);
  return std::string(e.c_str()) + "\n";
}

}  // namespace partsim::scenarios
