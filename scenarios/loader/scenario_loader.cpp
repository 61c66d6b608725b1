#include "scenarios/loader/scenario_loader.hpp"

#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/set_override.hpp"
#include "scenarios/loader/utf8.hpp"
#include "scenarios/loader/yaml_reader.hpp"

namespace partsim::scenarios {

// The one document of a scenario file. A second document (after "---") would be ignored
// by a plain Load, so it is an error; an empty one ("---" at the end) holds nothing to lose.
YAML::Node parse_yaml_document(std::string_view text, const std::string& source) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(std::string(text));
  } catch (const YAML::ParserException& e) {
    throw InputError({source, static_cast<std::size_t>(e.mark.line + 1), static_cast<std::size_t>(e.mark.column + 1)},
                     "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError({source}, std::string("invalid YAML: ") + e.what());
  }
  for (std::size_t i = 1; i < docs.size(); ++i) {
    if (docs[i].IsNull()) continue;
    const YAML::Mark m = docs[i].Mark();
    throw InputError(
        {source, static_cast<std::size_t>(m.line + 1), static_cast<std::size_t>(m.column + 1)},
        "a second YAML document starts here; a scenario file holds one (remove the '---' before it, or split the file)");
  }
  return docs.empty() ? YAML::Node() : docs[0];
}

model::Scenario load_scenario_text(std::string_view text, const std::string& source,
                                   const std::vector<std::string>& sets, std::vector<std::string>* warnings) {
  const YAML::Node root = parse_yaml_document(text, source);
  if (!root.IsDefined() || root.IsNull())
    throw InputError({source}, "is empty; a scenario needs cluster, topics and producers");
  ReadContext ctx;
  ctx.file = source;
  for (const auto& s : sets) add_override(ctx.overrides, parse_override(s, scenario_table().schema()));
  model::Scenario scenario;
  MapReader top(ctx, root, "");
  if (root.IsMap()) scenario_table().read(top, scenario);  // otherwise reported by the reader
  for (auto& e : unused_override_errors(ctx.overrides, ctx.list_sizes)) ctx.errors.push_back(std::move(e));
  if (!ctx.errors.empty()) throw InputError(ctx.errors);
  if (warnings) warnings->insert(warnings->end(), ctx.warnings.begin(), ctx.warnings.end());
  return scenario;
}

model::Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& sets,
                                   std::vector<std::string>* warnings) {
  const std::string text = read_input_file(path);
  model::Scenario s = load_scenario_text(text, path, sets, warnings);
  if (s.name.empty()) {
    // The default name is the file's, and it goes into JSON: bytes that are not UTF-8 are
    // shown as \xNN rather than refused (the file name is not the scenario's fault).
    const auto slash = path.find_last_of('/');
    const std::string base = path.substr(slash == std::string::npos ? 0 : slash + 1);
    s.name = is_valid_utf8(base) ? base : printable(base, base.size() + 3);
  }
  return s;
}

}  // namespace partsim::scenarios
