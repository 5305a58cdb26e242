#!/usr/bin/python3
"""Bench peer: the SciPy half of the oscillator's work-precision figure (tests/bench/wp_osc.c is
the ivplab half). The lecture's damped oscillator y' = A y (omega0 = 2 pi rad/s, sigma0 = 0.2 1/s,
y(0) = (1, 0)) to T = 5 s, error |y(T) - exact|_2 against wall time.

solve_ivp with every method it offers (RK45, DOP853, Radau, BDF, LSODA; the implicit ones get
the Jacobian A), rtol = 1e-3 .. 1e-12 with atol = rtol / 1000 (the lecture's rtol=1e-6, atol=1e-9), and,
for reference, the lecture's own fixed-step NumPy RK4 loop (`integrate(rk4, ...)`) at the step
counts wp_osc.c uses. Each point is repeated until it has taken --min-time seconds; the fastest
run is kept (the one least disturbed by the rest of the machine), as wp_osc.c does. Output (stdout): TSV, the same columns as wp_osc.c.
"""
import argparse
import time
import warnings

import numpy as np
from scipy.integrate import solve_ivp

w0, s0, T = 2 * np.pi, 0.2, 5.0
A = np.array([[0.0, 1.0], [-w0**2, -2 * s0]])
y0 = np.array([1.0, 0.0])


def exact(t):
    w1 = np.sqrt(w0**2 - s0**2)
    e = np.exp(-s0 * t)
    C, S = np.cos(w1 * t), np.sin(w1 * t) / w1
    return e * np.array([y0[0] * C + (y0[1] + s0 * y0[0]) * S, y0[1] * C - (w0**2 * y0[0] + s0 * y0[1]) * S])


def F(t, y):
    return A @ y


def rk4(F, t, y, h):  # the lecture's
    k1 = F(t, y)
    k2 = F(t + h / 2, y + h / 2 * k1)
    k3 = F(t + h / 2, y + h / 2 * k2)
    k4 = F(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def integrate(step, F, y0, h, n):  # the lecture's, keeping every sample as it does
    Y = np.zeros((n + 1, len(y0)))
    Y[0] = y0
    for k in range(n):
        Y[k + 1] = step(F, k * h, Y[k], h)
    return Y


def timed(run, min_time):
    ts, total = [], 0.0
    while len(ts) < 3 or (total < min_time and len(ts) < 64):
        t0 = time.perf_counter()
        out = run()
        dt = time.perf_counter() - t0
        ts.append(dt)
        total += dt
    return out, float(min(ts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-time", type=float, default=0.05)
    ap.add_argument("--rk4-max", type=int, default=40000, help="largest n of the lecture's RK4 loop")
    a = ap.parse_args()
    yT = exact(T)
    print("impl\tmethod\tlabel\tsetting\terror\tseconds\tnfev")
    warnings.simplefilter("ignore")  # rtol near round-off: solve_ivp warns and raises it to 100 eps
    for m in ["RK45", "DOP853", "Radau", "BDF", "LSODA"]:
        # LSODA takes jac only as a callable (scipy 1.10 tests an array's truth value)
        kw = {"jac": A} if m in ("Radau", "BDF") else {"jac": lambda t, y: A} if m == "LSODA" else {}
        for e in range(3, 13):
            rtol = 10.0**-e
            run = lambda: solve_ivp(F, (0, T), y0, method=m, rtol=rtol, atol=rtol * 1e-3, **kw)
            sol, s = timed(run, a.min_time)
            err = float(np.linalg.norm(sol.y[:, -1] - yT))
            print(f"scipy\t{m}\tsolve_ivp {m}\trtol=1e-{e}\t{err:.6e}\t{s:.6e}\t{sol.nfev}")
    last = -1
    for j in range(12):
        n = int(round(60 * (40000 / 60) ** (j / 11)))
        if n == last or n > a.rk4_max:
            continue
        last = n
        Y, s = timed(lambda: integrate(rk4, F, y0, T / n, n), a.min_time)
        err = float(np.linalg.norm(Y[-1] - yT))
        print(f"numpy\trk4-loop\tNumPy RK4 loop (lecture)\tn={n}\t{err:.6e}\t{s:.6e}\t{4 * n}")


if __name__ == "__main__":
    main()
