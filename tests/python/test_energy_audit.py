"""The Python module energy_audit: its runs equal the command line's to the last bit, its history
columns are views of one array, and audit_trajectory judges samples of closed forms and of
scipy's solve_ivp."""
import json
import math
import os
import subprocess
import tempfile
import unittest

import numpy as np

import energy_audit as ea

CLI = os.environ["ENERGY_AUDIT_CLI"]


def cli_record(*arguments):
    """The --json record of `energy-audit run ARGUMENTS`."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "run.json")
        subprocess.run([CLI, "run", *arguments, "--json", path], check=True, capture_output=True)
        with open(path, encoding="utf-8") as record:
            return json.load(record)


class RunTest(unittest.TestCase):
    def test_runs_equal_the_command_line_to_the_last_bit(self):
        cases = [
            (dict(model="crane", method="rk4", step=1e-3), ["crane", "--method", "rk4", "--step", "1e-3"]),
            (dict(model="crane-wrong", method="rkg", step=4e-3), ["crane-wrong", "--method", "rkg", "--step", "4e-3"]),
            (dict(model="crane", method="cvode-bdf", rtol=1e-7), ["crane", "--method", "cvode-bdf", "--rtol", "1e-7"]),
            (dict(model="crane-dae", method="rk4", step=2e-3, stabilize="baumgarte"),
             ["crane-dae", "--method", "rk4", "--step", "2e-3", "--stabilize", "baumgarte"]),
            (dict(model="crane", method="rk4", step=1e-3, set={"m1": 12.0}, init={"phi": -0.3}),
             ["crane", "--method", "rk4", "--step", "1e-3", "--set", "m1=12", "--init", "phi=-0.3"]),
            (dict(model="crane", method="cvode-adams", rtol=1e-6, iteration="fixed-point", z_as="quadrature",
                  max_steps=50000, max_step=0.05),
             ["crane", "--method", "cvode-adams", "--rtol", "1e-6", "--iteration", "fixed-point", "--z-as",
              "quadrature", "--max-steps", "50000", "--max-step", "0.05"]),
            (dict(model="crane-dae", method="rkg", step=2e-3, form="maggi", independent=["x1", "phi"]),
             ["crane-dae", "--method", "rkg", "--step", "2e-3", "--form", "maggi", "--independent", "x1,phi"]),
            (dict(model="crane-dae", method="idas", rtol=1e-7, stabilize="ggl", drift_threshold=1e-4),
             ["crane-dae", "--method", "idas", "--rtol", "1e-7", "--stabilize", "ggl", "--drift-threshold", "1e-4"]),
            (dict(model="crane-dae", method="rk4", step=1e-3, stabilize="baumgarte", baumgarte=(2.0, 3.0)),
             ["crane-dae", "--method", "rk4", "--step", "1e-3", "--stabilize", "baumgarte", "--baumgarte", "2,3"]),
            (dict(model="container-line", method="rkg", step=0.04, phase="midpoint"),
             ["container-line", "--method", "rkg", "--step", "0.04", "--phase", "midpoint"]),
            (dict(model="crane-wrong", method="rk4", step=1e-3, equation_check_every=10, equation_threshold=1e-6),
             ["crane-wrong", "--method", "rk4", "--step", "1e-3", "--equation-check-every", "10",
              "--equation-threshold", "1e-6"]),
        ]
        for arguments, cli_arguments in cases:
            with self.subTest(arguments=arguments):
                result = ea.run(**arguments)
                record = cli_record(*cli_arguments)
                self.assertEqual(result.delta_C, record["delta_C"])  # bit for bit: JSON keeps every digit
                self.assertEqual(result.verdict, record["verdict"])
                self.assertEqual(result.steps, record["steps"])
                self.assertEqual(result.rhs_evaluations, record["rhs_evals"])
                self.assertEqual(result.history["C"][-1], record["final"]["C"])
                self.assertEqual(result.history["t"][-1], record["final"]["t"])
                if record["equation_check"] is not None:
                    self.assertEqual(result.equation_residual, record["equation_check"]["relative_residual"])
                else:
                    self.assertTrue(math.isnan(result.equation_residual))

    def test_history_columns_are_views_of_one_array(self):
        result = ea.run("crane", method="rk4", step=1e-2)
        self.assertEqual(result.columns[:5], ["t", "x1", "phi", "x1_dot", "phi_dot"])
        self.assertEqual(result.history_array.shape, (501, len(result.columns)))
        for name in result.columns:
            self.assertTrue(np.shares_memory(result.history[name], result.history_array))
        self.assertEqual(result.history["t"][-1], 5.0)
        self.assertTrue(np.all(np.diff(result.history["t"]) > 0))

    def test_bad_arguments_are_value_errors(self):
        with self.assertRaisesRegex(ValueError, "no-such-model"):
            ea.run("no-such-model")
        with self.assertRaisesRegex(ValueError, "rk5"):
            ea.run("crane", method="rk5")
        with self.assertRaisesRegex(ValueError, "mass"):
            ea.run("crane", set={"mass": 1.0})
        with self.assertRaisesRegex(ValueError, "z_as"):
            ea.run("crane", method="cvode-bdf", z_as="memory")
        with self.assertRaisesRegex(ValueError, "ggl"):
            ea.run("crane-dae", method="rk4", stabilize="ggl")


MASS, STIFFNESS, DAMPING = 2.0, 18.0, 0.4


def oscillator_samples(h, slip=1.0):
    """Exact samples of m q'' = -slip c q' - s q from q = 1 at rest over [0, 10]."""
    gamma = slip * DAMPING / (2 * MASS)
    omega0_sq = STIFFNESS / MASS
    omega = math.sqrt(omega0_sq - gamma * gamma)
    t = np.linspace(0.0, 10.0, round(10.0 / h) + 1)
    decay = np.exp(-gamma * t)
    q = decay * (np.cos(omega * t) + gamma / omega * np.sin(omega * t))
    v = -decay * omega0_sq / omega * np.sin(omega * t)
    a = (-slip * DAMPING * v - STIFFNESS * q) / MASS
    return t, q, v, a


def kinetic(q, v, t):
    return 0.5 * MASS * v[0] ** 2


def potential(q, t):
    return 0.5 * STIFFNESS * q[0] ** 2


def power(q, v, t):
    return -DAMPING * v[0] ** 2


class TrajectoryTest(unittest.TestCase):
    def test_exact_samples_pass_at_fourth_order(self):
        drifts = []
        for h in (0.1, 0.05):
            audit = ea.audit_trajectory(*oscillator_samples(h), kinetic, potential, power)
            self.assertTrue(audit.passed)
            drifts.append(audit.max_abs_dC)
        self.assertAlmostEqual(math.log2(drifts[0] / drifts[1]), 4.0, delta=0.2)

    def test_a_slipped_sign_fails(self):
        audit = ea.audit_trajectory(*oscillator_samples(0.01, slip=-1.0), kinetic, potential, power)
        self.assertEqual(audit.verdict, "fail")
        self.assertGreater(audit.delta_C, 0.1)

    def test_solve_ivp_right_passes_and_wrong_fails(self):
        try:
            from scipy.integrate import solve_ivp
        except ImportError:
            self.skipTest("scipy is not installed")
        length, gravity = 1.0, 9.81

        def pendulum(wrong):
            def rhs(t, y):
                phi, omega = y
                return [omega, (1.0 if wrong else -1.0) * gravity / length * math.sin(phi) - 0.1 * omega]
            return rhs

        t = np.linspace(0.0, 10.0, 2001)
        verdicts = {}
        for wrong in (False, True):
            rhs = pendulum(wrong)
            solution = solve_ivp(rhs, (0.0, 10.0), [1.0, 0.0], t_eval=t, rtol=1e-10, atol=1e-12)
            phi, omega = solution.y
            alpha = np.array([rhs(ti, yi)[1] for ti, yi in zip(t, solution.y.T)])
            audit = ea.audit_trajectory(
                t, phi, omega, alpha,
                T=lambda q, v, _: 0.5 * length ** 2 * v[0] ** 2,
                V=lambda q, _: -gravity * length * math.cos(q[0]),
                power=lambda q, v, _: -0.1 * length ** 2 * v[0] ** 2)
            verdicts[wrong] = (audit.verdict, audit.delta_C)
        self.assertEqual(verdicts[False][0], "pass", verdicts)
        self.assertEqual(verdicts[True][0], "fail", verdicts)

    def test_bad_samples_are_value_errors(self):
        t, q, v, a = oscillator_samples(0.5)
        with self.assertRaisesRegex(ValueError, "samples"):
            ea.audit_trajectory(t, q[:-1], v, a, kinetic, potential)
        t[3] = t[2]
        with self.assertRaisesRegex(ValueError, "increase"):
            ea.audit_trajectory(t, q, v, a, kinetic, potential)


if __name__ == "__main__":
    unittest.main()
