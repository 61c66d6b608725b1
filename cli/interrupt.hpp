#pragma once
// Ctrl-C and SIGTERM: the first stops the run at its next slice and writes what it has
// (marked partial); a second one ends the process at once.

#include <atomic>

namespace partsim::cli {

/// Set once SIGINT or SIGTERM arrived.
std::atomic<bool>& interrupted();

/// Installs the handlers (idempotent).
void install_interrupt_handlers();

}  // namespace partsim::cli
