#pragma once
// Helpers for the fakes of the producer tests (a SenderListener, a ProducerHost and observer) that
// record each call as one line of text, so a test can assert the exact sequence and
// doctest prints both sides when it differs.

#include <sstream>
#include <string>
#include <vector>

#include "model/run_result.hpp"

namespace partsim::model::test {

/// The parts streamed into one string: str("sent #", 3, " to ", 0) == "sent #3 to 0".
template <typename... T>
std::string str(const T&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

/// The lines joined by " | ".
inline std::string join(const std::vector<std::string>& lines) {
  std::string joined;
  for (const std::string& l : lines) joined += (joined.empty() ? "" : " | ") + l;
  return joined;
}

/// FailureReason as the results name it (failures.<name>).
inline const char* failure_name(FailureReason r) {
  switch (r) {
    case FailureReason::kBufferTimeout: return "buffer_timeout";
    case FailureReason::kBufferLimit: return "buffer_limit";
    case FailureReason::kDeliveryTimeout: return "delivery_timeout";
    case FailureReason::kRecordTooLarge: return "record_too_large";
    case FailureReason::kRetriesExhausted: return "retries_exhausted";
    case FailureReason::kInvalidPartition: return "invalid_partition";
  }
  return "?";
}

}  // namespace partsim::model::test
