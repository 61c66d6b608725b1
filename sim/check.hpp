#pragma once
// PARTSIM_CHECK: a broken internal rule (never bad input, never a simulated failure) stops
// the program with file:line, in every build type. Bad input throws the loader's error
// type instead; simulated failures are counted outcomes.

#include <cstdio>
#include <cstdlib>

#define PARTSIM_CHECK(cond, msg)                                                                \
  do {                                                                                          \
    if (!(cond)) [[unlikely]] {                                                                 \
      std::fprintf(stderr, "%s:%d: internal error: %s (%s)\n", __FILE__, __LINE__, msg, #cond); \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)
