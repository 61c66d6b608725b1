#include "cli/interrupt.hpp"

#include <csignal>
#include <cstring>

#include <unistd.h>

namespace partsim::cli {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signals{0};
std::atomic<int> g_last_signal{0};
std::atomic<bool> g_graceful{false};

// Registered temporary files, readable from the signal handler without locks or
// allocation: a slot is free (0), being filled (1) or holds a path (2).
constexpr int kSlots = 32;
constexpr std::size_t kMaxPath = 4096;
struct Slot {
  std::atomic<int> state{0};
  char path[kMaxPath];
};
Slot g_slots[kSlots];

[[noreturn]] void leave(int sig) {
  for (auto& s : g_slots)
    if (s.state.load() == 2) ::unlink(s.path);  // async-signal-safe
  _exit(128 + sig);
}

extern "C" void on_signal(int sig) {
  g_last_signal.store(sig);
  const int n = g_signals.fetch_add(1) + 1;
  g_interrupted.store(true);
  if (!g_graceful.load() || n >= 3) leave(sig);
}

}  // namespace

std::atomic<bool>& interrupted() { return g_interrupted; }

bool abandoned() { return g_signals.load() >= 2; }

int signal_exit_code() {
  const int sig = g_last_signal.load();
  return sig == 0 ? 0 : 128 + sig;
}

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void enable_graceful_stop() { g_graceful.store(true); }

TempFileGuard::TempFileGuard(const std::string& path) {
  if (path.size() >= kMaxPath) return;  // not registered: such a path cannot be created anyway
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(2);
    slot_ = i;
    return;
  }
}

void TempFileGuard::release() {
  if (slot_ >= 0) g_slots[slot_].state.store(0);
  slot_ = -1;
}

}  // namespace partsim::cli
