#include <energy_audit/studies/stability_map.hpp>

#include <algorithm>
#include <cmath>

namespace energy_audit::studies {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MapPoint, method, tau, start, k, f_max, f_final, rho, verdict)

namespace {

/// `setup` with k and the start's initial values set (last, so that they win).
ModelSetup with_gain(ModelSetup setup, double k, const std::vector<Assignment>& start = {}) {
  setup.parameters.emplace_back("k", k);
  for (const Assignment& a : start) setup.initial_values.push_back(a);
  return setup;
}

/// linspace(from, to, count).
std::vector<double> linspace(double from, double to, int count) {
  std::vector<double> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = from + (to - from) * i / (count - 1);
  return values;
}

class BoundarySearch {
 public:
  BoundarySearch(const KinematicEntry& model, const StabilityMapSettings& settings, const RunPool& pool,
                 const Method& method, double tau, const std::vector<Assignment>& start)
      : model_(model), settings_(settings), pool_(pool), method_(method), tau_(tau), start_(start) {}

  /// The bracketing search from −2 towards k_out over `count` scan points (docs/models.md, the
  /// ellipse's operational boundaries).
  std::optional<OperationalBoundary> find(double k_out, int count) const {
    const std::vector<double> scan = linspace(-2.0, k_out, count);
    const std::vector<char> passes = stable_at(scan);
    const auto first_fail = std::find(passes.begin(), passes.end(), char{0});
    if (first_fail == passes.begin() || first_fail == passes.end()) return std::nullopt;
    const std::size_t b_index = static_cast<std::size_t>(first_fail - passes.begin());
    OperationalBoundary boundary;
    boundary.passing_beyond = static_cast<int>(std::count(first_fail, passes.end(), char{1}));
    double a = scan[b_index - 1], b = scan[b_index];
    while (std::abs(b - a) > 1e-9 * std::max(1.0, std::abs(a))) {
      if (stop_requested(settings_.stop)) break;
      const std::vector<double> points = linspace(a, b, 33);
      std::vector<char> refined = stable_at(std::vector<double>(points.begin() + 1, points.end()));
      refined.insert(refined.begin(), char{1});  // a is taken as passing
      const auto fail = std::find(refined.begin() + 1, refined.end(), char{0});
      if (fail == refined.end()) {
        a = points[points.size() - 2];
      } else {
        const std::size_t i = static_cast<std::size_t>(fail - refined.begin());
        a = points[i - 1];
        b = points[i];
      }
    }
    boundary.last_stable = a;
    boundary.first_unstable = b;
    return boundary;
  }

 private:
  /// Whether |f_n| ≤ 1 for every n at each gain (a NaN fails), the runs spread over the pool.
  std::vector<char> stable_at(const std::vector<double>& gains) const {
    return pool_.map<char>(gains.size(), [&](std::size_t i) {
      KinematicSettings s;
      s.method = method_;
      s.step = tau_;
      s.t_end = settings_.t_end;
      s.multiplier_points = 0;
      s.stop_above = ConstraintDriftAudit::unstable_bound;
      s.stop = settings_.stop;
      const KinematicOutcome run = model_.run(with_gain(settings_.setup, gains[i], start_), s);
      return static_cast<char>(run.finished() && run.drift.max() <= ConstraintDriftAudit::unstable_bound);
    });
  }

  const KinematicEntry& model_;
  const StabilityMapSettings& settings_;
  const RunPool& pool_;
  const Method& method_;
  double tau_;
  const std::vector<Assignment>& start_;
};

/// k with rho(k) = 1 between `a` and `b` by 200 halvings, when rho − 1 changes sign there.
std::optional<double> rho_one(const KinematicEntry& model, const StabilityMapSettings& settings, const Method& method,
                              double tau, double a, double b) {
  const auto excess = [&](double k) {
    return model.transverse_multiplier(with_gain(settings.setup, k), method, tau, settings.multiplier_points) - 1.0;
  };
  double fa = excess(a);
  const double fb = excess(b);
  if (!(fa * fb < 0)) return std::nullopt;
  for (int i = 0; i < 200 && !stop_requested(settings.stop); ++i) {
    const double middle = 0.5 * (a + b);
    if (middle == a || middle == b) break;
    const double fm = excess(middle);
    if ((fm < 0) == (fa < 0)) {
      a = middle;
      fa = fm;
    } else {
      b = middle;
    }
  }
  return 0.5 * (a + b);
}

}  // namespace

StabilityMap compute_stability_map(const KinematicEntry& model, const StabilityMapSettings& settings,
                                   const RunPool& pool) {
  StabilityMap map;
  map.workers = pool.workers();
  const std::size_t methods = settings.methods.size(), steps = settings.steps.size(), gains = settings.gains.size(),
                    starts = model.starts.size();
  for (const Method& method : settings.methods) model.linear_interval(settings.setup, method, 1.0);  // refuses non-RK
  const std::size_t jobs = methods * steps * gains;
  pool.progress().start("stability " + model.name + ", map", jobs * starts);
  // One job: the points of one method, τ and k, one per start: `starts` runs.
  const std::vector<std::vector<MapPoint>> job_points = pool.map<std::vector<MapPoint>>(jobs, [&](std::size_t job) {
    std::vector<MapPoint> points;
    if (stop_requested(settings.stop)) return std::vector<MapPoint>(starts);  // not run: no verdict
    const std::size_t g = job % gains, s = (job / gains) % steps, m = job / (gains * steps);
    const Method& method = settings.methods[m];
    const double tau = settings.steps[s], k = settings.gains[g];
    const double rho = model.transverse_multiplier(with_gain(settings.setup, k), method, tau, settings.multiplier_points);
    for (std::size_t start = 0; start < starts; ++start) {
      KinematicSettings run_settings;
      run_settings.method = method;
      run_settings.step = tau;
      run_settings.t_end = settings.t_end;
      run_settings.multiplier_points = 0;
      run_settings.stop = settings.stop;
      const KinematicOutcome run = model.run(with_gain(settings.setup, k, model.starts[start].second), run_settings);
      points.push_back({method.name, tau, model.starts[start].first, k, run.drift.max(), run.drift.final(), rho,
               run.end == RunEnd::Error || run.end == RunEnd::Interrupted
                   ? run.verdict()
                   : std::string(to_string(run.drift.verdict(rho)))});
    }
    return points;
  }, /*units_each=*/starts);
  map.points.reserve(jobs * starts);
  for (const std::vector<MapPoint>& points : job_points) {
    map.interrupted = map.interrupted || (!points.empty() && points.front().verdict.empty());
    map.points.insert(map.points.end(), points.begin(), points.end());
  }
  map.interrupted = map.interrupted || stop_requested(settings.stop);
  if (map.interrupted) return map;

  if (settings.boundaries) pool.progress().start("stability " + model.name + ", boundary searches", 0);
  for (const Method& method : settings.methods) {
    for (const double tau : settings.steps) {
      MethodStepSummary summary;
      summary.method = method.name;
      summary.tau = tau;
      summary.linear = model.linear_interval(settings.setup, method, tau);
      if (settings.boundaries) {
        const double z_limit = summary.linear.lower;  // z*/τ
        summary.rho_one_lower = rho_one(model, settings, method, tau, 0.5 * z_limit, 1.3 * z_limit);
        summary.rho_one_upper = rho_one(model, settings, method, tau, -2.0, 1.0);
        for (const auto& [name, start] : model.starts) {
          const BoundarySearch search(model, settings, pool, method, tau, start);
          summary.starts.push_back({name, search.find(1.3 * z_limit, 401), search.find(3.0, 501)});
        }
      }
      map.summaries.push_back(std::move(summary));
      if (stop_requested(settings.stop)) {
        map.interrupted = true;
        return map;
      }
    }
  }
  return map;
}

}  // namespace energy_audit::studies
