#pragma once
// Ctrl-C and SIGTERM. Commands that stop gracefully (run, compare call
// enable_graceful_stop()):
//   1st signal: interrupted() is set; the runs stop at their next slice and what finished
//               is written, marked partial (exit 1);
//   2nd signal: abandoned() is set; output already begun is finished (the file being
//               written, the JSON on stdout), nothing new is started (exit 128 + signal);
//   3rd signal: the process leaves at once (exit 128 + signal).
// Other commands (hash, keys, placement) leave at the first signal. Whenever a signal ends
// the process, it first removes the temporary files registered with TempFileGuard, so an
// output file is whole or absent, never half-written.

#include <atomic>
#include <string>

namespace partsim::cli {

/// Set once SIGINT or SIGTERM arrived.
std::atomic<bool>& interrupted();

/// Set once a second signal arrived: finish what is being written, start nothing new.
bool abandoned();

/// 128 + the number of the last signal received (130 for SIGINT); 0 if none.
int signal_exit_code();

/// Installs the handlers (idempotent); the first signal ends the process.
void install_interrupt_handlers();

/// From now on the first two signals only set interrupted() and abandoned().
void enable_graceful_stop();

/// A temporary file the signal handler removes if a signal ends the process while it
/// exists; release() (or the destructor) unregisters it.
class TempFileGuard {
public:
  explicit TempFileGuard(const std::string& path);
  ~TempFileGuard() { release(); }
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;
  void release();

private:
  int slot_ = -1;
};

}  // namespace partsim::cli
