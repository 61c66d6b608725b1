#pragma once
// Exit codes (documented in docs/cli/exit-codes.md): 0 success, 1 a run or an output write failed,
// 2 bad usage or bad input (an option, a scenario file, a key file), with one line per
// problem on stderr.

#include <stdexcept>
#include <string>

namespace partsim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitUsage = 2;

/// A bad option value or combination: "--partitions: must be > 0, got 0".
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace partsim::cli
