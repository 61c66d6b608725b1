#pragma once
// Generates what a producer's application sends: when (arrivals), which key, how large a
// value. Each aspect draws from its own named random stream, so two runs compared on one
// seed see the same workload whatever the partitioner does (common random numbers).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/random/discrete_distribution.hpp>

#include "model/producer/record_size.hpp"
#include "model/scenario.hpp"
#include "sim/random_streams.hpp"

namespace partsim::model {

/// One record as the model needs it: the key's bytes (for hashing) and the sizes.
struct GeneratedRecord {
  bool has_key = false;
  std::string_view key;  ///< valid until the next call to next_record()
  RecordShape shape;
};

class WorkloadGenerator {
public:
  WorkloadGenerator(const Workload& workload, const sim::RandomStreams& streams, const std::string& producer_name);

  /// The record with 0-based index `index` of this producer. Indexes come in order, one
  /// after the other (the draws behind them are made in that order).
  GeneratedRecord next_record(std::int64_t index);
  /// The record next_record(index) will return, made now, so that the caller can look at
  /// its key ahead of time; the same draws, in the same order, as without the peek. Only
  /// the next index may be peeked; the view is valid until next_record(index).
  const GeneratedRecord& peek(std::int64_t index);

  /// Open-loop arrivals: the time of the next send() after `previous` (the first call
  /// gets the first arrival). Not used for closed-loop and flat-out workloads.
  SimTime next_arrival(SimTime previous);

  /// Continues `from` where it stopped (a migration moves the application to another
  /// producer): its draws, its next index and a record it peeked.
  void take(WorkloadGenerator&& from);

  bool open_loop() const {
    return arrivals_.kind != Arrivals::Kind::kClosedLoop && arrivals_.kind != Arrivals::Kind::kFlatOut;
  }

private:
  /// A key template cut at its {i} placeholders once, so a key costs its copies only.
  struct KeyTemplate {
    std::vector<std::string> pieces;  // text around the placeholders: placeholders = pieces - 1
  };
  GeneratedRecord generate(std::int64_t index, std::string& key_buffer);
  static KeyTemplate compile(const std::string& templ);
  static void render(const KeyTemplate& t, std::int64_t index, std::string& out);
  std::int32_t template_length(const std::string& templ, std::int64_t index) const;

  Arrivals arrivals_;
  KeySpec keys_;
  ValueSpec values_;
  std::int32_t header_count_, header_key_bytes_, header_value_bytes_;
  sim::RandomEngine arrival_rng_, key_rng_, value_rng_;
  std::int64_t arrival_count_ = 0;
  // Two key buffers: the current record's key in key_buffers_[current_], a peeked one's in the
  // other (no copy or swap when the peeked record becomes the current one).
  std::string key_buffers_[2];
  int current_ = 0;
  std::int64_t ahead_ = -1;  // the peeked record's index, -1 for none
  GeneratedRecord ahead_record_;
  KeyTemplate key_template_;
  std::vector<KeyTemplate> key_templates_;
  std::unique_ptr<boost::random::discrete_distribution<std::int64_t, double>> zipf_;
  std::size_t placeholders_in_value_ = 0;
  std::int32_t value_template_fixed_bytes_ = 0;
};

}  // namespace partsim::model
