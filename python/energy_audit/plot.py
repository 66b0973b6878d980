"""Figures of the audit with matplotlib (optional: Debian's python3-matplotlib), drawn as the
command line's gnuplot figures are (docs/command-line.md, the plot of a run and compare):

- a run (RunResult.plot) and an audited trajectory (TrajectoryAudit.plot): C(t) - C(t0) with
  dashed lines at the time the drift first exceeds the threshold and where it grows fastest;
  the running drift delta_C(t), sup |C - C0| / sup max(|E|, |T|, |V|) over the samples up to t,
  whose last value is the run's delta_C, against the threshold; for a model that names its
  forces, the residual power dC/dt beside each named force's power, and each force's work;
- compare's result (Comparison.plot): the work-precision diagram, delta_C against the
  right-hand-side evaluations, log-log, one line per method, the threshold dashed.

A line of more than MAX_POINTS rows is drawn through each stretch's minimum and maximum
(envelope), so that a long history draws quickly and keeps its peaks.

Each returns the matplotlib Figure. With a path, the figure is drawn without pyplot and written
to that file (the format by its extension), whatever backend is in use; without one it is a
pyplot figure, shown as pyplot shows figures (plt.show(), or inline in Jupyter).
"""
import math

import numpy as np

# Colours told apart also by colour-blind readers (Okabe and Ito), as the command line's.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000", "#999999")
MARKERS = ("o", "s", "^", "v", "D", "x", "+", "*")


# A line of more rows than this is drawn through each stretch's minimum and maximum (envelope).
MAX_POINTS = 8192


def envelope(t, y, max_points=MAX_POINTS):
    """The indices of the rows a line of (t, y) is drawn through: every row when there are at most
    max_points, else the first and the last row and the minimum and the maximum of y in each of
    max_points / 2 stretches of consecutive rows, in order, so that no peak is lost."""
    count = len(y)
    if count <= max_points:
        return np.arange(count)
    stretch = -(-count // (max_points // 2))  # rows a stretch, rounded up
    whole = count // stretch
    blocks = np.asarray(y[:whole * stretch]).reshape(whole, stretch)
    starts = np.arange(whole) * stretch
    rest = np.arange(whole * stretch, count)
    if len(rest):
        rest = rest[[np.argmin(y[rest]), np.argmax(y[rest])]]
    return np.unique(np.concatenate(([0, count - 1], starts + np.argmin(blocks, axis=1),
                                     starts + np.argmax(blocks, axis=1), rest)))


def _line(axes, t, y, **style):
    """Draws y against t through envelope(t, y)."""
    rows = envelope(t, y)
    return axes.plot(np.asarray(t)[rows], np.asarray(y)[rows], **style)


def _figure(path, figsize, dpi):
    """A matplotlib Figure: detached from pyplot when it goes to `path`, a pyplot one otherwise."""
    try:
        import matplotlib.figure
    except ImportError as error:
        raise ImportError("plot() needs matplotlib: install the Debian package python3-matplotlib "
                          "(or pip install matplotlib)") from error
    if path is not None:
        return matplotlib.figure.Figure(figsize=figsize, dpi=dpi)
    import matplotlib.pyplot as plt
    return plt.figure(figsize=figsize, dpi=dpi)


def _stack_panels(figure):
    """Margins for panels stacked one above the other (fixed: tight_layout measures every text
    and costs more than drawing the figure)."""
    rows = len(figure.axes)
    figure.subplots_adjust(left=0.1, right=0.97, top=1 - 0.8 / figure.get_figheight(),
                           bottom=0.5 / figure.get_figheight(), hspace=0.45 if rows > 2 else 0.3)


def _finish(figure, path, title):
    figure.suptitle(title, y=1 - 0.15 / figure.get_figheight(), va="top")
    if path is not None:
        figure.savefig(path)
    return figure


def running_drift(C, T, V, E):
    """delta_C(t) at every sample: sup |C - C0| over the samples so far, over the energy scale
    sup max(|E|, |T|, |V|) so far (the audit's delta_C, docs/mathematics.md)."""
    drift = np.maximum.accumulate(np.abs(np.asarray(C) - C[0]))
    scale = np.maximum.accumulate(np.maximum(np.maximum(np.abs(E), np.abs(T)), np.abs(V)))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(drift == 0, 0.0, drift / scale)


def _drift_panels(figure, rows, t, C, C0, first_above, fastest, threshold, T, V, E):
    """The panels of C(t) - C(t0) and of the running delta_C(t); returns the axes of both."""
    axes = figure.add_subplot(rows, 1, 1)
    _line(axes, t, C - C0, color=COLOURS[0], lw=1.5, label="C - C0")
    for time, label, colour in ((first_above, "first above threshold", COLOURS[1]),
                                (fastest, "fastest growth", COLOURS[2])):
        if math.isfinite(time):
            axes.axvline(time, color=colour, ls="--", lw=1.2, label=f"{label} (t = {time:.4g})")
    axes.set_title("C(t) - C(t0)")
    axes.set_ylabel("[J]")
    axes.grid(True)
    axes.legend(loc="best", fontsize="small")

    drift_axes = figure.add_subplot(rows, 1, 2, sharex=axes)
    drift = running_drift(C, T, V, E)
    shown = drift > 0
    _line(drift_axes, t[shown], drift[shown], color=COLOURS[0], lw=1.5, label="delta_C(t)")
    if math.isfinite(threshold) and threshold > 0:
        drift_axes.axhline(threshold, color="black", ls="--", lw=1.2, label=f"threshold {threshold:.0e}")
    if np.any(shown):
        drift_axes.set_yscale("log")
    drift_axes.set_title("delta_C(t): sup |C - C0| / sup max(|E|, |T|, |V|) up to t")
    drift_axes.grid(True)
    drift_axes.legend(loc="best", fontsize="small")
    return axes, drift_axes


def run_title(result):
    """"crane-wrong, rk4 at h = 0.001: delta_C = 0.0241, verdict fail", as the command line titles
    the figure of a run: the model, the method at its step (rtol for an adaptive method), delta_C
    and the verdict."""
    step = getattr(result, "step", 0.0)
    at = f" at h = {step:g}" if step and step > 0 else f" at rtol = {result.rtol:g}"
    return f"{result.model}, {result.method}{at}: delta_C = {result.delta_C:.3g}, verdict {result.verdict}"


def comparison_title(comparison):
    """"work-precision of crane, rk4 and euler: delta_C 2.1e-09 to 3.3e-04; pass 3, fail 1": the
    model, the methods, the range of delta_C and the verdicts counted, as compare --plot's title."""
    rows = comparison["rows"]
    methods = list(dict.fromkeys(rows["method"]))
    named = methods[0] if len(methods) == 1 else ", ".join(methods[:-1]) + " and " + methods[-1]
    drift = np.asarray(rows["delta_C"], dtype=float)
    drift = drift[np.isfinite(drift)]
    text = f"work-precision of {comparison['model']}, {named}"
    if len(drift):
        low, high = float(np.min(drift)), float(np.max(drift))
        text += f": delta_C {low:.2g}" + (f" to {high:.2g}" if low < high else "")
    counts = {}
    for verdict in rows["verdict"] if "verdict" in rows else ():
        counts[verdict] = counts.get(verdict, 0) + 1
    return text + "; " + ", ".join(f"{verdict} {count}" for verdict, count in counts.items())


def plot_run(result, path=None, *, title=None, figsize=None, dpi=100):
    """Draws the audit of a run (energy_audit.run's RunResult), as `energy-audit run --plot` does:
    C(t) - C(t0) with dashed lines at the times the drift first exceeds the threshold and grows
    fastest, the running delta_C(t) against the threshold, and, for a model that names its forces
    run with ledger_columns=True, the residual power dC/dt beside each named force's power and
    each force's work (without those columns, the ledger's totals: each force's work W and the
    residual work).

    path: the image file to write (PNG, SVG, PDF: by its extension); None: a pyplot figure.
    title: the figure's title (default run_title(result): the model, the method at its step or
    rtol, delta_C and the verdict).
    Returns the matplotlib Figure; its first axes hold the line C - C0."""
    if "C" not in result.columns:
        raise ValueError("plot: the run kept no history (history=False)")
    history = result.history
    forces = [name[2:] for name in result.columns
              if name.startswith("P_") and "W_" + name[2:] in result.columns]
    ledger_columns = "dC_dt" in result.columns
    ledger_totals = not ledger_columns and result.work_ledger is not None
    rows = 2 + (2 if ledger_columns and forces else 1 if ledger_columns or ledger_totals else 0)
    figure = _figure(path, figsize or (10, 3 * rows + 1), dpi)
    t, C = history["t"], history["C"]
    axes, last_in_time = _drift_panels(figure, rows, t, C, C[0], result.dC_first_above_threshold,
                            result.dC_fastest_growth_at, result.threshold,
                            history["T"], history["V"], history["E"])
    if ledger_columns:
        power = figure.add_subplot(rows, 1, 3, sharex=axes)
        _line(power, t, history["dC_dt"], color=COLOURS[0], lw=1.5, label="dC/dt")
        for k, force in enumerate(forces, start=1):
            _line(power, t, history["P_" + force], color=COLOURS[k % len(COLOURS)], lw=1.5, label="P_" + force)
        power.set_title("power: residual dC/dt and each named force")
        power.set_ylabel("[W]")
        power.grid(True)
        power.legend(loc="best", fontsize="small")
        last_in_time = power
        if forces:
            work = figure.add_subplot(rows, 1, 4, sharex=axes)
            for k, force in enumerate(forces, start=1):
                _line(work, t, history["W_" + force], color=COLOURS[k % len(COLOURS)], lw=1.5,
                      label="W_" + force)
            work.set_title("work of each named force")
            work.set_ylabel("[J]")
            work.grid(True)
            work.legend(loc="best", fontsize="small")
            last_in_time = work
    elif ledger_totals:
        ledger = result.work_ledger
        names = [f"W_{force}" for force in ledger["forces"]] + ["residual"]
        values = list(ledger["forces"].values()) + [ledger["residual_work"]]
        totals = figure.add_subplot(rows, 1, 3)
        totals.barh(names, values, color=[COLOURS[(k + 1) % len(COLOURS)] for k in range(len(names))])
        totals.set_title("work of each named force over the run (ledger_columns=True draws them in time)")
        totals.set_xlabel("[J]")
        totals.grid(True, axis="x")
    last_in_time.set_xlabel("t [s]")
    _stack_panels(figure)
    return _finish(figure, path, title or run_title(result))


def plot_trajectory(audit, path=None, *, title=None, figsize=(10, 7), dpi=100):
    """Draws an audit of samples (audit_trajectory's TrajectoryAudit): C(t) - C(t0) with dashed
    lines at the times the drift first exceeds the threshold and grows fastest, and the running
    delta_C(t) against the threshold.

    path: the image file to write (PNG, SVG, PDF: by its extension); None: a pyplot figure.
    Returns the matplotlib Figure; its first axes hold the line C - C0."""
    history = audit.history
    figure = _figure(path, figsize, dpi)
    axes, drift_axes = _drift_panels(figure, 2, history["t"], history["C"], audit.C0,
                                     audit.dC_first_above_threshold, audit.dC_fastest_growth_at,
                                     audit.threshold, history["T"], history["V"], history["E"])
    drift_axes.set_xlabel("t [s]")
    _stack_panels(figure)
    return _finish(figure, path, title or f"audit_trajectory: delta_C = {audit.delta_C:.3e}, {audit.verdict}")


def plot_comparison(comparison, path=None, *, title=None, figsize=(10, 7), dpi=100):
    """Draws compare's work-precision diagram, as `compare --plot` does: delta_C against the
    right-hand-side evaluations, log-log, one line per method (its runs with a finite delta_C > 0),
    the threshold as a dashed line. Returns the matplotlib Figure."""
    rows = comparison["rows"]
    if not rows:
        raise ValueError("nothing to plot: compare made no run")
    figure = _figure(path, figsize, dpi)
    axes = figure.add_subplot(1, 1, 1)
    methods = list(dict.fromkeys(rows["method"]))
    evaluations = np.asarray(rows["rhs_evals"], dtype=float)
    drift = np.asarray(rows["delta_C"], dtype=float)
    drawn = 0
    for method in methods:
        shown = (rows["method"] == method) & np.isfinite(drift) & (drift > 0) & (evaluations > 0)
        if not np.any(shown):
            continue
        axes.plot(evaluations[shown], drift[shown], color=COLOURS[drawn % len(COLOURS)],
                  marker=MARKERS[drawn % len(MARKERS)], lw=1.5, label=method)
        drawn += 1
    if drawn == 0:
        raise ValueError("nothing to plot: no finished run with delta_C > 0")
    threshold = getattr(comparison, "threshold", None)
    axes.set_xscale("log")
    axes.set_yscale("log")
    if threshold is not None and math.isfinite(threshold) and threshold > 0:
        axes.axhline(threshold, color="black", ls="--", lw=1.5, label=f"threshold {threshold:.0e}")
        # Room above the threshold, which would otherwise lie on the frame's top edge.
        low, high = axes.get_ylim()
        axes.set_ylim(min(low, threshold / 3), max(high, threshold * 3))
    axes.set_xlabel("right-hand-side evaluations")
    axes.set_ylabel("delta_C")
    axes.grid(True, which="both")
    axes.legend(loc="lower left", fontsize="small", framealpha=0.9)  # inside the frame
    axes.set_title(title or comparison_title(comparison))
    figure.subplots_adjust(left=0.09, right=0.97, top=0.93, bottom=0.09)
    if path is not None:
        figure.savefig(path)
    return figure
