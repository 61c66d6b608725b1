#include <string>
#include <vector>

#include "cli/app.hpp"

int main(int argc, char** argv) { return partsim::cli::run_app(std::vector<std::string>(argv, argv + argc)); }
