"""The Python module energy_audit: its runs equal the command line's to the last bit and are
checked by the command line's rules, its history columns are views of one array (the model's
extra outputs included), Ctrl-C stops a run with its partial result, and audit_trajectory judges
samples of closed forms and of scipy's solve_ivp and refuses samples it cannot judge."""
import contextlib
import csv
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import warnings

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


def method_missing(arguments):
    """Why a case of `arguments` cannot run here: its method is not in methods(), as ARKODE's are
    not where the SUNDIALS the module was built with has no ARKODE; None when it can run."""
    method = arguments.get("method")
    if method is None or method in ea.methods():
        return None
    return f"{method} is not in methods(): the SUNDIALS this module was built with lacks it"


def same_or_nan(value):
    """A number as the JSON record writes it: null (None) where it is not finite."""
    return value if math.isfinite(value) else None


def cli_history(*arguments):
    """The rows of the history CSV of `energy-audit run ARGUMENTS --csv FILE`, header first."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "run.csv")
        subprocess.run([CLI, "run", *arguments, "--csv", path], check=True, capture_output=True)
        with open(path, encoding="utf-8") as table:
            return list(csv.reader(table))


def cli_usage_error(*arguments):
    """The message of the usage error of `energy-audit run ARGUMENTS`, without its prefix."""
    completed = subprocess.run([CLI, "run", *arguments], capture_output=True, text=True)
    assert completed.returncode == 2, completed
    return completed.stderr.strip().removeprefix("energy-audit: error: ")


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
            (dict(model="crane", method="arkode-dirk", rtol=1e-6, table="ARKODE_TRBDF2_3_3_2"),
             ["crane", "--method", "arkode-dirk", "--rtol", "1e-6", "--table", "ARKODE_TRBDF2_3_3_2"]),
            # Given a step, arkode-erk runs at it, with a table that has no embedded method.
            (dict(model="crane", method="arkode-erk", table="ARKODE_KNOTH_WOLKE_3_3", step=1e-3),
             ["crane", "--method", "arkode-erk", "--table", "ARKODE_KNOTH_WOLKE_3_3", "--step", "1e-3"]),
        ]
        for arguments, cli_arguments in cases:
            with self.subTest(arguments=arguments):
                if method_missing(arguments):
                    self.skipTest(method_missing(arguments))
                result = ea.run(**arguments)
                record = cli_record(*cli_arguments)
                self.assertEqual(result.table, record.get("table", ""))  # the table an ARKODE run took
                self.assertEqual(result.delta_C, record["delta_C"])  # bit for bit: JSON keeps every digit
                self.assertEqual(result.verdict, record["verdict"])
                self.assertEqual(result.steps, record["steps"])
                self.assertEqual(result.rhs_evaluations, record["rhs_evals"])
                self.assertEqual(result.history["C"][-1], record["final"]["C"])
                self.assertEqual(result.history["t"][-1], record["final"]["t"])
                for key in ("dC_first_above_threshold", "dC_fastest_growth_at"):
                    self.assertEqual(same_or_nan(getattr(result, key)), record[key])
                if record["equation_check"] is not None:
                    self.assertEqual(result.equation_residual, record["equation_check"]["relative_residual"])
                    self.assertEqual(list(result.equations), list(record["equation_check"]["coordinates"]))
                    for name, equation in record["equation_check"]["coordinates"].items():
                        for key, value in equation.items():
                            self.assertEqual(same_or_nan(result.equations[name][key]), value)
                else:
                    self.assertTrue(math.isnan(result.equation_residual))
                    self.assertEqual(result.equations, {})

    def test_work_ledger_names_the_damper_and_explains_none_of_a_missing_one(self):
        crane = ea.run("crane")
        W = crane.work_ledger["forces"]["damper"]
        self.assertLess(abs(W + crane.history["Z"][-1]), 1e-5 * crane.history["Z"][-1])
        self.assertIsNone(crane.work_ledger["suspect"])
        self.assertEqual(W, cli_record("crane")["work_ledger"]["forces"]["damper"])  # to the last bit
        missing = ea.run("crane-damper-missing")
        self.assertEqual(missing.verdict, "fail")
        self.assertEqual(len(missing.work_ledger["forces"]), 0)
        self.assertLess(missing.work_ledger["residual_work"], -1.0)
        hamilton = ea.run("crane", form="hamilton").work_ledger["forces"]["damper"]  # every form keeps it
        self.assertLess(abs(hamilton - W), 1e-4 * crane.history["Z"][-1])
        self.assertIsNone(ea.run("mechanism", t_end=0.5).work_ledger)

    def test_diagnosis_columns_equal_the_command_line_to_the_last_bit(self):
        for model, flag, keyword in [("crane-wrong", "--equation-columns", "equation_columns"),
                                     ("crane", "--ledger-columns", "ledger_columns")]:
            rows = cli_history(model, "--t-end", "0.5", flag)
            result = ea.run(model, t_end=0.5, **{keyword: True})
            self.assertEqual(result.columns, rows[0])
            expected = np.array([[float(cell) for cell in row] for row in rows[1:]])
            np.testing.assert_array_equal(result.history_array, expected)
        with self.assertRaisesRegex(ValueError, "^equation_columns: model crane-derived"):
            ea.run("crane-derived", equation_columns=True)
        with self.assertRaisesRegex(ValueError, "^ledger_columns: adds columns"):
            ea.run("crane", ledger_columns=True, history=False)

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

    def test_options_are_checked_by_the_command_lines_rules_in_pythons_names(self):
        # (Python's arguments, the command line's): the same refusal, the option spelled as the
        # caller spells it.
        cases = [
            (dict(model="crane", method="rk4", rtol=1e-6), ["crane", "--method", "rk4", "--rtol", "1e-6"]),
            (dict(model="crane", max_steps=10), ["crane", "--max-steps", "10"]),
            (dict(model="crane", method="cvode-bdf", step=1e-3), ["crane", "--method", "cvode-bdf", "--step", "1e-3"]),
            (dict(model="crane", method="cvode-bdf", iteration="newton"),
             ["crane", "--method", "cvode-bdf", "--iteration", "newton"]),
            (dict(model="crane-dae", baumgarte=(1.0, 1.0)), ["crane-dae", "--baumgarte", "1,1"]),
            (dict(model="crane", drift_threshold=1e-6), ["crane", "--drift-threshold", "1e-6"]),
            (dict(model="crane-dae", equation_check_every=1), ["crane-dae", "--equation-check-every", "1"]),
            (dict(model="crane", step=6.0), ["crane", "--step", "6"]),
            (dict(model="crane", t_end=1e300), ["crane", "--t-end", "1e300"]),
            (dict(model="crane", method="cvode-bdf", max_step=1e-300), ["crane", "--method", "cvode-bdf",
                                                                      "--max-step", "1e-300"]),
            (dict(model="crane", set={"l": 0.0}), ["crane", "--set", "l=0"]),
            (dict(model="crane-dae", independent=["x1"]), ["crane-dae", "--independent", "x1"]),
            (dict(model="crane", method="rk4", table="ARKODE_TRBDF2_3_3_2"),
             ["crane", "--method", "rk4", "--table", "ARKODE_TRBDF2_3_3_2"]),
            (dict(model="crane", method="arkode-dirk", table="ARKODE_DORMAND_PRINCE_7_4_5"),
             ["crane", "--method", "arkode-dirk", "--table", "ARKODE_DORMAND_PRINCE_7_4_5"]),
            (dict(model="crane", method="arkode-dirk", table="ARKODE_IMPLICIT_TRAPEZOIDAL_2_2"),
             ["crane", "--method", "arkode-dirk", "--table", "ARKODE_IMPLICIT_TRAPEZOIDAL_2_2"]),
            # Below SUNDIALS 6.6 relaxation is refused naming 6.6; from 6.6 this table for its
            # negative weight.
            (dict(model="crane", method="arkode-dirk", table="ARKODE_SDIRK_5_3_4", relax=True),
             ["crane", "--method", "arkode-dirk", "--table", "ARKODE_SDIRK_5_3_4", "--relax"]),
            (dict(model="crane", method="rk4", relax=True), ["crane", "--method", "rk4", "--relax"]),
            # A relative tolerance of 1 or more accepts any step.
            (dict(model="crane", method="arkode-erk", rtol=1e300), ["crane", "--method", "arkode-erk", "--rtol", "1e300"]),
            (dict(model="crane", method="cvode-bdf", rtol=1.0), ["crane", "--method", "cvode-bdf", "--rtol", "1"]),
            # arkode-erk given a step takes no tolerances; without one, its table needs an embedded method.
            (dict(model="crane", method="arkode-erk", step=1e-3, rtol=1e-6),
             ["crane", "--method", "arkode-erk", "--step", "1e-3", "--rtol", "1e-6"]),
            (dict(model="crane", method="arkode-erk", table="ARKODE_KNOTH_WOLKE_3_3"),
             ["crane", "--method", "arkode-erk", "--table", "ARKODE_KNOTH_WOLKE_3_3"]),
        ]
        for arguments, cli_arguments in cases:
            with self.subTest(arguments=arguments):
                if method_missing(arguments):
                    self.skipTest(method_missing(arguments))
                expected = cli_usage_error(*cli_arguments)
                for option in re.findall(r"--[a-z-]+", expected):
                    expected = expected.replace(option, option[2:].replace("-", "_"))
                with self.assertRaises(ValueError) as raised:
                    ea.run(**arguments)
                self.assertEqual(str(raised.exception), expected)
        for values in ({"phi": math.inf}, {"phi": math.nan}):
            with self.subTest(init=values), self.assertRaisesRegex(ValueError, r"^init: phi = (inf|nan) is not finite"):
                ea.run("crane", init=values)
        with self.assertRaisesRegex(ValueError, r"^set: m1 = inf is not finite"):
            ea.run("crane", set={"m1": math.inf})
        with self.assertRaisesRegex(ValueError, r"^every: .*history=False"):
            ea.run("crane", every=10, history=False)
        # The messages name every method an option applies to.
        for arguments, message in (
                (dict(max_steps=10), "max_steps: applies to the adaptive methods cvode-bdf, cvode-adams, idas, "
                                     "arkode-erk and arkode-dirk, not to rk4"),
                (dict(method="cvode-bdf", step=1e-3), "step: applies to the fixed-step methods and to arkode-erk and "
                                                      "arkode-dirk, not to cvode-bdf (it takes rtol)"),
                (dict(relax=True), "relax: applies to arkode-erk and arkode-dirk only, not to rk4"),
                (dict(method="arkode-erk", rtol=2.0), "rtol: 2 must be < 1 (a relative tolerance)")):
            if method_missing(dict(method="arkode-erk")):  # each message names ARKODE's methods
                with self.subTest(arguments=arguments):
                    self.skipTest(method_missing(dict(method="arkode-erk")))
                continue
            with self.subTest(arguments=arguments), self.assertRaises(ValueError) as raised:
                ea.run("crane", **arguments)
            self.assertEqual(str(raised.exception), message)
        # ... and where they apply they are taken.
        self.assertEqual(ea.run("crane-dae", stabilize="baumgarte", baumgarte=(1.0, 1.0), drift_threshold=1e-2,
                                t_end=0.5, history=False).verdict, "pass")

    def test_repr_shows_significant_digits(self):
        result = ea.run("crane", history=False)
        self.assertLess(result.delta_C, 1e-6)  # "0.000000" with six decimals
        self.assertEqual(repr(result), "<RunResult crane rk4: delta_C = %.3e, pass>" % result.delta_C)
        audit = ea.audit_trajectory(*oscillator_samples(0.1), kinetic, potential, power)
        self.assertEqual(repr(audit), "<TrajectoryAudit: delta_C = %.3e, pass>" % audit.delta_C)

    def test_version_is_the_projects(self):
        with open(os.path.join(os.path.dirname(__file__), "..", "..", "CMakeLists.txt"), encoding="utf-8") as cmake:
            version = re.search(r"project\(EnergyAudit VERSION ([0-9.]+)", cmake.read()).group(1)
        self.assertEqual(ea.__version__, version)

    def test_arguments_are_documented(self):
        for argument in ("step", "rtol", "table", "relax", "every", "history", "progress", "set", "init", "baumgarte"):
            self.assertIn(argument + ":", ea.run.__doc__)
        for argument in ("t:", "q, v, a:", "dT_dt", "dV_dt", "power"):
            self.assertIn(argument, ea.audit_trajectory.__doc__)

    def test_columns_include_the_extra_outputs_as_the_csv_does(self):
        rows = cli_history("container-line", "--t-end", "1", "--step", "1e-2")
        result = ea.run("container-line", t_end=1.0, step=1e-2)
        self.assertEqual(result.columns, rows[0])
        self.assertIn("rope_drift", result.columns)
        self.assertEqual(result.history_array.shape, (len(rows) - 1, len(rows[0])))
        for name in ("rope_drift", "psi_c"):
            column = rows[0].index(name)
            self.assertEqual(list(result.history[name]), [float(row[column]) for row in rows[1:]])

    def test_columns_include_the_accelerations_as_the_csv_does(self):
        rows = cli_history("crane", "--step", "1e-2")
        result = ea.run("crane", step=1e-2)
        self.assertEqual(result.columns, rows[0])
        self.assertTrue(any(name.endswith("_ddot") for name in result.columns), result.columns)
        self.assertEqual(result.history_array.tolist(), [[float(value) for value in row] for row in rows[1:]])

    def test_every_keeps_the_last_state_as_the_csv_does(self):
        rows = cli_history("crane", "--every", "7")
        result = ea.run("crane", every=7)
        self.assertEqual(result.history["t"][-1], 5.0)
        self.assertEqual(result.columns, rows[0])
        self.assertEqual(result.history_array.tolist(), [[float(value) for value in row] for row in rows[1:]])

    def test_progress_draws_a_line_on_stderr(self):
        for progress in (False, True):
            with self.subTest(progress=progress), contextlib.redirect_stderr(io.StringIO()) as stderr:
                ea.run("crane", step=1e-2, progress=progress)
            if progress:
                # The studies' progress line: redrawn after a carriage return, ended by a newline.
                self.assertRegex(stderr.getvalue(), r"\renergy_audit.run crane rk4: 500/500 steps, [0-9.]+ s *\n$")
            else:
                self.assertEqual(stderr.getvalue(), "")
        # 0.07 / 0.01 is 7.000000000000001 in doubles: the integrator's count, 7 steps, is the total.
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            ea.run("crane", step=1e-2, t_end=0.07, progress=True)
        self.assertRegex(stderr.getvalue(), r"7/7 steps")
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            ea.run("crane", method="cvode-bdf", progress=True)
        self.assertRegex(stderr.getvalue(), r"\renergy_audit.run crane cvode-bdf: t = 5 of 5 \(100%\), [0-9]+ steps, "
                                            r"[0-9.]+ s *\n$")

    def test_a_stderr_that_refuses_the_progress_line_does_not_end_the_run(self):
        class Refusing(io.StringIO):
            def write(self, text):
                raise OSError("no space left on the device")

        unraisable = []
        hook = sys.unraisablehook
        sys.unraisablehook = unraisable.append
        try:
            with contextlib.redirect_stderr(Refusing()):
                result = ea.run("crane", step=1e-2, progress=True)
        finally:
            sys.unraisablehook = hook
        self.assertEqual(result.verdict, "pass")
        self.assertTrue(unraisable)
        self.assertIsInstance(unraisable[0].exc_value, OSError)

    def test_ctrl_c_stops_a_run_at_a_step_boundary_with_its_partial_result(self):
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        start = time.monotonic()
        timer.start()
        try:
            result = ea.run("crane", method="euler", step=1e-8, every=100000)
        finally:
            timer.cancel()
        self.assertLess(time.monotonic() - start, 30.0)
        self.assertEqual(result.verdict, "interrupted")
        self.assertFalse(result.finished)
        self.assertTrue(result.end.startswith("interrupted at t = "), result.end)
        self.assertGreater(result.t_reached, 0.0)
        self.assertLess(result.t_reached, 5.0)
        self.assertGreater(len(result.history["t"]), 1)
        self.assertLessEqual(result.history["t"][-1], result.t_reached)

    def test_a_large_history_is_announced_before_the_run(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with self.assertRaisesRegex(UserWarning, r"about 500000[0-9] rows x 16 columns \(640 MB\); every=K"):
                ea.run("crane", step=1e-6)
            ea.run("crane", step=1e-6, t_end=0.01)  # 10^4 rows: no warning


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

    def test_samples_that_are_not_finite_are_value_errors_naming_array_and_index(self):
        t, q, v, a = oscillator_samples(0.5)
        for value in (math.nan, math.inf):
            with self.subTest(value=value), self.assertRaisesRegex(ValueError, r"a is (nan|inf) at sample 0, "):
                ea.audit_trajectory(t, q, v, np.full_like(a, value), kinetic, potential)
        bad_q = q.copy()
        bad_q[5] = math.nan
        with self.assertRaisesRegex(ValueError, r"q is nan at sample 5, coordinate 0"):
            ea.audit_trajectory(t, bad_q, v, a, kinetic, potential, power)
        bad_v = np.column_stack([v, v])
        bad_v[3, 1] = -math.inf
        with self.assertRaisesRegex(ValueError, r"v is -inf at sample 3, coordinate 1"):
            ea.audit_trajectory(t, np.column_stack([q, q]), bad_v, np.column_stack([a, a]),
                                lambda q, v, t: 0.5 * MASS * v @ v, lambda q, t: 0.5 * STIFFNESS * q @ q)

    def test_an_energy_that_depends_on_t_needs_its_rate(self):
        t, q, v, a = oscillator_samples(0.05)
        drift = 0.3  # the spring's anchor moves: V = s (q - drift t)^2 / 2, samples of the fixed anchor

        def moving_potential(q, t):
            return 0.5 * STIFFNESS * (q[0] - drift * t) ** 2

        with self.assertRaisesRegex(ValueError, r"V changes with t at fixed q .*dV_dt"):
            ea.audit_trajectory(t, q, v, a, kinetic, moving_potential, power)
        ea.audit_trajectory(t, q, v, a, kinetic, moving_potential, power,  # with its rate it is audited
                            dV_dt=lambda q, t: -STIFFNESS * drift * (q[0] - drift * t))

        def moving_kinetic(q, v, t):  # T in a frame that moves at the speed 0.1 t
            return 0.5 * MASS * (v[0] + 0.1 * t) ** 2

        with self.assertRaisesRegex(ValueError, r"T changes with t at fixed q and v .*dT_dt"):
            ea.audit_trajectory(t, q, v, a, moving_kinetic, potential, power)



class IntegratedEquationsTest(unittest.TestCase):
    """run() says which equations it integrated, as the command line's record does."""

    def test_a_form_that_does_not_run_the_hand_derived_accelerations_says_so(self):
        for form in ("lagrange", "hamilton"):
            with self.subTest(form=form):
                result = ea.run("crane-wrong", form=form)
                record = cli_record("crane-wrong", "--form", form)
                self.assertEqual(result.integrated_equations, record["integrated_equations"])
        self.assertEqual(ea.run("crane-wrong").integrated_equations, "the model's hand-derived accelerations")
        self.assertIn("not run in this form", ea.run("crane-wrong", form="hamilton").integrated_equations)

if __name__ == "__main__":
    unittest.main()
