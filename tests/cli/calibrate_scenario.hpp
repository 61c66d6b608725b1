#pragma once
// The scenario the calibrate tests fit (calibrate_command_test.cpp through the CLI,
// calibrate_fit_test.cpp through analysis::calibrate): one producer of 100-byte null-key
// records at a constant 1000 records/s to one topic, every broker at request.ms 0.5; a test
// picks the size, the brokers' rtt.ms and the producer's config.

#include <cstddef>
#include <string>
#include <vector>

namespace partsim::testing {

struct CalibrateScenario {
  std::string name;
  int records = 0;          // run.records
  std::vector<int> rtt_ms;  // one broker per value, ids 0, 1, ...
  int partitions = 0;
  std::string config;  // the producer's config, inside the braces

  /// The scenario file's text.
  std::string yaml() const {
    std::string s =
        "name: " + name + "\nrun: {seed: 1, records: " + std::to_string(records) + "}\ncluster:\n  brokers:\n";
    for (std::size_t b = 0; b < rtt_ms.size(); ++b)
      s += "    - {id: " + std::to_string(b) + ", rtt.ms: " + std::to_string(rtt_ms[b]) + ", request.ms: 0.5}\n";
    return s + "topics:\n  - {name: t, partitions: " + std::to_string(partitions) + "}\n" +
           "producers:\n"
           "  - name: app\n"
           "    config: {" +
           config +
           "}\n"
           "    workload:\n"
           "      arrivals: {kind: constant, rate: 1000}\n"
           "      keys: {kind: none}\n"
           "      values: {kind: fixed, size: 100}\n";
  }
};

}  // namespace partsim::testing
