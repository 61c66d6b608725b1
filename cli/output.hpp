#pragma once
// Writing results: to stdout, or to a file that appears whole or not at all (written to a
// temporary name in the same folder, then renamed over the target). A file may be written
// in pieces while a run goes on (AtomicFile); a signal that ends the process removes the
// temporary (interrupt.hpp).

#include <string>
#include <string_view>

#include "cli/interrupt.hpp"

namespace partsim::cli {

/// Writes `data` to standard output; throws std::runtime_error if stdout fails.
void write_stdout(std::string_view data);

/// Writes `buf` to standard output and empties it once it holds a megabyte or more: for
/// output built a line at a time (hash, keys) that should not sit whole in memory.
void write_stdout_when_full(std::string& buf);

/// A file written in pieces to `path`.tmp.PID and renamed to `path` by commit(). Destroyed
/// without commit() (an error, an exception), the temporary is removed.
class AtomicFile {
public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends `data`; throws std::runtime_error naming the path.
  void write(std::string_view data);
  /// Flushes to disk and renames into place; throws std::runtime_error naming the path.
  void commit();

private:
  [[noreturn]] void fail(const std::string& what);

  std::string path_, tmp_;
  int fd_ = -1;
  TempFileGuard guard_;
};

/// Atomically replaces `path` with `data`; throws std::runtime_error naming the path.
void write_file_atomically(const std::string& path, std::string_view data);

}  // namespace partsim::cli
