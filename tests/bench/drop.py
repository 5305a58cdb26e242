#!/usr/bin/python3
"""Bench peer, row 2: the ball dropped on a damped oscillator (the lecture's F_drop) by
scipy.integrate.solve_ivp, the peer of `bin/drop` (CVODE BDF with root functions).

Exactly the lecture's call, solve_ivp(F_drop, (0, 2), y0, rtol=1e-8, atol=1e-12, max_step=1e-3),
with the method named (RK45, the lecture's default, or LSODA, which switches to BDF when the
contact makes the problem stiff; LSODA gets the lecture's analytic jac_drop). The impacts are
found the way solve_ivp documents: event functions on the contact gap delta = u1 - u2 (rising:
contact begins; falling: it ends) and on the loss factor 1 + lambda delta' (the force switches off
while the surfaces still overlap), the same two functions ivplab gives CVODE as roots.

The parameters are the lecture's (lessons/params/ball.ini holds the same values with units).
Usage: drop.py --method RK45|LSODA [--rtol 1e-8 --atol 1e-12 --max-step 1e-3 --T 2]
Prints one JSON line: {"solve_s": ..., "nfev": ..., "steps": ..., "starts": [impact start times]}.
"""
import argparse
import json
import time

import numpy as np
from scipy.integrate import solve_ivp

m1, m2, h0 = 0.1, 0.01, 0.15            # kg, kg, m
f0, T60 = 400.0, 1.5                    # Hz, s
kc, lam, g = 1e8, 0.1, 9.81             # N/m^1.5, s/m, m/s^2
w0 = 2 * np.pi * f0
s0 = 6 * np.log(10) / T60
K, R = m1 * w0**2, 2 * m1 * s0


def contact(y):
    d, dd = y[0] - y[2], y[1] - y[3]
    if d > 0 and 1 + lam * dd > 0:
        return kc * d * np.sqrt(d) * (1 + lam * dd)
    return 0.0


def F_drop(t, y):
    fc = contact(y)
    return np.array([y[1], (-K * y[0] - R * y[1] - fc) / m1, y[3], -g + fc / m2])


def jac_drop(t, y):
    d, dd = y[0] - y[2], y[1] - y[3]
    fd = fdd = 0.0
    if d > 0 and 1 + lam * dd > 0:
        fd, fdd = 1.5 * kc * np.sqrt(d) * (1 + lam * dd), lam * kc * d**1.5
    return np.array([[0, 1, 0, 0], [(-K - fd) / m1, (-R - fdd) / m1, fd / m1, fdd / m1],
                     [0, 0, 0, 1], [fd / m2, fdd / m2, -fd / m2, -fdd / m2]])


def gap(t, y):
    return y[0] - y[2]


def loss(t, y):
    return 1 + lam * (y[1] - y[3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--method", default="RK45", choices=["RK45", "LSODA", "DOP853", "BDF", "Radau"])
    ap.add_argument("--rtol", type=float, default=1e-8)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--max-step", type=float, default=1e-3)
    ap.add_argument("--T", type=float, default=2.0)
    a = ap.parse_args()
    y0 = np.array([0.0, 0.0, h0, 0.0])
    kw = {"jac": jac_drop} if a.method in ("LSODA", "BDF", "Radau") else {}
    t0 = time.perf_counter()
    sol = solve_ivp(F_drop, (0, a.T), y0, method=a.method, rtol=a.rtol, atol=a.atol, max_step=a.max_step,
                    events=[gap, loss], **kw)
    solve_s = time.perf_counter() - t0
    if not sol.success:
        raise SystemExit(f"drop.py: {a.method} failed: {sol.message}")
    # an impact starts where the gap closes (delta rises through 0)
    tg, yg = sol.t_events[0], sol.y_events[0]
    starts = [float(t) for t, y in zip(tg, yg) if y[1] - y[3] > 0]
    print(json.dumps({"solve_s": solve_s, "nfev": int(sol.nfev), "njev": int(sol.njev),
                      "steps": int(len(sol.t) - 1), "impacts": len(starts), "starts": starts}))


if __name__ == "__main__":
    main()
