#include <energy_audit/studies/drift_envelope.hpp>

#include <cmath>

#include <energy_audit/error.hpp>

namespace energy_audit::studies {

DriftEnvelope::DriftEnvelope(double t0, double t_end, std::size_t buckets)
    : t0_(t0), buckets_per_time_(static_cast<double>(buckets) / (t_end - t0)), buckets_(buckets) {
  if (!std::isfinite(t0) || !std::isfinite(t_end) || !(t0 < t_end)) {
    throw InvalidArgument("DriftEnvelope: [" + to_text(t0) + ", " + to_text(t_end) + "] is not an interval");
  }
  if (buckets == 0) throw InvalidArgument("DriftEnvelope: buckets must be > 0");
}

void DriftEnvelope::add(double t, double value) {
  if (!std::isfinite(t) || !std::isfinite(value) || !(value > 0)) return;
  // Monotone in t (a product and a difference with positive constants), so bucket order is
  // time order.
  const double position = (t - t0_) * buckets_per_time_;
  const std::size_t last = buckets_.size() - 1;
  const std::size_t index =
      position <= 0 ? 0 : position >= static_cast<double>(last) ? last : static_cast<std::size_t>(position);
  Bucket& bucket = buckets_[index];
  const Sample sample{t, value};
  if (bucket.empty) {
    bucket = {sample, sample, false};
    return;
  }
  // Ties go to the earlier sample, so the envelope does not depend on the order of the samples.
  if (value < bucket.low.value || (value == bucket.low.value && t < bucket.low.t)) bucket.low = sample;
  if (value > bucket.high.value || (value == bucket.high.value && t < bucket.high.t)) bucket.high = sample;
}

std::vector<std::pair<double, double>> DriftEnvelope::points() const {
  std::vector<std::pair<double, double>> out;
  for (const Bucket& bucket : buckets_) {
    if (bucket.empty) continue;
    const bool one_sample = bucket.low.t == bucket.high.t && bucket.low.value == bucket.high.value;
    const Sample& first = bucket.high.t < bucket.low.t ? bucket.high : bucket.low;
    const Sample& second = bucket.high.t < bucket.low.t ? bucket.low : bucket.high;
    out.emplace_back(first.t, first.value);
    if (!one_sample) out.emplace_back(second.t, second.value);
  }
  return out;
}

}  // namespace energy_audit::studies
