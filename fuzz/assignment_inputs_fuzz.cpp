#include "fuzz/fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  partsim::fuzz::assignment_inputs(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
