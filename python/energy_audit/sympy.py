"""energy_audit.sympy: models written in SymPy, audited without writing T, V or the powers again.

LagrangeModel turns SymPy expressions of the kinetic energy T, the potential energy V, the
generalized forces f and the coordinates q into the callables that audit_trajectory and
audit_solution take (NumPy functions made by lambdify), and into the right-hand side of
Lagrange's equations for scipy's solve_ivp. write_cpp_model writes the same model as a C++
header in the library's model form (docs/library.md), whose accelerations the library derives.
The coordinates are dynamicsymbols q(t) of sympy.physics.mechanics (their time derivatives the
velocities, or generalized speeds u(t) given as v), or plain symbols q with their velocities v.
docs/python.md describes both.
"""

import re

try:
    import sympy as sp
except ImportError as error:
    raise ImportError("energy_audit.sympy needs SymPy (Debian: python3-sympy; pip: sympy)") from error
import numpy as np
from sympy.core.function import AppliedUndef
from sympy.printing.cxx import CXX17CodePrinter

__all__ = ["LagrangeModel", "write_cpp_model"]


class _Coordinates:
    """q, v and t of a model, and the plain symbols that stand for them in the expressions.

    q: n dynamicsymbols q_i(t), or n plain symbols. v: None (the velocities of dynamicsymbols are
    their time derivatives), or n generalized speeds u_i(t) equal to q_i', or, with plain symbols
    q, the n plain symbols of the velocities (required). t: the time symbol (that of the
    dynamicsymbols when left None).
    """

    def __init__(self, q, v=None, t=None):
        q = list(sp.Matrix(q)) if isinstance(q, sp.MatrixBase) else list(q)
        if not q:
            raise ValueError("q: no coordinates")
        self.n = len(q)
        functions = [isinstance(item, AppliedUndef) for item in q]
        if all(functions):
            arguments = {item.args for item in q}
            if len(arguments) != 1 or len(next(iter(arguments))) != 1 or not next(iter(arguments))[0].is_Symbol:
                raise ValueError("q: the coordinates must be functions of one and the same time symbol, q(t)")
            time = next(iter(arguments))[0]
            if t is not None and t != time:
                raise ValueError(f"t: {t} is not the time {time} of the coordinates q(t)")
            self.t = time
            self.names = [item.func.__name__ for item in q]
            self.q = [sp.Dummy(name) for name in self.names]
            self.replacements = {item: symbol for item, symbol in zip(q, self.q)}
            if v is None:
                self.velocity_names = [name + "_dot" for name in self.names]
                velocities = [item.diff(time) for item in q]
            else:
                velocities = self._velocities(v, lambda item: isinstance(item, AppliedUndef) and item.args == (time,),
                                              "functions u(t) of the coordinates' time")
                self.velocity_names = [item.func.__name__ for item in velocities]
            self.v = [sp.Dummy(name) for name in self.velocity_names]
            for coordinate, velocity, symbol in zip(q, velocities, self.v):
                self.replacements[velocity] = symbol
                self.replacements[coordinate.diff(time)] = symbol
        elif not any(functions) and all(isinstance(item, sp.Symbol) for item in q):
            if v is None:
                raise ValueError("v: plain symbols q need the symbols of their velocities, v=[...]")
            velocities = self._velocities(v, lambda item: isinstance(item, sp.Symbol), "plain symbols, as q")
            self.t = sp.Symbol("t") if t is None else t
            if not isinstance(self.t, sp.Symbol):
                raise ValueError(f"t: {t} is not a symbol")
            self.names = [item.name for item in q]
            self.velocity_names = [item.name for item in velocities]
            self.q, self.v = list(q), velocities
            self.replacements = {}
        else:
            raise ValueError("q: give dynamicsymbols q(t) or plain symbols, not a mixture nor expressions")
        if len(set(self.q) | set(self.v) | {self.t}) != 2 * self.n + 1:
            raise ValueError("q, v, t: a symbol is named twice")

    def _velocities(self, v, accepted, what):
        v = list(sp.Matrix(v)) if isinstance(v, sp.MatrixBase) else list(v)
        if len(v) != self.n or not all(accepted(item) for item in v):
            raise ValueError(f"v: {self.n} velocities, {what}")
        return v

    def plain(self, expression, what):
        """The expression over the plain symbols q, v and t; ValueError if other functions of t remain."""
        try:
            expression = sp.sympify(expression)
        except (sp.SympifyError, TypeError) as error:
            raise ValueError(f"{what}: not a SymPy expression ({error})") from None
        if not isinstance(expression, sp.Expr):
            raise ValueError(f"{what}: not a scalar expression")
        expression = expression.xreplace(self.replacements)
        left = expression.atoms(sp.Derivative, AppliedUndef)
        if left:
            raise ValueError(f"{what}: depends on {', '.join(sorted(map(str, left)))}, which is not a coordinate "
                             "nor a velocity")
        return expression


class _Expressions:
    """T, V and f over plain symbols, and the symbols of the parameters they use."""

    def __init__(self, T, V, forces, q, v, t):
        self.coordinates = _Coordinates(q, v, t)
        c = self.coordinates
        self.T = c.plain(T, "T")
        self.V = c.plain(V, "V")
        if forces is None:
            self.forces = None
        else:
            forces = list(sp.Matrix(forces)) if isinstance(forces, sp.MatrixBase) else list(forces)
            if len(forces) != c.n:
                raise ValueError(f"forces: {len(forces)} entries for {c.n} coordinates")
            self.forces = [c.plain(force, f"forces[{i}]") for i, force in enumerate(forces)]
        if self.V.has(*c.v):
            raise ValueError("V: depends on the velocities; velocity-dependent potentials belong in T or the forces")
        own = set(c.q) | set(c.v) | {c.t}
        self.parameters = sorted(set().union(*(e.free_symbols for e in self.all())) - own, key=lambda s: s.name)

    def all(self):
        return [self.T, self.V, *(self.forces or [])]

    def substituted(self, values, what):
        """T, V and f with the parameters replaced by `values` ({symbol or name: number})."""
        by_name = {symbol.name: symbol for symbol in self.parameters}
        replacements = {}
        for key, value in (values or {}).items():
            symbol = by_name.get(key if isinstance(key, str) else getattr(key, "name", None))
            if symbol is None or (not isinstance(key, str) and key != symbol):
                raise ValueError(f"{what}: {key} is not a parameter of T, V or the forces")
            replacements[symbol] = sp.Float(float(_number(value, f"{what}: {symbol.name}")), 17)
        missing = [symbol.name for symbol in self.parameters if symbol not in replacements]
        if missing:
            raise ValueError(f"{what}: no value for {', '.join(missing)}")
        return [e.xreplace(replacements) for e in self.all()]


class LagrangeModel:
    """A model of Lagrange's form written in SymPy, as NumPy callables.

    LagrangeModel(T, V, q, forces=None, *, v=None, t=None, values=None, solve="numeric")

    T: the kinetic energy [J] in q, the velocities and t. V: the potential energy [J] in q and t.
    q: the n coordinates, dynamicsymbols q_i(t) (the velocities are q_i', or the generalized speeds
      v given as dynamicsymbols u_i(t) = q_i') or plain symbols (v: the n velocity symbols).
    forces: the n generalized forces f (non-potential, in q, v and t), or None.
    t: the time symbol (default: that of the dynamicsymbols, or Symbol("t")).
    values: {symbol or name: value} for every other symbol of T, V and f.
    solve: how rhs solves Lagrange's equations M(q, t) a = r(q, v, t) for the accelerations:
      "numeric" (numpy.linalg.solve at each call) or "symbolic" (SymPy's LU solution, once).

    Attributes, the keyword arguments of audit_trajectory and audit_solution (energies):
      T(q, v, t), V(q, t); power(q, v, t) = v.f (None without forces); dT_dt(q, v, t) and
      dV_dt(q, t), the partial derivatives in t (None unless t appears in T or V).
    rhs(t, y): dy/dt = [v, a] for y = [q, v], for solve_ivp; accelerations(q, v, t): a.
    """

    def __init__(self, T, V, q, forces=None, *, v=None, t=None, values=None, solve="numeric"):
        if solve not in ("numeric", "symbolic"):
            raise ValueError(f"solve: {solve!r} is neither \"numeric\" nor \"symbolic\"")
        expressions = _Expressions(T, V, forces, q, v, t)
        c = self.coordinates = expressions.coordinates
        self.n, self.names = c.n, list(c.names)
        self._T, self._V, *f = expressions.substituted(values, "values")
        self._forces = f if expressions.forces is not None else None
        self._solve = solve
        self.T = self._lambdify([c.q, c.v, c.t], self._T)
        self.V = self._lambdify([c.q, c.t], self._V)
        self.power = None
        if self._forces is not None:
            self.power = self._lambdify([c.q, c.v, c.t], sum(vi * fi for vi, fi in zip(c.v, self._forces)))
        self.dT_dt = self._lambdify([c.q, c.v, c.t], self._T.diff(c.t)) if self._T.has(c.t) else None
        self.dV_dt = self._lambdify([c.q, c.t], self._V.diff(c.t)) if self._V.has(c.t) else None
        self._acceleration_function = None

    @staticmethod
    def _lambdify(arguments, expression):
        return sp.lambdify(arguments, expression, modules="numpy", cse=True)

    @property
    def energies(self):
        """{"T", "V", "power", "dT_dt", "dV_dt"}: audit_trajectory(t, q, v, a, **model.energies)."""
        return {"T": self.T, "V": self.V, "power": self.power, "dT_dt": self.dT_dt, "dV_dt": self.dV_dt}

    def lagrange_equations(self):
        """(M, r) of Lagrange's equations M a = r as SymPy matrices over the plain symbols:
        M = d2T/dv2, r = f + dT/dq - dV/dq - (d/dq dT/dv) v - d/dt dT/dv."""
        c = self.coordinates
        q, v = sp.Matrix(c.q), sp.Matrix(c.v)
        momentum = sp.Matrix([self._T]).jacobian(v).T
        mass = momentum.jacobian(v)
        forces = sp.Matrix(self._forces) if self._forces is not None else sp.zeros(self.n, 1)
        rest = (forces + sp.Matrix([self._T - self._V]).jacobian(q).T - momentum.jacobian(q) * v
                - momentum.diff(c.t))
        return mass, rest

    def accelerations(self, q, v, t):
        """a(q, v, t), the solution of Lagrange's equations, as a NumPy vector."""
        if self._acceleration_function is None:
            c = self.coordinates
            mass, rest = self.lagrange_equations()
            if self._solve == "symbolic":
                solution = self._lambdify([c.q, c.v, c.t], mass.LUsolve(rest))
                self._acceleration_function = lambda q, v, t: np.asarray(solution(q, v, t), dtype=float).ravel()
            else:
                both = self._lambdify([c.q, c.v, c.t], [mass, rest])

                def solved(q, v, t):
                    m, r = both(q, v, t)
                    return np.linalg.solve(np.asarray(m, dtype=float), np.asarray(r, dtype=float).ravel())
                self._acceleration_function = solved
        return self._acceleration_function(q, v, t)

    def rhs(self, t, y):
        """dy/dt = [v, a(q, v, t)] at y = [q, v]: the right-hand side for solve_ivp."""
        y = np.asarray(y, dtype=float)
        q, v = y[:self.n], y[self.n:2 * self.n]
        return np.concatenate([v, self.accelerations(q, v, t)])


# What the library's automatic-differentiation number Dual differentiates (dual.hpp): the
# functions a generated model may call.
_DUAL_FUNCTIONS = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
                   "atanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "pow", "hypot",
                   "abs", "fabs"}
# Names the generated struct uses itself.
_GENERATED_NAMES = {"Scalar", "q", "v", "t", "dofs", "scleronomic", "Coordinates", "interval", "coordinate_names",
                    "parameters", "initial_values", "initial_state", "kinetic_energy", "potential_energy", "forces",
                    "generalized_forces", "initial", "std", "energy_audit"}
_CXX_KEYWORDS = set(
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class "
    "compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype "
    "default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline "
    "int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register "
    "reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template "
    "this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t "
    "while xor xor_eq".split())


class _ModelPrinter(CXX17CodePrinter):
    """SymPy's C++ printer for expressions over the scalar S: functions called unqualified (so that
    argument-dependent lookup finds Dual's after `using std::sin;`), small integer powers as
    products, square roots as sqrt."""
    _ns = ""

    def _print_Pow(self, expression):
        base, exponent = expression.as_base_exp()
        if exponent.is_Integer and 1 <= abs(int(exponent)) <= 4:
            factor = self.parenthesize(base, sp.printing.precedence.PRECEDENCE["Mul"] + 1)
            product = "*".join([factor] * abs(int(exponent)))
            return product if exponent > 0 else f"1.0/({product})"
        if exponent == sp.S.Half:
            return f"sqrt({self._print(base)})"
        if exponent == -sp.S.Half:
            return f"1.0/sqrt({self._print(base)})"
        return f"pow({self._print(base)}, {self._print(sp.Float(exponent, 17) if exponent.is_Rational else exponent)})"


def _identifier(name, what):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or name in _CXX_KEYWORDS or name.startswith("sub_"):
        raise ValueError(f"{what}: {name!r} is not a C++ identifier the generated model can use; rename the symbol")
    if name in _GENERATED_NAMES:
        raise ValueError(f"{what}: {name!r} is a name of the generated model's own; rename the symbol")
    return name


def _string(text):
    """A C++ string literal of text."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _number(value, what):
    """repr of value as a float; ValueError naming `what` unless it is a finite real number."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what}: {value!r} is not a number") from None
    if not np.isfinite(number):
        raise ValueError(f"{what}: {value} is not finite")
    return repr(number)


def _body(expressions, local_names, printer, result_lines):
    """The statements of a function of the scalar Scalar returning `expressions`: aliases of the coordinates it uses,
    its common subexpressions, then result_lines(printed expressions)."""
    temporaries, reduced = sp.cse(expressions, symbols=sp.numbered_symbols("sub_"), optimizations="basic")
    code = [printer.doprint(value) for _, value in temporaries] + [printer.doprint(e) for e in reduced]
    called = set(re.findall(r"\b([A-Za-z_]\w*)\(", "\n".join(code)))
    unknown = called - _DUAL_FUNCTIONS
    if unknown:
        raise ValueError(f"the model calls {', '.join(sorted(unknown))}, which the library's Dual numbers do not "
                         "differentiate (dual.hpp lists what they do)")
    used = set().union(*(sp.sympify(e).free_symbols for e in expressions)) if expressions else set()
    lines = []
    if called:
        lines.append("using " + ", ".join(f"std::{name}" for name in sorted(called)) + ";")
    for symbol, (local, source) in local_names.items():
        if symbol in used:
            lines.append(f"const Scalar& {local} = {source};")
    for (symbol, _), text in zip(temporaries, code):
        lines.append(f"const auto {symbol.name} = {text};")
    lines.extend(result_lines(code[len(temporaries):]))
    return lines


def write_cpp_model(path, name, T, V, forces, q, *, v=None, t=None, parameters=None, initial=None,
                    interval=(0.0, 10.0), namespace="energy_audit::generated"):
    """Writes a C++ header with the model struct `name` in the library's model form.

    T, V, forces, q, v, t: as LagrangeModel's. parameters: {symbol: value or (value,
      description)} for every other symbol of T, V and f: double members of the struct, named as
      the symbols, that the command line's --set reaches. initial: {coordinate or velocity (or its
      name): value}, the initial state (others 0), members NAME_0 and NAME_dot_0 that --init
      reaches as NAME and NAME_dot. interval: (t0, t_end).

    The struct has `dofs`, `scleronomic` (when T and V do not depend on t and T is homogeneous
    quadratic in the velocities), T, V and f as templates over the scalar, printed by SymPy's
    C++ printer, and what the command line needs to run it by name (coordinate_names, parameters,
    initial_values, initial_state, interval). It has no accelerations: LagrangeSystem derives
    them from T, V and f.
    """
    name = _identifier(name, "name")
    expressions = _Expressions(T, V, forces, q, v, t)
    c = expressions.coordinates
    given = {}
    for key, value in (parameters or {}).items():
        value, description = value if isinstance(value, (tuple, list)) else (value, None)
        symbol = next((p for p in expressions.parameters if p == key or p.name == str(key)), None)
        if symbol is None:
            raise ValueError(f"parameters: {key} is not a parameter of T, V or the forces")
        given[symbol] = (_number(value, f"parameters: {symbol.name}"), description)
    missing = [symbol.name for symbol in expressions.parameters if symbol not in given]
    if missing:
        raise ValueError(f"parameters: no value for {', '.join(missing)}")

    coordinate_names = [_identifier(n, "q") for n in c.names]
    velocity_names = [_identifier(n, "v") for n in c.velocity_names]
    parameter_names = [_identifier(symbol.name, "parameters") for symbol in given]
    initial_names = [n + "_0" for n in coordinate_names + velocity_names]
    every_name = coordinate_names + velocity_names + parameter_names + initial_names + [name]
    clashes = sorted({n for n in every_name if every_name.count(n) > 1})
    if clashes:
        raise ValueError(f"names: {', '.join(clashes)} would name two things in the generated model")
    start = [0.0] * (2 * c.n)
    lookup = {}
    for i, (symbol, original) in enumerate(zip(c.q + c.v, coordinate_names + velocity_names)):
        lookup[symbol] = lookup[original] = i
    for coordinate, symbol in c.replacements.items():
        lookup[coordinate] = lookup[symbol]
    for key, value in (initial or {}).items():
        index = lookup.get(key, lookup.get(str(key)))
        if index is None:
            raise ValueError(f"initial: {key} is neither a coordinate nor a velocity")
        start[index] = float(_number(value, f"initial: {key}"))

    # The expressions over symbols named as the C++ names: coordinates and velocities as local
    # aliases of q[i] and v[i], parameters as the struct's members.
    renamed = {symbol: sp.Symbol(n) for symbol, n in zip(c.q + c.v, coordinate_names + velocity_names)}
    renamed[c.t] = sp.Symbol("t")
    printed = [e.xreplace(renamed) for e in expressions.all()]
    T_text, V_text, *force_texts = printed
    local = {sp.Symbol(n): (n, f"q[{i}]") for i, n in enumerate(coordinate_names)}
    local.update({sp.Symbol(n): (n, f"v[{i}]") for i, n in enumerate(velocity_names)})
    printer = _ModelPrinter()
    time = sp.Symbol("t")

    def uses(es, symbols):
        return any(e.has(s) for e in es for s in symbols)

    def signature(es, with_v):
        q_name = "q" if uses(es, [sp.Symbol(n) for n in coordinate_names]) else "/*q*/"
        v_name = "v" if uses(es, [sp.Symbol(n) for n in velocity_names]) else "/*v*/"
        t_name = "t" if uses(es, [time]) else "/*t*/"
        arguments = [f"const Coordinates<Scalar>& {q_name}"]
        arguments += [f"const Coordinates<Scalar>& {v_name}"] if with_v else []
        return ", ".join(arguments + [f"const Scalar& {t_name}"])

    def scalar(e):
        constant = not uses([e], list(local) + [time])
        return lambda code: [f"return Scalar({code[0]});" if constant else f"return {code[0]};"]

    def vector(code):
        return ["Coordinates<Scalar> generalized_forces;",
                "generalized_forces << " + ", ".join(f"Scalar({text})" for text in code) + ";",
                "return generalized_forces;"]

    force_texts = force_texts if expressions.forces is not None else [sp.S.Zero] * c.n
    scale = sp.Dummy("scale")
    homogeneous = sp.expand(expressions.T.xreplace({s: scale * s for s in c.v}) - scale**2 * expressions.T) == 0
    scleronomic = homogeneous and not expressions.T.has(c.t) and not expressions.V.has(c.t)

    def function(header, lines):
        return ["  template <class Scalar>", f"  {header} {{", *(f"    {line}" for line in lines), "  }"]

    members = [f"  double {n} = {value};" + (f"  // {description}" if description else "")
               for n, (value, description) in zip(parameter_names, given.values())]
    members += [f"  double {n} = {_number(value, n)};" for n, value in zip(initial_names, start)]
    member_list = ",\n".join(f'        NamedMember<{name}>{{"{n}", &{name}::{n}, {_string(given[s][1] or n)}}}'
                             for n, s in zip(parameter_names, given))
    initial_list = ",\n".join(f'        NamedMember<{name}>{{"{n}", &{name}::{n}_0, "initial {n}"}}'
                              for n in coordinate_names + velocity_names)
    lines = [
        "#pragma once",
        "/// \\file",
        f"/// The model {name}: T, V and f written by energy_audit.sympy.write_cpp_model from SymPy",
        "/// expressions (docs/python.md); LagrangeSystem derives its accelerations. Regenerate it rather",
        "/// than edit it.",
        "",
        "#include <array>",
        "#include <cmath>",
        "#include <string_view>",
        "",
        "#include <energy_audit/model_description.hpp>",
        "",
        f"namespace {namespace} {{",
        "",
        f"struct {name} {{",
        f"  static constexpr int dofs = {c.n};",
        *(["  static constexpr bool scleronomic = true;"] if scleronomic else []),
        "  template <class Scalar>",
        "  using Coordinates = VectorN<Scalar, dofs>;",
        "",
        *members,
        "",
        f"  static constexpr Interval interval{{{_number(interval[0], 'interval: t0')}, "
        f"{_number(interval[1], 'interval: t_end')}}};",
        "",
        "  static constexpr std::array<std::string_view, dofs> coordinate_names() {",
        "    return {" + ", ".join(f'"{n}"' for n in coordinate_names) + "};",
        "  }",
        "  static constexpr auto parameters() {",
        f"    return std::array<NamedMember<{name}>, {len(parameter_names)}>{{",
        *([member_list] if member_list else []),
        "    };",
        "  }",
        "  static constexpr auto initial_values() {",
        f"    return std::array<NamedMember<{name}>, {2 * c.n}>{{",
        initial_list,
        "    };",
        "  }",
        "  InitialState<dofs> initial_state() const {",
        "    InitialState<dofs> initial;",
        "    initial.q << " + ", ".join(n + "_0" for n in coordinate_names) + ";",
        "    initial.v << " + ", ".join(n + "_0" for n in velocity_names) + ";",
        "    return initial;",
        "  }",
        "",
        "  /// T [J]",
        *function(f"Scalar kinetic_energy({signature([T_text], True)}) const",
                  _body([T_text], local, printer, scalar(T_text))),
        "  /// V [J]",
        *function(f"Scalar potential_energy({signature([V_text], False)}) const",
                  _body([V_text], local, printer, scalar(V_text))),
        "  /// f, the generalized non-potential forces",
        *function(f"Coordinates<Scalar> forces({signature(force_texts, True)}) const",
                  _body(force_texts, local, printer, vector)),
        "};",
        "",
        f"}}  // namespace {namespace}",
        "",
    ]
    with open(path, "w", encoding="utf-8") as header:
        header.write("\n".join(lines))
