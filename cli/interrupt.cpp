#include "cli/interrupt.hpp"

#include <csignal>

#include <unistd.h>

namespace partsim::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_signal(int sig) {
  if (g_interrupted.exchange(true)) _exit(128 + sig);  // a second signal: leave now
}

}  // namespace

std::atomic<bool>& interrupted() { return g_interrupted; }

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace partsim::cli
