"""EnergyAudit: is this numerical solution of the equations of motion trustworthy?

Tracks C = H + Z, constant on exact solutions, and judges its relative drift delta_C.
The functions and result types are those of the compiled extension ``_energy_audit``
(docs/python.md), with audit_solution (a solve_ivp result), result.plot() (matplotlib, when
installed) and, when SymPy is installed, energy_audit.sympy (models written in SymPy),
imported on first use.
"""

from ._energy_audit import *  # noqa: F401,F403  the compiled functions and result types
from ._energy_audit import __version__  # noqa: F401
from . import plot as _plot
from .solution import audit_solution  # noqa: F401

# result.plot(): the figures of plot.py as methods of the compiled result types (matplotlib is
# imported when a figure is drawn, never by `import energy_audit`).
RunResult.plot = _plot.plot_run  # noqa: F405
TrajectoryAudit.plot = _plot.plot_trajectory  # noqa: F405


def __getattr__(name):
    """energy_audit.sympy on first use, so that importing energy_audit needs no SymPy."""
    if name == "sympy":
        import importlib
        return importlib.import_module(".sympy", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
