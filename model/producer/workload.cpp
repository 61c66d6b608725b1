#include "model/producer/workload.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "sim/check.hpp"

namespace partsim::model {
namespace {

constexpr std::string_view kIndex = "{i}";

std::int32_t decimal_digits(std::int64_t v) {
  std::int32_t d = v < 0 ? 2 : 1;
  for (std::int64_t x = v < 0 ? -(v / 10) : v / 10; x != 0; x /= 10) ++d;
  return d;
}

}  // namespace

WorkloadGenerator::WorkloadGenerator(const Workload& w, const sim::RandomStreams& streams, const std::string& name)
    : arrivals_(w.arrivals),
      keys_(w.keys),
      values_(w.values),
      header_count_(w.header_count),
      header_key_bytes_(w.header_key_bytes),
      header_value_bytes_(w.header_value_bytes),
      arrival_rng_(streams.stream("producer/" + name + "/workload/arrivals")),
      key_rng_(streams.stream("producer/" + name + "/workload/keys")),
      value_rng_(streams.stream("producer/" + name + "/workload/values")) {
  key_template_ = compile(keys_.key_template);
  for (const auto& t : keys_.templates) key_templates_.push_back(compile(t));
  if (keys_.kind == KeySpec::Kind::kZipf) {
    // Zipf(s) over ranks 1..N: weight of rank k is 1 / k^s.
    std::vector<double> weights(static_cast<std::size_t>(keys_.cardinality));
    for (std::size_t k = 0; k < weights.size(); ++k)
      weights[k] = 1.0 / std::pow(static_cast<double>(k + 1), keys_.zipf_s);
    zipf_ =
        std::make_unique<boost::random::discrete_distribution<std::int64_t, double>>(weights.begin(), weights.end());
  }
  if (values_.kind == ValueSpec::Kind::kTemplate) {
    std::size_t pos = 0;
    while ((pos = values_.value_template.find(kIndex, pos)) != std::string::npos) {
      ++placeholders_in_value_;
      pos += kIndex.size();
    }
    value_template_fixed_bytes_ =
        static_cast<std::int32_t>(values_.value_template.size() - placeholders_in_value_ * kIndex.size());
  }
}

WorkloadGenerator::KeyTemplate WorkloadGenerator::compile(const std::string& templ) {
  KeyTemplate t;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t hit = templ.find(kIndex, pos);
    t.pieces.push_back(templ.substr(pos, hit == std::string::npos ? std::string::npos : hit - pos));
    if (hit == std::string::npos) return t;
    pos = hit + kIndex.size();
  }
}

void WorkloadGenerator::render(const KeyTemplate& t, std::int64_t index, std::string& out) {
  out.assign(t.pieces.front());
  if (t.pieces.size() == 1) return;
  char digits[24];
  const auto n = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, index).ptr - digits);
  for (std::size_t i = 1; i < t.pieces.size(); ++i) {
    out.append(digits, n);
    out.append(t.pieces[i]);
  }
}

std::int32_t WorkloadGenerator::template_length(const std::string&, std::int64_t index) const {
  return value_template_fixed_bytes_ + static_cast<std::int32_t>(placeholders_in_value_) * decimal_digits(index);
}

GeneratedRecord WorkloadGenerator::next_record(std::int64_t index) {
  if (ahead_ < 0) return generate(index, key_buffers_[current_]);
  PARTSIM_CHECK(ahead_ == index, "a record asked for out of order after a peek");
  ahead_ = -1;
  current_ ^= 1;
  return ahead_record_;
}

void WorkloadGenerator::take(WorkloadGenerator&& from) {
  // A peeked record's key may point into the key buffer it was made in, which moves along.
  const std::string& buffer = from.key_buffers_[from.current_ ^ 1];
  const bool in_buffer = from.ahead_ >= 0 && from.ahead_record_.key.data() == buffer.data();
  *this = std::move(from);
  if (in_buffer) ahead_record_.key = std::string_view(key_buffers_[current_ ^ 1].data(), ahead_record_.key.size());
}

const GeneratedRecord& WorkloadGenerator::peek(std::int64_t index) {
  if (ahead_ == index) return ahead_record_;
  PARTSIM_CHECK(ahead_ < 0, "a peek past a record already peeked");
  ahead_record_ = generate(index, key_buffers_[current_ ^ 1]);
  ahead_ = index;
  return ahead_record_;
}

GeneratedRecord WorkloadGenerator::generate(std::int64_t index, std::string& key_buffer) {
  GeneratedRecord r;
  switch (keys_.kind) {
    case KeySpec::Kind::kNone: break;
    case KeySpec::Kind::kTemplate: {
      const KeyTemplate& templ =
          key_templates_.empty()
              ? key_template_
              : key_templates_[static_cast<std::size_t>(index % static_cast<std::int64_t>(key_templates_.size()))];
      render(templ, keys_.cardinality > 0 ? index % keys_.cardinality : index, key_buffer);
      r.has_key = true;
      break;
    }
    case KeySpec::Kind::kZipf:
      render(key_template_, (*zipf_)(key_rng_), key_buffer);
      r.has_key = true;
      break;
    case KeySpec::Kind::kHot: {
      boost::random::bernoulli_distribution<double> hot(keys_.hot_share);
      if (hot(key_rng_)) {
        key_buffer = keys_.hot_key;
      } else {
        render(key_template_, index, key_buffer);
      }
      r.has_key = true;
      break;
    }
    case KeySpec::Kind::kList:
      key_buffer = keys_.list[static_cast<std::size_t>(index % static_cast<std::int64_t>(keys_.list.size()))];
      r.has_key = true;
      break;
  }
  if (r.has_key) {
    r.key = key_buffer;
    r.shape.key_bytes = static_cast<std::int32_t>(key_buffer.size());
  }
  switch (values_.kind) {
    case ValueSpec::Kind::kFixed: r.shape.value_bytes = values_.size_bytes; break;
    case ValueSpec::Kind::kTemplate: r.shape.value_bytes = template_length(values_.value_template, index); break;
    case ValueSpec::Kind::kUniform: {
      boost::random::uniform_int_distribution<std::int32_t> d(values_.min_bytes, values_.max_bytes);
      r.shape.value_bytes = d(value_rng_);
      break;
    }
    case ValueSpec::Kind::kLognormal: {
      // Boost's lognormal takes the mean and sigma of the underlying normal, ln X ~ N(m, s):
      // the median of X is e^m, so m = ln(median).
      boost::random::lognormal_distribution<double> d(std::log(values_.median_bytes), values_.sigma);
      r.shape.value_bytes = static_cast<std::int32_t>(std::min(1e9, std::round(d(value_rng_))));
      break;
    }
  }
  if (values_.null_value) r.shape.value_bytes = -1;
  r.shape.header_count = header_count_;
  r.shape.header_key_bytes = header_key_bytes_;
  r.shape.header_value_bytes = header_value_bytes_;
  return r;
}

SimTime WorkloadGenerator::next_arrival(SimTime previous) {
  const std::int64_t k = arrival_count_++;
  switch (arrivals_.kind) {
    case Arrivals::Kind::kConstant:
      // The k-th send at k / rate seconds, computed from k so rounding never drifts.
      return SimTime::ns(static_cast<std::int64_t>(std::llround(static_cast<double>(k) * 1e9 /
                                                                arrivals_.records_per_second)));
    case Arrivals::Kind::kPoisson: {
      boost::random::exponential_distribution<double> gap(arrivals_.records_per_second / 1e9);
      return k == 0 ? SimTime::ns(static_cast<std::int64_t>(gap(arrival_rng_)))
                    : previous + SimTime::ns(static_cast<std::int64_t>(gap(arrival_rng_)));
    }
    case Arrivals::Kind::kOnOff: {
      // Poisson arrivals during "on" periods; an arrival that falls into an "off" period
      // moves to the start of the next "on" period.
      boost::random::exponential_distribution<double> gap(arrivals_.records_per_second / 1e9);
      const std::int64_t on = arrivals_.on.count_ns();
      const std::int64_t cycle = on + arrivals_.off.count_ns();
      std::int64_t t = (k == 0 ? 0 : previous.count_ns()) + static_cast<std::int64_t>(gap(arrival_rng_));
      const std::int64_t phase = t % cycle;
      if (phase >= on) t += cycle - phase;
      return SimTime::ns(t);
    }
    case Arrivals::Kind::kClosedLoop:
    case Arrivals::Kind::kFlatOut: break;
  }
  return previous;
}

}  // namespace partsim::model
