# Type stubs of the compiled extension energy_audit._energy_audit (energy_audit_module.cpp,
# study_bindings.cpp), whose names the package energy_audit re-exports. Every public name of the
# extension is here and nothing else (tests/python/test_package.py compares them).
from collections.abc import Callable, Iterable
from os import PathLike
from typing import Any, Never, overload

import numpy as np
import numpy.typing as npt

__version__: str

class UsageError(ValueError):
    """An argument the command line would refuse as a usage error; the message names it."""

class AuditError(RuntimeError):
    """A computation of the audit failed at run time; the message is the library's."""

class RunResult:
    """What run() returns: the run's numbers and its history."""
    @property
    def model(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def end(self) -> str: ...
    @property
    def finished(self) -> bool: ...
    @property
    def delta_C(self) -> float: ...
    @property
    def threshold(self) -> float: ...
    @property
    def equation_residual(self) -> float: ...
    @property
    def dC_first_above_threshold(self) -> float: ...
    @property
    def dC_fastest_growth_at(self) -> float: ...
    @property
    def equations(self) -> dict[str, dict[str, float]]: ...
    @property
    def work_ledger(self) -> dict[str, Any] | None: ...
    @property
    def step(self) -> float: ...
    @property
    def rtol(self) -> float: ...
    @property
    def integrated_equations(self) -> str: ...
    @property
    def table(self) -> str: ...
    @property
    def t_reached(self) -> float: ...
    @property
    def wall_seconds(self) -> float: ...
    @property
    def steps(self) -> int: ...
    @property
    def rhs_evaluations(self) -> int: ...
    @property
    def columns(self) -> list[str]: ...
    @property
    def history_array(self) -> npt.NDArray[np.float64]: ...
    @property
    def history(self) -> dict[str, npt.NDArray[np.float64]]: ...
    def plot(
        self,
        path: str | PathLike[str] | None = None,
        *,
        title: str | None = None,
        figsize: tuple[float, float] | None = None,
        dpi: float = 100,
    ) -> Any:
        """Draws the audit with matplotlib (energy_audit.plot); returns the Figure."""

class TrajectoryAudit:
    """What audit_trajectory() returns."""
    @property
    def delta_C(self) -> float: ...
    @property
    def verdict(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def max_abs_dC(self) -> float: ...
    @property
    def t_max_abs_dC(self) -> float: ...
    @property
    def energy_scale(self) -> float: ...
    @property
    def C0(self) -> float: ...
    @property
    def threshold(self) -> float: ...
    @property
    def dC_first_above_threshold(self) -> float: ...
    @property
    def dC_fastest_growth_at(self) -> float: ...
    @property
    def history(self) -> dict[str, npt.NDArray[np.float64]]: ...
    def plot(
        self,
        path: str | PathLike[str] | None = None,
        *,
        title: str | None = None,
        figsize: tuple[float, float] | None = None,
        dpi: float = 100,
    ) -> Any:
        """Draws the audit with matplotlib (energy_audit.plot); returns the Figure."""

def models() -> list[str]: ...
def methods() -> list[str]: ...
def run(
    model: str,
    method: str = "rk4",
    step: float | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    max_steps: int | None = None,
    z_as: str | None = None,
    iteration: str | None = None,
    initial_step: float | None = None,
    max_step: float | None = None,
    t_end: float | None = None,
    set: dict[str, float] = {},
    init: dict[str, float] = {},
    form: str | None = None,
    independent: list[str] = [],
    threshold: float = 1e-3,
    drift_threshold: float | None = None,
    stabilize: str = "none",
    baumgarte: tuple[float, float] | None = None,
    phase: str | None = None,
    equation_check_every: int | None = None,
    equation_threshold: float | None = None,
    every: int | None = None,
    history: bool = True,
    progress: bool = False,
    equation_columns: bool = False,
    ledger_columns: bool = False,
    table: str | None = None,
    relax: bool = False,
    **kwargs: Never,  # no other keyword: one raises TypeError naming it
) -> RunResult: ...
def audit_trajectory(
    t: npt.ArrayLike,
    q: npt.ArrayLike,
    v: npt.ArrayLike,
    a: npt.ArrayLike,
    T: Callable[[npt.NDArray[np.float64], npt.NDArray[np.float64], float], float],
    V: Callable[[npt.NDArray[np.float64], float], float],
    power: Callable[[npt.NDArray[np.float64], npt.NDArray[np.float64], float], float] | None = None,
    dT_dt: Callable[[npt.NDArray[np.float64], npt.NDArray[np.float64], float], float] | None = None,
    dV_dt: Callable[[npt.NDArray[np.float64], float], float] | None = None,
    threshold: float = 1e-3,
) -> TrajectoryAudit: ...
def compare(
    model: str,
    *,
    methods: list[str] | None = None,
    steps: list[float] | None = None,
    rtols: list[float] | None = None,
    set: dict[str, float] = {},
    init: dict[str, float] = {},
    threads: int | None = None,
    progress: bool = False,
    **options: Any,
) -> dict[str, Any]: ...
def sweep(
    model: str,
    *,
    methods: list[str] | None = None,
    steps: list[float] | None = None,
    rtols: list[float] | None = None,
    set: dict[str, float | list[float]] = {},
    init: dict[str, float | list[float]] = {},
    threads: int | None = None,
    progress: bool = False,
    **options: Any,
) -> dict[str, Any]: ...
def advise(
    model: str,
    *,
    target: float = 1e-6,
    drift_target: float | None = None,
    methods: list[str] | None = None,
    set: dict[str, float] = {},
    init: dict[str, float] = {},
    threads: int | None = None,
    progress: bool = False,
    **options: Any,
) -> dict[str, Any]: ...
@overload
def diagnose(
    model: str,
    *,
    method: str = "rk4",
    step: float | None = None,
    rtol: float | None = None,
    levels: int = 5,
    set: dict[str, float] = {},
    init: dict[str, float] = {},
    threads: int | None = None,
    progress: bool = False,
    **options: Any,
) -> dict[str, Any]: ...
@overload
def diagnose(
    audits: list[TrajectoryAudit],
    *,
    steps: list[float] | None = None,
    rtols: list[float] | None = None,
    order: float | None = None,
    threshold: float | None = None,
) -> dict[str, Any]: ...
def classify_drift(
    pairs: Iterable[tuple[float, float] | tuple[float, float, bool]],
    *,
    order: float | None = None,
    adaptive: bool = False,
    threshold: float = 1e-3,
) -> dict[str, Any]: ...
def stability(
    model: str,
    *,
    methods: list[str] = ["euler", "rk2", "rk3", "rk4"],
    steps: list[float] = [0.002, 0.005, 0.01],
    k: str = "-1500:0.5:3",
    set: dict[str, float] = {},
    t_end: float | None = None,
    threads: int | None = None,
    no_boundaries: bool = False,
    progress: bool = False,
) -> dict[str, Any]: ...
