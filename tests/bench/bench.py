#!/usr/bin/python3
"""bench.py: the driver of `make bench` (started by tests/bench/run.sh). ivplab against the
tools a user would pick instead, measured side by side on this machine, as ratios.

Each row runs its sides as whole programs, in rounds: a warm-up round (not counted), then
--reps counted rounds, the sides alternating A B | B A | A B ... (the order reversed every other
round, so a slow drift of the machine falls on both sides alike). Every run is timed from the
outside (wall clock, and the CPU time of the child); the programs also report the time of their
numerical work alone ("solve"), which leaves out interpreter start-up, imports and file output.
The ratio is peer / ivplab per round: its median and its min-max over the rounds.

Accuracy is measured on each side's own output against an exact or reference answer, and the
row says whether the sides reached comparable accuracy. A row whose ivplab program (or a flag
it needs) does not exist yet prints "not measured: <why>".

Usage: bench.py [--reps N] [--reps-slow N] [--reps-bow N] [--warmup N] [--rows 1,2,3,4,5] [--quick] [--long]
                [--figures osc,string] [--string-N N] [--bow-duration S]
Plain `make bench` takes about 10 minutes on a quiet two-core machine (the estimate, row by row, is
printed first): 5 counted rounds on every row, row 3 at N = 390 to E_wave <= 1e-3 (CVODE Adams with
fixed-point iteration against solve_ivp's Radau at rtol 1e-3, the fastest solve_ivp way there: ~19 s a run),
row 4 over 0.1 s of sound (~13 s a round), the oscillator's work-precision figure only. --long
adds row 4 over 1 s and the string's work-precision figure: over an hour. --string-N 65 is the
quick row 3 (the target E_wave 1e-3 is out of reach there: the row compares speed at equal settings).
Every row prints the ratio of whole runs and of the solve alone (the programs' own timing); the
header names the SUNDIALS library the ivplab programs load (the -O3 build of make deps, or
Debian's unoptimised one).
Writes build/bench/ (results.tsv, table.txt, the figures' data) and plots/out/bench_*.{png,svg}.
"""
import argparse
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import wave  # noqa: F401  (stdlib; numpy/scipy only where a score needs them)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "tests", "bench")
BIN = os.path.join(ROOT, os.environ.get("BIN", "bin"))
PY = "/usr/bin/python3"   # Debian's interpreter, with Debian's numpy and scipy
OUT = os.path.join(ROOT, "build", "bench")

# Row settings, each with its reason.
DROP = dict(rtol=1e-8, atol=1e-12, max_step=1e-3, T=2.0)           # the lecture's solve_ivp call
DROP_REF = dict(rtol=1e-13, atol=1e-17)                              # the reference impacts (untimed)
DROP_K = 4         # impacts compared: the run is chaotic past ~5 (rtol 1e-12 and 1e-13 differ by 1e-7 s at
                   # the 5th start, 4e-6 s at the 6th), so later starts measure chaos, not the solver
DROP_KEEP = 1e-4   # s; ball.ini keep_ms (a third of a 0.3 ms contact): a start this close keeps the rhythm
STRING = dict(N=390, N_target=390, stencil=5, rtol=1e-6, atol=1e-12)  # fd5, N = 390: the smallest N (a multiple of 65, so xm is a
                   # grid point) whose exact semi-discrete floor is below the target (8.1e-4; N = 325 gives 1.6e-3)
STRING_TARGET = 1e-3
REF_TOL = 1e-10    # series tolerance (units of s_ref), as lessons/params/pluck.ini
ORACLE_TOL = 1e-14 # the independent evaluation both reference WAVs are scored against
BOW = dict(duration=0.1, long=1.0)                                  # s of sound, row 4 (--long: 1 s)
STRING_SHORT_N = 65    # row 3 with --quick: seconds a run on both sides
# Row 3's peer: the solve_ivp method and tolerances that reach E_wave <= 1e-3 at N = 390 fastest
# (measured, README "Benchmarks"): Radau with the sparse Jacobian at rtol 1e-3. Its first ~0.1 s,
# while the highest grid modes still ring, costs as much as an explicit pair's (whose step stays
# held by stability on the highest mode, |lambda| ~ 2e5 1/s, the whole 2 s); once they have
# decayed its steps grow. BDF's step stays held by stability too (7-8 min a run).
STRING_PEER = dict(method="Radau", rtol=1e-3, atol=1e-9)
# Rough CPU seconds on this 2-core machine with the -O3 SUNDIALS, for the estimate printed first:
# per counted or warm-up round of a row, and once per row (references, oracles) or per figure.
EST_ROUND = {"1": 1.5, "2": 6.5, "3": 30, "4": 13, "5": 1.5}   # row 3 at N = 390, row 4 per 0.1 s of sound
EST_ONCE = {"1": 3, "2": 5, "3": 2, "4": 3, "5": 0, "explore": 30, "osc": 60, "string": 900}
FLOOR_WAVE = 1e-6  # E_wave below this is "exact" (float32 samples)


class NotMeasured(Exception):
    pass


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def prog(name):
    p = os.path.join(BIN, name)
    if not os.access(p, os.X_OK):
        raise NotMeasured(f"{os.path.relpath(p, ROOT)} does not exist yet")
    return p


_help = {}


def need_flags(name, *flags):
    p = prog(name)
    if p not in _help:
        r = subprocess.run([p, "--help"], capture_output=True, text=True)
        _help[p] = r.stdout + r.stderr
    missing = [f for f in flags if not re.search(r"(^|\s)" + re.escape(f) + r"(\s|$)", _help[p], re.M)]
    if missing:
        raise NotMeasured(f"bin/{name} has no {', '.join(missing)} (see its --help)")
    return p


def has_flag(name, flag):
    try:
        need_flags(name, flag)
        return True
    except NotMeasured:
        return False


class Side:
    """One program of a row: how to run it and how to read its own report."""

    def __init__(self, label, argv, inner=None, outdir=None):
        self.label, self.argv, self.inner, self.outdir = label, argv, inner, outdir
        self.wall, self.cpu, self.solve = [], [], []
        self.stdout = ""

    def run(self, counted):
        if self.outdir:
            os.makedirs(self.outdir, exist_ok=True)
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        r = subprocess.run(self.argv, capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - t0
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            tail = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise NotMeasured(f"{self.label} failed (exit {r.returncode}): {tail}")
        self.stdout = r.stdout
        if counted:
            self.wall.append(wall)
            self.cpu.append((ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime))
            s = self.inner(r.stdout) if self.inner else None
            self.solve.append(s if s is not None else math.nan)
        return wall


def json_last(stdout):
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line")


def measure(sides, reps, warmup):
    for _ in range(warmup):
        for s in sides:
            log(f"  warm-up: {s.label}")
            s.run(False)
    for r in range(reps):
        order = sides if r % 2 == 0 else sides[::-1]
        for s in order:
            w = s.run(True)
            log(f"  round {r + 1}/{reps}: {s.label}: {w:.3f} s")


def ratios(a, b):
    """peer / ivplab per round: median, min, max."""
    q = [y / x for x, y in zip(a, b) if x > 0]
    return statistics.median(q), min(q), max(q)


# ---- scoring ----

def read_wav(path):
    from scipy.io import wavfile
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, x = wavfile.read(path)
    return x.astype(float)


def e_wave(ref, sub):
    """E_wave as bin/score computes it; bin/score itself when it exists."""
    score = os.path.join(BIN, "score")
    if os.access(score, os.X_OK):
        r = subprocess.run([score, "--tsv", ref, sub], capture_output=True, text=True)
        if r.returncode == 0:
            lines = [l.split("\t") for l in r.stdout.strip().splitlines()]
            h = lines[0]
            return float(lines[-1][h.index("E_wave")]), "bin/score"
    import numpy as np
    a, b = read_wav(sub), read_wav(ref)
    return float(np.linalg.norm(a - b) / np.linalg.norm(b)), "numpy (bin/score not built)"


def fmt_s(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


# ---- the rows ----

def row_reference(a):
    d = os.path.join(OUT, "r1")
    os.makedirs(d, exist_ok=True)
    pluck = need_flags("pluck", "--reference", "--wav")
    A = Side("ivplab: bin/pluck --reference",
             [pluck, "--reference", "--tol", str(REF_TOL), "--wav", f"{d}/ivplab.wav", "--out", f"{d}/pluck"],
             inner=lambda o: float(re.search(r"([0-9.eE+-]+) s; peak sample", o).group(1)))
    B = Side("NumPy: modal series, vectorised",
             [PY, f"{HERE}/ref_wav.py", "--tol", str(REF_TOL), "--wav", f"{d}/numpy.wav"],
             inner=lambda o: json_last(o)["solve_s"])
    measure([A, B], a.reps, a.warmup)
    # each side against the other implementation's evaluation at a far tighter tolerance
    subprocess.run([PY, f"{HERE}/ref_wav.py", "--tol", str(ORACLE_TOL), "--nmax", "60000", "--wav",
                    f"{d}/oracle-numpy.wav"], check=True, capture_output=True)
    subprocess.run([pluck, "--reference", "--tol", str(ORACLE_TOL), "--wav", f"{d}/oracle-ivplab.wav", "--out",
                    f"{d}/pluck"], check=True, capture_output=True, cwd=ROOT)
    ea, how = e_wave(f"{d}/oracle-numpy.wav", f"{d}/ivplab.wav")
    eb, _ = e_wave(f"{d}/oracle-ivplab.wav", f"{d}/numpy.wav")
    ok = ea <= FLOOR_WAVE and eb <= FLOOR_WAVE
    return dict(title="(1) challenge reference WAV (2 s, 96000 samples)", sides=[A, B],
                acc=[f"E_wave {ea:.1e}", f"E_wave {eb:.1e}"],
                comparable=ok,
                note=f"E_wave against the other side's series at tol {ORACLE_TOL:g} s_ref (scored by {how}); "
                     f"comparable: both below {FLOOR_WAVE:g}")


def drop_starts_tsv(path, k=None):
    rows = [l.split("\t") for l in open(path).read().strip().splitlines()]
    h = rows[0]
    starts = [float(r[h.index("start_s")]) for r in rows[1:]]
    return starts if k is None else starts[:k]


def drop_solve_seconds(outdir):
    """The solver's own wall time, as bin/drop writes it into summary.tsv (solve_s), else None."""
    try:
        for line in open(os.path.join(outdir, "summary.tsv")):
            k, _, v = line.rstrip("\n").partition("\t")
            if k == "solve_s":
                return float(v)
    except OSError:
        pass
    return None


DROP_FAST = "gsl-rk8pd"   # the fastest of bin/drop --method all on this drop (lesson 7's own solver table)


def row_drop(a):
    """Row 2 twice over the same rounds: bin/drop as the lesson runs it (CVODE BDF), and with the
    solver its own --method all table finds fastest (row 2b); each against the same two peers."""
    d = os.path.join(OUT, "r2")
    os.makedirs(d, exist_ok=True)
    drop = need_flags("drop", "--rtol", "--atol", "--max-step", "--T", "--tsv", "--out", "--method")
    base = [drop, "--rtol", str(DROP["rtol"]), "--atol", str(DROP["atol"]), "--max-step", str(DROP["max_step"]),
            "--T", str(DROP["T"]), "--sound", f"{d}/sound"]
    mine = [Side("ivplab: bin/drop (CVODE BDF, roots)", base + ["--out", f"{d}/drop"],
                 inner=lambda o: drop_solve_seconds(f"{d}/drop"), outdir=f"{d}/drop"),
            Side(f"ivplab: bin/drop --method {DROP_FAST} (roots by bisection)",
                 base + ["--method", DROP_FAST, "--out", f"{d}/fast"],
                 inner=lambda o: drop_solve_seconds(f"{d}/fast"), outdir=f"{d}/fast")]
    peers = []
    for m in ("RK45", "LSODA"):
        peers.append(Side(f"SciPy: solve_ivp {m}, events",
                          [PY, f"{HERE}/drop.py", "--method", m, "--rtol", str(DROP["rtol"]), "--atol",
                           str(DROP["atol"]), "--max-step", str(DROP["max_step"]), "--T", str(DROP["T"])],
                          inner=lambda o: json_last(o)["solve_s"]))
    measure(mine + peers, a.reps, a.warmup)
    r = subprocess.run(base[:1] + ["--rtol", str(DROP_REF["rtol"]), "--atol", str(DROP_REF["atol"]), "--max-step",
                                   str(DROP["max_step"]), "--T", str(DROP["T"]), "--sound", f"{d}/sound", "--out",
                                   f"{d}/ref", "--tsv"], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise NotMeasured(f"the reference run bin/drop --rtol {DROP_REF['rtol']:g} failed")
    ref = drop_starts_tsv(f"{d}/ref/impacts.tsv")
    peer_counts = [json_last(p.stdout)["impacts"] for p in peers]
    peer_errs = []
    for p in peers:
        st = json_last(p.stdout)["starts"]
        peer_errs.append(max(abs(x - y) for x, y in zip(st[:DROP_K], ref[:DROP_K])) if len(st) >= DROP_K else math.inf)
    out = []
    for A, sub, title in ((mine[0], "drop", "(2) ball drop, 2 s, rtol 1e-8, atol 1e-12, max step 1 ms"),
                          (mine[1], "fast", f"(2b) ball drop, the same, bin/drop --method {DROP_FAST}")):
        starts = drop_starts_tsv(f"{d}/{sub}/impacts.tsv")
        errs = [max(abs(x - y) for x, y in zip(starts[:DROP_K], ref[:DROP_K]))] + peer_errs
        counts = [len(starts)] + peer_counts
        # like for like: ivplab's error no more than 10x the best peer's (a side more accurate than the
        # peers at the same tolerances has not bought its speed with accuracy)
        ok = max(errs) <= DROP_KEEP and errs[0] <= 10 * max(min(peer_errs), 1e-8)
        out.append(dict(title=title, sides=[A] + peers,
                        acc=[f"impacts 1-{DROP_K} {e:.1e} s; {n} impacts" for e, n in zip(errs, counts)],
                        comparable=ok,
                        note=f"largest error of the first {DROP_K} impact starts against bin/drop at rtol "
                             f"{DROP_REF['rtol']:g} ({len(ref)} impacts in all; the drop is chaotic later, so total "
                             f"counts differ); comparable: all within {DROP_KEEP * 1e3:g} ms, ivplab within 10x of the best peer"))
    return out


def pluck_fd_args(N, rtol, atol, out):
    pluck = need_flags("pluck", "--solve", "--space", "--method", "--N-min", "--N-max", "--cvode-rtol", "--cvode-atol")
    args = [pluck, "--solve", "--space", f"fd{STRING['stencil']}", "--method", "cvode", "--N-min", str(N), "--N-max",
            str(N), "--cvode-rtol", str(rtol), "--cvode-atol", str(atol), "--tsv", "--out", out]
    if has_flag("pluck", "--cvode-N-max"):
        args[-2:-2] = ["--cvode-N-max", str(N)]
    if has_flag("pluck", "--cvode-study-time"):
        args[-2:-2] = ["--cvode-study-time", "0"]   # the lesson's order study is not the row's work
    if has_flag("pluck", "--cvode-rtol-time"):
        args[-2:-2] = ["--cvode-rtol-time", "0"]    # nor its tolerance study (a third of the run's CPU)
    if has_flag("pluck", "--cvode-nls"):  # the cheapest CVODE on the string (lesson 9's rtol figure)
        args[-2:-2] = ["--cvode-lmm", "adams", "--cvode-nls", "fixedpoint"]
    return args


def pluck_row(stdout, method_prefix="cvode"):
    rows = [l.split("\t") for l in stdout.strip().splitlines()]
    h = rows[0]
    for r in rows[1:]:
        if r[h.index("method")].startswith(method_prefix):
            if r[h.index("status")] != "ok":
                raise NotMeasured(f"bin/pluck --solve: status {r[h.index('status')]}")
            return {k: r[h.index(k)] for k in h}
    raise NotMeasured("bin/pluck --solve printed no CVODE row (is --cvode-N-max needed?)")


def reference_wav():
    """The challenge reference (bin/pluck --reference), written by row 1 or here."""
    path = os.path.join(OUT, "r1", "ivplab.wav")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run([prog("pluck"), "--reference", "--wav", path, "--out", os.path.join(OUT, "r1", "pluck")],
                       check=True, capture_output=True, cwd=ROOT)
    return path


def row_string(a):
    d = os.path.join(OUT, "r3")
    os.makedirs(d, exist_ok=True)
    N, rt, at = a.string_N, STRING["rtol"], STRING["atol"]
    args = pluck_fd_args(N, rt, at, f"{d}/pluck")
    how_cv = "Adams + fixed point" if "fixedpoint" in args else "BDF + band"
    A = Side(f"ivplab: bin/pluck --solve fd5 N={N}, CVODE {how_cv}", args,
             inner=lambda o: float(pluck_row(o)["seconds"]))
    pm, prt, pat = STRING_PEER["method"], STRING_PEER["rtol"], STRING_PEER["atol"]
    B = Side(f"SciPy: solve_ivp {pm} rtol {prt:g} atol {pat:g}, N={N}",
             [PY, f"{HERE}/string_fd.py", "--N", str(N), "--stencil", str(STRING["stencil"]), "--method", pm,
              "--rtol", str(prt), "--atol", str(pat), "--wav", f"{d}/scipy.wav"],
             inner=lambda o: json_last(o)["solve_s"])
    measure([A, B], a.reps_slow, 0)
    ref = reference_wav()
    meth = pluck_row(A.stdout)["method"]
    cwav = os.path.join(d, "pluck", "wav", f"fd{STRING['stencil']}-{N}-{meth}-m0.wav")
    ea, how = e_wave(ref, cwav) if os.path.exists(cwav) else (float(pluck_row(A.stdout)["E_wave"]), "bin/pluck")
    eb, _ = e_wave(ref, f"{d}/scipy.wav")
    info = json_last(B.stdout)
    # on a grid coarser than the target's, both sides sit on the grid's own floor: comparable when they agree
    ok = (ea <= STRING_TARGET and eb <= STRING_TARGET) or (N < STRING["N_target"] and abs(ea - eb) <= 0.05 * max(ea, eb))
    short = "" if N >= STRING["N_target"] else f" (below N = {STRING['N_target']} the target E_wave 1e-3 is out of reach)"
    return dict(title=f"(3) string, 5-point FD, N = {N} ({2 * (N - 1)} unknowns), rtol {rt:g}, atol {at:g} m (ivplab)" + short,
                sides=[A, B], acc=[f"E_wave {ea:.2e}; {pluck_row(A.stdout)['nfev']} F", f"E_wave {eb:.2e}; "
                                   f"{info['nfev']} F, {info['steps']} steps"],
                comparable=ok, wp=[("ivplab", meth, f"ivplab CVODE {how_cv}", N, ea, statistics.median(A.solve)),
                                   ("scipy", pm, f"solve_ivp {pm}, rtol {prt:g}", N, eb, statistics.median(B.solve))],
                note=f"E_wave against the challenge reference (bin/pluck --reference; scored by {how}); target "
                     f"{STRING_TARGET:g}, comparable: both below it" + ("" if N >= STRING["N_target"] else
                     f" (at N = {N} the grid's own floor is above it: comparable when the two E_wave agree within 5 %)") +
                     f"; {a.reps_slow} counted rounds, no warm-up")


def bow_summary(stdout):
    rows = [l.split("\t") for l in stdout.strip().splitlines()]
    return dict(zip(rows[0], rows[1]))


def bow_solve_seconds(stdout, duration):
    """Simulated over real time as bin/bow reports it; None when it rounds to 0 (a slow CVODE run)."""
    rf = float(bow_summary(stdout)["realtime_factor"])
    return duration / rf if rf > 0 else None


def bow_force(path):
    rows = open(path).read().strip().splitlines()
    h = rows[0].split("\t")
    i = h.index("bridge_force_N")
    return [(float(r.split("\t")[0]), float(r.split("\t")[i])) for r in rows[1:]]


def row_bow(a):
    d = os.path.join(OUT, "r4")
    os.makedirs(d, exist_ok=True)
    bow = need_flags("bow", "--solver", "--duration", "--quick", "--allow-long", "--tsv", "--out", "--wav")
    sides = []
    for s in ("fixed", "cvode"):
        sides.append(Side(f"ivplab: bin/bow --solver {s}",
                          [bow, "--quick", "--allow-long", "--duration", str(a.bow_duration), "--solver", s, "--tsv", "--out",
                           f"{d}/{s}", "--wav", f"{d}/{s}.wav"],
                          inner=lambda o: bow_solve_seconds(o, a.bow_duration)))
    measure(sides, a.reps_bow, 0)
    fx, cv = (bow_summary(s.stdout) for s in sides)
    import numpy as np
    f1, f2 = bow_force(f"{d}/fixed/stroke.tsv"), bow_force(f"{d}/cvode/stroke.tsv")
    t1, y1 = np.array(f1).T
    t2, y2 = np.array(f2).T
    y1i = np.interp(t2, t1, y1)
    rel = float(np.linalg.norm(y1i - y2) / np.linalg.norm(y2))
    cents = 1200 * math.log2(float(fx["f0_hz"]) / float(cv["f0_hz"]))
    ok = abs(cents) <= 10 and fx["regime"] == cv["regime"]
    return dict(title=f"(4) bowed string, {a.bow_duration:g} s of sound (ratio: CVODE reference over the fixed-step scheme)"
                      + ("" if a.long else "; --long: 1 s"),
                sides=sides,
                acc=[f"f0 {fx['f0_hz']} Hz ({cents:+.1f} c), {fx['regime']}; bridge force vs CVODE {rel:.1e}",
                     f"f0 {cv['f0_hz']} Hz, {cv['regime']} (the reference); energy residual {cv['energy_residual']}"],
                comparable=ok,
                note="both within ivplab; accuracy: the fixed-step bridge force against CVODE's (relative L2 over "
                     f"{a.bow_duration:g} s; a self-sustained oscillation drifts in phase, so also f0 and regime); comparable: f0 "
                     "within 10 cents and the same regime")


def row_bow_realtime(a):
    """The bowed string's fixed-step scheme against real time: seconds of sound per second of CPU."""
    d = os.path.join(OUT, "r5")
    os.makedirs(d, exist_ok=True)
    bow = need_flags("bow", "--solver", "--duration", "--quick", "--tsv", "--out", "--wav")
    dur = 1.0
    A = Side("ivplab: bin/bow --solver fixed, 1 s of sound",
             [bow, "--quick", "--duration", str(dur), "--solver", "fixed", "--tsv", "--out", f"{d}/fixed", "--wav",
              f"{d}/fixed.wav"], inner=lambda o: bow_solve_seconds(o, dur))
    measure([A], a.reps, a.warmup)
    rf = [dur / c for c in A.cpu if c > 0]
    rs = [dur / x for x in A.solve if x > 0]   # bin/bow's own realtime_factor: the scheme alone, wall clock
    fx = bow_summary(A.stdout)
    med = statistics.median(rf)
    solve = (statistics.median(rs), min(rs), max(rs)) if len(rs) == len(A.solve) else None
    return dict(title="(5) bowed string, fixed-step scheme against real time (1 s of sound)", sides=[A],
                acc=[f"f0 {fx['f0_hz']} Hz, {fx['regime']}; energy residual {fx['energy_residual']}"],
                comparable=True, realtime=(med, min(rf), max(rf)), realtime_solve=solve,
                note=f"seconds of sound per CPU second of the whole run: {med:.3g} [{min(rf):.3g}-{max(rf):.3g}]; "
                     "of the scheme alone (bin/bow's realtime_factor, wall clock): " +
                     (f"{solve[0]:.3g} [{solve[1]:.3g}-{solve[2]:.3g}]" if solve else "not reported") +
                     "; above 1 is faster than real time")


# ---- the work-precision figures ----

def figure_osc(a):
    d = OUT
    exe = os.path.join(OUT, "wp_osc")
    if not os.access(exe, os.X_OK):
        raise NotMeasured("build/bench/wp_osc was not built (tests/bench/run.sh builds it)")
    mt = "0.01" if a.quick else "0.1"
    c = subprocess.run([exe, "--min-time", mt], capture_output=True, text=True, check=True).stdout
    p = subprocess.run([PY, f"{HERE}/wp_osc.py", "--min-time", mt] + (["--rk4-max", "2000"] if a.quick else []),
                       capture_output=True, text=True, check=True).stdout
    write_blocks(os.path.join(d, "wp_osc.tsv"), c + p.split("\n", 1)[1])
    return render("bench_wp_osc")


def figure_string(a, extra):
    d = os.path.join(OUT, "wp")
    os.makedirs(d, exist_ok=True)
    Ns = [int(n) for n in a.wp_N.split(",")]
    rows = []
    rt, at = STRING["rtol"], STRING["atol"]
    for N in Ns:
        try:
            r = subprocess.run(pluck_fd_args(N, rt, at, f"{d}/pluck{N}"), capture_output=True, text=True, cwd=ROOT)
            pr = pluck_row(r.stdout)
            rows.append(("ivplab", "cvode-bdf", "ivplab CVODE BDF + band", N, float(pr["E_wave"]), float(pr["seconds"])))
        except NotMeasured as e:
            log(f"  string figure: ivplab N = {N}: {e}")
        log(f"  string figure: N = {N} done for ivplab")
    # ivplab's fixed-step RK4 on the same grids (4 substeps per sample: stable to N = 260)
    if has_flag("pluck", "--fd-substeps"):
        pl = prog("pluck")
        r = subprocess.run([pl, "--solve", "--space", "fd5", "--method", "rk4", "--N-min", str(Ns[0]), "--N-max",
                            str(Ns[-1]), "--fd-substeps", "4", "--fd-fixed-N-max", str(Ns[-1]), "--tsv", "--out",
                            f"{d}/pluck-rk4"], capture_output=True, text=True, cwd=ROOT)
        lines = [l.split("\t") for l in r.stdout.strip().splitlines()]
        if lines:
            h = lines[0]
            for l in lines[1:]:
                if l[h.index("status")] == "ok":
                    rows.append(("ivplab", "rk4", "ivplab RK4, h = 1/(4 fs)", int(l[h.index("size")]),
                                 float(l[h.index("E_wave")]), float(l[h.index("seconds")])))
    ref = reference_wav()
    peers = [("DOP853", "solve_ivp DOP853"), ("BDF", "solve_ivp BDF (sparse)"), ("Radau", "solve_ivp Radau (sparse)"),
             ("LSODA", "solve_ivp LSODA (banded)")]
    for m, label in peers:
        for N in Ns:
            if m == "BDF" and (N > 130 or a.quick):
                continue  # minutes a point (~10 at N = 260); the row's N = 390 run is BDF's last point
            w = f"{d}/scipy-{m}-{N}.wav"
            r = subprocess.run([PY, f"{HERE}/string_fd.py", "--N", str(N), "--stencil", "5", "--method", m, "--rtol",
                                str(rt), "--atol", str(at), "--wav", w], capture_output=True, text=True)
            if r.returncode != 0:
                log(f"  string figure: {m} N = {N} failed: {r.stderr.strip()[-200:]}")
                continue
            rows.append(("scipy", m, label, N, e_wave(ref, w)[0], json_last(r.stdout)["solve_s"]))
            log(f"  string figure: {m} N = {N} done")
    rows += extra
    text = "impl\tmethod\tlabel\tsetting\terror\tseconds\tnfev\n" + "".join(
        f"{i}\t{m}\t{l}\tN={N}\t{e:.6e}\t{s:.6e}\t0\n" for i, m, l, N, e, s in sorted(rows, key=lambda r: (r[2], r[3])))
    write_blocks(os.path.join(OUT, "wp_string.tsv"), text)
    return render("bench_wp_string")


def write_blocks(path, tsv):
    """TSV rows grouped by label into gnuplot blocks (two blank lines apart), each block headed by
    'label<TAB>setting<TAB>error<TAB>seconds' so that `title columnhead(1)` names the curve."""
    lines = [l.split("\t") for l in tsv.strip().splitlines()]
    h = lines[0]
    blocks = {}
    for l in lines[1:]:
        if len(l) == len(h) and l[0] != "impl":
            blocks.setdefault(l[h.index("label")], []).append(l)
    with open(path + ".tmp", "w") as f:
        for label, rows in blocks.items():
            f.write(f"{label}\tsetting\terror\tseconds\timpl\n")
            for r in rows:
                f.write(f"{r[h.index('setting')]}\t{r[h.index('setting')]}\t{r[h.index('error')]}\t"
                        f"{r[h.index('seconds')]}\t{r[0]}\n")
            f.write("\n\n")
    os.replace(path + ".tmp", path)
    with open(path.replace(".tsv", ".labels"), "w") as f:
        f.write("\n".join(blocks) + "\n")


def render(name):
    if not shutil.which("gnuplot"):
        raise NotMeasured("gnuplot is not installed")
    os.makedirs(os.path.join(ROOT, "plots", "out"), exist_ok=True)
    for fmt in ("png", "svg"):
        subprocess.run(["gnuplot", "-e", f"fmt='{fmt}'; name='{name}'; data='build/bench'; outdir='plots/out'",
                        f"tests/bench/{name}.gp"], check=True, cwd=ROOT)
    return f"plots/out/{name}.png"


# ---- the table ----

def print_table(results, a, versions, stream=None):
    w = (stream or sys.stdout).write
    w("\nivplab bench: median times of whole runs (wall clock), peer / ivplab ratio per round: median [min-max]\n")
    w(f"{a.reps} counted rounds after {a.warmup} warm-up (row 3: {a.reps_slow}, row 4: {a.reps_bow}, no warm-up), sides alternating "
      f"A B | B A; 'solve' is the program's own timing of its numerical work alone.\n")
    w(versions + "\n\n")
    hdr = (f"{'side':<52} {'wall s':>8} {'cpu s':>8} {'solve s':>8}  {'ratio (wall)':<22} {'(cpu)':<7} "
           f"{'(solve)':<22}  accuracy\n")
    tsv = ["row\tside\twall_s\tcpu_s\tsolve_s\tratio\tratio_min\tratio_max\tratio_cpu\tratio_solve\tratio_solve_min\t"
           "ratio_solve_max\taccuracy\tcomparable"]
    for res in results:
        w(res["title"] + "\n")
        if "not_measured" in res:
            w(f"  not measured: {res['not_measured']}\n\n")
            tsv.append(f"{res['title']}\tnot measured: {res['not_measured']}" + "\t" * 12)
            continue
        w("  " + hdr)
        A = res["sides"][0]
        for i, s in enumerate(res["sides"]):
            mw, mc = statistics.median(s.wall), statistics.median(s.cpu)
            ms = statistics.median(s.solve)
            if i == 0:
                rt, rc, rs, rr = "1 (A)", "1", "1", ("", "", "", "", "", "", "")
            else:
                q, lo, hi = ratios(A.wall, s.wall)
                qc = ratios(A.cpu, s.cpu)[0]
                # solve only, per round like the whole runs; NaN when a side does not report it
                qs, los, his = ratios(A.solve, s.solve) if all(x > 0 for x in A.solve + s.solve) else (math.nan,) * 3
                rt, rc = f"{q:.3g} [{lo:.3g}-{hi:.3g}]", f"{qc:.3g}"
                rs = "-" if math.isnan(qs) else f"{qs:.3g} [{los:.3g}-{his:.3g}]"
                rr = (f"{q:.4g}", f"{lo:.4g}", f"{hi:.4g}", f"{qc:.4g}", f"{qs:.4g}", f"{los:.4g}", f"{his:.4g}")
            w(f"  {s.label:<52} {fmt_s(mw):>8} {fmt_s(mc):>8} {fmt_s(ms):>8}  {rt:<22} {rc:<7} {rs:<22}  "
              f"{res['acc'][i]}\n")
            tsv.append(f"{res['title']}\t{s.label}\t{mw:.6g}\t{mc:.6g}\t{ms:.6g}\t" + "\t".join(rr) +
                       f"\t{res['acc'][i]}\t{'yes' if res['comparable'] else 'no'}")
        w(f"  accuracy {'comparable' if res['comparable'] else 'NOT comparable: the ratio is not a like-for-like speed-up'}"
          f": {res['note']}\n\n")
    return "\n".join(tsv) + "\n"


def print_summary(results, stream=None):
    """One line a row: ivplab, peer, ratio median [min-max], accuracy each side."""
    w = (stream or sys.stdout).write
    w("summary: row | ivplab (median wall s) | peer (median wall s) | ratio peer/ivplab, whole runs median [min-max] "
      "(of their CPU time); solve only median [min-max] | accuracy ivplab; peer\n")
    for res in results:
        t = res["title"].split(",")[0]
        if "not_measured" in res:
            w(f"  {t:<28} not measured: {res['not_measured']}\n")
            continue
        A = res["sides"][0]
        if "realtime" in res:
            q, lo, hi = res["realtime"]
            rs = res.get("realtime_solve")
            solve = f"solve {rs[0]:.3g} [{rs[1]:.3g}-{rs[2]:.3g}]" if rs else "solve: not reported"
            w(f"  {t:<28} {A.label} {statistics.median(A.wall):.3g} s | real time | whole {q:.3g} [{lo:.3g}-{hi:.3g}]"
              f"; {solve} s of sound per CPU s (solve: per wall s of the scheme) | {res['acc'][0]}\n")
            continue
        for i, B in enumerate(res["sides"][1:], 1):
            q, lo, hi = ratios(A.wall, B.wall)
            qc, loc, hic = ratios(A.cpu, B.cpu)
            if all(x > 0 for x in A.solve + B.solve):
                qs, los, his = ratios(A.solve, B.solve)
                solve = f"solve {qs:.3g} [{los:.3g}-{his:.3g}]"
            else:
                solve = "solve: not reported by a side"
            w(f"  {t:<28} {statistics.median(A.wall):.3g} s | {B.label}: {statistics.median(B.wall):.3g} s | "
              f"whole {q:.3g} [{lo:.3g}-{hi:.3g}] (cpu {qc:.3g} [{loc:.3g}-{hic:.3g}]); {solve} | {res['acc'][0]}; "
              f"{res['acc'][i]}\n")


def sundials_build():
    """Which libsundials_cvode the timed ivplab programs load (ldd of bin/pluck, drop and bow), and what it is."""
    libs = {}
    for name in ("pluck", "drop", "bow"):
        try:
            out = subprocess.run(["ldd", prog(name)], capture_output=True, text=True).stdout
        except (OSError, NotMeasured):
            continue
        m = re.search(r"libsundials_cvode\S* => (\S+)", out)
        libs.setdefault(os.path.realpath(m.group(1)) if m else "library not found", []).append(f"bin/{name}")
    if not libs:
        return "library not found"

    def what(lib):
        if lib.startswith("/usr/"):
            return f"Debian's library, built without optimisation: {lib}"
        return lib if lib == "library not found" else f"the -O3 build of make deps from Debian's source: {lib}"
    if len(libs) == 1:
        return what(next(iter(libs)))
    return "; ".join(f"{', '.join(p)}: {what(lib)}" for lib, p in libs.items())


def versions():
    import numpy
    import scipy
    cpu = "unknown CPU"
    try:
        for l in open("/proc/cpuinfo"):
            if l.startswith("model name"):
                cpu = l.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    def pkg(p):
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", p], capture_output=True, text=True)
        return r.stdout or "?"
    return (f"machine: {cpu}, {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f} at the start; "
            f"SUNDIALS {pkg('libsundials-dev')} ({sundials_build()}), GSL {pkg('libgsl-dev')}, NumPy {numpy.__version__}, "
            f"SciPy {scipy.__version__}, Python {sys.version.split()[0]}")


def estimate(a, chosen):
    """Seconds the run will take (EST_ROUND a round, EST_ONCE a row), and the per-row parts as text."""
    rounds = {"1": a.reps + a.warmup, "2": a.reps + a.warmup, "3": a.reps_slow, "4": a.reps_bow,
              "5": a.reps + a.warmup}
    scale = {"3": (a.string_N / 390) ** 2, "4": a.bow_duration / 0.1}   # row 3: ~N^2 (steps ~N^2, Python's cost a step)
    cost = {k: rounds[k] * EST_ROUND[k] * scale.get(k, 1) + EST_ONCE[k] for k in chosen}
    for f in a.figures.split(","):
        if f in EST_ONCE:
            cost[f] = EST_ONCE[f] * (0.1 if a.quick else 1)
    cost["explore"] = EST_ONCE["explore"]
    parts = ", ".join(f"{'row ' + k if k.isdigit() else k} {v:.0f} s" for k, v in cost.items())
    return sum(cost.values()), parts


def main():
    ap = argparse.ArgumentParser(description="ivplab benchmarks against SciPy/NumPy (make bench)")
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", 5)), help="counted rounds [5]")
    ap.add_argument("--reps-slow", type=int, default=int(os.environ.get("BENCH_REPS_SLOW", 5)),
                    help="counted rounds of row 3, under a minute each, no warm-up [5]")
    ap.add_argument("--reps-bow", type=int, default=int(os.environ.get("BENCH_REPS_BOW", 5)),
                    help="counted rounds of row 4, whose CVODE reference takes ~12 s for 0.1 s of sound, no warm-up [5]")
    ap.add_argument("--warmup", type=int, default=1, help="warm-up rounds, not counted [1]")
    ap.add_argument("--rows", default="1,2,3,4,5", help="which rows [1,2,3,4,5]")
    ap.add_argument("--long", action="store_true",
                    help="the full settings: row 4 over 1 s, the string figure (~1 h)")
    ap.add_argument("--quick", action="store_true", help="debugging: 2 rounds, no warm-up, small figures")
    ap.add_argument("--no-figures", action="store_true", help="same as --figures none")
    ap.add_argument("--figures", default=None, help="which work-precision figures [osc; --long: osc,string]")
    ap.add_argument("--wp-N", default="65,130,260", help="grids of the string's work-precision figure [65,130,260]")
    ap.add_argument("--string-N", type=int, default=None,
                    help=f"row 3's grid (below {STRING['N']} the target is missed) [{STRING['N']}; --quick: {STRING_SHORT_N}]")
    ap.add_argument("--bow-duration", type=float, default=None, help=f"row 4's sound, s [{BOW['duration']:g}; --long: {BOW['long']:g}]")
    a = ap.parse_args()
    if a.string_N is None:
        a.string_N = STRING_SHORT_N if a.quick else STRING["N"]
    if a.bow_duration is None:
        a.bow_duration = BOW["long"] if a.long else BOW["duration"]
    if a.figures is None:
        a.figures = "osc,string" if a.long else "osc"
    if a.quick:
        a.reps, a.reps_slow, a.reps_bow, a.warmup = min(a.reps, 2), 1, 1, 0
        a.wp_N = "65"
    os.makedirs(OUT, exist_ok=True)
    STRING["N"] = a.string_N
    ver = versions()
    log(ver)
    rows = {"1": row_reference, "2": row_drop, "3": row_string, "4": row_bow, "5": row_bow_realtime}
    titles = {"1": "(1) challenge reference WAV", "2": "(2) ball drop, 2 s, rtol 1e-8, atol 1e-12",
              "3": "(3) string, finite differences, E_wave <= 1e-3", "4": "(4) bowed string, CVODE over fixed step",
              "5": "(5) bowed string, fixed step against real time"}
    chosen = [k for k in a.rows.split(",") if k in rows]
    est, parts = estimate(a, chosen)
    print(f"bench: rows {','.join(chosen)}, figures {a.figures or 'none'}: estimated {est / 60:.0f} min on a quiet "
          f"2-core machine ({parts}; longer under load)", flush=True)
    # The page explorers' redraw and render times, measured in the browser (tests/bench/explore.sh).
    subprocess.run(["bash", f"{HERE}/explore.sh"], cwd=ROOT)
    results, extra = [], []
    t_start = time.time()
    for k in chosen:
        log(f"row {titles[k]}")
        try:
            res = rows[k](a)    # one result, or a list (row 2 and 2b share their rounds)
            for r in res if isinstance(res, list) else [res]:
                extra += r.get("wp", [])
        except NotMeasured as e:
            res = {"title": titles[k], "not_measured": str(e)}
        except Exception as e:  # a broken row must not hide the others
            res = {"title": titles[k], "not_measured": f"the harness failed: {type(e).__name__}: {e}"}
        results += res if isinstance(res, list) else [res]
        with open(os.path.join(OUT, "table.txt"), "w") as f:  # the table so far, should a later row be stopped
            print_table(results, a, ver, f)
    figs = []
    if not a.no_figures:
        for name, f in (("osc", lambda: figure_osc(a)), ("string", lambda: figure_string(a, extra))):
            if name not in a.figures.split(","):
                continue
            log(f"figure: work-precision, {name}")
            try:
                figs.append(f())
            except NotMeasured as e:
                figs.append(f"{name} figure not drawn: {e}")
            except Exception as e:
                figs.append(f"{name} figure not drawn: the harness failed: {type(e).__name__}: {e}")
    tsv = print_table(results, a, ver)
    print_summary(results)
    with open(os.path.join(OUT, "table.txt"), "w") as f:
        print_table(results, a, ver, f)
        print_summary(results, f)
    print("figures: " + ", ".join(figs) if figs else "figures: skipped (--no-figures)")
    print(f"bench took {time.time() - t_start:.0f} s; results: build/bench/results.tsv")
    with open(os.path.join(OUT, "results.tsv"), "w") as f:
        f.write(tsv)


if __name__ == "__main__":
    main()
