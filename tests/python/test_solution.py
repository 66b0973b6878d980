"""audit_solution audits a solve_ivp result exactly as the audit_trajectory call written by hand
with the same samples (to the last bit), at sol.t or on the dense output, with y's layout given
once; a wrong-sign twin fails; what it cannot audit is a one-line ValueError."""
import unittest

import numpy as np

import energy_audit as ea

try:
    from scipy.integrate import solve_ivp
except ImportError:
    solve_ivp = None

STIFFNESS, DAMPING = 4.0, 0.3  # x'' = -k x - c x', unit mass


def oscillator(t, y, sign=-1.0):
    """The damped oscillator's dy/dt at y = [x, x']; sign=+1 slips the spring's sign."""
    return [y[1], sign * STIFFNESS * y[0] - DAMPING * y[1]]


ENERGIES = dict(T=lambda q, v, t: 0.5 * v[0] ** 2, V=lambda q, t: 0.5 * STIFFNESS * q[0] ** 2,
                power=lambda q, v, t: -DAMPING * v[0] ** 2)


def by_hand(t, y, sign=-1.0):
    """The audit_trajectory call written by hand on samples (t, y)."""
    a = np.array([oscillator(ti, yi, sign)[1] for ti, yi in zip(t, y.T)])
    return ea.audit_trajectory(t, y[0], y[1], a, **ENERGIES)


def same(first, second):
    return [(first.delta_C, first.verdict, first.max_abs_dC, first.t_max_abs_dC, first.energy_scale, first.C0)
            == (second.delta_C, second.verdict, second.max_abs_dC, second.t_max_abs_dC, second.energy_scale,
                second.C0), (first, second)]


@unittest.skipIf(solve_ivp is None, "scipy is not installed")
class AuditSolutionTest(unittest.TestCase):
    def solve(self, sign=-1.0, **options):
        return solve_ivp(oscillator, (0.0, 8.0), [1.0, 0.0], args=(sign,), rtol=1e-10, atol=1e-12, **options)

    def test_samples_at_sol_t_equal_audit_trajectory_by_hand_to_the_last_bit(self):
        for options in (dict(), dict(t_eval=np.linspace(0.0, 8.0, 801))):
            with self.subTest(**{key: len(value) for key, value in options.items()}):
                sol = self.solve(**options)
                audit = ea.audit_solution(sol, oscillator, **ENERGIES)
                self.assertTrue(*same(audit, by_hand(sol.t, sol.y)))
                self.assertEqual(audit.verdict, "pass")
                self.assertLess(audit.delta_C, 1e-6)

    def test_dense_samples_are_k_points_per_step_of_the_dense_output(self):
        sol = self.solve(dense_output=True)
        steps = sol.sol.ts
        t = np.append(np.concatenate([np.linspace(a, b, 4, endpoint=False) for a, b in zip(steps[:-1], steps[1:])]),
                      steps[-1])
        expected = by_hand(t, sol.sol(t))
        audit = ea.audit_solution(sol, oscillator, dense=4, **ENERGIES)
        self.assertEqual(audit.delta_C, expected.delta_C)
        self.assertEqual(audit.C0, expected.C0)
        self.assertEqual(audit.verdict, "pass")

    def test_the_wrong_sign_twin_fails(self):
        right = ea.audit_solution(self.solve(), oscillator, **ENERGIES)
        sol = self.solve(sign=+1.0)
        wrong = ea.audit_solution(sol, oscillator, args=(+1.0,), **ENERGIES)
        self.assertTrue(*same(wrong, by_hand(sol.t, sol.y, +1.0)))
        self.assertEqual(wrong.verdict, "fail")
        self.assertGreater(wrong.delta_C, 1e6 * right.delta_C)

    def test_a_layout_names_q_and_v_in_y(self):
        def swapped(t, y):  # y = [x', x, Z]: the velocity first, then an extra quadrature
            return [oscillator(t, y[1::-1])[1], y[0], DAMPING * y[0] ** 2]

        sol = solve_ivp(swapped, (0.0, 8.0), [0.0, 1.0, 0.0], rtol=1e-10, atol=1e-12)
        audit = ea.audit_solution(sol, swapped, dofs=([1], [0]), **ENERGIES)
        self.assertTrue(*same(audit, by_hand(sol.t, sol.y[1::-1])))
        leading = ea.audit_solution(solve_ivp(lambda t, y: [*oscillator(t, y[:2]), 1.0], (0.0, 8.0), [1.0, 0.0, 0.0],
                                              rtol=1e-10, atol=1e-12),
                                    lambda t, y: [*oscillator(t, y[:2]), 1.0], dofs=1, **ENERGIES)
        self.assertEqual(leading.verdict, "pass")

    def test_what_cannot_be_audited_is_a_one_line_value_error(self):
        sol = self.solve()
        cases = [
            (dict(dofs=([0], [0])), "^dofs: an entry of y is named twice$"),
            (dict(dofs=([0], [2])), "^dofs: an index is outside y's 2 entries$"),
            (dict(dofs=2), "^dofs: 2 coordinates and their velocities do not fit in y's 2 entries$"),
            (dict(dofs=([1], [0])), r"^dofs: fun's rate of y\[1\] is -4, not v = y\[0\] = 1 at t = 0: "),
            (dict(dense=4), "^dense: 4 points per step need sol.sol; solve with dense_output=True$"),
            (dict(dense=0), "^dense: 0 is not a positive number of points per step$"),
        ]
        for options, message in cases:
            with self.subTest(**options):
                with self.assertRaisesRegex(ValueError, message):
                    ea.audit_solution(sol, oscillator, **options, **ENERGIES)
        odd = solve_ivp(lambda t, y: [y[1], -y[0], 0.0], (0.0, 1.0), [1.0, 0.0, 0.0])
        with self.assertRaisesRegex(ValueError, r"^dofs: y has 3 entries, not \[q, v\]"):
            ea.audit_solution(odd, lambda t, y: [y[1], -y[0], 0.0], **ENERGIES)
        failed = self.solve()  # as solve_ivp reports a step size that fell below the spacing of floats
        failed.success, failed.status, failed.message = False, -1, "Required step size is less than\nspacing."
        with self.assertRaisesRegex(ValueError, r"^sol: the solution did not succeed \(status -1: Required step "
                                                r"size is less than spacing\.\)$"):
            ea.audit_solution(failed, oscillator, **ENERGIES)
        with self.assertRaisesRegex(ValueError, "^fun: returned 1 rates for y of 2 entries at t = 0$"):
            ea.audit_solution(sol, lambda t, y: [y[1]], **ENERGIES)


if __name__ == "__main__":
    unittest.main()
