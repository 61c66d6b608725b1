#pragma once
// The message of the InputError a reader throws, or "" when it accepts its input.

#include <string>

#include "scenarios/loader/input_error.hpp"

namespace partsim::testing {

template <class F>
std::string error_of(F&& read) {
  try {
    read();
  } catch (const scenarios::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace partsim::testing
