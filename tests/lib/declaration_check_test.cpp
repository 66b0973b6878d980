// check_declarations: a model that declares `scleronomic` must have T and V free of explicit t
// and T homogeneous quadratic in v (T0 = T1 = 0). Tiny models, each with one known defect, are
// declared scleronomic by a wrapper: each is refused with InvalidArgument naming its defect
// (dT/dt, dV/dt, T0, T1; the first in that order when there are several), while the same model
// undeclared is not checked at all, and true scleronomic models (a pendulum, a double pendulum
// with its q-dependent coupling) are accepted. The tolerance is relative to T: a t-dependence at
// round-off passes, a small real one does not.
#include <cmath>
#include <string>

#include <boost/test/unit_test.hpp>

#include <energy_audit/declaration_check.hpp>
#include <energy_audit/error.hpp>

#include "double_pendulum.hpp"
#include "error_message.hpp"
#include "moving_support_pendulum.hpp"
#include "tiny_model_bases.hpp"

namespace ea = energy_audit;
using ea::testing::DoublePendulum;        // M(q) varies, T is still T2
using ea::testing::MovingSupportPendulum;  // dT/dt, dV/dt, T0 and T1 all non-zero

namespace {

/// Base with the declaration added.
template <class Base>
struct Declared : Base {
  static constexpr bool scleronomic = true;
};

/// A pendulum: T = ½ m l² θ'², V = −m g l cos θ. Truly scleronomic.
struct Pendulum : ea::testing::Dofs<1> {
  double m = 1.2, l = 0.7, g = 9.81;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * l * l * v[0] * v[0];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos;
    return -m * g * l * cos(q[0]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return Coordinates<S>(-0.1 * v[0]);  // damping does not bear on the declaration
  }
};

/// T = ½ m (1 + a t) v²: a mass that grows (dT/dt ≠ 0), T still homogeneous quadratic in v.
struct GrowingMass : ea::testing::Unforced<1> {
  double m = 2.0, a = 0.5;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S& t) const {
    return 0.5 * m * (1.0 + a * t) * v[0] * v[0];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return 0.5 * q[0] * q[0];
  }
};

/// A spring whose stiffness drifts, V = ½ k (1 + a t) q² (dV/dt ≠ 0), T = ½ m v². With a at
/// round-off the drift is none that matters.
struct DriftingSpring : ea::testing::Unforced<1> {
  double m = 1.0, k = 4.0, a = 0.5;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * v[0] * v[0];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    return 0.5 * k * (1.0 + a * t) * q[0] * q[0];
  }
};

/// A bead on a rod turning at constant ω: T = ½ m (r'² + ω² r²), so T0 = ½ m ω² r² ≠ 0 though
/// nothing depends on t explicitly.
struct BeadOnRotatingRod : ea::testing::KineticOnly<1> {
  double m = 0.3, w = 2.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * (v[0] * v[0] + w * w * q[0] * q[0]);
  }
};

/// A charge in a uniform magnetic field B, with the field's term A(q)·v in T: T = ½ m |v|² +
/// ½ B (x ẏ − y ẋ), so T1 ≠ 0 (and T0 = 0, no t).
struct ChargeInMagneticField : ea::testing::KineticOnly<2> {
  double m = 1.0, B = 2.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * (v[0] * v[0] + v[1] * v[1]) + 0.5 * B * (q[0] * v[1] - q[1] * v[0]);
  }
};

/// True when e's message is exactly "model declares scleronomic but <term> != 0".
auto names(const std::string& term) {
  return ea::testing::message_is("model declares scleronomic but " + term + " != 0");
}

}  // namespace

BOOST_AUTO_TEST_CASE(scleronomic_models_are_accepted) {
  static_assert(ea::is_scleronomic<Declared<Pendulum>> && !ea::is_scleronomic<Pendulum>);
  BOOST_CHECK_NO_THROW(ea::check_declarations(Declared<Pendulum>{}));
  BOOST_CHECK_NO_THROW(ea::check_declarations(Declared<DoublePendulum>{{.m1 = 1.0, .m2 = 0.5}}));
  BOOST_CHECK_NO_THROW(ea::check_declarations(Pendulum{}));
}

BOOST_AUTO_TEST_CASE(each_contradicted_declaration_is_refused_naming_its_term) {
  BOOST_CHECK_EXCEPTION(ea::check_declarations(Declared<GrowingMass>{}), ea::InvalidArgument, names("dT/dt"));
  BOOST_CHECK_EXCEPTION(ea::check_declarations(Declared<DriftingSpring>{}), ea::InvalidArgument, names("dV/dt"));
  BOOST_CHECK_EXCEPTION(ea::check_declarations(Declared<BeadOnRotatingRod>{}), ea::InvalidArgument, names("T0"));
  BOOST_CHECK_EXCEPTION(ea::check_declarations(Declared<ChargeInMagneticField>{}), ea::InvalidArgument,
                        names("T1"));
  // Several at once: the first of dT/dt, dV/dt, T0, T1 is named.
  BOOST_CHECK_EXCEPTION(ea::check_declarations(Declared<MovingSupportPendulum>{}), ea::InvalidArgument, names("dT/dt"));
  // A caller error is an Error too, for those that catch the library's errors alike.
  BOOST_CHECK_THROW(ea::check_declarations(Declared<BeadOnRotatingRod>{}), ea::Error);
}

BOOST_AUTO_TEST_CASE(undeclared_models_are_not_checked) {
  BOOST_CHECK_NO_THROW(ea::check_declarations(GrowingMass{}));
  BOOST_CHECK_NO_THROW(ea::check_declarations(DriftingSpring{}));
  BOOST_CHECK_NO_THROW(ea::check_declarations(BeadOnRotatingRod{}));
  BOOST_CHECK_NO_THROW(ea::check_declarations(ChargeInMagneticField{}));
  BOOST_CHECK_NO_THROW(ea::check_declarations(MovingSupportPendulum{}));
}

BOOST_AUTO_TEST_CASE(tolerance_is_round_off_relative_to_T) {
  // dV/dt = ½ k a q² with k = 4 and |q| ≤ 1 at the checked state: a = 1e-15 is round-off against
  // T ~ 1; a = 1e-6 is a real drift, refused.
  Declared<DriftingSpring> spring;
  spring.a = 1e-15;
  BOOST_CHECK_NO_THROW(ea::check_declarations(spring));
  spring.a = 1e-6;
  BOOST_CHECK_EXCEPTION(ea::check_declarations(spring), ea::InvalidArgument, names("dV/dt"));
  // The same drift against T ~ 1e8 (m = 1e8, |v| ≥ 0.7) is round-off again.
  spring.m = 1e8;
  BOOST_CHECK_NO_THROW(ea::check_declarations(spring));
  // A larger drift is refused at that T as well.
  spring.a = 10.0;
  BOOST_CHECK_EXCEPTION(ea::check_declarations(spring), ea::InvalidArgument, names("dV/dt"));
}
