#pragma once
/// \file
/// Dual<Scalar, N>: the library's one automatic-differentiation number, forward mode with N
/// derivatives fixed at compile time, nestable (Dual<Dual<double, n>, n + 1>) for second
/// derivatives.
///
/// It is the scalar S at which the library evaluates a model's templates: T and V for the mass
/// matrix, Lagrange's equations and the derived accelerations of models of a few coordinates
/// (lagrange_terms.hpp; larger ones are recorded on a tape, taped_scalar.hpp), T and V for
/// ∂T/∂t and ∂V/∂t (energy_flow.hpp, also in the check of a `scleronomic` declaration), and the
/// constraints for G, g and Ġ v + ġ (constraint_terms.hpp). So T, V, f and the constraints may
/// use, on S and beside double or int constants:
///
///   - + − × ÷ and their compound assignments, comparisons (of the value: models may branch);
///   - sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh;
///   - exp, exp2, expm1, log, log2, log10, log1p, sqrt, cbrt, pow, hypot;
///   - abs, fabs, abs2, min, max; isfinite, isnan, isinf (of the value);
///   - Eigen's operations on vectors and matrices of S (Dual is an Eigen scalar: dot, norm,
///     cross, sum, ...), std::numeric_limits<S> (that of double), and `out << x` (the value).
///
/// Call the functions unqualified after `using std::sin;` (as for double), so that argument-
/// dependent lookup finds the ones below: `std::sin(x)` names only the standard library's. The
/// <cmath> functions a model might reach for that Dual does not differentiate (floor, ceil,
/// trunc, round, nearbyint, rint, fmod, remainder, fmin, fmax, fdim, copysign, fma, erf, erfc,
/// tgamma, lgamma) fail on a Dual with one static_assert naming the function (the end of this file).
///
/// Everything is inline over std::array, so that GCC unrolls a whole nested evaluation and keeps
/// it in registers.

#include <array>
#include <cmath>
#include <compare>
#include <concepts>
#include <iosfwd>
#include <limits>
#include <numbers>
#include <type_traits>
#include <utility>

#include <Eigen/Core>

namespace energy_audit {

template <class Scalar, int N>
struct Dual;

namespace detail {
template <class T>
struct innermost_scalar {
  using type = T;
};
template <class Scalar, int N>
struct innermost_scalar<Dual<Scalar, N>> {
  using type = typename innermost_scalar<Scalar>::type;
};
}  // namespace detail

/// The plain floating-point type at the bottom of a (nested) Dual: double for Dual<Dual<double, 2>, 3>.
template <class T>
using innermost_scalar_t = typename detail::innermost_scalar<T>::type;

/// What may stand beside a Dual<Scalar, N> as a constant: a number, or a Scalar of the level below.
template <class T, class Scalar>
concept DualConstant = std::is_arithmetic_v<T> || std::same_as<T, Scalar>;

/// x = value + Σ_i derivatives[i] ε_i with ε_i ε_j = 0: arithmetic on it carries ∂x/∂(direction i)
/// along with x. Comparisons look at the value only, so models may branch on it.
template <class Scalar, int N>
struct Dual {
  Scalar value{};
  std::array<Scalar, N> derivatives{};

  constexpr Dual() = default;
  /// A constant: all derivatives zero. Implicit, as for double, so `S x = 0.0;` works in models.
  constexpr Dual(const Scalar& constant) : value(constant) {}
  template <class T>
    requires std::is_arithmetic_v<T> && (!std::same_as<T, Scalar>)
  constexpr Dual(T constant) : value(static_cast<Scalar>(constant)) {}
  constexpr Dual(const Scalar& value_, const std::array<Scalar, N>& derivatives_)
      : value(value_), derivatives(derivatives_) {}

  /// The N derivatives {derivative(0), ..., derivative(N - 1)}, built in place. Every operation
  /// builds its result this way, in one initializer: a Dual filled entry by entry (or copied in
  /// whole) is stored piecewise and reloaded whole by GCC, a store-forwarding stall in nested Duals.
  template <class F>
  static constexpr std::array<Scalar, N> generate(F derivative) {
    return [&]<std::size_t... i>(std::index_sequence<i...>) {
      return std::array<Scalar, N>{derivative(static_cast<int>(i))...};
    }(std::make_index_sequence<N>{});
  }

  /// The independent variable of direction i: value with derivative 1 along i, 0 along the others.
  static constexpr Dual variable(const Scalar& value, int i) {
    return {value, generate([&](int j) { return Scalar(j == i ? 1.0 : 0.0); })};
  }

  constexpr Dual& operator+=(const Dual& b) { return *this = *this + b; }
  constexpr Dual& operator-=(const Dual& b) { return *this = *this - b; }
  constexpr Dual& operator*=(const Dual& b) { return *this = *this * b; }
  constexpr Dual& operator/=(const Dual& b) { return *this = *this / b; }
  template <DualConstant<Scalar> T>
  constexpr Dual& operator+=(const T& b) {
    return *this = *this + b;
  }
  template <DualConstant<Scalar> T>
  constexpr Dual& operator-=(const T& b) {
    return *this = *this - b;
  }
  template <DualConstant<Scalar> T>
  constexpr Dual& operator*=(const T& b) {
    return *this = *this * b;
  }
  template <DualConstant<Scalar> T>
  constexpr Dual& operator/=(const T& b) {
    return *this = *this / b;
  }

  // Hidden friends: found by ADL only, and exact overloads for constants beside a Dual, so that
  // `0.5 * m * v[0]` multiplies N + 1 numbers by 0.5 instead of promoting 0.5 to a Dual.
  friend constexpr Dual operator+(const Dual& a) { return a; }
  friend constexpr Dual operator-(const Dual& a) {
    return {-a.value, generate([&](int i) { return Scalar(-a.derivatives[i]); })};
  }
  friend constexpr Dual operator+(const Dual& a, const Dual& b) {
    return {a.value + b.value, generate([&](int i) { return a.derivatives[i] + b.derivatives[i]; })};
  }
  friend constexpr Dual operator-(const Dual& a, const Dual& b) {
    return {a.value - b.value, generate([&](int i) { return a.derivatives[i] - b.derivatives[i]; })};
  }
  friend constexpr Dual operator*(const Dual& a, const Dual& b) {
    return {a.value * b.value,
            generate([&](int i) { return a.value * b.derivatives[i] + a.derivatives[i] * b.value; })};
  }
  friend constexpr Dual operator/(const Dual& a, const Dual& b) {
    const Scalar quotient = a.value / b.value;
    const Scalar inverse = 1.0 / b.value;
    return {quotient, generate([&](int i) { return (a.derivatives[i] - quotient * b.derivatives[i]) * inverse; })};
  }

  template <DualConstant<Scalar> T>
  friend constexpr Dual operator+(const Dual& a, const T& b) {
    return {a.value + b, a.derivatives};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator+(const T& a, const Dual& b) {
    return {a + b.value, b.derivatives};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator-(const Dual& a, const T& b) {
    return {a.value - b, a.derivatives};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator-(const T& a, const Dual& b) {
    return {a - b.value, generate([&](int i) { return Scalar(-b.derivatives[i]); })};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator*(const Dual& a, const T& b) {
    return {a.value * b, generate([&](int i) { return a.derivatives[i] * b; })};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator*(const T& a, const Dual& b) {
    return {a * b.value, generate([&](int i) { return a * b.derivatives[i]; })};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator/(const Dual& a, const T& b) {
    const auto inverse = 1.0 / b;
    return {a.value / b, generate([&](int i) { return a.derivatives[i] * inverse; })};
  }
  template <DualConstant<Scalar> T>
  friend constexpr Dual operator/(const T& a, const Dual& b) {
    const Scalar inverse = 1.0 / b.value;
    const Scalar quotient = a * inverse;
    return {quotient, generate([&](int i) { return -quotient * inverse * b.derivatives[i]; })};
  }

  friend constexpr bool operator==(const Dual& a, const Dual& b) { return a.value == b.value; }
  friend constexpr auto operator<=>(const Dual& a, const Dual& b) { return a.value <=> b.value; }
  template <DualConstant<Scalar> T>
  friend constexpr bool operator==(const Dual& a, const T& b) {
    return a.value == b;
  }
  template <DualConstant<Scalar> T>
  friend constexpr auto operator<=>(const Dual& a, const T& b) {
    return a.value <=> b;
  }
};

/// The value and first derivatives of f(x) from f(x.value) and f'(x.value): the chain rule.
template <class Scalar, int N>
constexpr Dual<Scalar, N> chain(const Dual<Scalar, N>& x, const Scalar& f, const Scalar& df) {
  return {f, Dual<Scalar, N>::generate([&](int i) { return df * x.derivatives[i]; })};
}

/// sin x and cos x together.
template <class T>
struct SinCos {
  T sin, cos;
};

/// sin and cos from one evaluation at the bottom level (GCC makes the pair one sincos call),
/// so that a nested Dual costs one trigonometric evaluation however deep, not 2^depth.
template <std::floating_point T>
SinCos<T> sin_cos(T x) {
  using std::cos, std::sin;
  return {sin(x), cos(x)};
}
template <class Scalar, int N>
SinCos<Dual<Scalar, N>> sin_cos(const Dual<Scalar, N>& x) {
  const SinCos<Scalar> bottom = sin_cos(x.value);
  return {chain(x, bottom.sin, bottom.cos), chain(x, bottom.cos, Scalar(-bottom.sin))};
}

// Elementary functions, found by ADL beside `using std::sin;` in the models. Each takes the
// function and its derivative at x.value (recursively a Dual for nested Duals).

template <class Scalar, int N>
Dual<Scalar, N> sin(const Dual<Scalar, N>& x) {
  const SinCos<Scalar> s = sin_cos(x.value);
  return chain(x, s.sin, s.cos);
}
template <class Scalar, int N>
Dual<Scalar, N> cos(const Dual<Scalar, N>& x) {
  const SinCos<Scalar> s = sin_cos(x.value);
  return chain(x, s.cos, Scalar(-s.sin));
}
template <class Scalar, int N>
Dual<Scalar, N> tan(const Dual<Scalar, N>& x) {
  using std::tan;
  const Scalar t = tan(x.value);
  return chain(x, t, Scalar(1.0 + t * t));
}
template <class Scalar, int N>
Dual<Scalar, N> sqrt(const Dual<Scalar, N>& x) {
  using std::sqrt;
  const Scalar root = sqrt(x.value);
  return chain(x, root, Scalar(0.5 / root));
}
template <class Scalar, int N>
Dual<Scalar, N> exp(const Dual<Scalar, N>& x) {
  using std::exp;
  const Scalar e = exp(x.value);
  return chain(x, e, e);
}
template <class Scalar, int N>
Dual<Scalar, N> log(const Dual<Scalar, N>& x) {
  using std::log;
  return chain(x, Scalar(log(x.value)), Scalar(1.0 / x.value));
}
/// x^p for a constant p (also at x = 0 for p ≥ 1).
template <class Scalar, int N, class T>
  requires std::is_arithmetic_v<T>
Dual<Scalar, N> pow(const Dual<Scalar, N>& x, T p) {
  using std::pow;
  const auto exponent = static_cast<innermost_scalar_t<Scalar>>(p);
  return chain(x, Scalar(pow(x.value, exponent)), Scalar(exponent * pow(x.value, exponent - 1)));
}
/// a^b for a constant a > 0.
template <class Scalar, int N, class T>
  requires std::is_arithmetic_v<T>
Dual<Scalar, N> pow(T a, const Dual<Scalar, N>& b) {
  using std::log, std::pow;
  const auto base = static_cast<innermost_scalar_t<Scalar>>(a);
  const Scalar power = pow(base, b.value);
  return chain(b, power, Scalar(power * log(base)));
}
/// a^b for a > 0 (b ∂a a^(b−1) + a^b ln a ∂b).
template <class Scalar, int N>
Dual<Scalar, N> pow(const Dual<Scalar, N>& a, const Dual<Scalar, N>& b) {
  using std::log, std::pow;
  const Scalar power = pow(a.value, b.value);
  const Scalar d_base = b.value * pow(a.value, b.value - 1.0);
  const Scalar d_exponent = power * log(a.value);
  return {power, Dual<Scalar, N>::generate(
                     [&](int i) { return d_base * a.derivatives[i] + d_exponent * b.derivatives[i]; })};
}
template <class Scalar, int N>
Dual<Scalar, N> abs(const Dual<Scalar, N>& x) {
  return x.value < 0 ? -x : x;
}
/// x², as Eigen's numext::abs2.
template <class Scalar, int N>
Dual<Scalar, N> abs2(const Dual<Scalar, N>& x) {
  return x * x;
}
template <class Scalar, int N>
Dual<Scalar, N> asin(const Dual<Scalar, N>& x) {
  using std::asin, std::sqrt;
  return chain(x, Scalar(asin(x.value)), Scalar(1.0 / sqrt(1.0 - x.value * x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> acos(const Dual<Scalar, N>& x) {
  using std::acos, std::sqrt;
  return chain(x, Scalar(acos(x.value)), Scalar(-1.0 / sqrt(1.0 - x.value * x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> atan(const Dual<Scalar, N>& x) {
  using std::atan;
  return chain(x, Scalar(atan(x.value)), Scalar(1.0 / (1.0 + x.value * x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> sinh(const Dual<Scalar, N>& x) {
  using std::cosh, std::sinh;
  return chain(x, Scalar(sinh(x.value)), Scalar(cosh(x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> cosh(const Dual<Scalar, N>& x) {
  using std::cosh, std::sinh;
  return chain(x, Scalar(cosh(x.value)), Scalar(sinh(x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> tanh(const Dual<Scalar, N>& x) {
  using std::tanh;
  const Scalar t = tanh(x.value);
  return chain(x, t, Scalar(1.0 - t * t));
}
/// atan2(y, x): the angle of (x, y), with ∂ = (x ∂y − y ∂x) / (x² + y²).
template <class Scalar, int N>
Dual<Scalar, N> atan2(const Dual<Scalar, N>& y, const Dual<Scalar, N>& x) {
  using std::atan2;
  const Scalar inverse = 1.0 / (x.value * x.value + y.value * y.value);
  const Scalar d_y = x.value * inverse, d_x = -y.value * inverse;
  return {atan2(y.value, x.value),
          Dual<Scalar, N>::generate([&](int i) { return d_y * y.derivatives[i] + d_x * x.derivatives[i]; })};
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> atan2(const Dual<Scalar, N>& y, const T& x) {
  return atan2(y, Dual<Scalar, N>(x));
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> atan2(const T& y, const Dual<Scalar, N>& x) {
  return atan2(Dual<Scalar, N>(y), x);
}
/// hypot(x, y) = √(x² + y²), with ∂ = (x ∂x + y ∂y) / hypot.
template <class Scalar, int N>
Dual<Scalar, N> hypot(const Dual<Scalar, N>& x, const Dual<Scalar, N>& y) {
  using std::hypot;
  const Scalar length = hypot(x.value, y.value);
  const Scalar inverse = 1.0 / length;
  const Scalar d_x = x.value * inverse, d_y = y.value * inverse;
  return {length,
          Dual<Scalar, N>::generate([&](int i) { return d_x * x.derivatives[i] + d_y * y.derivatives[i]; })};
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> hypot(const Dual<Scalar, N>& x, const T& y) {
  return hypot(x, Dual<Scalar, N>(y));
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> hypot(const T& x, const Dual<Scalar, N>& y) {
  return hypot(Dual<Scalar, N>(x), y);
}
/// The smaller (larger) argument, derivatives included (none for a constant); as std::min
/// (std::max), the first on ties.
template <class Scalar, int N>
Dual<Scalar, N> min(const Dual<Scalar, N>& a, const Dual<Scalar, N>& b) {
  return b < a ? b : a;
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> min(const Dual<Scalar, N>& a, const T& b) {
  return b < a ? Dual<Scalar, N>(b) : a;
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> min(const T& a, const Dual<Scalar, N>& b) {
  return b < a ? b : Dual<Scalar, N>(a);
}
template <class Scalar, int N>
Dual<Scalar, N> max(const Dual<Scalar, N>& a, const Dual<Scalar, N>& b) {
  return a < b ? b : a;
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> max(const Dual<Scalar, N>& a, const T& b) {
  return a < b ? Dual<Scalar, N>(b) : a;
}
template <class Scalar, int N, DualConstant<Scalar> T>
Dual<Scalar, N> max(const T& a, const Dual<Scalar, N>& b) {
  return a < b ? b : Dual<Scalar, N>(a);
}
/// |x|, as abs.
template <class Scalar, int N>
Dual<Scalar, N> fabs(const Dual<Scalar, N>& x) {
  return abs(x);
}
/// ∛x, with ∂ = 1 / (3 ∛x²) (infinite at 0).
template <class Scalar, int N>
Dual<Scalar, N> cbrt(const Dual<Scalar, N>& x) {
  using std::cbrt;
  const Scalar root = cbrt(x.value);
  return chain(x, root, Scalar(1.0 / (3.0 * root * root)));
}
/// 2^x, with ∂ = 2^x ln 2.
template <class Scalar, int N>
Dual<Scalar, N> exp2(const Dual<Scalar, N>& x) {
  using std::exp2;
  const Scalar power = exp2(x.value);
  return chain(x, power, Scalar(power * std::numbers::ln2_v<innermost_scalar_t<Scalar>>));
}
/// e^x − 1, accurate near 0, with ∂ = e^x.
template <class Scalar, int N>
Dual<Scalar, N> expm1(const Dual<Scalar, N>& x) {
  using std::exp, std::expm1;
  return chain(x, Scalar(expm1(x.value)), Scalar(exp(x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> log2(const Dual<Scalar, N>& x) {
  using std::log2;
  return chain(x, Scalar(log2(x.value)), Scalar(1.0 / (x.value * std::numbers::ln2_v<innermost_scalar_t<Scalar>>)));
}
template <class Scalar, int N>
Dual<Scalar, N> log10(const Dual<Scalar, N>& x) {
  using std::log10;
  return chain(x, Scalar(log10(x.value)), Scalar(1.0 / (x.value * std::numbers::ln10_v<innermost_scalar_t<Scalar>>)));
}
/// ln(1 + x), accurate near 0, with ∂ = 1 / (1 + x).
template <class Scalar, int N>
Dual<Scalar, N> log1p(const Dual<Scalar, N>& x) {
  using std::log1p;
  return chain(x, Scalar(log1p(x.value)), Scalar(1.0 / (1.0 + x.value)));
}
template <class Scalar, int N>
Dual<Scalar, N> asinh(const Dual<Scalar, N>& x) {
  using std::asinh, std::sqrt;
  return chain(x, Scalar(asinh(x.value)), Scalar(1.0 / sqrt(x.value * x.value + 1.0)));
}
/// arcosh x for x ≥ 1, with ∂ = 1 / (√(x − 1) √(x + 1)), the product accurate near 1.
template <class Scalar, int N>
Dual<Scalar, N> acosh(const Dual<Scalar, N>& x) {
  using std::acosh, std::sqrt;
  return chain(x, Scalar(acosh(x.value)), Scalar(1.0 / (sqrt(x.value - 1.0) * sqrt(x.value + 1.0))));
}
/// artanh x for |x| < 1, with ∂ = 1 / ((1 − x)(1 + x)).
template <class Scalar, int N>
Dual<Scalar, N> atanh(const Dual<Scalar, N>& x) {
  using std::atanh;
  return chain(x, Scalar(atanh(x.value)), Scalar(1.0 / ((1.0 - x.value) * (1.0 + x.value))));
}

// Classification looks at the value, as comparisons do.
template <class Scalar, int N>
bool isfinite(const Dual<Scalar, N>& x) {
  using std::isfinite;
  return isfinite(x.value);
}
template <class Scalar, int N>
bool isnan(const Dual<Scalar, N>& x) {
  using std::isnan;
  return isnan(x.value);
}
template <class Scalar, int N>
bool isinf(const Dual<Scalar, N>& x) {
  using std::isinf;
  return isinf(x.value);
}

/// Writes the value, as for double.
template <class CharT, class Traits, class Scalar, int N>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& out, const Dual<Scalar, N>& x) {
  return out << x.value;
}

// The <cmath> functions a model might reach for that Dual does not differentiate. Each is
// declared for Dual arguments, so that argument-dependent lookup adds it beside the standard
// library's overloads, none of which takes a Dual (alone, they fail with a list of candidates for
// every scalar type the model is evaluated at). Its body instantiates
// DualHasNo_<function><void> (void whatever the arguments), whose static_assert names the
// function: once per function, however many scalar types the library evaluates the model at.

namespace detail {
template <class T>
inline constexpr bool is_dual = false;
template <class Scalar, int N>
inline constexpr bool is_dual<Dual<Scalar, N>> = true;

/// The first Dual among the types: what an unsupported function returns, so that the model's
/// code around the call compiles and the static_assert is the only error.
template <class First, class... Rest>
struct first_dual {
  using type = typename first_dual<Rest...>::type;
};
template <class Scalar, int N, class... Rest>
struct first_dual<Dual<Scalar, N>, Rest...> {
  using type = Dual<Scalar, N>;
};

template <class...>
inline constexpr bool always_false = false;

/// void, as std::void_t, but a member of a class template: dependent for every compiler (clang
/// takes std::void_t<Arguments...> for plain void and would fire the static_assert below at its
/// definition), and one type for every call, so that the static_assert fires once.
template <class...>
struct void_of {
  using type = void;
};
}  // namespace detail

#define ENERGY_AUDIT_DUAL_HAS_NO(function)                                                                     \
  namespace detail {                                                                                           \
  template <class T = void>                                                                                    \
  struct DualHasNo_##function {                                                                                \
    static_assert(always_false<T>, "energy_audit::Dual has no " #function                                   \
                                  "(): T, V, f and the constraints may use the functions listed in "         \
                                  "energy_audit/dual.hpp (and the README's \"Performance\")");               \
  };                                                                                                           \
  }                                                                                                            \
  template <class... Arguments>                                                                                \
    requires(detail::is_dual<Arguments> || ...)                                                                \
  typename detail::first_dual<Arguments...>::type function(const Arguments&...) {                              \
    static_cast<void>(sizeof(detail::DualHasNo_##function<typename detail::void_of<Arguments...>::type>));    \
    return {};                                                                                                 \
  }

ENERGY_AUDIT_DUAL_HAS_NO(floor)
ENERGY_AUDIT_DUAL_HAS_NO(ceil)
ENERGY_AUDIT_DUAL_HAS_NO(trunc)
ENERGY_AUDIT_DUAL_HAS_NO(round)
ENERGY_AUDIT_DUAL_HAS_NO(nearbyint)
ENERGY_AUDIT_DUAL_HAS_NO(rint)
ENERGY_AUDIT_DUAL_HAS_NO(fmod)
ENERGY_AUDIT_DUAL_HAS_NO(remainder)
ENERGY_AUDIT_DUAL_HAS_NO(fmin)
ENERGY_AUDIT_DUAL_HAS_NO(fmax)
ENERGY_AUDIT_DUAL_HAS_NO(fdim)
ENERGY_AUDIT_DUAL_HAS_NO(copysign)
ENERGY_AUDIT_DUAL_HAS_NO(fma)
ENERGY_AUDIT_DUAL_HAS_NO(erf)
ENERGY_AUDIT_DUAL_HAS_NO(erfc)
ENERGY_AUDIT_DUAL_HAS_NO(tgamma)
ENERGY_AUDIT_DUAL_HAS_NO(lgamma)

#undef ENERGY_AUDIT_DUAL_HAS_NO

}  // namespace energy_audit

/// std::numeric_limits of the plain type at the bottom, as for Eigen's NumTraits below.
template <class Scalar, int N>
struct std::numeric_limits<energy_audit::Dual<Scalar, N>> : std::numeric_limits<energy_audit::innermost_scalar_t<Scalar>> {};

namespace Eigen {

/// Dual as an Eigen scalar: a real number with double's precision whose operations cost N + 1
/// of the level below.
template <class Scalar, int N>
struct NumTraits<energy_audit::Dual<Scalar, N>> : NumTraits<energy_audit::innermost_scalar_t<Scalar>> {
  using Real = energy_audit::Dual<Scalar, N>;
  using NonInteger = Real;
  using Nested = Real;
  using Literal = energy_audit::innermost_scalar_t<Scalar>;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = (N + 1) * NumTraits<Scalar>::ReadCost,
    AddCost = (N + 1) * NumTraits<Scalar>::AddCost,
    MulCost = (2 * N + 1) * NumTraits<Scalar>::MulCost,
  };
};

/// double × Dual and Dual × double in Eigen expressions (`k * v`, `v * k`) give Dual.
template <class Scalar, int N, class BinaryOp>
struct ScalarBinaryOpTraits<energy_audit::Dual<Scalar, N>, energy_audit::innermost_scalar_t<Scalar>, BinaryOp> {
  using ReturnType = energy_audit::Dual<Scalar, N>;
};
template <class Scalar, int N, class BinaryOp>
struct ScalarBinaryOpTraits<energy_audit::innermost_scalar_t<Scalar>, energy_audit::Dual<Scalar, N>, BinaryOp> {
  using ReturnType = energy_audit::Dual<Scalar, N>;
};

}  // namespace Eigen
