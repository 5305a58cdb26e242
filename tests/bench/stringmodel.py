"""string-pluck-v1 for the Python peers: parameters from challenge.json, the initial shape u0(x)
and the modal coefficients of the specification's appendix, in NumPy (vectorised over x or n).

This is what a SciPy user would write from the string-pluck-v1 specification; it shares no code
with ivplab (src/string/string.c), so the benchmark also cross-checks the two implementations.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CHALLENGE = os.path.join(HERE, "..", "..", "challenge.json")


def load(path=CHALLENGE):
    """The string's parameters (SI) and the output format, as a flat dict."""
    with open(path) as f:
        ch = json.load(f)
    p = {k: float(v["value"]) for k, v in ch["parameters"].items()}
    out = ch["output"]
    p["fs"] = float(out["sample_rate"])
    p["n"] = int(out["num_samples"])
    p["s_ref"] = float(out["signal_scale"])
    return p


def load_slope(p):
    """Q: the total load as a slope, fixed by u0(xp) = pluck height."""
    L, xp, w = p["L"], p["xp"], p["w"]
    return p["pluck_height"] / (xp * (L - xp) / L - w * (0.25 - 1.0 / np.pi**2))


def u0(p, x):
    """The static shape under the raised-cosine load, m (closed form of the spec)."""
    L, xp, w = p["L"], p["xp"], p["w"]
    x = np.asarray(x, dtype=float)
    Q = load_slope(p)
    tau = np.where(x <= xp, x * (L - xp) / L, xp * (L - x) / L)
    y = x - xp
    kap = np.where(np.abs(y) <= w,
                   np.maximum(y, 0.0) - (0.5 / w) * (0.5 * (y + w) ** 2 - (w / np.pi) ** 2 * (1 + np.cos(np.pi * y / w))),
                   0.0)
    return Q * (tau + kap)


def modes(p, n):
    """For mode numbers n (array): amplitude A_n (m), decay alpha_n (1/s), omega0_n^2 (1/s^2) and
    the pickup weight sin(k_n xm)."""
    L, w = p["L"], p["w"]
    k = n * np.pi / L
    p2 = (np.pi / w) ** 2
    A = 2 * load_slope(p) / (L * w * k**3) * np.sin(k * p["xp"]) * np.sin(k * w) * p2 / (p2 - k**2)
    alpha = p["sigma0"] + 0.5 * p["kappa"] * k**2
    return A, alpha, (p["c"] * k) ** 2, np.sin(k * p["xm"])
