#include "scenarios/loader/reference_docs.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {
std::string slurp(const std::string& rel) {
  std::ifstream in(std::string(PARTSIM_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void every_key(const scenarios::Schema& schema, const std::string& path,
               const std::function<void(const scenarios::FieldInfo&, const std::string&)>& f) {
  for (const auto& field : schema.fields) {
    f(field, path);
    if (field.sub)
      every_key(*field.sub, path + field.key + (field.shape == scenarios::FieldInfo::Shape::kList ? "[]." : "."), f);
  }
}
}  // namespace

TEST_CASE("the checked-in reference.yaml and field reference are what the field tables generate") {
  CHECK_MESSAGE(slurp("scenarios/reference.yaml") == scenarios::reference_yaml(),
                "scenarios/reference.yaml is stale: run `make reference` and commit the result");
  CHECK_MESSAGE(slurp("docs/scenario-fields.md") == scenarios::field_reference_markdown(),
                "docs/scenario-fields.md is stale: run `make reference` and commit the result");
}

TEST_CASE("the reference documents every key of every table") {
  const std::string yaml = scenarios::reference_yaml();
  const std::string md = scenarios::field_reference_markdown();
  int keys = 0;
  every_key(scenarios::scenario_table().schema(), "", [&](const scenarios::FieldInfo& f, const std::string& path) {
    CAPTURE(path + f.key);
    ++keys;
    CHECK((yaml.find(" " + f.key + ":") != std::string::npos || yaml.find("\n" + f.key + ":") != std::string::npos));
    CHECK(md.find("| `" + f.key + "` |") != std::string::npos);
    CHECK_FALSE(f.doc.empty());
  });
  CHECK(keys > 90);
}

TEST_CASE("the reference runs: it loads without warnings to its example") {
  std::vector<std::string> warnings;
  const auto s = scenarios::load_scenario_text(scenarios::reference_yaml(), "reference.yaml", {}, &warnings);
  CHECK(warnings.empty());
  CHECK(s.name == "reference");
  CHECK(s.brokers.size() == 3);
  CHECK(s.producers[0].workload.arrivals.records_per_second == 2000);
  CHECK(s.producers[0].config.linger == model::SimTime::ms(5));
}
