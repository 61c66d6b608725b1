#pragma once

#include <string>
#include <vector>

namespace partsim::cli {

/// The partsim program: dispatches to a subcommand and maps errors to exit codes.
int run_app(const std::vector<std::string>& argv);

}  // namespace partsim::cli
