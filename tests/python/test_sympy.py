"""energy_audit.sympy: a double pendulum built with sympy.physics.mechanics gives the callables
that audit a solve_ivp run of it (passes) and of a wrong-sign right-hand side (fails); its
energies and Lagrange's equations equal the closed forms written by hand; plain symbols, explicit
time and generalized speeds are understood; write_cpp_model writes the library's model form;
bad input is a one-line ValueError. Skipped where SymPy or SciPy is missing."""
import math
import os
import tempfile
import unittest

import numpy as np

import energy_audit as ea

try:
    import sympy as sp
    from scipy.integrate import solve_ivp

    import energy_audit.sympy as eas
    from sympy_double_pendulum import INITIAL, PARAMETERS, double_pendulum
except ImportError as missing:
    sp = None
    reason = f"{missing.name} is not installed"
    VALUES = {}
else:
    reason = ""
    VALUES = {name: value for name, (value, _) in PARAMETERS.items()}


def closed_form_accelerations(q, v, coupling_sign=-1.0):
    """The double pendulum's accelerations derived by hand (tests/lib/sympy_model_test.cpp);
    coupling_sign=+1 slips the sign of the velocity-squared term of the first equation."""
    m1, m2, l1, l2, g, c = (VALUES[name] for name in ("m1", "m2", "l1", "l2", "g", "c"))
    d = q[0] - q[1]
    M = np.array([[(m1 + m2) * l1 ** 2, m2 * l1 * l2 * math.cos(d)], [m2 * l1 * l2 * math.cos(d), m2 * l2 ** 2]])
    r = np.array([-c * v[0] + coupling_sign * m2 * l1 * l2 * math.sin(d) * v[1] ** 2 - (m1 + m2) * g * l1 * math.sin(q[0]),
                  -c * v[1] + m2 * l1 * l2 * math.sin(d) * v[0] ** 2 - m2 * g * l2 * math.sin(q[1])])
    return np.linalg.solve(M, r)


@unittest.skipIf(sp is None, reason)
class SympyModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.T, cls.V, cls.forces, cls.q, cls.symbols = double_pendulum()
        cls.model = eas.LagrangeModel(cls.T, cls.V, cls.q, cls.forces, values=VALUES)
        cls.y0 = [INITIAL["theta1"], INITIAL["theta2"], 0.0, 0.0]

    def test_callables_equal_the_closed_forms(self):
        m1, m2, l1, l2, g, c = (VALUES[name] for name in ("m1", "m2", "l1", "l2", "g", "c"))
        random = np.random.default_rng(3)
        for _ in range(10):
            q, v = random.uniform(-3, 3, 2), random.uniform(-4, 4, 2)
            T = 0.5 * (m1 + m2) * l1 ** 2 * v[0] ** 2 + m2 * l1 * l2 * math.cos(q[0] - q[1]) * v[0] * v[1] \
                + 0.5 * m2 * l2 ** 2 * v[1] ** 2
            V = -(m1 + m2) * g * l1 * math.cos(q[0]) - m2 * g * l2 * math.cos(q[1])
            self.assertAlmostEqual(self.model.T(q, v, 0.0), T, delta=1e-13 * (1 + abs(T)))
            self.assertAlmostEqual(self.model.V(q, 0.0), V, delta=1e-13 * (1 + abs(V)))
            self.assertAlmostEqual(self.model.power(q, v, 0.0), -c * (v @ v), delta=1e-13 * (1 + v @ v))
            np.testing.assert_allclose(self.model.accelerations(q, v, 0.0), closed_form_accelerations(q, v),
                                       rtol=1e-11, atol=1e-11)
        self.assertIsNone(self.model.dT_dt)
        self.assertIsNone(self.model.dV_dt)
        self.assertEqual(self.model.names, ["theta1", "theta2"])

    def test_a_solve_ivp_run_passes_and_a_wrong_sign_right_hand_side_fails(self):
        sol = solve_ivp(self.model.rhs, (0.0, 5.0), self.y0, rtol=1e-10, atol=1e-12)
        right = ea.audit_solution(sol, self.model.rhs, **self.model.energies)
        self.assertEqual(right.verdict, "pass")
        self.assertLess(right.delta_C, 1e-7)

        def wrong(t, y):
            return [y[2], y[3], *closed_form_accelerations(y[:2], y[2:], coupling_sign=+1.0)]

        sol = solve_ivp(wrong, (0.0, 5.0), self.y0, rtol=1e-10, atol=1e-12)
        caught = ea.audit_solution(sol, wrong, **self.model.energies)
        self.assertEqual(caught.verdict, "fail")
        self.assertGreater(caught.delta_C, 1e-2)

    def test_the_symbolic_solution_equals_the_numeric_one(self):
        symbolic = eas.LagrangeModel(self.T, self.V, self.q, self.forces, values=VALUES, solve="symbolic")
        q, v = np.array([0.3, -1.1]), np.array([2.0, -0.5])
        np.testing.assert_allclose(symbolic.accelerations(q, v, 0.0), self.model.accelerations(q, v, 0.0), rtol=1e-12)

    def test_plain_symbols_generalized_speeds_and_explicit_time(self):
        # A pendulum on a support driven up and down, b sin(w t): T depends on t explicitly.
        x, u, t = sp.symbols("x u t")
        m, l, g, b, w = 1.0, 0.8, 9.81, 0.05, 7.0
        height = b * sp.sin(w * t)
        T = m / 2 * (l ** 2 * u ** 2 + height.diff(t) ** 2 + 2 * l * sp.sin(x) * u * height.diff(t))
        V = m * g * (height - l * sp.cos(x))
        model = eas.LagrangeModel(T, V, [x], v=[u], t=t)
        self.assertIsNotNone(model.dT_dt)
        self.assertIsNotNone(model.dV_dt)
        self.assertAlmostEqual(model.dV_dt(np.array([0.2]), 0.3), m * g * b * w * math.cos(w * 0.3), delta=1e-12)
        sol = solve_ivp(model.rhs, (0.0, 5.0), [0.5, 0.0], rtol=1e-10, atol=1e-12)
        self.assertEqual(ea.audit_solution(sol, model.rhs, **model.energies).verdict, "pass")
        without_rates = {**model.energies, "dT_dt": None, "dV_dt": None}
        with self.assertRaisesRegex(ValueError, "changes with t"):
            ea.audit_solution(sol, model.rhs, **without_rates)
        # The same pendulum in dynamicsymbols, with a generalized speed u(t) = x'(t).
        xt, ut = sp.Function("x")(t), sp.Function("u")(t)
        speeds = eas.LagrangeModel(T.subs({x: xt, u: ut}), V.subs(x, xt), [xt], v=[ut])
        state = (np.array([0.4]), np.array([-1.2]), 0.7)
        self.assertEqual(speeds.accelerations(*state), model.accelerations(*state))

    def test_write_cpp_model_writes_the_librarys_model_form(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "double_pendulum.hpp")
            eas.write_cpp_model(path, "DoublePendulum", self.T, self.V, self.forces, self.q,
                                parameters={self.symbols[name]: value for name, value in PARAMETERS.items()},
                                initial=INITIAL)
            with open(path, encoding="utf-8") as header:
                text = header.read()
        for line in ("struct DoublePendulum {", "static constexpr int dofs = 2;",
                     "static constexpr bool scleronomic = true;",
                     "Scalar kinetic_energy(const Coordinates<Scalar>& q, const Coordinates<Scalar>& v, "
                     "const Scalar& /*t*/) const {",
                     "Scalar potential_energy(const Coordinates<Scalar>& q, const Scalar& /*t*/) const {",
                     "using std::cos, std::sin;", "double l2 = 0.7;  // lower rod [m]", "double theta1_0 = 0.6;",
                     'NamedMember<DoublePendulum>{"theta2_dot", &DoublePendulum::theta2_dot_0, "initial theta2_dot"}',
                     "generalized_forces << Scalar(-c*theta1_dot), Scalar(-c*theta2_dot);"):
            self.assertIn(line, text)
        self.assertNotIn("std::sin(", text)  # unqualified: Dual's sin is found by argument-dependent lookup

    def test_bad_input_is_a_one_line_value_error(self):
        x, y, k = sp.symbols("x y k")
        theta = sp.Function("theta")(sp.Symbol("t"))
        cases = [
            (lambda: eas.LagrangeModel(self.T, self.V, self.q, self.forces, values={**VALUES, "k": 1.0}),
             "^values: k is not a parameter of T, V or the forces$"),
            (lambda: eas.LagrangeModel(self.T, self.V, self.q, self.forces, values={"m1": 1.0}),
             "^values: no value for c, g, l1, l2, m2$"),
            (lambda: eas.LagrangeModel(self.T, self.V, self.q, self.forces[:1], values=VALUES),
             "^forces: 1 entries for 2 coordinates$"),
            (lambda: eas.LagrangeModel(x ** 2, x, [x]), r"^v: plain symbols q need the symbols of their velocities"),
            (lambda: eas.LagrangeModel(x ** 2, x, [x, theta], v=[y, y]), "^q: give dynamicsymbols q"),
            (lambda: eas.LagrangeModel(y ** 2, y * x, [x], v=[y]), "^V: depends on the velocities"),
            (lambda: eas.LagrangeModel(theta.diff() ** 2 * sp.Function("z")(sp.Symbol("t")), 0, [theta]),
             r"^T: depends on z\(t\), which is not a coordinate nor a velocity$"),
            (lambda: eas.LagrangeModel(x, x, [x], v=[y], solve="exact"), "^solve: 'exact' is neither"),
            (lambda: eas.write_cpp_model(os.devnull, "Model", x ** 2 * k, x, None, [x], v=[y]),
             "^parameters: no value for k$"),
            (lambda: eas.write_cpp_model(os.devnull, "Model", y ** 2, sp.floor(x), None, [x], v=[y]),
             "^the model calls floor, which the library's Dual numbers do not differentiate"),
            (lambda: eas.write_cpp_model(os.devnull, "Model", y ** 2, sp.Symbol("q"), None, [sp.Symbol("q")], v=[y]),
             "^q: 'q' is a name of the generated model's own; rename the symbol$"),
            (lambda: eas.write_cpp_model(os.devnull, "class", y ** 2, x, None, [x], v=[y]),
             "^name: 'class' is not a C\\+\\+ identifier"),
            # A non-finite parameter would give zero or NaN accelerations, or a singular mass matrix.
            (lambda: eas.LagrangeModel(self.T, self.V, self.q, self.forces, values={**VALUES, "g": math.nan}),
             "^values: g: nan is not finite$"),
            (lambda: eas.LagrangeModel(self.T, self.V, self.q, self.forces, values={**VALUES, "m1": math.inf}),
             "^values: m1: inf is not finite$"),
            (lambda: eas.LagrangeModel(self.T, self.V, self.q, self.forces, values={**VALUES, "l2": "long"}),
             "^values: l2: 'long' is not a number$"),
            (lambda: eas.write_cpp_model(os.devnull, "Model", x ** 2 * k, x, None, [x], v=[y],
                                         parameters={k: (math.nan, "stiffness")}),
             "^parameters: k: nan is not finite$"),
            (lambda: eas.write_cpp_model(os.devnull, "Model", y ** 2, x, None, [x], v=[y], initial={"x": -math.inf}),
             "^initial: x: -inf is not finite$"),
        ]
        for make, message in cases:
            with self.subTest(message=message), self.assertRaisesRegex(ValueError, message):
                make()


class WithoutSympyTest(unittest.TestCase):
    def test_energy_audit_imports_without_sympy_and_names_the_package_when_asked(self):
        import subprocess
        import sys
        program = ("import sys; sys.modules['sympy'] = None\n"
                   "import energy_audit\n"
                   "try:\n    energy_audit.sympy\nexcept ImportError as error:\n    print(error)\n")
        completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
        self.assertEqual(completed.stdout.strip(),
                         "energy_audit.sympy needs SymPy (Debian: python3-sympy; pip: sympy)")


if __name__ == "__main__":
    unittest.main()
