#!/usr/bin/python3
"""Bench peer, row 1: the string-pluck-v1 reference WAV from the modal series of the spec's
appendix, in NumPy, vectorised over samples (the peer of `bin/pluck --reference`).

As a competent NumPy user writes it: the number of modes from a tolerance on the omitted tail,
each block of modes evaluated as one (modes x samples) array, and a block evaluated only over the
samples where its envelope is still above its share of the tolerance (the modes decay at very
different rates: most of the ~3000 modes are silent after a few milliseconds).

Usage: ref_wav.py --wav OUT.wav [--tol 1e-10] [--nmax 40000] [--block 32]
Prints one JSON line: {"solve_s": seconds of the series, "modes": M, "mode_samples": ...}.
"""
import argparse
import json
import time

import numpy as np
from scipy.io import wavfile

import stringmodel


def envelope(A, pick, alpha, w2):
    """|pickup * a_n'(t)| <= C e^{-gamma t}: C (m/s) and gamma (1/s), under- or overdamped."""
    d = w2 - alpha**2
    under = d > 0
    root = np.sqrt(np.abs(d))
    C = np.abs(A * pick) * w2 / np.where(under, root, 2 * root)
    gamma = np.where(under, alpha, w2 / (alpha + root))
    return C, gamma


def pickup_signal(p, tol, nmax=40000, block=32):
    fs, n = p["fs"], p["n"]
    t = np.arange(n) / fs
    num = np.arange(1, nmax + 1, dtype=float)
    A, alpha, w2, pick = stringmodel.modes(p, num)
    C, gamma = envelope(A, pick, alpha, w2)
    # modes: the tail past M is below tol/2 at the first sample t1 = 1/fs, hence at every t >= t1
    tail = np.cumsum((C * np.exp(-gamma / fs))[::-1])[::-1]
    M = int(np.argmax(tail <= tol / 2)) if tail[-1] <= tol / 2 else None
    if M is None or M == 0 and tail[0] > tol / 2:
        raise SystemExit(f"ref_wav: more than {nmax} modes needed for tol {tol}")
    # per mode, the samples it needs: after t_n its envelope stays below tol * 3/(pi^2 n^2) (these sum to tol/2)
    eps = tol * 3 / (np.pi**2 * num[:M] ** 2)
    with np.errstate(divide="ignore"):
        t_n = np.log(np.maximum(C[:M], 1e-300) / eps) / gamma[:M]
    K = np.clip(np.ceil(t_n * fs).astype(np.int64) + 1, 0, n)
    s = np.zeros(n)
    work = 0
    for j0 in range(0, M, block):
        j1 = min(j0 + block, M)
        k = int(K[j0:j1].max())
        if k <= 1:
            continue
        tk = t[:k]
        a, w2b, Ab, pb = alpha[j0:j1, None], w2[j0:j1, None], A[j0:j1, None], pick[j0:j1, None]
        d = w2b - a**2
        if np.all(d > 0):
            om = np.sqrt(d)
            s[:k] += np.sum(-(Ab * pb * w2b / om) * np.exp(-a * tk) * np.sin(om * tk), axis=0)
        else:  # overdamped modes (n > ~14800 here): a' = -A w0^2 e^{-alpha t} sinh(b t)/b
            b = np.sqrt(np.abs(d))
            osc = np.where(d > 0, np.sin(b * tk), np.sinh(b * tk))
            s[:k] += np.sum(-(Ab * pb * w2b / b) * np.exp(-a * tk) * osc, axis=0)
        work += (j1 - j0) * k
    return s, M, work


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--wav", required=True)
    ap.add_argument("--tol", type=float, default=1e-10, help="series tolerance in units of s_ref [1e-10]")
    ap.add_argument("--nmax", type=int, default=40000)
    ap.add_argument("--block", type=int, default=32)
    a = ap.parse_args()
    p = stringmodel.load()
    t0 = time.perf_counter()
    s, M, work = pickup_signal(p, a.tol * p["s_ref"], a.nmax, a.block)
    solve_s = time.perf_counter() - t0
    wavfile.write(a.wav, int(p["fs"]), (s / p["s_ref"]).astype(np.float32))
    print(json.dumps({"solve_s": solve_s, "modes": M, "mode_samples": work}))


if __name__ == "__main__":
    main()
