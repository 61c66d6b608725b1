// partsim_reference REFERENCE_YAML FIELDS_MD: writes the reference documents generated from
// the field tables (`make reference` runs it on scenarios/reference.yaml and
// docs/scenario-fields.md). Each file is written to a temporary name and renamed.

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "scenarios/loader/reference_docs.hpp"

namespace {
bool write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return !ec;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: partsim_reference REFERENCE_YAML FIELDS_MD\n";
    return 2;
  }
  try {
    for (const auto& [path, text] : {std::pair{std::string(argv[1]), partsim::scenarios::reference_yaml()},
                                     std::pair{std::string(argv[2]), partsim::scenarios::field_reference_markdown()}}) {
      if (!write_whole(path, text)) {
        std::cerr << "partsim_reference: cannot write " << path << "\n";
        return 1;
      }
      std::cout << "wrote " << path << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "partsim_reference: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
