#pragma once
// A progress line on stderr while replications run, only when stderr is a terminal:
// "replications 5/20  1.2 s elapsed  ~3.6 s left". Wall-clock time is read here, in the
// CLI, never by the model.

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace partsim::cli {

class Progress {
public:
  explicit Progress(std::string what) : what_(std::move(what)), enabled_(::isatty(STDERR_FILENO) == 1) {}
  ~Progress() {
    if (enabled_ && shown_) std::fputc('\n', stderr);
  }

  void update(std::size_t done, std::size_t total) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double left = done ? elapsed / static_cast<double>(done) * static_cast<double>(total - done) : 0.0;
    std::fprintf(stderr, "\r%s %zu/%zu  %.1f s elapsed  ~%.1f s left   ", what_.c_str(), done, total, elapsed, left);
    std::fflush(stderr);
    shown_ = true;
  }

private:
  std::string what_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace partsim::cli
