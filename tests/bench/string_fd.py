#!/usr/bin/python3
"""Bench peer, row 3 and the string's work-precision figure: string-pluck-v1 by finite
differences in space (method of lines, N intervals, 3- or 5-point stencil for u_xx with the
odd extension at the fixed ends) and scipy.integrate's solvers in time (the peer of
`bin/pluck --solve --space fd5 --method cvode`).

As a competent SciPy user writes it: the semi-discrete system is linear, y' = A y with
y = (u_1..u_{N-1}, v_1..v_{N-1}), so A is built once as a sparse matrix, F is one sparse
product and the Jacobian is A itself (`jac=A`, sparse: BDF and Radau factor it with SuperLU).
LSODA takes no sparse matrix, so it gets the banded layout (interleaved y, lband = uband = the
stencil's reach) which solve_ivp documents for it; the explicit pairs (RK23, RK45, DOP853) need
no Jacobian. The pickup velocity is needed at 96000 samples but the state has 2(N-1) unknowns,
so rather than t_eval (which would keep every state) the solver object is stepped and each
step's dense output is evaluated only at the pickup row. --samples computes a shorter run (the
first samples only), for screening the methods.

Usage: string_fd.py --N 390 --stencil 5 --method DOP853 --rtol 1e-6 --atol 1e-12 [--samples K] --wav OUT.wav
Prints one JSON line: {"solve_s": ..., "nfev": ..., "njev": ..., "nlu": ..., "steps": ...}.
"""
import argparse
import json
import time

import numpy as np
import scipy.sparse as sp
from scipy.integrate import BDF, DOP853, LSODA, RK23, RK45, Radau
from scipy.io import wavfile

import stringmodel

SOLVERS = {"BDF": BDF, "Radau": Radau, "LSODA": LSODA, "RK23": RK23, "RK45": RK45, "DOP853": DOP853}
EXPLICIT = ("RK23", "RK45", "DOP853")


def second_difference(N, dx, stencil):
    """D2 on the interior points 1..N-1 (u_0 = u_N = 0, ghosts u_{-i} = -u_i, u_{N+i} = -u_{N-i})."""
    w = {3: [1.0, -2.0, 1.0], 5: [-1 / 12, 16 / 12, -30 / 12, 16 / 12, -1 / 12]}[stencil]
    r = len(w) // 2
    rows, cols, vals = [], [], []
    i = np.arange(1, N)
    for off, wt in zip(range(-r, r + 1), w):
        j = i + off
        sign = np.ones_like(j, dtype=float)
        sign[j < 0] = -1.0
        j = np.where(j < 0, -j, j)
        sign[j > N] = -1.0
        j = np.where(j > N, 2 * N - j, j)
        keep = (j > 0) & (j < N)
        rows.append(i[keep] - 1)
        cols.append(j[keep] - 1)
        vals.append(wt * sign[keep])
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(N - 1, N - 1)) / dx**2


def system(p, N, stencil, interleave=False):
    """A (sparse, csc), y0, the index of the pickup velocity in y, and the band half-width."""
    dx = p["L"] / N
    q = p["xm"] / dx
    if abs(q - round(q)) > 1e-9:
        raise SystemExit(f"string_fd: xm = {p['xm']} m is not a grid point of N = {N}; choose N a multiple of 65")
    D = second_difference(N, dx, stencil)
    n = N - 1
    I = sp.identity(n, format="csr")
    A = sp.bmat([[None, I], [p["c"] ** 2 * D, -2 * p["sigma0"] * I + p["kappa"] * D]], format="csr")
    y0 = np.concatenate([stringmodel.u0(p, dx * np.arange(1, N)), np.zeros(n)])
    pick = n + int(round(q)) - 1
    band = None
    if interleave:  # y = (u_1, v_1, u_2, v_2, ...): the Jacobian is banded
        perm = np.empty(2 * n, dtype=int)
        perm[0::2], perm[1::2] = np.arange(n), n + np.arange(n)
        A = A[perm][:, perm]
        y0 = y0[perm]
        pick = 2 * (int(round(q)) - 1) + 1
        band = 2 * (stencil // 2) + 1
    return A.tocsc(), y0, pick, band


def solve(p, N, stencil, method, rtol, atol, samples=None):
    banded = method == "LSODA"
    A, y0, pick, band = system(p, N, stencil, interleave=banded)
    fs, n = p["fs"], samples or p["n"]
    T = (n - 1) / fs
    out = np.zeros(n)
    if banded:
        Ac = A.tocoo()  # LSODA's banded Jacobian, packed: J_packed[uband + i - j, j] = J[i, j]
        Jp = np.zeros((3 * band + 1, A.shape[0]))  # lband + 2 uband + 1 rows (LU fill below)
        Jp[band + Ac.row - Ac.col, Ac.col] = Ac.data
        kw = dict(jac=lambda t, y: Jp, lband=band, uband=band)
        F = lambda t, y: A @ y
    else:
        kw = {} if method in EXPLICIT else dict(jac=A)
        Ar = A.tocsr()  # row-major: the faster product
        F = lambda t, y: Ar @ y
    t0 = time.perf_counter()
    solver = SOLVERS[method](F, 0.0, y0, T, rtol=rtol, atol=atol, **kw)
    k = 1  # sample 0 is s(0) = 0 (released from rest)
    steps = 0
    while solver.status == "running":
        msg = solver.step()
        if solver.status == "failed":
            raise SystemExit(f"string_fd: {method} failed at t = {solver.t:.9g} s: {msg}")
        steps += 1
        kend = min(n, int(np.floor(solver.t * fs + 1e-9)) + 1)
        if kend > k:
            ts = np.arange(k, kend) / fs
            out[k:kend] = solver.dense_output()(ts)[pick]
            k = kend
    solve_s = time.perf_counter() - t0
    info = {"solve_s": solve_s, "steps": steps, "nfev": int(solver.nfev), "njev": int(solver.njev),
            "nlu": int(solver.nlu), "dim": int(A.shape[0])}
    return out, info


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--N", type=int, default=520, help="intervals (a multiple of 65 puts xm on the grid) [520]")
    ap.add_argument("--stencil", type=int, choices=[3, 5], default=5)
    ap.add_argument("--method", choices=sorted(SOLVERS), default="BDF")
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--atol", type=float, default=1e-14)
    ap.add_argument("--samples", type=int, default=None, help="samples to compute (a shorter run) [all]")
    ap.add_argument("--wav", required=True)
    a = ap.parse_args()
    p = stringmodel.load()
    if a.samples is not None and not 2 <= a.samples <= p["n"]:
        ap.error(f"--samples {a.samples}: accepted 2 ... {p['n']}")
    s, info = solve(p, a.N, a.stencil, a.method, a.rtol, a.atol, a.samples)
    wavfile.write(a.wav, int(p["fs"]), (s / p["s_ref"]).astype(np.float32))
    print(json.dumps(info))


if __name__ == "__main__":
    main()
