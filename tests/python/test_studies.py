"""energy_audit.compare, sweep, advise, diagnose and stability: each returns what the command
line writes for the same arguments (sweep, advise, diagnose and stability: their --json record;
compare: its --csv table), number for number, as NumPy columns with the record's keys; a bad
argument is a ValueError with the command line's message in Python's names, and Ctrl-C stops a
study with the runs it made. classify_drift reads pairs of (resolution, delta_C) run elsewhere."""
import csv
import importlib.util
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
import types
import unittest
import unittest.mock

import numpy as np

import energy_audit as ea

CLI = os.environ["ENERGY_AUDIT_CLI"]

# Timings differ from one run to the next; every other number is the same to the bit.
TIMINGS = {"wall_seconds", "wall_s"}


def cli_file(command, *arguments, option="--json", suffix=".json"):
    """The file that `energy-audit COMMAND ARGUMENTS OPTION FILE` writes, as text."""
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "out" + suffix)
        subprocess.run([CLI, command, *arguments, "--quiet", option, path], check=True, capture_output=True)
        with open(path, encoding="utf-8") as output:
            return output.read()


def cli_usage_error(command, *arguments):
    """The message of the usage error of `energy-audit COMMAND ARGUMENTS`, the options spelled as
    Python's keyword arguments (--drift-target as drift_target)."""
    completed = subprocess.run([CLI, command, *arguments], capture_output=True, text=True)
    assert completed.returncode == 2, completed
    message = completed.stderr.strip().removeprefix("energy-audit: error: ")
    return re.sub(r"--([a-z-]+)", lambda option: option.group(1).replace("-", "_"), message)


class RecordAssertions(unittest.TestCase):
    def assert_equals_record(self, value, expected, tables, key=""):
        """`value` (Python's result) holds `expected` (the JSON record): objects as dicts, the
        lists under `tables` as dicts of columns, null as None or NaN, "inf" as inf."""
        where = key or "the record"
        if key in TIMINGS:
            self.assertTrue(np.all(np.asarray(value, dtype=float) >= 0), where)
        elif isinstance(expected, list) and key in tables:
            self.assertIsInstance(value, dict, where)
            keys = []
            for row in expected:
                keys += [name for name in row if name not in keys]
            self.assertEqual(list(value), keys, where)
            for name in keys:
                self.assertEqual(len(value[name]), len(expected), name)
                for i, row in enumerate(expected):
                    self.assert_equals_record(value[name][i], row.get(name), tables, name)
        elif isinstance(expected, dict):
            self.assertIsInstance(value, dict, where)
            self.assertEqual(list(value), list(expected), where)
            for name, item in expected.items():
                self.assert_equals_record(value[name], item, tables, name)
        elif isinstance(expected, list):
            self.assertIsInstance(value, np.ndarray, where)
            self.assertEqual(value.tolist(), expected, where)
        elif expected is None:
            self.assertTrue(value is None or math.isnan(value), f"{where}: {value!r} for null")
        elif expected == "inf":
            self.assertEqual(value, math.inf, where)
        else:
            self.assertEqual(type(value) is str, type(expected) is str, where)
            self.assertEqual(value, expected, where)  # exact: the JSON keeps every digit of a double


class StudyTest(RecordAssertions):
    def test_compare_returns_the_csv_table(self):
        arguments = dict(methods=["rk4", "rkg", "cvode-bdf"], steps=[1e-2, 5e-3], rtols=[1e-6], t_end=1.0,
                         set={"m1": 12.0}, init={"phi": -0.3})
        result = ea.compare("crane", **arguments)
        table = list(csv.reader(cli_file("compare", "crane", "--methods", "rk4,rkg,cvode-bdf", "--steps",
                                         "1e-2,5e-3", "--rtols", "1e-6", "--t-end", "1", "--set", "m1=12",
                                         "--init", "phi=-0.3", option="--csv", suffix=".csv").splitlines()))
        header, rows = table[0], table[1:]
        self.assertEqual(list(result["rows"]), header)
        self.assertEqual((result["model"], result["form"], result["planned"], result["interrupted"]),
                         ("crane", "lagrange", 5, False))
        for name in header:
            column = result["rows"][name]
            for i, row in enumerate(rows):
                text = row[header.index(name)]
                if name in TIMINGS:
                    self.assertGreaterEqual(column[i], 0.0)
                elif name in ("method", "verdict"):
                    self.assertEqual(column[i], text)
                elif text == "":
                    self.assertTrue(math.isnan(column[i]), (name, i))
                else:  # the CSV writes the shortest text that reads back to the same double
                    self.assertEqual(column[i], int(text) if name in ("steps", "rhs_evals") else float(text), (name, i))
        self.assertEqual(result["rows"]["steps"].dtype, np.int64)
        self.assertEqual(result["rows"]["method"][result["rows"]["verdict"] == "pass"].tolist(),
                         [row[0] for row in rows if row[5] == "pass"])

    def test_sweep_returns_the_json_record(self):
        result = ea.sweep("crane", set={"m1": [8.0, 10.0]}, init={"phi": [-0.5, -0.3]}, methods=["rk4", "cvode-bdf"],
                          steps=[1e-2], rtols=[1e-6], t_end=1.0, threads=2)
        record = json.loads(cli_file("sweep", "crane", "--set", "m1=8,10", "--init", "phi=-0.5,-0.3", "--methods",
                                     "rk4,cvode-bdf", "--steps", "1e-2", "--rtols", "1e-6", "--t-end", "1",
                                     "--threads", "2"))
        self.assertEqual(len(record["runs"]), 8)
        self.assert_equals_record(result, record, {"runs"})
        self.assertEqual(list(result["runs"]["values"][0]), ["m1", "phi"])

    def test_advise_returns_the_json_record(self):
        result = ea.advise("crane-dae", target=1e-5, drift_target=1e-4, methods=["rk4", "cvode-bdf"], t_end=0.5,
                           threads=2)
        record = json.loads(cli_file("advise", "crane-dae", "--target", "1e-5", "--drift-target", "1e-4",
                                     "--methods", "rk4,cvode-bdf", "--t-end", "0.5", "--threads", "2"))
        self.assertIsNotNone(record["recommended"])
        self.assert_equals_record(result, record, {"methods", "probes"})

    def test_stability_returns_the_json_record(self):
        result = ea.stability("ellipse", methods=["euler", "rk4"], steps=[0.01], k="-300:50:3", t_end=2.0,
                              threads=2, no_boundaries=True)
        record = json.loads(cli_file("stability", "ellipse", "--methods", "euler,rk4", "--steps", "0.01", "--k",
                                     "-300:50:3", "--t-end", "2", "--threads", "2", "--no-boundaries"))
        self.assertEqual(len(record["points"]), 2 * 7 * 2)
        self.assert_equals_record(result, record, {"summaries", "boundaries", "points"})
        points = result["points"]
        self.assertLessEqual(set(points["verdict"][points["method"] == "rk4"]),
                             {"stable", "neutral", "drifting", "unstable"})

    def test_diagnose_returns_the_json_record(self):
        result = ea.diagnose("crane", step=0.02, threads=2)
        record = json.loads(cli_file("diagnose", "crane", "--step", "0.02", "--threads", "2"))
        # Every level passes (7.15e-05 at the coarsest): within threshold, with the order and the advice.
        self.assertEqual(record["kind"], "within threshold")
        self.assertTrue(record["all_meet_threshold"])
        self.assert_equals_record(result, record, {"levels"})
        self.assertAlmostEqual(result["order"], 4, delta=0.5)
        self.assertLessEqual(result["advised"]["delta_C"], 1e-3)

    def test_diagnose_tells_a_flipped_sign_from_a_coarse_step(self):
        wrong = ea.diagnose("mechanism-wrong", levels=3, threads=2)
        self.assertEqual(wrong["kind"], "model error")
        self.assertGreater(wrong["plateau"], 1e-3)
        self.assertIsNone(wrong["advised"])
        # The same fields as the command line's record: the failing equation by name, the onset.
        record = json.loads(cli_file("diagnose", "mechanism-wrong", "--levels", "3", "--threads", "2"))
        self.assert_equals_record(wrong, record, {"levels"})
        self.assertEqual(wrong["failing_equations"][0]["coordinate"], "gamma")
        self.assertGreater(wrong["first_above_threshold"], 0)
        self.assertEqual(wrong["integrated_equations"], "the model's hand-derived accelerations")
        self.assertIn("fix the equation of gamma", wrong["what_to_do"])
        with self.assertRaisesRegex(ValueError, "step: applies to the fixed-step methods"):
            ea.diagnose("crane", method="cvode-bdf", step=0.01)

    def test_classify_drift_reads_pairs_run_elsewhere(self):
        # delta_C = h^4 exactly: order 4; a run that did not finish is left out.
        pairs = [(0.1, 1e-4), (0.05, 6.25e-6), (0.025, 0.025**4), (0.0125, 0.0125**4), (0.2, 5.0, False)]
        fourth = ea.classify_drift(pairs, order=4, threshold=1e-9)
        self.assertEqual(fourth["kind"], "step error")
        self.assertEqual(fourth["unfinished"], 1)
        np.testing.assert_allclose(fourth["observed_orders"], [4, 4, 4])
        self.assertAlmostEqual(fourth["estimated_resolution"], 1e-9**0.25)
        # A plateau above the threshold, and a floor that rises.
        self.assertEqual(ea.classify_drift([(h, 0.02 + h**4) for h in (0.01, 0.005, 0.0025)], order=4)["kind"],
                         "model error")
        floor = ea.classify_drift([(h, h**4 + 1e-16 / h) for h in (1e-2, 2.5e-3, 6.25e-4, 1.5625e-4)], order=4)
        self.assertEqual(floor["kind"], "round-off")
        self.assertEqual(floor["floor_at"], 6.25e-4)
        with self.assertRaisesRegex(ValueError, "order: the method's order is needed"):
            ea.classify_drift(pairs)

    def test_classify_drift_refuses_a_ladder_it_cannot_read(self):
        ladder = [(0.1, 1e-4), (0.05, 6.25e-6), (0.025, 0.025**4)]
        cases = [
            # The same resolution twice would be an interval of zero length: an order of inf.
            ([*ladder, (0.05, 7e-6)], "^pairs: resolution 0.05 is given twice$"),
            ([*ladder, (0.0125, math.nan)], r"^pairs: delta_C nan at resolution 0.0125 must be >= 0 "),
            ([*ladder, (0.0125, -1e-9)], r"^pairs: delta_C -1e-09 at resolution 0.0125 must be >= 0 "),
            ([*ladder, (-0.0125, 1e-8)], "^pairs: resolution -0.0125 must be > 0$"),
            ([*ladder, (math.inf, 1e-8)], "^pairs: resolution inf must be > 0$"),
        ]
        for pairs, message in cases:
            with self.subTest(message=message), self.assertRaisesRegex(ValueError, message):
                ea.classify_drift(pairs, order=4)
        # A run that did not finish carries no delta_C worth checking: it is left out.
        self.assertEqual(ea.classify_drift([*ladder, (0.0125, math.nan, False)], order=4)["unfinished"], 1)

    @unittest.skipUnless(importlib.util.find_spec("scipy"), "SciPy is not installed")
    def test_classify_drift_reads_solve_ivp_at_a_ladder_of_rtols(self):
        from scipy.integrate import solve_ivp

        def energy_drift(rtol, damping):
            # x'' = -x - damping x': C = (x'^2 + x^2) / 2 is constant only when nothing damps, and
            # the damper's work is not counted here: with it the model is "wrong" for C.
            run = solve_ivp(lambda t, y: [y[1], -y[0] - damping * y[1]], (0, 20), [1, 0], rtol=rtol, atol=1e-12)
            energy = 0.5 * (run.y[0] ** 2 + run.y[1] ** 2)
            return rtol, float(np.max(np.abs(energy - energy[0])) / energy[0]), bool(run.success)

        rtols = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8)
        right = ea.classify_drift([energy_drift(r, 0) for r in rtols], adaptive=True, threshold=1e-6)
        self.assertEqual(right["kind"], "step error", right["explanation"])
        self.assertAlmostEqual(right["order"], 1, delta=0.5)
        wrong = ea.classify_drift([energy_drift(r, 1e-3) for r in rtols], adaptive=True, threshold=1e-6)
        self.assertEqual(wrong["kind"], "model error", wrong["explanation"])

    @unittest.skipUnless(importlib.util.find_spec("scipy"), "SciPy is not installed")
    def test_diagnose_reads_audit_trajectory_results_at_a_ladder_of_rtols(self):
        from scipy.integrate import solve_ivp

        damping = 0.1
        t = np.linspace(0.0, 10.0, 1001)

        def audit(rtol, sign):
            # x'' = -x - damping x', audited with the damper's power; sign +1 slips the damper's
            # sign in the equations of motion (the audit's power stays -damping v^2).
            def acceleration(y):
                return -y[0] + sign * damping * y[1]

            run = solve_ivp(lambda _, y: [y[1], acceleration(y)], (0, 10), [1, 0], t_eval=t, rtol=rtol, atol=1e-12)
            return ea.audit_trajectory(t, run.y[0], run.y[1], acceleration(run.y), T=lambda q, v, t: 0.5 * v[0] ** 2,
                                       V=lambda q, t: 0.5 * q[0] ** 2, power=lambda q, v, t: -damping * v[0] ** 2)

        rtols = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7]
        right = [audit(r, -1.0) for r in rtols]
        diagnosis = ea.diagnose(right, rtols=rtols)
        # delta_C 9.8e-4 at rtol 1e-3 falls with rtol: every level meets the threshold 1e-3.
        self.assertEqual(diagnosis["kind"], "within threshold", diagnosis["explanation"])
        self.assertAlmostEqual(diagnosis["order"], 1, delta=0.5)
        self.assertEqual((diagnosis["resolution"], diagnosis["threshold"]), ("rtol", 1e-3))
        self.assertEqual(diagnosis["levels"]["resolution"].tolist(), rtols)
        self.assertEqual(diagnosis["levels"]["delta_C"].tolist(), [a.delta_C for a in right])
        # The library's classification of the same ladder, as classify_drift reads it.
        classified = ea.classify_drift([(r, a.delta_C) for r, a in zip(rtols, right)], adaptive=True)
        for key, value in classified.items():
            if key != "round_off_bound":  # pairs carry no step counts; the audits do (their samples)
                np.testing.assert_equal(diagnosis[key], value, key)
        self.assertAlmostEqual(diagnosis["round_off_bound"], np.finfo(float).eps * len(t),
                               delta=2 * np.finfo(float).eps)
        wrong = ea.diagnose([audit(r, +1.0) for r in rtols], rtols=rtols)
        self.assertEqual(wrong["kind"], "model error", wrong["explanation"])
        self.assertGreater(wrong["plateau"], 1.0)
        with self.assertRaisesRegex(ValueError, "^rtols: 2 given for 5 audits$"):
            ea.diagnose(right, rtols=rtols[:2])
        with self.assertRaisesRegex(ValueError, "^order: the method's order is needed"):
            ea.diagnose(right, steps=rtols)
        with self.assertRaisesRegex(ValueError, "^steps, rtols: give the resolution of each audit"):
            ea.diagnose(right)

    def test_tables_convert_to_pandas_where_it_is_installed(self):
        rows = ea.compare("crane", methods=["rk4", "euler"], steps=[1e-2, 5e-3], t_end=0.5)["rows"]
        self.assertIsInstance(rows, dict)
        with unittest.mock.patch.dict(sys.modules, {"pandas": None}):
            with self.assertRaisesRegex(ImportError, "python3-pandas"):
                rows.to_pandas()
        # What the table hands pandas: its columns, by a stand-in where pandas is not installed.
        with unittest.mock.patch.dict(sys.modules, {"pandas": types.SimpleNamespace(DataFrame=lambda data: data)}):
            handed = rows.to_pandas()
        self.assertEqual(list(handed), list(rows))
        self.assertTrue(all(handed[name] is rows[name] for name in rows))
        if importlib.util.find_spec("pandas") is None:
            self.skipTest("pandas is not installed (Debian: python3-pandas)")
        frame = rows.to_pandas()
        self.assertEqual(list(frame.columns), list(rows))
        for name in rows:  # NaN (a fixed-step run's rtol) equal to NaN
            np.testing.assert_array_equal(frame[name].to_numpy(), rows[name], err_msg=name)

    def test_bad_arguments_are_value_errors_with_the_command_lines_message(self):
        cases = [
            (lambda: ea.compare("crane", methods=["rk4"], rtols=[1e-6]),
             ("compare", "crane", "--methods", "rk4", "--rtols", "1e-6")),
            (lambda: ea.sweep("crane", set={"mass": [1.0, 2.0]}), ("sweep", "crane", "--set", "mass=1,2")),
            (lambda: ea.advise("crane", drift_target=1e-3), ("advise", "crane", "--drift-target", "1e-3")),
            (lambda: ea.stability("ellipse", k="3:1:1"), ("stability", "ellipse", "--k", "3:1:1")),
            (lambda: ea.stability("ellipse", set={"k": 1.0}), ("stability", "ellipse", "--set", "k=1")),
        ]
        for call, cli_arguments in cases:
            with self.subTest(cli_arguments=cli_arguments):
                with self.assertRaises(ValueError) as raised:
                    call()
                self.assertEqual(str(raised.exception), cli_usage_error(*cli_arguments))
        with self.assertRaisesRegex(TypeError, r"compare\(\) got an unexpected keyword argument 'stepz'"):
            ea.compare("crane", stepz=[1e-3])
        # An empty list is refused, as the command line refuses --steps ''; rtols of 1 or more too.
        for call, message in ((lambda: ea.compare("crane", steps=[]), "steps: none given"),
                              (lambda: ea.compare("crane", methods=["cvode-bdf"], rtols=[]), "rtols: none given"),
                              (lambda: ea.sweep("crane", steps=[]), "steps: none given"),
                              (lambda: ea.compare("crane", methods=["cvode-bdf"], rtols=[1e-6, 1.0]),
                               "rtols: 1 must be < 1 (a relative tolerance)")):
            with self.subTest(message=message), self.assertRaises(ValueError) as raised:
                call()
            self.assertEqual(str(raised.exception), message)
        self.assertNotEqual(subprocess.run([CLI, "compare", "crane", "--steps", ""], capture_output=True).returncode, 0)
        with self.assertRaisesRegex(ValueError, r"^model: ellipse is a kinematic model"):
            ea.sweep("ellipse")

    def test_ctrl_c_stops_a_study_with_the_runs_it_made(self):
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        start = time.monotonic()
        timer.start()
        try:
            result = ea.sweep("crane", methods=["euler"], steps=[1e-8], set={"m1": [8.0, 10.0]}, threads=1)
        finally:
            timer.cancel()
        self.assertLess(time.monotonic() - start, 30.0)
        self.assertTrue(result["interrupted"])
        self.assertEqual(result["runs"]["verdict"].tolist(), ["interrupted", None])


if __name__ == "__main__":
    unittest.main()
