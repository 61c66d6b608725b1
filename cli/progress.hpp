#pragma once
// A progress line on stderr while work goes on: "book replications 5/20  1.2 s elapsed
// ~3.6 s left". On a terminal the line is updated in place; otherwise (a batch job's log,
// a pipe) commands that can run for minutes (book, report, sweep's checking) write a line
// every progress_seconds() and run and compare write nothing. Wall-clock time is read here,
// in the CLI, never by the model.

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace partsim::cli {

/// Seconds between progress lines in a log (stderr not a terminal): PARTSIM_PROGRESS_SECONDS
/// when it is a number >= 0 (0: a line at every step), else `fallback`.
inline double progress_seconds(double fallback) {
  const char* text = std::getenv("PARTSIM_PROGRESS_SECONDS");
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  return end != nullptr && *end == '\0' && v >= 0 && v < 1e9 ? v : fallback;
}

class Progress {
public:
  /// In a log, a line every progress_seconds(5) only when `log` is set.
  explicit Progress(std::string what, bool log = false)
      : what_(std::move(what)), tty_(::isatty(STDERR_FILENO) == 1), log_(log && !tty_), every_(progress_seconds(5.0)) {}
  ~Progress() {
    if (tty_ && shown_) std::fputc('\n', stderr);
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Shows what is being done now (the part before the counts).
  void rename(std::string what) {
    what_ = std::move(what);
    if (tty_ && shown_) std::fputc('\n', stderr);  // the last line of the step before stays
    shown_ = false;
  }

  void update(std::size_t done, std::size_t total) {
    if (!tty_ && !log_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (log_ && elapsed - last_ < every_) return;
    last_ = elapsed;
    const double left = done ? elapsed / static_cast<double>(done) * static_cast<double>(total - done) : 0.0;
    std::fprintf(stderr, "%s%s %zu/%zu  %.1f s elapsed  ~%.1f s left%s", tty_ ? "\r" : "", what_.c_str(), done, total,
                 elapsed, left, tty_ ? "   " : "\n");
    std::fflush(stderr);
    shown_ = true;
  }

private:
  std::string what_;
  bool tty_, log_;
  double every_;
  double last_ = 0;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace partsim::cli
