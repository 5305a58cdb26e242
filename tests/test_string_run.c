/* test_string_run: the string's runs (string/string_run) and the scoring of a submission
 * (score). Stability limits against the closed forms (RK4 on the imaginary axis 2 sqrt 2, forward
 * Euler on a damped mode 2 alpha / omega0^2), each run against the exact modal sum of its own
 * system, the phase-saturated share at its two ends and at one closed-form point, the best-run
 * and fewest-steps choices on made-up rows, the sweep estimate by hand, and score_submission,
 * the listening copy and the spectrogram data on signals whose answers are known; pluck.ini as
 * string_settings and each of its cross checks refusing. */
#include "check.h"
#include "io/atomic.h"
#include "io/h5.h"
#include "method/method.h"
#include "string/string.h"
#include "string/string_run.h"
#include "string/string_sweep.h"
#include "string/score.h"
#include "base/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void stability(void)
{
    string_mode undamped = {1e-3, 0.0, 1e6, 1.0};   /* omega0 = 1000 rad/s */
    int lim;
    double h = string_stable_h(&method_rk4, &undamped, 1, 0.0, &lim);
    check_close("RK4, undamped mode of 1000 rad/s: largest stable h (2 sqrt 2 / omega)", h, 2.0 * sqrt(2.0) / 1000.0,
                1e-9);
    check(lim == 1, "  and the mode that sets it is mode 1 (%d)", lim);
    h = string_stable_h(&method_trapezoid, &undamped, 1, 0.0, &lim);
    check(h == 1.0 && lim == 0, "trapezoid (A-stable): no limit below 1 s (h %g, mode %d)", h, lim);
    string_mode damped = {1e-3, 50.0, 1e6, 1.0};
    h = string_stable_h(&method_euler, &damped, 1, 0.0, &lim);
    check_close("forward Euler, alpha 50 1/s, omega0^2 1e6: largest stable h (2 alpha / omega0^2)", h, 1e-4, 1e-12);
    check(string_mode_growth(&method_euler, &undamped, 1e-4) > 1.0,
          "forward Euler grows on an undamped mode at any h (|R| = %.6f at h = 1e-4 s)",
          string_mode_growth(&method_euler, &undamped, 1e-4));
    string_mode two[2] = {damped, {1e-3, 0.0, 4e6, 1.0}};
    h = string_stable_h(&method_rk4, two, 2, 0.0, &lim);
    check(lim == 2 && fabs(h - sqrt(2.0) / 1000.0) < 1e-9, "RK4 on two modes: the faster (2000 rad/s) sets h = %.6g s "
          "(mode %d)", h, lim);
    /* a mode below its share of the tolerance is not stepped, so it cannot limit */
    h = string_stable_h(&method_rk4, two, 2, 1e9, &lim);
    check(h == 1.0 && lim == 0, "modes below their share of the tolerance are passed over (h %g, mode %d)", h, lim);
    check(string_modes_fastest(two, 2) == 1 && string_modes_fastest(two, 0) == -1,
          "the fastest of the two modes is index 1; of none, -1");
    check(string_substeps_for(48000.0, 1.0 / (3.0 * 48000.0)) == 3.0 && string_substeps_for(48000.0, 0.9 / 48000.0) == 2.0,
          "substeps for h <= 1/(3 fs): 3 (not 4 by round-off); for 0.9/fs: 2");
}

/* The challenge's string, its first M modes and a short signal. */
typedef struct fixture {
    string_params s;
    string_mode *modes;
    int nm;
    string_run_cfg cfg;
    double *exact, *out;
} fixture;

/* Adams-Moulton's stability limits: on the negative real axis the closed forms (order 3: 6,
 * order 4: 3, order 5: 90/49; Hairer-Wanner's intervals), A-stable orders 1, 2 without a limit; on
 * the near-imaginary ray of the string's fastest FD5 mode below the real-axis bound. */
static void adams_limits(void)
{
    check_close("Adams-Moulton order 3 on the negative real axis: h|lambda| <= 6", string_adams_limit(3, -1, 0), 6.0, 1e-7);
    check_close("  order 4: 3", string_adams_limit(4, -1, 0), 3.0, 1e-7);
    check_close("  order 5: 90/49", string_adams_limit(5, -1, 0), 90.0 / 49.0, 1e-7);
    check(isinf(string_adams_limit(1, -1, 1)) && isinf(string_adams_limit(2, -1e-3, 1)),
          "orders 1 and 2 (backward Euler, trapezoid: A-stable) have no limit");
    double r3 = string_adams_limit(3, -3843, 1.981e5);
    check(r3 > 0.7 && r3 < 0.9, "order 3 on the ray of lambda = -3843 + 1.981e5 i: %.4f (a damping of 2%% "
          "of |lambda| keeps a short stretch of the imaginary axis)", r3);
}

static void runs(fixture *f)
{
    string_run r;
    int M = f->nm < 40 ? f->nm : 40;
    string_pickup_signal(f->modes, M, f->cfg.fs, f->cfg.n, 0.0, f->exact, NULL);
    double e[2];
    long nfev = 0;
    for (int i = 0; i < 2; i++) {
        string_run_start(&r, "modal", M, "rk4", 8 << i);
        string_run_modal(&f->cfg, f->modes, M, &method_rk4, 8 << i, f->out, &r);
        e[i] = string_run_ok(&r) ? score_wave(f->out, f->exact, (size_t)f->cfg.n) : NAN;
        nfev += r.nfev;
    }
    check(e[0] < 1e-5 && e[0] / e[1] > 12 && e[0] / e[1] < 20 && nfev > 0,
          "RK4 on %d Galerkin modes against their exact sum: E_wave %.3g at m = 8, %.3g at m = 16 (ratio %.1f: order 4)",
          M, e[0], e[1], e[0] / e[1]);
    string_run_start(&r, "modal", M, "euler", 1);
    string_run_modal(&f->cfg, f->modes, M, &method_euler, 1, f->out, &r);
    check(strcmp(r.status, "blowup") == 0 && strstr(r.message, "mode ") == r.message,
          "forward Euler at h = 1/fs blows up, and says which mode (%s)", r.message);

    string_fd fd;
    char why[300];
    check(string_fd_init(&fd, &f->s, STRING_FD5, 65, true, why, sizeof why) == 0, "a 5-point grid of N = 65");
    string_mode *fm;
    int fnm = string_fd_modes(&fd, &fm);
    string_pickup_signal(fm, fnm, f->cfg.fs, f->cfg.n, 0.0, f->exact, NULL);
    string_run_start(&r, "fd5", 65, "cvode", 0);
    string_run_cvode(&f->cfg, &fd, NULL, f->out, &r);
    e[0] = score_wave(f->out, f->exact, (size_t)f->cfg.n);
    check(string_run_ok(&r) && strcmp(r.method, "cvode-bdf") == 0 && e[0] < 1e-5 && r.steps > 0,
          "CVODE on the grid = the grid's exact modal sum (E_wave %.3g, %s, %ld steps)", e[0], r.method, r.steps);
    const char *jacs = strstr(r.message, " Newton iterations");
    check(jacs && strstr(r.message, ", 1 Jacobians") && r.nfev < 3 * r.steps,
          "band Newton evaluates the grid's constant Jacobian once, analytically, no F for differences (%s; %ld F)",
          r.message, r.nfev);
    string_run_cfg fp = f->cfg;
    fp.adams = fp.fixedpoint = true;
    string_run_start(&r, "fd5", 65, "cvode", 0);
    string_run_cvode(&fp, &fd, NULL, f->out, &r);
    e[0] = score_wave(f->out, f->exact, (size_t)f->cfg.n);
    check(string_run_ok(&r) && strcmp(r.method, "cvode-adams") == 0 && e[0] < 1e-5 && strstr(r.message, " fixed-point ")
          && strstr(r.message, ", 0 Jacobians"), "Adams with fixed-point iteration on the grid = its exact sum, no "
          "Jacobian (E_wave %.3g; %s)", e[0], r.message);
    double w = sqrt(fm[string_modes_fastest(fm, fnm)].omega0sq);
    for (int i = 0; i < 2; i++) {
        string_run_start(&r, "fd5", 65, "trapezoid", 4 << i);
        string_run_fd(&f->cfg, &fd, w, &method_trapezoid, 4 << i, f->out, &r);
        e[i] = string_run_ok(&r) ? score_wave(f->out, f->exact, (size_t)f->cfg.n) : NAN;
    }
    check(e[0] / e[1] > 3.5 && e[0] / e[1] < 4.5, "trapezoid on the grid against its exact sum: E_wave %.3g at m = 4, "
          "%.3g at m = 8 (ratio %.2f: order 2)", e[0], e[1], e[0] / e[1]);
    string_study_row row = {3, false, 0, 0, 0, 0, 0};
    string_study_run(&f->cfg, &fd, NULL, 1e-3, 50, &row);
    check(row.steps == 50 && row.t > 0 && row.t < 1e-3, "an order-study run stops at its step budget (%ld steps, "
          "t = %.3g s)", row.steps, row.t);
    free(fm);
}

static void share(void)
{
    string_mode ex = {1e-3, 5.0, 1e6, 1.0}, same = ex, far = ex, half = ex;
    double T = 0.2;
    check(string_phase_saturated_share(&ex, 1, &same, 1, T) == 0.0, "no drift: no saturated share");
    far.omega0sq = 4e6;     /* drifts a radian in 1 ms */
    double s_far = string_phase_saturated_share(&ex, 1, &far, 1, T);
    check(s_far > 0.98 && s_far < 1.0, "a drift of 1000 rad/s over 0.2 s: nearly all of it (%.4f)", s_far);
    /* t1 = T/2: share = (e^{-a T} - e^{-2 a T}) / (1 - e^{-2 a T}) with a2 = 2 alpha */
    double w1 = sqrt(ex.omega0sq - ex.alpha * ex.alpha), w2 = w1 + 2.0 / T;
    half.omega0sq = w2 * w2 + half.alpha * half.alpha;
    double a2 = 2.0 * ex.alpha, want = (exp(-a2 * T / 2) - exp(-a2 * T)) / (1 - exp(-a2 * T));
    check_close("a radian of phase at T/2: the energy after it", string_phase_saturated_share(&ex, 1, &half, 1, T), want,
                1e-9);
}

static void choices(void)
{
    string_run r[4];
    string_run_start(&r[0], "modal", 10, "rk4", 1);
    string_run_start(&r[1], "modal", 10, "rk4", 2);
    string_run_start(&r[2], "modal", 10, "rk4", 4);
    string_run_start(&r[3], "modal", 10, "heun", 1);
    r[0].E_wave = 1e-2, r[1].E_wave = 1e-4, r[2].E_wave = 1e-6, r[3].E_wave = 1e-3;
    r[2].status = "blowup";
    check(string_run_best(r, 4, "rk4") == &r[1], "the best rk4 run is the ok one with the smallest E_wave (m = 2)");
    check(string_run_best(r, 4, "euler") == NULL, "no euler run: no best");
    string_study_row q[3] = {{1, false, 0.1, 1000, 0, 0, 0}, {2, false, 0.2, 1000, 0, 0, 0}, {3, false, 0.4, 1000, 0, 0, 0}};
    const string_study_row *q2, *best = string_study_fewest(q, 3, &q2);
    check(best == &q[2] && q2 == &q[1], "fewest steps per second: q = 3 (2500/s); the q = 2 row found");
    string_sweep_plan p = {100.0, 1.0, 10.0, 1, 2, 64, 32, 1, 0, 0, 1, 0, true, false, false, false};
    double work = 0, wavs = 0, mem = 0;
    string_sweep_estimate(&p, &work, &wavs, &mem);
    check(work == 2.0 * 10 * 100 * (1 + 2) + 10 * 100 && wavs == 4 && mem == 0,
          "the estimate of a modal sweep, m = 1, 2, one method: 2 M n (1 + 2) + M n = %g unknown-steps, %g WAVs", work, wavs);
}

static void scoring(void)
{
    challenge ch;
    char err[800], dir[] = "/tmp/test_string_run_XXXXXX", path[4096];
    check(challenge_load(challenge_path(), &ch, err, sizeof err) == 0, "challenge.json loads");
    check(mkdtemp(dir) != NULL, "a scratch folder");
    size_t n = 4096;
    ch.num_samples = (long)n;
    double *x = xcalloc(n, sizeof(double)), *y = xcalloc(n, sizeof(double));
    for (size_t k = 0; k < n; k++)
        x[k] = ch.signal_scale * 0.5 * exp(-1e-3 * k) * sin(0.05 * k), y[k] = 1.01 * x[k];
    path_join(path, sizeof path, dir, "ref.wav");
    wav_data ref;
    check(wav_write_back(path, x, n, ch.sample_rate, 1.0 / ch.signal_scale, &ref, err, sizeof err) == 0, "a reference");
    double ew, es;
    path_join(path, sizeof path, dir, "sub.wav");
    int rc = score_submission(path, y, n, ch.sample_rate, &ch, &ref, &ew, &es, err, sizeof err);
    check(rc == 0 && fabs(ew - 0.01) < 1e-6 && fabs(es - 0.01) < 1e-6,
          "1.01 x the reference, written and read back: E_wave %.7f, E_spec %.7f (0.01)", ew, es);
    rc = score_submission(path, y, n, ch.sample_rate + 1, &ch, &ref, &ew, &es, err, sizeof err);
    check(rc != 0 && strstr(err, "sample rate") != NULL, "at the wrong rate it is refused, saying so (%s)", err);
    double cut, limited;
    double *l = score_listening_copy(x, (long)n, 2.0 / ch.signal_scale, 0.5, 0.01, ch.sample_rate, &cut, &limited);
    check(max_abs(l, n) <= 0.5 && fabs(cut - 20 * log10(max_abs(x, n) * 2 / ch.signal_scale / 0.5)) < 1e-9 && limited > 0,
          "the limiter holds a peak of %.3f to 0.5, its cut %.3f dB is the overshoot", max_abs(x, n) * 2 / ch.signal_scale, cut);
    free(l);
    l = score_listening_copy(x, (long)n, 0.1, 0.98, 0.01, ch.sample_rate, &cut, &limited);
    check(cut == 0 && limited == 0 && l[100] == 0.1 * x[100], "below the ceiling it is the gain alone");
    free(l);
    path_join(path, sizeof path, dir, "sp.tsv");
    FILE *f = fopen(path, "w+");
    score_spectrogram_tsv(f, x, n, 1024, 512, ch.sample_rate, 8000.0);
    rewind(f);
    char line[200];
    double top = -1e9, t, fq, db;
    int rows = 0;
    check(fgets(line, sizeof line, f) && strcmp(line, "t_s\tf_Hz\tlevel_dB\n") == 0, "the spectrogram's header");
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%lf %lf %lf", &t, &fq, &db) == 3)
            rows++, top = fmax(top, db);
    check(top == 0.0 && rows == 7 * 171, "its loudest bin is 0 dB; 7 frames of 171 bins up to 8 kHz (%d rows)", rows);
    fclose(f);
    wav_data_free(&ref);
    free(x), free(y);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    check(system(cmd) == 0, "scratch folder removed");
}

static void count_done(string_sweep *w, string_run *r, void *ctx)
{
    (void)w, (void)r;
    ++*(int *)ctx;
}

/* A small sweep end to end: the exact Galerkin sum scored against itself, RK4 at m = 1, 2, the
 * notes, the figure tables and picks; and the field file of the series read back. */
static void sweep_and_field(fixture *f)
{
    challenge ch;
    char err[800], dir[] = "/tmp/test_string_sweep_XXXXXX", path[4096];
    check(challenge_load(challenge_path(), &ch, err, sizeof err) == 0 && mkdtemp(dir) != NULL, "challenge, scratch folder");
    ch.num_samples = f->cfg.n;
    int M = 10, calls = 0;
    string_pickup_signal(f->modes, M, f->cfg.fs, f->cfg.n, f->cfg.tol_abs, f->exact, NULL);
    path_join(path, sizeof path, dir, "ref.wav");
    wav_data ref;
    check(wav_write_back(path, f->exact, (size_t)f->cfg.n, ch.sample_rate, 1.0 / ch.signal_scale, &ref, err,
                         sizeof err) == 0, "the reference: the exact sum of %d modes", M);
    static method_set methods;
    method_set_init(&methods);
    string_sweep w = {.cfg = f->cfg, .program = "test_string_run", .out = dir, .ch = &ch, .ref = &ref, .space = "modal",
                      .method = "all", .duration = (double)f->cfg.n / f->cfg.fs, .sub_min = 1, .sub_max = 2, .N_min = 65,
                      .N_max = 65, .fd_sub = 1, .fd_fixed_N_max = 65, .cvode_N_max = 65, .done = count_done, .ctx = &calls,
                      .methods = &methods};
    string_sweep_init(&w);
    failure why;
    int written = string_sweep_modal(&w, f->modes, M, &why);
    const string_run *ex = string_run_best(w.runs, w.nrun, "exact"), *rk = string_run_best(w.runs, w.nrun, "rk4");
    int nmeth = methods.n;
    check(written == 0 && calls == (int)w.nrun && w.nrun == 1 + 2 * (size_t)nmeth, "every run handed on: %d of %zu (exact + 2 x %d methods)",
          calls, w.nrun, nmeth);
    check(ex && ex->E_wave < 1e-7, "the exact sum against itself, through float32: E_wave %.2g", ex ? ex->E_wave : NAN);
    check(rk && rk->substeps == 2 && rk->E_wave < 1e-3 && strstr(w.notes, "modal M = 10, rk4: stable only") != NULL,
          "RK4's best is m = 2 (E_wave %.3g), its stability limit in the notes", rk ? rk->E_wave : NAN);
    double finest = INFINITY;
    for (size_t i = 0; i < w.nrun; i++)
        if (string_run_ok(&w.runs[i]) && strcmp(w.runs[i].method, "exact") != 0)
            finest = fmin(finest, w.runs[i].E_wave);
    check(w.fine_err == finest && w.fine_name[0] && !w.coarse_name[0],
          "the 20 ms figure's fine run is the best stepped one (%s, E_wave %.3g); no grid ran, no coarse one",
          w.fine_name, w.fine_err);
    path_join(path, sizeof path, dir, "modal-rk4.tsv");
    FILE *t = fopen(path, "r");
    char line[200];
    int rows = 0;
    while (t && fgets(line, sizeof line, t))
        rows++;
    check(t && rows == 3, "modal-rk4.tsv: a header and a row a substep count (%d lines)", rows);
    if (t)
        fclose(t);
    string_sweep_free(&w);
    wav_data_free(&ref);

    h5_attr at[] = {{"units", "m"}, {NULL, NULL}};
    path_join(path, sizeof path, dir, "u.h5");
    int rc = string_field_write(path, &f->s, f->modes, f->nm, 14, 5, 0.01, at, err, sizeof err);
    size_t nx, nt;
    double x[14], tt[5];
    float u[70];
    char val[16];
    rc = rc || h5_read_field(path, &nx, &nt, x, tt, u, "units", val, sizeof val, err, sizeof err);
    check(rc == 0 && nx == 14 && nt == 5 && fabs(x[13] - f->s.L) < 1e-15 && fabs(tt[4] - 0.01) < 1e-15 &&
              strcmp(val, "m") == 0 && fabs(u[7] - string_u0(&f->s, x[7])) < 1e-9 && u[0] == 0.0f,
          "the field file: 5 x 14 on [0, L] x [0, 0.01 s], the t = 0 row is u0 (%s; x_13 %.17g, t_4 %.17g, u_7 %.9g vs "
          "%.9g)", rc ? err : "read back", x[13], tt[4], u[7], string_u0(&f->s, x[7]));
    snprintf(line, sizeof line, "rm -rf '%s'", dir);
    check(system(line) == 0, "scratch folder removed");
}

/* The settings of pluck.ini load whole and pass; each cross check refuses with its one line. */
static void settings(void)
{
    string_settings st;
    char err[600];
    int rc = string_settings_load(&st, "lessons/params/pluck.ini", err, sizeof err);
    check(rc == 0, "pluck.ini loads as string_settings (%s)", rc ? err : "ok");
    check(string_settings_check(&st, 48000, true, err, sizeof err) == 0, "  and passes the cross checks");
    string_settings bad = st;
    bad.sub_min = bad.sub_max + 1;
    check(string_settings_check(&bad, 48000, true, err, sizeof err) == -1 && strstr(err, "out of order; accepted: min <= max"),
          "substeps min above max: refused (%s)", err);
    bad = st, bad.modes = 2.5;
    check(string_settings_check(&bad, 48000, true, err, sizeof err) == -1 &&
          strcmp(err, "--modes 2.5 is not accepted; accepted: a whole number") == 0, "--modes 2.5: refused (%s)", err);
    check(string_settings_check(&st, 44100.5, true, err, sizeof err) == -1 && strstr(err, "--fs 44100.5"),
          "fs 44100.5: refused (%s)", err);
    bad = st, bad.max_order = 6;
    check(string_settings_check(&bad, 48000, true, err, sizeof err) == -1 && strstr(err, "--cvode-lmm bdf; accepted: 1 to 5"),
          "BDF order cap 6: refused (%s)", err);
    check(string_settings_check(&bad, 48000, false, err, sizeof err) == 0, "  and accepted with Adams");
}

int main(void)
{
    stability();
    adams_limits();
    settings();
    fixture f = {{0.65, 143.0, 3.0, 0.004, 0.002, 0.1625, 0.006, 0.54}, NULL, 0, {48000, 2400, 2.5e-10, 1e4, false, false,
                 1e-9, 1e-10, 5, false, NULL}, NULL, NULL};
    f.nm = string_reference_modes(&f.s, 1.0 / 48000, 2.5e-10, 2000000, &f.modes);
    f.exact = xcalloc(2400, sizeof(double));
    f.out = xcalloc(2400, sizeof(double));
    runs(&f);
    share();
    choices();
    scoring();
    sweep_and_field(&f);
    free(f.modes), free(f.exact), free(f.out);
    return check_done();
}
