#include "cli/run_files.hpp"

#include <boost/uuid/detail/sha1.hpp>

#include "cli/output.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

namespace partsim::cli {

std::string sha1_of_file(const std::string& path) {
  if (path == "-") return "";  // standard input, read once already
  std::string data;
  try {
    data = scenarios::read_input_file(path);
  } catch (const scenarios::InputError&) {
    return "";
  }
  boost::uuids::detail::sha1 h;
  h.process_bytes(data.data(), data.size());
  boost::uuids::detail::sha1::digest_type digest;
  h.get_digest(digest);
  char hex[41];
  for (int i = 0; i < 5; ++i) std::snprintf(hex + 8 * i, 9, "%08x", digest[i]);
  return std::string(hex, 40);
}

void write_manifest(const std::string& dir, const std::string& scenario_path, const model::Scenario& resolved,
                    std::size_t replications, const std::vector<std::string>& command_line,
                    const std::string& extra_options) {
  const std::string yaml = scenarios::write_scenario_yaml(resolved);
  write_file_atomically(dir + "/scenario.resolved.yaml", yaml);
  nlohmann::ordered_json m;
  m["partsim_version"] = PARTSIM_VERSION;
  m["git_revision"] = PARTSIM_GIT_REVISION;
  m["command"] = command_line;
  m["scenario_file"] = scenario_path;
  m["scenario_sha1"] = sha1_of_file(scenario_path);
  m["seed"] = resolved.run.seed;
  m["replications"] = replications;
  m["resolved_scenario"] = "scenario.resolved.yaml";
  m["resolved_scenario_yaml"] = yaml;
  m["rerun"] = "partsim run " + dir + "/scenario.resolved.yaml --seed " + std::to_string(resolved.run.seed) +
               (replications > 1 ? " --replications " + std::to_string(replications) : "") + extra_options;
  write_file_atomically(dir + "/manifest.json", m.dump(2) + "\n");
}

}  // namespace partsim::cli
