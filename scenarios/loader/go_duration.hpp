#pragma once
// Go's time.Duration as text, for the Go clients' config (franz-go, sarama, kafka-go): read
// as time.ParseDuration reads it, written as time.Duration.String writes it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace partsim::scenarios {

/// A sequence of decimal numbers, each with a unit (ns, us, µs, ms, s, m, h), in ms; "0"
/// alone is zero. Nothing when the text is not one (a sign, an exponent, a unit missing).
std::optional<double> parse_go_duration_ms(std::string_view text);

/// "0s", "1.5ms", "10ms", "1s", "5m0s", "1h0m0s", "1m30.5s" (µs as Go spells it), for `ns` >= 0.
std::string go_duration_text(std::int64_t ns);

}  // namespace partsim::scenarios
