#pragma once
/// \file
/// TapedScalar: the scalar S at which the library evaluates a large model's T and V, recording
/// each operation on a SecondOrderTape (second_order_tape.hpp) for M and r by reverse mode over
/// forward mode (lagrange_terms.hpp). It offers a model what Dual does (dual.hpp lists it): the
/// arithmetic, comparisons of the value, the same functions, Eigen's operations. Each function's
/// first and second derivatives come from Dual itself, evaluated at the argument's value, so
/// both scalars differentiate the same formulas.
///
/// A TapedScalar built from a number is a constant: operations among constants are plain double
/// arithmetic and leave the tape alone. A TapedScalar of the tape is an affine function of one
/// recorded quantity u, slope × u + (a constant), so that adding or multiplying by constants,
/// negating and dividing by a constant are not recorded either: a model's constant factors and
/// offsets cost nothing on the tape. A product of two functions of the same u (x · x, as in
/// ½ m v²) is recorded as a function of u alone, which the reverse sweep passes through once.

#include <cmath>
#include <concepts>
#include <iosfwd>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

#include "energy_audit/dual.hpp"
#include "energy_audit/second_order_tape.hpp"

namespace energy_audit {

struct TapedScalar {
  double value = 0;
  int node = SecondOrderTape::no_argument;  ///< u's index on `tape`; no_argument for a constant
  double slope = 0;                         ///< ∂value/∂u
  SecondOrderTape* tape = nullptr;

  TapedScalar() = default;
  /// A constant. Implicit, as for double, so `S x = 0.0;` works in models.
  template <class T>
    requires std::is_arithmetic_v<T>
  TapedScalar(T constant) : value(static_cast<double>(constant)) {}

  /// A new independent variable on `tape`; `adjoint_tangents_wanted` as SecondOrderTape::variable.
  static TapedScalar variable(SecondOrderTape& tape, double value, bool adjoint_tangents_wanted = false) {
    return {value, tape.variable(adjoint_tangents_wanted), 1.0, &tape};
  }

  bool is_constant() const { return node == SecondOrderTape::no_argument; }

  TapedScalar& operator+=(const TapedScalar& b) { return *this = *this + b; }
  TapedScalar& operator-=(const TapedScalar& b) { return *this = *this - b; }
  TapedScalar& operator*=(const TapedScalar& b) { return *this = *this * b; }
  TapedScalar& operator/=(const TapedScalar& b) { return *this = *this / b; }

  friend TapedScalar operator+(const TapedScalar& a) { return a; }
  friend TapedScalar operator-(const TapedScalar& a) { return a.affine(-1.0, -a.value); }
  friend TapedScalar operator+(const TapedScalar& a, const TapedScalar& b) {
    if (b.is_constant()) return a.affine(1.0, a.value + b.value);
    if (a.is_constant()) return b.affine(1.0, a.value + b.value);
    if (a.node == b.node) return {a.value + b.value, a.node, a.slope + b.slope, a.tape};
    return binary(a, b, a.value + b.value, {.da = 1.0, .db = 1.0});
  }
  friend TapedScalar operator-(const TapedScalar& a, const TapedScalar& b) { return a + (-b); }
  friend TapedScalar operator*(const TapedScalar& a, const TapedScalar& b) {
    if (b.is_constant()) return a.affine(b.value, a.value * b.value);
    if (a.is_constant()) return b.affine(a.value, a.value * b.value);
    if (a.node == b.node) {  // a product of one quantity u with itself, as x * x: a function of u alone
      const double s = a.slope, t = b.slope;
      return recorded(a.value * b.value, *a.tape,
                      a.tape->record(a.node, SecondOrderTape::no_argument,
                                     {.da = s * b.value + t * a.value, .daa = 2.0 * s * t}));
    }
    return binary(a, b, a.value * b.value, {.da = b.value, .db = a.value, .dab = 1.0});
  }
  friend TapedScalar operator/(const TapedScalar& a, const TapedScalar& b) {
    const double inverse = 1.0 / b.value, quotient = a.value * inverse;
    if (b.is_constant()) return a.affine(inverse, quotient);
    return binary(a, b, quotient,
                  {.da = inverse, .db = -quotient * inverse, .dab = -inverse * inverse,
                   .dbb = 2.0 * quotient * inverse * inverse});
  }
  // Exact overloads for constants beside a TapedScalar (hidden friends: found by ADL only).
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator+(const TapedScalar& a, T b) { return a + TapedScalar(b); }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator+(T a, const TapedScalar& b) { return TapedScalar(a) + b; }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator-(const TapedScalar& a, T b) { return a + TapedScalar(-b); }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator-(T a, const TapedScalar& b) { return TapedScalar(a) - b; }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator*(const TapedScalar& a, T b) { return a * TapedScalar(b); }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator*(T a, const TapedScalar& b) { return TapedScalar(a) * b; }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator/(const TapedScalar& a, T b) { return a / TapedScalar(b); }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend TapedScalar operator/(T a, const TapedScalar& b) { return TapedScalar(a) / b; }

  friend bool operator==(const TapedScalar& a, const TapedScalar& b) { return a.value == b.value; }
  friend auto operator<=>(const TapedScalar& a, const TapedScalar& b) { return a.value <=> b.value; }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend bool operator==(const TapedScalar& a, T b) { return a.value == static_cast<double>(b); }
  template <class T>
    requires std::is_arithmetic_v<T>
  friend auto operator<=>(const TapedScalar& a, T b) { return a.value <=> static_cast<double>(b); }

  /// c = g(a) with value `value` and g's partials at a's value (da, daa): recorded as a function
  /// of a's quantity u, whose partials carry a's slope.
  static TapedScalar unary(const TapedScalar& a, double value, const TapePartials& partials) {
    if (a.is_constant()) return value;
    const double s = a.slope;
    return recorded(value, *a.tape, a.tape->record(a.node, SecondOrderTape::no_argument,
                                                   {.da = partials.da * s, .daa = partials.daa * s * s}));
  }
  /// c = g(a, b) likewise; a constant argument leaves a function of the other.
  static TapedScalar binary(const TapedScalar& a, const TapedScalar& b, double value, const TapePartials& partials) {
    if (b.is_constant()) return unary(a, value, {.da = partials.da, .daa = partials.daa});
    if (a.is_constant()) return unary(b, value, {.da = partials.db, .daa = partials.dbb});
    const double s = a.slope, t = b.slope;
    return recorded(value, *a.tape,
                    a.tape->record(a.node, b.node,
                                   {.da = partials.da * s,
                                    .db = partials.db * t,
                                    .daa = partials.daa * s * s,
                                    .dab = partials.dab * s * t,
                                    .dbb = partials.dbb * t * t}));
  }

 private:
  TapedScalar(double value_, int node_, double slope_, SecondOrderTape* tape_)
      : value(value_), node(node_), slope(slope_), tape(tape_) {}
  static TapedScalar recorded(double value, SecondOrderTape& tape, int node) { return {value, node, 1.0, &tape}; }
  /// factor × this + a constant, whose value is `value`: the same quantity, another slope.
  TapedScalar affine(double factor, double value_) const {
    if (is_constant()) return value_;
    return {value_, node, slope * factor, tape};
  }
};

namespace detail {

/// g(x) recorded with the value, first and second derivative of g at x.value, from g evaluated
/// at Dual<Dual<double, 1>, 1> (both levels along x).
template <class G>
TapedScalar taped_function(const TapedScalar& x, const G& g) {
  if (x.is_constant()) return TapedScalar(g(x.value));
  Dual<Dual<double, 1>, 1> at;
  at.value.value = x.value;
  at.value.derivatives[0] = 1.0;
  at.derivatives[0].value = 1.0;
  const auto y = g(at);
  return TapedScalar::unary(x, y.value.value, {.da = y.value.derivatives[0], .daa = y.derivatives[0].derivatives[0]});
}

/// g(a, b) recorded likewise, from g at Dual<Dual<double, 2>, 2> (direction 0 along a, 1 along b).
template <class G>
TapedScalar taped_function(const TapedScalar& a, const TapedScalar& b, const G& g) {
  if (a.is_constant() && b.is_constant()) return TapedScalar(g(a.value, b.value));
  using Inner = Dual<double, 2>;
  using Outer = Dual<Inner, 2>;
  Outer at_a, at_b;
  at_a.value.value = a.value;
  at_a.value.derivatives[0] = 1.0;
  at_a.derivatives[0].value = 1.0;
  at_b.value.value = b.value;
  at_b.value.derivatives[1] = 1.0;
  at_b.derivatives[1].value = 1.0;
  const Outer y = g(at_a, at_b);
  return TapedScalar::binary(a, b, y.value.value,
                             {.da = y.value.derivatives[0],
                              .db = y.value.derivatives[1],
                              .daa = y.derivatives[0].derivatives[0],
                              .dab = y.derivatives[0].derivatives[1],
                              .dbb = y.derivatives[1].derivatives[1]});
}

}  // namespace detail

/// An argument that is a TapedScalar itself, not a number converted to one: the functions below
/// are found for TapedScalar arguments only, and a call on doubles never reaches them.
template <class T>
concept Taped = std::same_as<T, TapedScalar>;
/// A constant beside a TapedScalar.
template <class T>
concept TapeConstant = std::is_arithmetic_v<T>;
/// The arguments of a function of two: TapedScalars, or one of them a constant.
template <class A, class B>
concept TapedArguments = (Taped<A> && (Taped<B> || TapeConstant<B>)) || (TapeConstant<A> && Taped<B>);

// The functions of one argument that Dual differentiates, taped with Dual's derivatives.
#define ENERGY_AUDIT_TAPED_FUNCTION(function)                                                 \
  template <Taped X>                                                                          \
  TapedScalar function(const X& x) {                                                          \
    return detail::taped_function(x, [](const auto& y) {                                      \
      using std::function;                                                                    \
      return function(y);                                                                     \
    });                                                                                       \
  }
ENERGY_AUDIT_TAPED_FUNCTION(sin)
ENERGY_AUDIT_TAPED_FUNCTION(cos)
ENERGY_AUDIT_TAPED_FUNCTION(tan)
ENERGY_AUDIT_TAPED_FUNCTION(asin)
ENERGY_AUDIT_TAPED_FUNCTION(acos)
ENERGY_AUDIT_TAPED_FUNCTION(atan)
ENERGY_AUDIT_TAPED_FUNCTION(sinh)
ENERGY_AUDIT_TAPED_FUNCTION(cosh)
ENERGY_AUDIT_TAPED_FUNCTION(tanh)
ENERGY_AUDIT_TAPED_FUNCTION(asinh)
ENERGY_AUDIT_TAPED_FUNCTION(acosh)
ENERGY_AUDIT_TAPED_FUNCTION(atanh)
ENERGY_AUDIT_TAPED_FUNCTION(exp)
ENERGY_AUDIT_TAPED_FUNCTION(exp2)
ENERGY_AUDIT_TAPED_FUNCTION(expm1)
ENERGY_AUDIT_TAPED_FUNCTION(log)
ENERGY_AUDIT_TAPED_FUNCTION(log2)
ENERGY_AUDIT_TAPED_FUNCTION(log10)
ENERGY_AUDIT_TAPED_FUNCTION(log1p)
ENERGY_AUDIT_TAPED_FUNCTION(sqrt)
ENERGY_AUDIT_TAPED_FUNCTION(cbrt)
ENERGY_AUDIT_TAPED_FUNCTION(abs)
ENERGY_AUDIT_TAPED_FUNCTION(fabs)
#undef ENERGY_AUDIT_TAPED_FUNCTION

/// x², as Eigen's numext::abs2.
template <Taped X>
TapedScalar abs2(const X& x) {
  return x * x;
}

/// x^p for a constant p; a^x for a constant a; a^b.
template <Taped X, TapeConstant T>
TapedScalar pow(const X& x, T p) {
  return detail::taped_function(x, [p](const auto& y) {
    using std::pow;
    return pow(y, p);
  });
}
template <TapeConstant T, Taped X>
TapedScalar pow(T a, const X& x) {
  return detail::taped_function(x, [a](const auto& y) {
    using std::pow;
    return pow(a, y);
  });
}
template <Taped X, Taped Y>
TapedScalar pow(const X& a, const Y& b) {
  return detail::taped_function(a, b, [](const auto& x, const auto& y) {
    using std::pow;
    return pow(x, y);
  });
}

/// atan2(y, x) and hypot(x, y), either argument possibly a constant.
template <class Y, class X>
  requires TapedArguments<Y, X>
TapedScalar atan2(const Y& y, const X& x) {
  return detail::taped_function(TapedScalar(y), TapedScalar(x), [](const auto& a, const auto& b) {
    using std::atan2;
    return atan2(a, b);
  });
}
template <class X, class Y>
  requires TapedArguments<X, Y>
TapedScalar hypot(const X& x, const Y& y) {
  return detail::taped_function(TapedScalar(x), TapedScalar(y), [](const auto& a, const auto& b) {
    using std::hypot;
    return hypot(a, b);
  });
}

/// The smaller (larger) argument, derivatives included (none for a constant); as std::min
/// (std::max), the first on ties.
template <class A, class B>
  requires TapedArguments<A, B>
TapedScalar min(const A& a, const B& b) {
  const TapedScalar first(a), second(b);
  return second < first ? second : first;
}
template <class A, class B>
  requires TapedArguments<A, B>
TapedScalar max(const A& a, const B& b) {
  const TapedScalar first(a), second(b);
  return first < second ? second : first;
}

// Classification looks at the value, as comparisons do.
template <Taped X>
bool isfinite(const X& x) {
  return std::isfinite(x.value);
}
template <Taped X>
bool isnan(const X& x) {
  return std::isnan(x.value);
}
template <Taped X>
bool isinf(const X& x) {
  return std::isinf(x.value);
}

/// Writes the value, as for double.
template <class CharT, class Traits>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& out, const TapedScalar& x) {
  return out << x.value;
}

}  // namespace energy_audit

template <>
struct std::numeric_limits<energy_audit::TapedScalar> : std::numeric_limits<double> {};

namespace Eigen {

/// TapedScalar as an Eigen scalar: a real number with double's precision.
template <>
struct NumTraits<energy_audit::TapedScalar> : NumTraits<double> {
  using Real = energy_audit::TapedScalar;
  using NonInteger = Real;
  using Nested = Real;
  using Literal = double;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 8,
    MulCost = 8,
  };
};

/// double × TapedScalar and TapedScalar × double in Eigen expressions give TapedScalar.
template <class BinaryOp>
struct ScalarBinaryOpTraits<energy_audit::TapedScalar, double, BinaryOp> {
  using ReturnType = energy_audit::TapedScalar;
};
template <class BinaryOp>
struct ScalarBinaryOpTraits<double, energy_audit::TapedScalar, BinaryOp> {
  using ReturnType = energy_audit::TapedScalar;
};

}  // namespace Eigen
