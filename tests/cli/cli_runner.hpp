#pragma once
// Runs the partsim binary as a user would and captures exit code, stdout and stderr.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace partsim::testing {

/// True in the ASan/UBSan build. AddressSanitizer reserves terabytes of shadow address
/// space at start-up, so a test that caps the binary's address space (`ulimit -v`) to
/// prove it streams cannot run there: those tests are skipped in that build and hold in
/// the release build, which runs the same cases.
inline constexpr bool kSanitized = PARTSIM_SANITIZED != 0;

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh scratch folder under the system temp dir, removed by the destructor.
struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "partsim-test-XXXXXX").string();
    path = ::mkdtemp(templ.data());
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    std::ofstream(path / name, std::ios::binary) << content;
    return path / name;
  }
};

/// A shipped scenario's path, quoted for the shell: scenario_arg("book/keyed.yaml").
inline std::string scenario_arg(const std::string& rel) {
  return std::string("'") + PARTSIM_SOURCE_DIR + "/scenarios/" + rel + "'";
}

/// A path quoted for the shell (single quotes; the tests' paths hold none).
inline std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

/// `args` is appended to the binary's path as shell words (quote them yourself). With
/// `cwd`, the binary runs in that folder.
inline CliResult run_cli(const std::string& args, const std::string& stdin_text = "",
                         const std::filesystem::path& cwd = {}) {
  ScratchDir dir;
  const auto in = dir.write("stdin", stdin_text);
  const std::string cd = cwd.empty() ? "" : "cd '" + cwd.string() + "' && ";
  const std::string cmd = cd + "'" + PARTSIM_BINARY + "' " + args + " <'" + in.string() + "' >'" +
                          (dir.path / "out").string() + "' 2>'" + (dir.path / "err").string() + "'";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir.path / "out");
  r.err = slurp(dir.path / "err");
  return r;
}

}  // namespace partsim::testing
