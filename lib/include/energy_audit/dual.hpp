#pragma once
/// \file
/// Dual<Scalar, N>: a forward-mode automatic-differentiation number with N derivatives fixed at
/// compile time, nestable (Dual<Dual<double, n>, n + 1>) for second derivatives.
///
/// It is the scalar S of the models' T and V in lagrange_terms(). Everything is inline over
/// std::array, so GCC unrolls and flattens a whole nested evaluation; Eigen's AutoDiffScalar,
/// built on Eigen vectors of Eigen scalars, was three times slower than the hand-derived equations.

#include <array>
#include <cmath>
#include <compare>
#include <concepts>
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
  /// builds its result this way: filled entry by entry, a temporary Dual was stored piecewise and
  /// reloaded whole by GCC, a store-forwarding stall that made the nested Duals 25 % slower.
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
/// The smaller (larger) argument, derivatives included; as std::min (std::max), the first on ties.
template <class Scalar, int N>
Dual<Scalar, N> min(const Dual<Scalar, N>& a, const Dual<Scalar, N>& b) {
  return b < a ? b : a;
}
template <class Scalar, int N>
Dual<Scalar, N> max(const Dual<Scalar, N>& a, const Dual<Scalar, N>& b) {
  return a < b ? b : a;
}

}  // namespace energy_audit

namespace Eigen {

/// Dual as an Eigen scalar, as Eigen's AutoDiffScalar.h declares AutoDiffScalar: a real number
/// with double's precision whose operations cost N + 1 of the level below.
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
