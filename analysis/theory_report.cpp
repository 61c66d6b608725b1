#include "analysis/theory_report.hpp"

#include <utility>

#include <string>

#include "analysis/format.hpp"
#include "analysis/probability.hpp"
#include "analysis/table.hpp"
#include "model/cluster/broker_service.hpp"
#include "model/producer/record_size.hpp"

namespace partsim::analysis {

namespace {

model::RecordShape record_shape(const model::ProducerSpec& p) {
  model::RecordShape shape;
  shape.value_bytes = p.workload.values.null_value ? -1 : p.workload.values.size_bytes;
  shape.header_count = p.workload.header_count;
  shape.header_key_bytes = p.workload.header_key_bytes;
  shape.header_value_bytes = p.workload.header_value_bytes;
  return shape;
}

}  // namespace

TheoryReport poisson_batching_report(const model::Scenario& s, const std::vector<std::int64_t>& observed) {
  const auto& p = s.producers.front();
  const model::RecordShape shape = record_shape(p);
  const std::int32_t cap = model::records_per_full_batch(p.config.batch_size_bytes, shape.payload_part());
  const double mean = p.workload.arrivals.records_per_second * p.config.linger.to_ms() / 1000.0;
  const auto pmf = poisson_batch_pmf(mean, cap);
  const auto fit = chi_square_goodness_of_fit(observed, pmf);
  std::int64_t total = 0;
  for (auto c : observed) total += c;
  TheoryReport out;
  auto& json = out.json;
  Table t({{"records/batch"}, {"simulated"}, {"theory"}, {"sim share"}, {"theory share"}});
  auto rows = nlohmann::ordered_json::array();
  for (std::int32_t k = 1; k <= cap; ++k) {
    const std::int64_t o = static_cast<std::size_t>(k) < observed.size() ? observed[static_cast<std::size_t>(k)] : 0;
    const double e = pmf[static_cast<std::size_t>(k)] * static_cast<double>(total);
    t.add_row({std::to_string(k), std::to_string(o), fixed(e, 1),
               fixed(total ? static_cast<double>(o) / static_cast<double>(total) : 0.0, 4),
               fixed(pmf[static_cast<std::size_t>(k)], 4)});
    rows.push_back({{"records", k}, {"simulated", o}, {"theory", round_to(e, 3)}});
  }
  out.text = "\nPoisson batching check: rate " + fixed(p.workload.arrivals.records_per_second, 1) + "/s x linger " +
             fixed(p.config.linger.to_ms(), 1) + " ms = " + fixed(mean, 3) + " arrivals per linger, cap " +
             std::to_string(cap) + " records per batch (batch.size " + std::to_string(p.config.batch_size_bytes) +
             ")\n" + t.to_text();
  json["rows"] = std::move(rows);
  json["check"] = "poisson-batching";
  json["mean_arrivals_per_linger"] = mean;
  json["cap_records"] = cap;
  json["batches"] = total;
  if (total == 0) {  // nothing measured: no test
    out.text += "no batches measured: no test\n";
    json["chi_square"] = nullptr;
    json["degrees_of_freedom"] = nullptr;
    json["p_value"] = nullptr;
    return out;
  }
  out.text += "chi-square " + fixed(fit.chi_square, 3) + " on " + std::to_string(fit.degrees_of_freedom) +
              " degrees of freedom: p = " + fixed(fit.p_value, 4) + "\n";
  json["chi_square"] = round_to(fit.chi_square, 4);
  json["degrees_of_freedom"] = fit.degrees_of_freedom;
  json["p_value"] = round_to(fit.p_value, 6);
  return out;
}

ServiceMoments one_record_service(const model::Scenario& s, const model::BrokerConfig& broker) {
  // The broker's service of one batch plus its jitter; a one-record batch is its header and
  // the first record (offset and time delta 0).
  const std::int32_t record = model::record_size(0, 0, record_shape(s.producers.front()).payload_part());
  const std::int32_t bytes = model::estimated_bytes_written(record, false, 1.0f);
  const double fixed_ms = model::service_ms(broker.request_time, broker.batch_time, broker.bytes_per_second, bytes, 1);
  const model::JitterMoments j = model::jitter_moments(broker.jitter);
  return {fixed_ms + j.mean_ms, fixed_ms * fixed_ms + 2 * fixed_ms * j.mean_ms + j.second_ms2};
}

QueueSample queue_sample(const model::RunResult& r) {
  QueueSample q;
  for (const auto& b : r.brokers) {
    if (b.requests == 0) continue;
    q.broker = b.broker;
    q.requests += b.requests;
    q.records += b.records;
    q.wait_ms_sum += b.queue_wait_ms_sum;
  }
  q.retries = r.retries;
  q.failed = r.failed.total();
  return q;
}

namespace {

// Why the closed form does not describe these runs, or "" when it does: every request one
// record (a producer holding records back batches them and cuts the longest waits short)
// and none retried or lost (a request given up waits no service; its retry is one arrival more).
std::string broken_assumption(const std::vector<QueueSample>& samples) {
  std::int64_t requests = 0, records = 0, retries = 0, failed = 0;
  for (const auto& q : samples) {
    requests += q.requests;
    records += q.records;
    retries += q.retries;
    failed += q.failed;
  }
  if (requests == 0) return "no requests measured";
  if (retries > 0 || failed > 0)
    return std::to_string(retries) + " batches retried and " + std::to_string(failed) +
           " records failed: requests were given up or repeated";
  if (records != requests)
    return std::to_string(records) + " records in " + std::to_string(requests) +
           " requests: producers held records back and batched them (raise max.in.flight.requests.per.connection)";
  return "";
}

}  // namespace

TheoryReport broker_queue_report(const model::Scenario& s, const std::vector<QueueSample>& samples) {
  double per_second = 0;
  for (const auto& p : s.producers) per_second += p.workload.arrivals.records_per_second;
  // The one partition's leader (it does not move: no schedule, no failure): the first broker,
  // or its assignment's first replica, unless the samples say.
  const model::BrokerConfig* broker = &s.brokers.front();
  if (!s.topics.empty() && !s.topics.front().assignment.empty())
    for (const auto& b : s.brokers)
      if (b.id == s.topics.front().assignment.front().front()) broker = &b;
  for (const auto& q : samples)
    for (const auto& b : s.brokers)
      if (q.broker == b.id) broker = &b;
  const ServiceMoments service = one_record_service(s, *broker);
  const double per_ms = per_second / 1000.0;
  const double rho = per_ms * service.mean_ms;
  std::vector<double> waits;
  std::int64_t requests = 0, records = 0;
  for (const auto& q : samples) {
    if (q.requests == 0) continue;
    waits.push_back(q.wait_ms_sum / static_cast<double>(q.requests));
    requests += q.requests;
    records += q.records;
  }
  const double per_request = requests ? static_cast<double>(records) / static_cast<double>(requests) : 0.0;

  TheoryReport out;
  auto& json = out.json;
  json["check"] = "broker-queue";
  json["broker"] = broker->id;
  json["arrival_rate_per_s"] = per_second;
  json["service_mean_ms"] = round_to(service.mean_ms, 6);
  json["service_second_moment_ms2"] = round_to(service.second_ms2, 6);
  json["utilization"] = round_to(rho, 6);
  json["records_per_request"] = requests ? nlohmann::ordered_json(round_to(per_request, 4))
                                         : nlohmann::ordered_json(nullptr);
  json["theory_wait_ms"] = nullptr;
  json["replications"] = waits.size();
  json["simulated_wait_ms"] = nullptr;
  json["simulated_wait_std_error_ms"] = nullptr;
  json["t"] = nullptr;
  json["p_value"] = nullptr;
  out.text = "\nBroker queue check (M/G/1, Pollaczek-Khinchine): arrivals " + fixed(per_second, 1) +
             "/s, service mean " + fixed(service.mean_ms, 4) + " ms, E[S^2] " + fixed(service.second_ms2, 4) +
             " ms^2, utilization " + fixed(rho, 4) + "\n";
  if (rho >= 1) {
    out.text += "utilization >= 1: the queue grows without bound, no steady state to test\n";
    return out;
  }
  const double expected = mg1_mean_wait_ms(per_ms, service);
  const MeanTest test = one_sample_t_test(waits, expected);
  json["theory_wait_ms"] = round_to(expected, 6);
  if (!waits.empty()) json["simulated_wait_ms"] = round_to(test.mean, 6);
  Table t({{"mean queue wait"}, {"ms"}});
  t.add_row({"theory", fixed(expected, 4)});
  if (!waits.empty()) {
    // The 95% interval of the mean over replications (Student t, n - 1 degrees of freedom).
    std::string interval;
    if (test.n >= 2) {
      interval = " +- " + fixed(students_t_upper_quantile(static_cast<double>(test.n - 1), 0.025) * test.std_error, 4);
    }
    t.add_row({"simulated", fixed(test.mean, 4) + interval});
  }
  out.text += t.to_text();
  if (requests) out.text += "records per request " + fixed(per_request, 4) + "\n";
  if (const std::string broken = broken_assumption(samples); !broken.empty()) {
    out.text += "no test: " + broken + "\n";
    return out;
  }
  if (test.n < 2) {
    out.text += "one replication: no test (the waits of one run are correlated); run with --replications 2 or more\n";
    return out;
  }
  json["simulated_wait_std_error_ms"] = round_to(test.std_error, 6);
  if (test.std_error > 0) json["t"] = round_to(test.t, 4);
  json["p_value"] = round_to(test.p_value, 6);
  out.text += (test.std_error > 0 ? "t = " + fixed(test.t, 3) : std::string("no spread")) + " on " +
              std::to_string(test.n - 1) + " degrees of freedom: p = " + fixed(test.p_value, 4) + "\n";
  return out;
}

}  // namespace partsim::analysis
