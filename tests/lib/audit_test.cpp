// The audit on synthetic samples whose δ_C is known by hand.
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/error.hpp>

namespace ea = energy_audit;

namespace {

// A sample with T = T2 = kinetic, V = potential, Z = z: C = kinetic + potential + z.
void record(ea::Audit& audit, double t, double kinetic, double potential, double z) {
  ea::Vector q(1), v(1);
  q << t;
  v << -t;
  ea::EnergyTerms e;
  e.T = e.T2 = kinetic;
  e.V = potential;
  audit.record({t, q, v, e, z});
}

}  // namespace

BOOST_AUTO_TEST_CASE(relative_drift_is_sup_of_drift_over_sup_of_energy_scale) {
  ea::Audit audit;
  record(audit, 0.0, 2.0, 1.0, 0.0);    // C = 3
  record(audit, 0.1, 1.0, 1.5, 0.4);    // C = 2.9
  record(audit, 0.2, 0.5, -6.0, 8.6);   // C = 3.1, scale max(|E| = 5.5, |T|, |V| = 6) = 6
  record(audit, 0.3, 1.0, 2.0, 0.05);   // C = 3.05
  BOOST_TEST(audit.initial_control() == 3.0);
  BOOST_TEST(audit.max_abs_drift() == 0.1, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.energy_scale() == 6.0);
  BOOST_TEST(audit.relative_drift() == 0.1 / 6.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.accepted_steps() == 4u);
}

BOOST_AUTO_TEST_CASE(verdict_passes_at_the_threshold_and_fails_above) {
  ea::Audit at({.threshold = 0.5});
  at.begin_run(0.0, 1.0);
  record(at, 0.0, 1.0, 1.0, 0.0);
  record(at, 1.0, 1.0, 1.0, 1.0);  // drift 1, scale 2
  at.end_run(ea::RunEnd::Finished, 1.0);
  BOOST_TEST(at.relative_drift() == 0.5);
  BOOST_TEST(at.passed());

  ea::Audit above({.threshold = 0.4999});
  above.begin_run(0.0, 1.0);
  record(above, 0.0, 1.0, 1.0, 0.0);
  record(above, 1.0, 1.0, 1.0, 1.0);
  above.end_run(ea::RunEnd::Finished, 1.0);
  BOOST_TEST(!above.passed());
  BOOST_CHECK(above.verdict() == ea::Verdict::Fail);
}

// A perfect C over part of the interval: every way of not covering it is its own verdict,
// never a pass, and δ_C is still the drift over the steps that were seen.
BOOST_AUTO_TEST_CASE(a_run_that_did_not_cover_its_interval_never_passes) {
  const auto audited = [](bool begin, std::optional<ea::RunEnd> end, double t_last) {
    ea::Audit audit;
    if (begin) audit.begin_run(0.0, 10.0);
    record(audit, 0.0, 1.0, 1.0, 0.0);
    record(audit, t_last, 1.5, 0.5, 1e-9);
    if (end) audit.end_run(*end, t_last);
    return audit;
  };
  BOOST_CHECK(audited(true, ea::RunEnd::Finished, 10.0).verdict() == ea::Verdict::Pass);
  BOOST_CHECK(audited(true, ea::RunEnd::Diverged, 0.6).verdict() == ea::Verdict::Diverged);
  BOOST_CHECK(audited(true, ea::RunEnd::Error, 0.6).verdict() == ea::Verdict::Error);
  BOOST_CHECK(audited(true, ea::RunEnd::Interrupted, 0.6).verdict() == ea::Verdict::Interrupted);
  BOOST_CHECK(audited(true, std::nullopt, 0.6).verdict() == ea::Verdict::Incomplete);     // never ended
  BOOST_CHECK(audited(false, ea::RunEnd::Finished, 10.0).verdict() == ea::Verdict::Incomplete);  // no interval
  BOOST_CHECK(audited(true, ea::RunEnd::Finished, 0.6).verdict() == ea::Verdict::Incomplete);  // "finished" short
  const ea::Audit diverged = audited(true, ea::RunEnd::Diverged, 0.6);
  BOOST_TEST(!diverged.passed());
  BOOST_TEST(diverged.relative_drift() == 1e-9 / 2.0, boost::test_tools::tolerance(1e-6));  // C = 2 + 1e-9
  BOOST_TEST(diverged.t_reached() == 0.6);
  BOOST_TEST(std::string(ea::verdict_name(diverged.verdict())) == "diverged");
}

BOOST_AUTO_TEST_CASE(an_audit_continues_only_from_where_it_finished) {
  ea::Audit audit;
  audit.begin_run(0.0, 1.0);
  record(audit, 0.0, 1.0, 1.0, 0.0);
  record(audit, 1.0, 1.0, 1.0, 0.0);
  audit.end_run(ea::RunEnd::Finished, 1.0);
  BOOST_CHECK_THROW(audit.begin_run(0.5, 2.0), ea::InvalidArgument);  // overlaps
  audit.begin_run(1.0, 2.0);
  BOOST_CHECK(audit.verdict() == ea::Verdict::Incomplete);  // the continuation has not ended
  record(audit, 2.0, 1.0, 1.0, 0.0);
  audit.end_run(ea::RunEnd::Finished, 2.0);
  BOOST_CHECK(audit.verdict() == ea::Verdict::Pass);
  BOOST_TEST(audit.t_begin() == 0.0);
  BOOST_CHECK_THROW(ea::Audit().begin_run(1.0, 1.0), ea::InvalidArgument);
}

// A sample at rest with constant energy (T = V = 1), carrying `drift` and `multipliers`.
void record_at_rest(ea::Audit& audit, double t, std::optional<ea::ConstraintDrift> drift,
                    std::optional<ea::Vector> multipliers = std::nullopt) {
  const ea::Vector rest = ea::Vector::Zero(1);
  ea::EnergyTerms e;
  e.T = e.T2 = 1.0;
  e.V = 1.0;
  ea::EnergySample sample{t, rest, rest, e, 0.0};
  sample.constraint_drift = drift;
  sample.multipliers = std::move(multipliers);
  audit.record(sample);
}

// A constraint drift sample with ‖Φ‖ = position and ‖ψ‖ = velocity.
void record_with_drift(ea::Audit& audit, double t, double position, double velocity) {
  record_at_rest(audit, t, ea::ConstraintDrift{position, velocity});
}

BOOST_AUTO_TEST_CASE(constraint_drift_above_its_threshold_fails_the_verdict) {
  const auto verdict = [](double position, double velocity) {
    ea::Audit audit({.drift_threshold = 1e-3});
    audit.begin_run(0.0, 1.0);
    record_with_drift(audit, 0.0, 0.0, 0.0);
    record_with_drift(audit, 1.0, position, velocity);
    audit.end_run(ea::RunEnd::Finished, 1.0);
    return audit.verdict();
  };
  BOOST_CHECK(verdict(1e-3, 1e-3) == ea::Verdict::Pass);
  BOOST_CHECK(verdict(1.9e3, 0.0) == ea::Verdict::Fail);  // a wildly inconsistent start, C exact
  BOOST_CHECK(verdict(0.0, 2e-3) == ea::Verdict::Fail);
  BOOST_CHECK(verdict(std::nan(""), 1e-4) == ea::Verdict::Pass);  // kinematic constraints: no Φ
  BOOST_TEST(ea::Audit{}.drift_threshold() == 1e-3);
}

// A sample whose multipliers (one per rope, say) are `multipliers`.
void record_with_multipliers(ea::Audit& audit, double t, const std::vector<double>& multipliers) {
  record_at_rest(audit, t, std::nullopt,
                 Eigen::Map<const ea::Vector>(multipliers.data(), static_cast<ea::Index>(multipliers.size())));
}

// Each multiplier is judged against its own sign at t0: the first pulls (> 0) and turns at 0.2,
// the second pushes (< 0) and turns at 0.4, the first turning back changes nothing, and the
// third, 0 at t0, has no sign to lose.
BOOST_AUTO_TEST_CASE(each_multiplier_reports_its_own_first_sign_change) {
  ea::Audit audit;
  record_with_multipliers(audit, 0.0, {3.0, -2.0, 0.0});
  record_with_multipliers(audit, 0.1, {1.0, -1.0, 0.0});
  record_with_multipliers(audit, 0.2, {-0.5, -0.5, 1.0});
  record_with_multipliers(audit, 0.3, {-1.0, -0.1, -1.0});
  record_with_multipliers(audit, 0.4, {0.5, 0.2, 1.0});
  record_with_multipliers(audit, 0.5, {1.0, -1.0, 1.0});
  const std::vector<double>& changes = audit.multiplier_sign_changes();
  BOOST_TEST_REQUIRE(changes.size() == 3u);
  BOOST_TEST(changes[0] == 0.2);
  BOOST_TEST(changes[1] == 0.4);
  BOOST_TEST(std::isnan(changes[2]));
}

BOOST_AUTO_TEST_CASE(default_threshold_is_seed_000s) { BOOST_TEST(ea::Audit{}.threshold() == 1e-3); }

BOOST_AUTO_TEST_CASE(negative_or_non_finite_threshold_is_refused) {
  BOOST_CHECK_THROW(ea::Audit({.threshold = -1e-3}), ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::Audit({.threshold = std::numeric_limits<double>::quiet_NaN()}), ea::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(thinning_keeps_every_kth_row_but_drift_sees_every_step) {
  ea::Audit audit({.store_every = 3});
  for (int k = 0; k < 10; ++k) record(audit, 0.1 * k, 1.0, 1.0, k == 4 ? 0.5 : 0.0);  // spike at k = 4
  BOOST_TEST(audit.history().rows() == 4u);  // k = 0, 3, 6, 9
  BOOST_TEST(audit.history().row(1)[0] == 0.3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.relative_drift() == 0.25);  // 0.5 / 2, from a step that was not stored
  BOOST_TEST(audit.last_row()[0] == 0.9, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(output_times_keep_the_first_step_at_or_after_each) {
  ea::Audit audit({.output_times = {0.25, 0.5, 0.55, 2.0}});
  for (int k = 0; k <= 10; ++k) record(audit, 0.1 * k, 1.0, 1.0, 0.0);
  // 0.25 -> 0.3; 0.5 and 0.55 -> 0.5 (= 5 * 0.1 within rounding) and 0.6; 2.0 never reached.
  BOOST_TEST_REQUIRE(audit.history().rows() == 3u);
  BOOST_TEST(audit.history().row(0)[0] == 0.3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.history().row(1)[0] == 0.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.history().row(2)[0] == 0.6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(history_rows_hold_state_and_energies_in_column_order) {
  ea::Audit audit;
  record(audit, 0.5, 2.0, 3.0, 0.25);
  const auto row = audit.history().row(0);
  // t, q, v, T, T2, T1, T0, V, E, H, Z, C
  const std::vector<double> expected{0.5, 0.5, -0.5, 2.0, 2.0, 0.0, 0.0, 3.0, 5.0, 5.0, 0.25, 5.25};
  BOOST_TEST(std::vector<double>(row.begin(), row.end()) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(history_keeps_every_row_across_storage_blocks) {
  // 2000 rows of 12 values span several of the history's storage blocks (4096 values each).
  ea::Audit audit;
  for (int k = 0; k < 2000; ++k) record(audit, k, 1.0 + k, 2.0, 0.0);
  BOOST_TEST_REQUIRE(audit.history().rows() == 2000u);
  bool rows_intact = true;
  for (std::size_t k = 0; k < 2000; ++k) {
    const auto row = audit.history().row(k);
    rows_intact = rows_intact && row.size() == 12 && row[0] == double(k) && row[1] == double(k) &&
                  row[3] == 1.0 + double(k) && row[11] == 3.0 + double(k);  // t, q, T, C
  }
  BOOST_TEST(rows_intact);
}

BOOST_AUTO_TEST_CASE(a_row_sink_receives_every_row_in_order_and_memory_stays_bounded) {
  std::vector<double> times;
  std::size_t calls = 0;
  ea::Audit audit({.row_sink = [&](const ea::HistoryLayout& layout, std::span<const double> rows) {
    ++calls;
    BOOST_TEST_REQUIRE(rows.size() % layout.row_size() == 0u);
    for (std::size_t r = 0; r < rows.size(); r += layout.row_size()) times.push_back(rows[r]);
  }});
  for (int k = 0; k < 5000; ++k) {
    record(audit, k, 1.0, 2.0, 0.0);
    BOOST_TEST_REQUIRE(audit.history().rows() <= 4096u / 12u);  // one block held, never more
  }
  audit.flush_history();
  audit.flush_history();  // nothing held: nothing handed twice
  BOOST_TEST(audit.last_row()[0] == 4999.0);  // the last row outlives the flush
  BOOST_TEST_REQUIRE(times.size() == 5000u);
  bool in_order = true;
  for (std::size_t k = 0; k < times.size(); ++k) in_order = in_order && times[k] == double(k);
  BOOST_TEST(in_order);
  BOOST_TEST(calls == (5000u + 340u) / 341u);  // full blocks of 341 rows, then the rest
  BOOST_TEST(audit.history().rows_appended() == 5000u);
}

BOOST_AUTO_TEST_CASE(copied_audit_keeps_its_rows_apart_from_the_original) {
  ea::Audit original;
  for (int k = 0; k < 500; ++k) record(original, k, 1.0, 2.0, 0.0);
  ea::Audit copy = original;
  record(original, 500.0, 1.0, 2.0, 0.0);
  BOOST_TEST(copy.history().rows() == 500u);
  BOOST_TEST(original.history().rows() == 501u);
  BOOST_TEST(copy.history().row(499)[0] == 499.0);
  BOOST_TEST(copy.history().row(300)[0] == 300.0);
  record(copy, 700.0, 1.0, 2.0, 0.0);  // the copy appends into its own storage
  BOOST_TEST(copy.history().row(500)[0] == 700.0);
  BOOST_TEST(original.history().row(500)[0] == 500.0);
}

BOOST_AUTO_TEST_CASE(non_finite_control_fails_the_audit) {
  ea::Audit audit;
  record(audit, 0.0, 1.0, 1.0, 0.0);
  record(audit, 0.1, 1.0, 1.0, std::numeric_limits<double>::quiet_NaN());
  record(audit, 0.2, 1.0, 1.0, 0.0);
  BOOST_TEST(!audit.passed());
  BOOST_TEST(std::isinf(audit.relative_drift()));
}

BOOST_AUTO_TEST_CASE(zero_drift_over_zero_scale_is_zero) {
  ea::Audit audit;
  audit.begin_run(0.0, 0.1);
  record(audit, 0.0, 0.0, 0.0, 0.0);
  record(audit, 0.1, 0.0, 0.0, 0.0);
  audit.end_run(ea::RunEnd::Finished, 0.1);
  BOOST_TEST(audit.relative_drift() == 0.0);
  BOOST_TEST(audit.passed());
}

BOOST_AUTO_TEST_CASE(infinite_energy_gives_infinite_drift_not_nan) {
  ea::Audit audit;
  record(audit, 0.0, 1.0, 1.0, 0.0);
  record(audit, 0.1, std::numeric_limits<double>::infinity(), 1.0, 0.0);
  BOOST_TEST(std::isinf(audit.relative_drift()));
  BOOST_TEST(!audit.passed());
}

// C = T + Z with T = 10 J and Z rising at 0.01 J/s, then at 0.04 J/s over [1.5, 1.75], then
// falling: with threshold 1.1e-3, |C − C0| = 0.01 t first exceeds 1.1e-3 × 10 J after t = 1.1, so
// at the sample t = 1.25; the fastest rise is the step that ends at 1.75.
BOOST_AUTO_TEST_CASE(drift_onset_is_the_first_sample_above_the_threshold_and_the_steepest_rise) {
  ea::Audit audit({.threshold = 1.1e-3});
  audit.begin_run(0.0, 2.5);
  BOOST_TEST(std::isnan(audit.time_first_above_threshold()));
  BOOST_TEST(std::isnan(audit.time_of_fastest_growth()));
  const auto z = [](double t) { return t <= 1.5 ? 0.01 * t : t <= 1.75 ? 0.015 + 0.04 * (t - 1.5) : 0.025 - 0.01 * (t - 1.75); };
  for (int k = 0; k <= 10; ++k) {
    const double t = 0.25 * k;
    record(audit, t, 10.0, 0.0, z(t));
    if (t < 1.25) BOOST_TEST(std::isnan(audit.time_first_above_threshold()));
  }
  audit.end_run(ea::RunEnd::Finished, 2.5);
  BOOST_TEST(!audit.passed());
  BOOST_TEST(audit.time_first_above_threshold() == 1.25);
  BOOST_TEST(audit.time_of_fastest_growth() == 1.75);
  BOOST_TEST(audit.time_of_max_drift() == 1.75);
}

// The threshold is relative to the energy scale seen up to the sample: a drift that the larger
// scale reached later would cover is above the threshold where it happened.
BOOST_AUTO_TEST_CASE(drift_onset_judges_each_sample_by_the_scale_seen_so_far) {
  ea::Audit audit({.threshold = 0.1});
  record(audit, 0.0, 1.0, 0.0, 0.0);   // scale 1
  record(audit, 1.0, 1.0, 0.0, 0.2);   // drift 0.2 > 0.1 × 1
  record(audit, 2.0, 10.0, 0.0, -9.0);  // scale 10, drift 0
  BOOST_TEST(audit.relative_drift() == 0.02, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.time_first_above_threshold() == 1.0);

  ea::Audit passing({.threshold = 0.1});
  record(passing, 0.0, 10.0, 0.0, 0.0);
  record(passing, 1.0, 10.0, 0.0, 0.5);
  BOOST_TEST(std::isnan(passing.time_first_above_threshold()));
  BOOST_TEST(passing.time_of_fastest_growth() == 1.0);
}
