#include "analysis/theory_report.hpp"

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "analysis/theory.hpp"
#include "model/producer/record_size.hpp"

namespace partsim::analysis {

TheoryReport poisson_batching_report(const model::Scenario& s, const std::vector<std::int64_t>& observed) {
  const auto& p = s.producers.front();
  model::RecordShape shape;
  shape.value_bytes = p.workload.values.null_value ? -1 : p.workload.values.size_bytes;
  shape.header_count = p.workload.header_count;
  shape.header_key_bytes = p.workload.header_key_bytes;
  shape.header_value_bytes = p.workload.header_value_bytes;
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
    t.add_row({std::to_string(k), std::to_string(o), fixed(e, 1), fixed(total ? static_cast<double>(o) / static_cast<double>(total) : 0.0, 4),
               fixed(pmf[static_cast<std::size_t>(k)], 4)});
    rows.push_back({{"records", k}, {"simulated", o}, {"theory", round_to(e, 3)}});
  }
  out.text = "\nPoisson batching check: rate " + fixed(p.workload.arrivals.records_per_second, 1) + "/s x linger " +
             fixed(p.config.linger.to_ms(), 1) + " ms = " + fixed(mean, 3) + " arrivals per linger, cap " + std::to_string(cap) +
             " records per batch (batch.size " + std::to_string(p.config.batch_size_bytes) + ")\n" + t.to_text();
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

}  // namespace partsim::analysis
