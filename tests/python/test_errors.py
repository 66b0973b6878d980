"""Errors reach Python as exceptions, never as a crash: a bad argument is a ValueError (a wrong
type a TypeError) with the library's one-line message, a computation that fails at run time an
energy_audit.AuditError (a RuntimeError), and an exception raised by the user's function
reaches the caller as itself."""
import math
import unittest

import numpy as np

import energy_audit as ea

MASS, STIFFNESS = 2.0, 8.0
OMEGA = math.sqrt(STIFFNESS / MASS)


def samples(count=41):
    """The exact samples of the undamped oscillator x = cos(omega t) on [0, 2]."""
    t = np.linspace(0.0, 2.0, count)
    return t, np.cos(OMEGA * t), -OMEGA * np.sin(OMEGA * t), -OMEGA ** 2 * np.cos(OMEGA * t)


def kinetic(q, v, t):
    return 0.5 * MASS * float(v @ v)


def potential(q, t):
    return 0.5 * STIFFNESS * float(q @ q)


class EnergyFunctionFailed(Exception):
    pass


class TrajectoryArgumentsTest(unittest.TestCase):
    def audit(self, *arrays, T=kinetic, V=potential, **options):
        return ea.audit_trajectory(*arrays, T, V, **options)

    def assert_one_line(self, exception):
        self.assertNotIn("\n", str(exception))

    def test_exact_samples_pass_as_arrays_lists_and_integers(self):
        t, q, v, a = samples()
        self.assertTrue(self.audit(t, q, v, a).passed)
        self.assertTrue(self.audit(list(t), list(q), list(v), list(a)).passed)
        self.assertTrue(self.audit(t, q.astype(object), v, a).passed)  # an object array of floats
        # Integer samples are converted: x = 0 at rest, every sample an int.
        zeros = np.zeros(5, dtype=np.int64)
        self.assertEqual(self.audit(np.arange(5), zeros, zeros, zeros).max_abs_dC, 0.0)

    def test_samples_that_are_not_real_numbers_are_type_errors_naming_the_array(self):
        t, q, v, a = samples()
        cases = [
            ((t, q + 1j, v, a), r"^q must hold real numbers, not complex128"),
            ((t, q, v.astype(np.complex64), a), r"^v must hold real numbers, not complex64"),
            ((t, q, v, a > 0), r"^a must hold real numbers, not bool"),
            ((t.astype(str), q, v, a), r"^t must hold real numbers, not <U"),
            ((t, np.array([object()] * len(t)), v, a), r"^q holds objects that are not real numbers"),
            ((t, q, [complex(x) for x in v], a), r"^v must hold real numbers, not complex128"),
            ((t, q, v, "a"), r"^a must hold real numbers, not <U1"),
        ]
        for arrays, message in cases:
            with self.subTest(message=message), self.assertRaisesRegex(TypeError, message) as raised:
                self.audit(*arrays)
            self.assert_one_line(raised.exception)

    def test_shapes_that_do_not_match_are_value_errors(self):
        t, q, v, a = samples()
        cases = [
            ((t.reshape(-1, 1), q, v, a), r"^t must be one-dimensional$"),
            ((t, q[:-1], v, a), r"^q has 40 samples, t has 41$"),
            ((t, q.reshape(-1, 1, 1), v, a), r"^q has shape \(41, 1, 1\); it must be \(N,\) or \(N, n\) with N = len\(t\) = 41"),
            ((t, np.column_stack([q, q]), v, a),
             r"^q, v and a must have one shape, \(N,\) or \(N, n\); they are \(41, 2\), \(41,\) and \(41,\)$"),
            ((t, q.reshape(1, -1), v, a), r"^q has shape \(1, 41\); it must be \(N,\) or \(N, n\)"),  # transposed
            ((t[:1], q[:1], v[:1], a[:1]), r"^audit_trajectory: 1 samples; it needs at least 2$"),
            ((t, [[1.0], [1.0, 2.0]] * 20 + [[1.0]], v, a), r"^q is not an array of samples: "),  # ragged
        ]
        for arrays, message in cases:
            with self.subTest(message=message), self.assertRaisesRegex(ValueError, message) as raised:
                self.audit(*arrays)
            self.assert_one_line(raised.exception)

    def test_times_that_are_not_finite_or_do_not_increase_are_value_errors(self):
        t, q, v, a = samples()
        for name, times, index in [("reversed", t[::-1].copy(), 1), ("repeated", np.where(t > 1, 1.0, t), 21),
                                   ("nan", np.where(t > 1, math.nan, t), 21)]:
            with self.subTest(times=name), self.assertRaisesRegex(
                    ValueError, rf"^audit_trajectory: the times must be finite and increase; t\[{index}\] = "):
                self.audit(times, q, v, a)

    def test_nan_samples_and_thresholds_are_value_errors(self):
        t, q, v, a = samples()
        with self.assertRaisesRegex(ValueError,
                                    r"^audit_trajectory: a is nan at sample 0, coordinate 0; the samples must be finite$"):
            self.audit(t, q, v, np.full_like(a, math.nan))
        for threshold in (math.nan, -1.0):
            with self.subTest(threshold=threshold), self.assertRaisesRegex(ValueError, "threshold must be finite"):
                self.audit(t, q, v, a, threshold=threshold)

    def test_an_exception_of_the_users_function_reaches_the_caller_as_itself(self):
        t, q, v, a = samples()
        failure = EnergyFunctionFailed("the energy function failed")

        def failing(*arguments):
            raise failure

        for role in ("T", "V", "power", "dT_dt", "dV_dt"):
            options = {role: failing}
            if role == "dT_dt":
                options["T"] = lambda q, v, t: kinetic(q, v, t) * (1 + t)  # T depends on t: its rate is called
            if role == "dV_dt":
                options["V"] = lambda q, t: potential(q, t) * (1 + t)
            with self.subTest(role=role), self.assertRaises(EnergyFunctionFailed) as raised:
                self.audit(t, q, v, a, **options)
            self.assertIs(raised.exception, failure)
        with self.assertRaises(ZeroDivisionError):
            self.audit(t, q, v, a, V=lambda q, t: 1 / 0)

    def test_a_function_that_returns_no_number_or_nan_is_named(self):
        t, q, v, a = samples()
        with self.assertRaisesRegex(TypeError, r"^T\(q, v, t\) returned str, not a number \(at t = 0\)$"):
            self.audit(t, q, v, a, T=lambda q, v, t: "energy")
        with self.assertRaisesRegex(TypeError, r"^V\(q, t\) returned ndarray, not a number \(at t = 0\)$"):
            self.audit(t, q, v, a, V=lambda q, t: np.array([1.0, 2.0]))
        with self.assertRaisesRegex(TypeError, r"^power\(q, v, t\) returned NoneType, not a number"):
            self.audit(t, q, v, a, power=lambda q, v, t: None)
        with self.assertRaisesRegex(ValueError, r"^V\(q, t\) is nan at t = [0-9.e+-]+$"):
            self.audit(t, q, v, a, V=lambda q, t: math.nan if t > 0 else potential(q, t))
        with self.assertRaisesRegex(TypeError, r"takes 1 positional argument but 3 were given"):
            self.audit(t, q, v, a, T=lambda q: 0.0)  # called as T(q, v, t)

    def test_shapes_are_named_in_the_n_by_n_layout_they_were_given_in(self):
        t, q, v, a = samples()
        two = np.column_stack([q, q])
        cases = [
            ((t, two.T, v, a), r"^q has shape \(2, 41\); it must be \(N,\) or \(N, n\) with N = len\(t\) = 41 "
                               r"and n >= 1$"),
            ((t, two, v, a), r"^q, v and a must have one shape, \(N,\) or \(N, n\); they are \(41, 2\), \(41,\) "
                             r"and \(41,\)$"),
            ((t, q, v, np.zeros((41, 0))), r"^a has shape \(41, 0\); it must be"),
        ]
        for arrays, message in cases:
            with self.subTest(message=message), self.assertRaisesRegex(ValueError, message):
                self.audit(*arrays)

    def test_arguments_of_the_wrong_type_are_type_errors(self):
        t, q, v, a = samples()
        with self.assertRaisesRegex(TypeError, "incompatible function arguments"):
            self.audit(t, q, v, a, T=3.0)
        with self.assertRaisesRegex(TypeError, "incompatible function arguments"):
            self.audit(t, q, v, a, threshold="small")


class RunErrorsTest(unittest.TestCase):
    def test_bad_values_are_value_errors_with_the_librarys_message(self):
        cases = [
            (dict(step=math.nan), "step: nan must be > 0"),
            (dict(step=-1e-3), "step: -0.001 must be > 0"),
            (dict(t_end=math.nan), "t_end: nan must be finite and > t0 = 0"),
            (dict(threshold=math.nan), "threshold: nan must be finite and >= 0"),
            (dict(method="cvode-bdf", rtol=0.0), "rtol: 0 must be finite and > 0"),
            (dict(set={"m1": math.nan}), "set: m1 = nan is not finite"),
            (dict(init={"no_such_state": 1.0}), None),
        ]
        for arguments, message in cases:
            with self.subTest(arguments=arguments), self.assertRaises(ValueError) as raised:
                ea.run("crane", **arguments)
            if message is not None:
                self.assertEqual(str(raised.exception), message)
            self.assertNotIn("\n", str(raised.exception))
            self.assertIsInstance(raised.exception, ea.UsageError)

    def test_wrong_types_are_type_errors(self):
        for arguments in (dict(step="1e-3"), dict(step=1e-3j), dict(set={"m1": "heavy"}), dict(baumgarte=(1.0,))):
            with self.subTest(arguments=arguments), self.assertRaisesRegex(TypeError, "^run\\(\\): incompatible"):
                ea.run("crane", **arguments)
        with self.assertRaises(TypeError):
            ea.run(3)

    def test_a_misspelled_keyword_is_a_one_line_type_error_naming_it(self):
        with self.assertRaises(TypeError) as raised:
            ea.run("crane", stpe=1e-3)
        self.assertEqual(str(raised.exception), "run() got an unexpected keyword argument 'stpe'; did you mean 'step'?")
        with self.assertRaises(TypeError) as raised:
            ea.run("crane", colour="red")
        self.assertEqual(str(raised.exception), "run() got an unexpected keyword argument 'colour'")

    def test_a_count_out_of_range_is_a_value_error_naming_it(self):
        for arguments, message in ((dict(every=-1, history=True), "every: -1 must be >= 1"),
                                   (dict(every=0), "every: 0 must be >= 1"),
                                   (dict(equation_check_every=-2), "equation_check_every: -2 must be >= 0")):
            with self.subTest(arguments=arguments), self.assertRaises(ValueError) as raised:
                ea.run("crane", **arguments)
            self.assertEqual(str(raised.exception), message)

    def test_a_failure_before_the_run_is_an_audit_error(self):
        # crane3d starts at its static equilibrium, which soft pads leave without a stable rest.
        with self.assertRaises(ea.AuditError) as raised:
            ea.run("crane3d", set={"kv": 1e-12}, t_end=0.01)
        self.assertIsInstance(raised.exception, RuntimeError)
        self.assertEqual(str(raised.exception),
                         "crane3d: the Hessian of V is not positive definite on the way to the equilibrium")

    def test_a_failure_during_the_run_is_reported_in_its_result(self):
        result = ea.run("crane", method="cvode-bdf", max_steps=1)
        self.assertEqual(result.verdict, "error")
        self.assertFalse(result.finished)
        self.assertRegex(result.end, r"^error: CVode failed with CV_TOO_MUCH_WORK at t = ")

    def test_audit_error_is_exported(self):
        self.assertTrue(issubclass(ea.AuditError, RuntimeError))
        self.assertFalse(issubclass(ea.AuditError, ValueError))
        self.assertTrue(issubclass(ea.UsageError, ValueError))


if __name__ == "__main__":
    unittest.main()
