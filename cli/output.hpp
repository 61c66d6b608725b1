#pragma once
// Writing results: to stdout, or to a file that appears whole or not at all (written to a
// temporary name in the same folder, then renamed over the target).

#include <string>
#include <string_view>

namespace partsim::cli {

/// Writes `data` to standard output; throws std::runtime_error if stdout fails.
void write_stdout(std::string_view data);

/// Atomically replaces `path` with `data`; throws std::runtime_error naming the path.
void write_file_atomically(const std::string& path, std::string_view data);

}  // namespace partsim::cli
