"""result.plot(): the figures of a run, of an audited trajectory and of compare's work-precision
diagram, drawn with matplotlib's Agg backend into PNG files; what each draws is the result's own
data. matplotlib stays optional: energy_audit imports without it and plot() then says which
package to install."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import numpy as np

import energy_audit as ea

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def line(axes, label):
    """The line of `axes` whose legend label is `label`."""
    return next(drawn for drawn in axes.lines if drawn.get_label() == label)


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed (Debian: python3-matplotlib)")
class PlotTest(unittest.TestCase):
    def setUp(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.directory = directory.name

    def assert_png_written(self, path):
        with open(path, "rb") as image:
            self.assertEqual(image.read(8), PNG_SIGNATURE, path)
        self.assertGreater(os.path.getsize(path), 10000, path)

    def test_a_run_draws_C_minus_C0_its_marks_the_running_drift_and_the_ledger(self):
        result = ea.run("crane-wrong", t_end=1.0, ledger_columns=True)
        path = os.path.join(self.directory, "run.png")
        figure = result.plot(path)
        self.assert_png_written(path)
        drift, running, power, work = figure.axes
        C = result.history["C"]
        np.testing.assert_array_equal(line(drift, "C - C0").get_ydata(), C - C[0])
        np.testing.assert_array_equal(line(drift, "C - C0").get_xdata(), result.history["t"])
        # The dashed marks at the audit's own times, as run --plot draws them.
        marks = [drawn.get_xdata()[0] for drawn in drift.lines if drawn.get_linestyle() == "--"]
        self.assertEqual(marks, [result.dC_first_above_threshold, result.dC_fastest_growth_at])
        # The running drift ends at the audit's delta_C: the same sup over the same rows.
        self.assertEqual(line(running, "delta_C(t)").get_ydata()[-1], result.delta_C)
        np.testing.assert_array_equal(line(power, "P_damper").get_ydata(), result.history["P_damper"])
        np.testing.assert_array_equal(line(work, "W_damper").get_ydata(), result.history["W_damper"])

    def test_a_run_without_the_ledger_columns_draws_the_ledger_totals(self):
        result = ea.run("crane-wrong", t_end=1.0)
        figure = result.plot(os.path.join(self.directory, "totals.png"))
        self.assertEqual(len(figure.axes), 3)
        bars = figure.axes[2].patches
        self.assertEqual([bar.get_width() for bar in bars],
                         [result.work_ledger["forces"]["damper"], result.work_ledger["residual_work"]])

    def test_a_long_history_is_drawn_through_its_envelope(self):
        # 50001 rows: drawn through at most 8192 points that keep the extremes, the ends and the
        # order of time.
        result = ea.run("crane", step=1e-4, ledger_columns=True)
        figure = result.plot(os.path.join(self.directory, "long.png"))
        t, C = result.history["t"], result.history["C"]
        for label, axes, values in (("C - C0", figure.axes[0], C - C[0]),
                                    ("P_damper", figure.axes[2], result.history["P_damper"])):
            drawn = line(axes, label)
            x, y = drawn.get_xdata(), drawn.get_ydata()
            self.assertLessEqual(len(y), ea.plot.MAX_POINTS + 2, label)
            self.assertTrue(np.all(np.diff(x) > 0), label)
            self.assertEqual((x[0], x[-1]), (t[0], t[-1]), label)
            self.assertEqual((y.min(), y.max()), (values.min(), values.max()), label)
            np.testing.assert_array_equal(y, values[np.searchsorted(t, x)], label)
        self.assertEqual(line(figure.axes[1], "delta_C(t)").get_ydata()[-1], result.delta_C)

    def test_a_trajectory_audit_draws_its_history(self):
        t = np.linspace(0.0, 2.0, 401)
        audit = ea.audit_trajectory(t, np.cos(t), -np.sin(t), -np.cos(t), T=lambda q, v, t: 0.5 * v[0] ** 2,
                                    V=lambda q, t: 0.6 * q[0] ** 2)  # a wrong V: the drift grows
        path = os.path.join(self.directory, "trajectory.png")
        figure = audit.plot(path)
        self.assert_png_written(path)
        C = audit.history["C"]
        self.assertEqual(C[0], audit.C0)
        np.testing.assert_array_equal(line(figure.axes[0], "C - C0").get_ydata(), C - audit.C0)
        self.assertEqual(np.max(np.abs(C - audit.C0)), audit.max_abs_dC)
        self.assertEqual(line(figure.axes[1], "delta_C(t)").get_ydata()[-1], audit.delta_C)
        self.assertEqual(audit.verdict, "fail")

    def test_compare_draws_the_work_precision_diagram(self):
        comparison = ea.compare("crane", methods=["rk4", "euler"], steps=[1e-2, 5e-3], t_end=0.5, threshold=1e-4)
        path = os.path.join(self.directory, "compare.svg")
        figure = comparison.plot(path)
        with open(path, encoding="utf-8") as image:
            self.assertIn("<svg", image.read(2000))
        axes = figure.axes[0]
        self.assertEqual((axes.get_xscale(), axes.get_yscale()), ("log", "log"))
        rows = comparison["rows"]
        for method in ("rk4", "euler"):
            drawn = line(axes, method)
            np.testing.assert_array_equal(drawn.get_xdata(), rows["rhs_evals"][rows["method"] == method])
            np.testing.assert_array_equal(drawn.get_ydata(), rows["delta_C"][rows["method"] == method])
        self.assertEqual(line(axes, "threshold 1e-04").get_ydata()[0], 1e-4)

    def test_titles_name_the_model_method_delta_C_and_verdict_and_keys_sit_inside(self):
        result = ea.run("crane-wrong", t_end=1.0)
        title = result.plot(os.path.join(self.directory, "titled.png"))._suptitle.get_text()
        self.assertEqual(title, f"crane-wrong, rk4 at h = {result.step:g}: delta_C = {result.delta_C:.3g}, "
                                f"verdict {result.verdict}")
        comparison = ea.compare("crane", methods=["rk4", "euler"], steps=[1e-2, 5e-3], t_end=0.5, threshold=1e-3)
        figure = comparison.plot(os.path.join(self.directory, "titled-compare.png"))
        axes = figure.axes[0]
        text = axes.get_title()
        for part in ("crane", "rk4", "euler", "delta_C", "pass" if "pass" in comparison["rows"]["verdict"] else "fail"):
            self.assertIn(part, text)
        # The legend inside the frame, and the threshold below the frame's top.
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        renderer = FigureCanvasAgg(figure).get_renderer()
        legend = axes.get_legend().get_window_extent(renderer)
        frame = axes.get_window_extent(renderer)
        self.assertTrue(frame.x0 <= legend.x0 and legend.x1 <= frame.x1, (legend, frame))
        self.assertGreater(axes.get_ylim()[1], 1e-3 * 2)

    def test_plot_without_matplotlib_names_the_package(self):
        result = ea.run("crane", t_end=0.1)
        with mock.patch.dict(sys.modules, {"matplotlib": None, "matplotlib.figure": None}):
            with self.assertRaisesRegex(ImportError, "python3-matplotlib"):
                result.plot(os.path.join(self.directory, "none.png"))


class OptionalPackagesTest(unittest.TestCase):
    def test_import_needs_neither_matplotlib_nor_pandas(self):
        code = ("import sys; sys.modules['matplotlib'] = sys.modules['pandas'] = None; import energy_audit as ea; "
                "print(ea.run('crane', t_end=0.1).verdict)")
        completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        self.assertEqual(completed.stdout, "pass\n")


if __name__ == "__main__":
    unittest.main()
