"""A double pendulum written with sympy.physics.mechanics, as an engineer derives it: two point
masses m1, m2 on massless rods l1, l2, the angles theta1, theta2 measured from the downward
vertical, a viscous torque -c theta_i' on each angle. test_sympy.py audits its simulations; run as
a script, it writes the C++ header that tests/lib/sympy_model_test.cpp runs with the library:

    python3 sympy_double_pendulum.py HEADER
"""
import sys

import sympy as sp
from sympy.physics import mechanics as me

PARAMETERS = {"m1": (1.0, "mass of the upper bob [kg]"), "m2": (0.5, "mass of the lower bob [kg]"),
              "l1": (1.0, "upper rod [m]"), "l2": (0.7, "lower rod [m]"), "g": (9.81, "gravity [m/s^2]"),
              "c": (0.05, "viscous torque on each angle [N m s]")}
INITIAL = {"theta1": 0.6, "theta2": -0.4}


def double_pendulum():
    """T, V, the generalized forces, the coordinates q(t) and the parameter symbols."""
    theta1, theta2 = me.dynamicsymbols("theta1 theta2")
    m1, m2, l1, l2, g, c = sp.symbols("m1 m2 l1 l2 g c", positive=True)
    frame = me.ReferenceFrame("N")
    pivot = me.Point("O")
    pivot.set_vel(frame, 0)
    upper = pivot.locatenew("P1", l1 * (sp.sin(theta1) * frame.x - sp.cos(theta1) * frame.y))
    lower = upper.locatenew("P2", l2 * (sp.sin(theta2) * frame.x - sp.cos(theta2) * frame.y))
    bobs = [me.Particle("B1", upper, m1), me.Particle("B2", lower, m2)]
    for bob in bobs:
        bob.point.set_vel(frame, bob.point.pos_from(pivot).dt(frame))
        bob.potential_energy = bob.mass * g * bob.point.pos_from(pivot).dot(frame.y)
    T = sum(bob.kinetic_energy(frame) for bob in bobs)
    V = sum(bob.potential_energy for bob in bobs)
    forces = [-c * theta1.diff(), -c * theta2.diff()]
    return T, V, forces, [theta1, theta2], {"m1": m1, "m2": m2, "l1": l1, "l2": l2, "g": g, "c": c}


if __name__ == "__main__":
    from energy_audit.sympy import write_cpp_model
    T, V, forces, q, symbols = double_pendulum()
    write_cpp_model(sys.argv[1], "SympyDoublePendulum", T, V, forces, q,
                    parameters={symbols[name]: value for name, value in PARAMETERS.items()},
                    initial=INITIAL, interval=(0.0, 10.0), namespace="energy_audit::testing")
