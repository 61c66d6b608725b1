#pragma once
// The files `--out DIR` writes for a run, each whole or not at all: summary.json,
// partitions.csv, batches.csv, timeseries.csv (when sampled), scenario.resolved.yaml and
// manifest.json (what made the result: partsim's version and git revision, the scenario
// file and its SHA-1, the seed, replications and the command line).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/scenario.hpp"

namespace partsim::cli {

/// SHA-1 of a file's bytes in hex ("" if it cannot be read).
std::string sha1_of_file(const std::string& path);

/// Writes scenario.resolved.yaml and manifest.json into `dir`.
void write_manifest(const std::string& dir, const std::string& scenario_path, const model::Scenario& resolved,
                    std::size_t replications, const std::vector<std::string>& command_line,
                    const std::string& extra_options = "");

}  // namespace partsim::cli
