#pragma once
/// \file
/// A bounded series of |C(t) − C(t0)| for a plot: its size does not grow with the number of steps.

#include <cstddef>
#include <utility>
#include <vector>

namespace energy_audit::studies {

/// |C(t) − C(t0)| of one run for a plot: at most 2 * buckets points whatever the number of
/// samples; the interval [t0, t_end] is cut into equal buckets, and each keeps its minimum and
/// maximum (with their times), so peaks are not lost.
class DriftEnvelope {
 public:
  /// Throws energy_audit::InvalidArgument unless t0 < t_end, both finite, and buckets > 0.
  DriftEnvelope(double t0, double t_end, std::size_t buckets = 1000);

  /// Samples come in any order of t. The plot has a log scale, so values <= 0 and non-finite
  /// ones (t or value) are skipped. A t outside [t0, t_end] (the round-off of a last step)
  /// counts in the first or the last bucket.
  void add(double t, double value);

  /// (t, value) of every bucket's minimum and maximum (once when they are the same sample),
  /// in time order.
  std::vector<std::pair<double, double>> points() const;

 private:
  struct Sample {
    double t = 0;
    double value = 0;
  };
  struct Bucket {
    Sample low, high;
    bool empty = true;
  };

  double t0_;
  double buckets_per_time_;
  std::vector<Bucket> buckets_;
};

}  // namespace energy_audit::studies
