#pragma once
// The registry of a run's numbers: one machine name per metric (lowercase, dotted, the unit
// as a suffix: "broker.2.records_share", "latency.p99_ms"), a label for people, the unit,
// the digits shown and how to compute it from a RunResult. Run's replicated report,
// compare (with and without replications) and sweeps all name metrics through it, so a
// metric has one name in every table, CSV and JSON. docs/cli/run.md lists the names
// ("Metric names").

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/distribution.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

/// Records per partition of one topic and how evenly they spread over its partitions: the
/// distribution statistics are per topic, since a run's topics are partitioned apart (a
/// migration's new topic, which the producers never write, says nothing about how they
/// spread records over the old one).
struct TopicDistribution {
  std::string topic;
  std::int64_t records = 0;    ///< measured, over the topic's partitions
  DistributionStats stats;     ///< meaningful only when records > 0
  bool time_weighted = false;  ///< its partitions existed for different times (a schedule): shares weighted by them
};

/// The run's topics in the order of their partitions' rows, each with its distribution. A
/// run of one topic has one entry, whose statistics keep the run-wide names
/// (`distribution.cv`, JSON "distribution": {"cv"}); a run of several names them per topic
/// (`distribution.<topic>.cv`, JSON "distribution": {"<topic>": {"cv"}}). A run without
/// partitions has one unnamed entry without records (the run-wide names, undefined).
std::vector<TopicDistribution> topic_distributions(const model::RunResult& r);

enum class MetricScope { kRun, kPartition, kBroker, kGroup, kProducer };

struct MetricInfo {
  std::string name;       ///< "records_acked", "partition.t.3.records", "broker.2.records_share"
  std::string label;      ///< "records acked", "partition t-3 records", "broker 2 share of records"
  std::string unit;       ///< "records", "bytes", "ms", "share", "batches", "requests", "" (a pure number)
  int decimals = 0;       ///< digits after the point in tables and CSV
  bool headline = false;  ///< a row of compare's table
  MetricScope scope = MetricScope::kRun;
  std::size_t index =
      0;  ///< the partition's, broker's, consumer group's or producer's index in the RunResult (scope != kRun)
};

/// The metrics of runs shaped like one RunResult (its partitions and brokers name the
/// per-partition and per-broker metrics; every run compared must have the same shape).
class MetricRegistry {
public:
  explicit MetricRegistry(const model::RunResult& shape);

  const std::vector<MetricInfo>& metrics() const { return metrics_; }
  std::size_t size() const { return metrics_.size(); }
  const MetricInfo& operator[](std::size_t i) const { return metrics_[i]; }
  /// The index of the metric named `name`, or size() when there is none.
  std::size_t find(std::string_view name) const;
  /// The index of field `field` ("records", "records_share") of the partition or broker at
  /// `index` in the RunResult, without a search; size() when there is none.
  std::size_t find(MetricScope scope, std::size_t index, std::string_view field) const;

  /// Every metric of `r`, in registry order. A statistic that needs measured records (a
  /// share, a mean, a percentile, the distribution) is NaN when the run measured none;
  /// distribution.max_over_min is +infinity when some partition got nothing. In a run of
  /// several topics the distribution is per topic, and undefined for a topic without records.
  std::vector<double> values(const model::RunResult& r) const;

private:
  std::vector<MetricInfo> metrics_;
  std::size_t partitions_ = 0, brokers_ = 0, groups_ = 0, producers_ = 0, topics_ = 0;
  bool keys_ = false;          // the runs count keyed records placed as Java places them
  bool traffic_ = false;       // the runs place something in a rack (or price crossing racks)
  bool reassignment_ = false;  // the runs reassign (a compare arm may not)
  bool disks_ = false;         // the runs model disks (a compare arm may not)
  std::size_t traffic_kinds_ = 0;
};

/// The label with its unit when the label does not already say it: "latency p99, ms".
std::string label_with_unit(const MetricInfo& m);

/// True when the value is defined (not NaN); +-infinity counts as defined.
bool is_defined(double v);

/// A value as table or CSV text: `decimals` places, "inf" for infinity, `undefined` for NaN.
std::string metric_text(double v, int decimals, std::string_view undefined);

}  // namespace partsim::analysis
