#include "scenarios/loader/reference_docs.hpp"

#include <vector>

#include <yaml-cpp/yaml.h>

#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace partsim::scenarios {
namespace {

// What the reference sets beyond the defaults; tests/golden/reference.json is its run.
constexpr const char* kExample = R"(name: reference
run: {records: 10000}
cluster:
  brokers: [{id: 0, rack: a}, {id: 1}, {id: 2, rtt.ms: 51}]
topics: [{name: events}]
producers:
  - name: app
    workload:
      arrivals: {kind: poisson, rate: 2000}
      keys: {kind: template, template: "user-{i}", cardinality: 1000}
consumers: [{group: readers, topics: [events], members: 2}]
)";

constexpr const char* kHeader =
    "# partsim scenario reference: every key of a scenario file, with its doc, unit and range.\n"
    "# Generated from the field tables (scenarios/loader/scenario_fields.cpp) by `make reference`:\n"
    "# do not edit. Runnable as is: partsim run scenarios/reference.yaml\n"
    "# Values are the defaults (those of the default client, kafka-4.3) except what this example sets: the name, run.records,\n"
    "# the brokers' rack and rtt.ms, the topic, the producer's name, arrivals and keys, and a consumer\n"
    "# group (its name, topics and members). Keys shown\n"
    "# commented out have no default. Unknown keys are errors (with a \"did you mean\"); every value\n"
    "# is checked against its range. Types and ranges per key: docs/scenario-fields.md.\n";

constexpr std::size_t kCommentColumn = 40;

// "doc; ms in [0, 1e+12]; kafka-3.x: 0"
std::string comment(const FieldInfo& f) {
  std::string c = f.doc;
  if (f.type == "integer" || f.type == "number" || f.type == "duration")
    c += "; " + (f.unit.empty() ? std::string() : f.unit + " ") + "in " + f.range;
  else if (f.type == "choice") c += "; " + f.range;
  if (f.required) c += "; required";
  if (!f.client_text.empty()) c += "; " + f.client_text;
  return c;
}

void line(std::vector<std::string>& out, std::size_t indent, const std::string& text, const std::string& note) {
  std::string l = std::string(indent, ' ') + text;
  if (!note.empty()) l += std::string(l.size() + 2 > kCommentColumn ? 2 : kCommentColumn - l.size(), ' ') + "# " + note;
  out.push_back(l);
}

// The keys of an item that differ from the defaults, as one flow mapping: "{id: 2, rtt.ms: 51}".
YAML::Node differences(const YAML::Node& item, const Schema& schema) {
  YAML::Node out(YAML::NodeType::Map);
  for (const auto& f : schema.fields) {
    const YAML::Node v = item[f.key];
    if (!v.IsDefined()) continue;
    if (f.shape == FieldInfo::Shape::kMapping) {
      const YAML::Node sub = differences(v, *f.sub);
      if (sub.size() > 0) out[f.key] = sub;
    } else if (f.shape == FieldInfo::Shape::kList && f.sub) {
      if (v.size() > 0) out[f.key] = v;
    } else if (yaml_text(v) != f.default_text) {
      out[f.key] = v;
    }
  }
  return out;
}

void render(std::vector<std::string>& out, const YAML::Node& node, const Schema& schema, std::size_t indent);

// An empty list of mappings: its item's keys, commented out, with examples.
// A mapping among them (a schedule step's reassign): its keys below it, two further in.
void render_item_keys(std::vector<std::string>& out, const Schema& schema, std::size_t indent,
                      const std::string& first_prefix = "# - ") {
  bool first = true;
  for (const auto& f : schema.fields) {
    const std::string prefix = first ? first_prefix : "#" + std::string(first_prefix.size() - 1, ' ');
    first = false;
    if (f.shape == FieldInfo::Shape::kMapping && f.sub) {
      line(out, indent, prefix + f.key + ":", comment(f));
      render_item_keys(out, *f.sub, indent, "#" + std::string(first_prefix.size() + 1, ' '));
      continue;
    }
    const std::string value = !f.example.empty() ? f.example : f.default_text;
    line(out, indent, prefix + f.key + ": " + value, comment(f));
  }
}

void render_field(std::vector<std::string>& out, const YAML::Node& node, const FieldInfo& f, std::size_t indent) {
  const YAML::Node value = node.IsMap() ? node[f.key] : YAML::Node(YAML::NodeType::Undefined);
  if (f.shape == FieldInfo::Shape::kMapping && !value.IsDefined()) {
    // An optional section the example leaves out (migration): its keys, commented out.
    std::vector<std::string> keys;
    render(keys, YAML::Node(YAML::NodeType::Undefined), *f.sub, indent + 2);
    line(out, indent, "# " + f.key + ":", comment(f));
    for (const auto& k : keys) {
      if (k.compare(indent + 2, 2, "# ") == 0) {  // already commented out: "# x" -> "#   x"
        out.push_back(std::string(indent, ' ') + "#   " + k.substr(indent + 4));
        continue;
      }
      std::string l = std::string(indent, ' ') + "# " + k.substr(indent);
      // Keep the note in its column: the "# " prefix takes two of the spaces before it.
      if (const auto note = l.find("   # ", indent + 2); note != std::string::npos) l.erase(note, 2);
      out.push_back(std::move(l));
    }
    return;
  }
  if (f.shape == FieldInfo::Shape::kMapping) {
    line(out, indent, f.key + ":", comment(f));
    render(out, value, *f.sub, indent + 2);
    return;
  }
  if (f.shape == FieldInfo::Shape::kList && f.sub) {
    if (!value.IsDefined() || value.size() == 0) {
      line(out, indent, f.key + ": []", comment(f));
      render_item_keys(out, *f.sub, indent + 2);
      return;
    }
    line(out, indent, f.key + ":", comment(f));
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i == 0) {  // the first item in full, later ones by what differs
        const std::size_t from = out.size();
        render(out, value[i], *f.sub, indent + 4);
        out[from].replace(indent + 2, 2, "- ");
      } else {
        line(out, indent + 2, "- " + yaml_text(differences(value[i], *f.sub)), "");
      }
    }
    return;
  }
  if (value.IsDefined()) line(out, indent, f.key + ": " + yaml_text(value), comment(f));
  else if (!f.default_text.empty()) line(out, indent, f.key + ": " + f.default_text, comment(f));
  else line(out, indent, "# " + f.key + ": " + f.example, comment(f));
}

void render(std::vector<std::string>& out, const YAML::Node& node, const Schema& schema, std::size_t indent) {
  for (const auto& f : schema.fields) render_field(out, node, f, indent);
}

// ---- markdown -----------------------------------------------------------------------------

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string code(const std::string& text) { return text.empty() ? "" : "`" + cell(text) + "`"; }

void markdown_section(std::string& out, const Schema& schema, const std::string& path) {
  // "## `cluster.brokers[]`: one broker"; the name is left out where the path says it.
  std::string last = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
  if (last.ends_with("[]")) last.resize(last.size() - 2);
  out += "\n## " + (path.empty() ? std::string("top level") : "`" + path + "`") +
         (path.ends_with("[]")                  ? ": one " + schema.name
          : last == schema.name || path.empty() ? ""
                                                : ": " + schema.name) +
         "\n\n";
  out += "| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
  std::vector<std::pair<const Schema*, std::string>> below;
  for (const auto& f : schema.fields) {
    std::string type = f.type + (f.unit.empty() ? "" : " (" + f.unit + ")");
    std::string def = f.required ? "required" : code(f.default_text);
    if (!f.client_text.empty()) def += " (" + f.client_text + ")";
    if (f.sub) {
      const std::string sub_path =
          (path.empty() ? "" : path + ".") + f.key + (f.shape == FieldInfo::Shape::kList ? "[]" : "");
      def = "see `" + sub_path + "`";
      below.emplace_back(f.sub, sub_path);
      for (const auto& [name, v] : f.variants) below.emplace_back(v, sub_path + " (client: " + name + ")");
    } else if (def.empty()) {
      def = "none";
    }
    out += "| `" + f.key + "` | " + type + " | " + def + " | " + code(f.range) + " | " + cell(f.doc) + " |\n";
  }
  for (const auto& [sub, sub_path] : below) markdown_section(out, *sub, sub_path);
}

}  // namespace

std::string reference_yaml() {
  const model::Scenario example = load_scenario_text(kExample, "the reference example");
  std::vector<std::string> lines;
  render(lines, scenario_table().write(example), scenario_table().schema(), 0);
  std::string out = kHeader;
  for (const auto& l : lines) {
    std::string text = l.substr(0, l.find("  #"));
    text.erase(text.find_last_not_of(' ') + 1);
    if (l[0] != ' ' && l[0] != '#' && (text.back() == ':' || text.ends_with(": []"))) out += "\n";  // sections apart
    out += l + "\n";
  }
  return out;
}

std::string field_reference_markdown() {
  std::string out =
      "# Scenario fields\n\n"
      "Every key of a scenario file, generated from the field tables\n"
      "(`scenarios/loader/scenario_fields.cpp`) by `make reference`: do not edit. "
      "`scenarios/reference.yaml` shows them all in one runnable file.\n\n"
      "Keys keep Kafka's own names (`batch.size`, `linger.ms`); partsim's own keys start with `partsim.` "
      "inside a producer's config. Defaults are those of the default client, kafka-4.3; where another client's differ, the default says so (`client`, docs/client-versions.md). "
      "A duration's unit is in its name (`.ms`, `.us`, `.seconds`) and may have a fraction (`0.1`). "
      "Errors name `file:line:column`, the key path and the rule; unknown keys get a \"did you mean\". "
      "Every string must be valid UTF-8. YAML merge keys (`<<: *base`) are expanded.\n";
  markdown_section(out, scenario_table().schema(), "");
  return out;
}

}  // namespace partsim::scenarios
