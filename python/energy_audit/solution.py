"""audit_solution: the audit of a SciPy ``solve_ivp`` result, over audit_trajectory (docs/python.md)."""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._energy_audit import TrajectoryAudit, audit_trajectory

_Vector = npt.NDArray[np.float64]

__all__ = ["audit_solution"]


def _layout(size, dofs):
    """The indices of q and of v in y, a vector of `size` entries: y = [q, v, ...] with n = dofs
    (default size // 2), or dofs = (q_indices, v_indices)."""
    if dofs is None:
        if size % 2:
            raise ValueError(f"dofs: y has {size} entries, not [q, v]; give dofs=n or dofs=(q_indices, v_indices)")
        dofs = size // 2
    if isinstance(dofs, (int, np.integer)) and not isinstance(dofs, bool):
        if not 1 <= dofs <= size // 2:
            raise ValueError(f"dofs: {dofs} coordinates and their velocities do not fit in y's {size} entries")
        return np.arange(dofs), np.arange(dofs, 2 * dofs)
    try:
        q_indices, v_indices = (np.asarray(indices) for indices in dofs)
    except (TypeError, ValueError):
        raise ValueError("dofs: give n (y = [q, v, ...]) or a pair (q_indices, v_indices)") from None
    if (q_indices.ndim != 1 or q_indices.shape != v_indices.shape or q_indices.size == 0
            or q_indices.dtype.kind not in "iu" or v_indices.dtype.kind not in "iu"):
        raise ValueError("dofs: q_indices and v_indices must be lists of integers of the same length")
    both = np.concatenate([q_indices, v_indices])
    if np.any(both < 0) or np.any(both >= size):
        raise ValueError(f"dofs: an index is outside y's {size} entries")
    if np.unique(both).size != both.size:
        raise ValueError("dofs: an entry of y is named twice")
    return q_indices, v_indices


def _samples(sol, dense):
    """The sample times and states: sol.t and sol.y, or `dense` points per step of sol.sol."""
    if dense is None:
        return np.asarray(sol.t, dtype=float), np.asarray(sol.y, dtype=float)
    if isinstance(dense, bool) or not isinstance(dense, (int, np.integer)) or dense < 1:
        raise ValueError(f"dense: {dense!r} is not a positive number of points per step")
    if getattr(sol, "sol", None) is None:
        raise ValueError(f"dense: {dense} points per step need sol.sol; solve with dense_output=True")
    steps = np.asarray(sol.sol.ts, dtype=float)
    fractions = np.arange(dense) / dense
    t = np.append((steps[:-1, None] + np.diff(steps)[:, None] * fractions).ravel(), steps[-1])
    return t, np.asarray(sol.sol(t), dtype=float)


def audit_solution(
    sol: Any,
    fun: Callable[..., npt.ArrayLike],
    T: Callable[[_Vector, _Vector, float], float],
    V: Callable[[_Vector, float], float],
    power: Callable[[_Vector, _Vector, float], float] | None = None,
    *,
    args: tuple[Any, ...] = (),
    dofs: int | tuple[Sequence[int], Sequence[int]] | None = None,
    dense: int | None = None,
    threshold: float = 1e-3,
    dT_dt: Callable[[_Vector, _Vector, float], float] | None = None,
    dV_dt: Callable[[_Vector, float], float] | None = None,
) -> TrajectoryAudit:
    """Audits a solution of scipy.integrate.solve_ivp of the equations of motion.

    sol: what solve_ivp returned, successful, t increasing.
    fun(t, y, *args): its right-hand side dy/dt; the accelerations are its entries at v.
    T(q, v, t), V(q, t), power(q, v, t), dT_dt, dV_dt, threshold: as audit_trajectory's.
    args: the extra arguments of fun, as solve_ivp's.
    dofs: the layout of y: None for y = [q, v] with n = len(y) // 2; n for y = [q, v, ...] (the
      entries after 2n are not audited); or (q_indices, v_indices). dy/dt must equal v at the q
      entries (ValueError otherwise).
    dense: None samples at sol.t (and sol.y); K samples K points per step of the dense output
      sol.sol (solve_ivp(..., dense_output=True)), evenly spaced from each step's start, and the
      last step's end.

    Returns what audit_trajectory returns, a TrajectoryAudit.
    """
    if not sol.success:
        message = " ".join(str(sol.message).split())
        raise ValueError(f"sol: the solution did not succeed (status {sol.status}: {message})")
    t, y = _samples(sol, dense)
    if y.ndim != 2 or y.shape[1] != t.size:
        raise ValueError(f"sol: y of shape {y.shape} does not hold one column for each of the {t.size} times")
    q_indices, v_indices = _layout(y.shape[0], dofs)
    states = np.ascontiguousarray(y.T)
    rates = np.empty_like(states)
    for i, (time, state) in enumerate(zip(t, states)):
        rate = np.asarray(fun(time, state.copy(), *args), dtype=float).ravel()
        if rate.shape != state.shape:
            raise ValueError(f"fun: returned {rate.size} rates for y of {state.size} entries at t = {time:g}")
        rates[i] = rate
    q, v, q_rates = states[:, q_indices], states[:, v_indices], rates[:, q_indices]
    mismatch = np.abs(q_rates - v) > 1e-12 * np.maximum(1.0, np.abs(v))
    if np.any(mismatch):
        sample, coordinate = np.argwhere(mismatch)[0]
        raise ValueError(f"dofs: fun's rate of y[{q_indices[coordinate]}] is {q_rates[sample, coordinate]:.6g}, "
                         f"not v = y[{v_indices[coordinate]}] = {v[sample, coordinate]:.6g} at t = {t[sample]:g}: "
                         "y's layout is not [q, v]")
    return audit_trajectory(t, q, v, rates[:, v_indices], T, V, power=power, dT_dt=dT_dt, dV_dt=dV_dt,
                            threshold=threshold)
