/* Lesson 9, "The plucked string": string-pluck-v1. The modal series is the exact answer
 * (--reference writes the deliverable WAV, --field the HDF5 field, --listen a copy for the ear);
 * --solve turns the PDE into y' = F(y) twice, as the truncated modal (Galerkin) system, where
 * only the time stepping errs, and as finite differences in space (3- and 5-point stencils),
 * where space errs too, steps both with every method of the table and with CVODE, and scores
 * every solution against the reference as the challenge does (E_wave, E_spec).
 * With no mode flag it does both, with a modest sweep (what `make run` executes). */
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "io/atomic.h"
#include "io/h5.h"
#include "io/params.h"
#include "io/table.h"
#include "io/wav.h"
#include "io/plot.h"
#include "measure/measure.h"
#include "method/method.h"
#include "method/tableau.h"
#include "models/string.h"
#include "measure/score.h"
#include "drive/solve.h"
#include "base/util.h"
#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the lesson is asked to do, after the flags. */
typedef struct settings {
    challenge ch;               /* the challenge, with the string as the flags left it */
    double fs;                  /* sample rate, Hz */
    double duration;            /* s */
    long n;                     /* samples */
    double tol;                 /* series tolerance, units of s_ref */
    double modes;               /* Galerkin size M */
    double sub_min, sub_max;    /* substep sweep (powers of two between) */
    double N_min, N_max;        /* FD sweep (doublings) */
    double fd_sub;              /* substeps of the fixed-step FD runs */
    double fd_fixed_N_max;      /* largest N of the fixed-step FD runs */
    double rtol, atol;          /* CVODE tolerances (1; m) */
    double cvode_N_max;         /* largest N of the CVODE FD runs */
    double cvode_modal;         /* 1: CVODE on the Galerkin system too */
    double max_order;           /* CVODE's largest order (1-5 for BDF, 1-12 for Adams) */
    double stab_lim;            /* 1: BDF stability-limit detection */
    double study_T;             /* order study: simulated time per run, s (0: no study) */
    double study_N;             /* order study: N of its 5-point grid */
    double study_steps;         /* order study: internal steps allowed per run */
    double blowup;              /* blow-up factor */
    double ceiling, release;    /* --listen limiter: full scale; s */
    const char *space, *method; /* sweep filters */
    const char *lmm;            /* CVODE's family: "bdf" or "adams" */
    const char *out;            /* data folder */
    bool tsv;
} settings;

/* One solution and its score. */
typedef struct run {
    const char *space;          /* "modal", "fd3", "fd5" */
    long size;                  /* M modes or N intervals */
    char method[32];            /* method name, "cvode-bdf" or "exact" */
    long substeps;              /* m (0 for CVODE and the exact semi-discrete solution) */
    double E_wave, E_spec;      /* scores (inf when it blew up) */
    double seconds;             /* wall time of the solve, s */
    long nfev;                  /* F evaluations (for the modal system: of all 2x2 mode problems) */
    long steps;                 /* CVODE's internal steps (0 for fixed steps) */
    const char *status;         /* "ok", "blowup", "refused", "failed" */
    char message[640];          /* why, when not ok */
} run;

/* ---- the modal (Galerkin) system stepped mode by mode ---- */

/* Is the method stable for the damped oscillator (alpha, omega0^2) at step h? From its R. */
static double growth(const method *m, const string_mode *md, double h)
{
    double d = md->omega0sq - md->alpha * md->alpha;
    if (m->needs_uv) /* R is its amplification on the undamped oscillator (method/leapfrog.c) */
        return cabs(m->R(I * h * sqrt(md->omega0sq)));
    double complex l1, l2;
    if (d >= 0)
        l1 = -md->alpha + I * sqrt(d), l2 = conj(l1);
    else
        l1 = -md->alpha + sqrt(-d), l2 = -md->alpha - sqrt(-d);
    return fmax(cabs(m->R(h * l1)), cabs(m->R(h * l2)));
}

/* Largest h (s) at which every mode is stable, and the mode that sets it (0: no limit below 1 s). */
static double stable_h(const method *m, const string_mode *modes, int nm, double skip_below, int *limiting)
{
    double best = 1.0;
    *limiting = 0;
    for (int j = 0; j < nm; j++) {
        /* a mode the run does not step (it contributes nothing) cannot blow up */
        if (string_mode_velocity_bound(&modes[j], 0.0) < skip_below * 3.0 / (M_PI * M_PI * (j + 1.0) * (j + 1.0)))
            continue;
        if (growth(m, &modes[j], best) <= 1.0 + 1e-12)
            continue;
        double lo = 0.0, hi = best;     /* stable at lo, unstable at hi */
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            if (growth(m, &modes[j], mid) <= 1.0 + 1e-12)
                lo = mid;
            else
                hi = mid;
        }
        best = lo;
        *limiting = j + 1;
    }
    return best;
}

typedef struct mode_ctx {
    double *out;                /* the pickup signal being summed, m/s */
    double pickup;              /* this mode's pickup weight */
    double omega0;              /* rad/s, for the state's size */
    double eps;                 /* below this (m/s) a stable mode has stopped contributing */
    bool may_stop;              /* the method is stable for this mode */
    long every;                 /* substeps per sample */
} mode_ctx;

static int mode_sink(long k, double t, const double *y, void *c)
{
    (void)t;
    mode_ctx *mc = c;
    mc->out[k / mc->every] += mc->pickup * y[1];
    /* the state's size bounds its future contribution when the method does not amplify it */
    return mc->may_stop && k > 0 && fabs(mc->pickup) * hypot(mc->omega0 * y[0], y[1]) < mc->eps;
}

static void solve_modal(const settings *st, const string_mode *modes, int M, const method *m, long sub, double *out,
                        run *r)
{
    double h = 1.0 / (st->fs * (double)sub), tol_abs = st->tol * st->ch.signal_scale;
    memset(out, 0, (size_t)st->n * sizeof(double));
    double t0 = wall_seconds();
    r->nfev = 0;
    /* fastest modes first: a blow-up shows at once */
    for (int j = M - 1; j >= 0; j--) {
        const string_mode *md = &modes[j];
        double eps = tol_abs * 3.0 / (M_PI * M_PI * (j + 1.0) * (j + 1.0));
        if (string_mode_velocity_bound(md, 0.0) < eps)
            continue;   /* e.g. every 4th mode: sin(k_n xp) = 0 for xp = L/4 */
        string_mode_problem mp = {*md};
        ivp p = string_mode_ivp(&mp);
        double y[2] = {md->amplitude, 0.0}, om = sqrt(md->omega0sq);
        mode_ctx mc = {out, md->pickup, om, eps, growth(m, md, h) <= 1.0, sub};
        solve_opts so = {m, 0.0, h, (st->n - 1) * sub, st->blowup * fabs(md->amplitude) * fmax(1.0, om), sub,
                         mode_sink, &mc};
        solve_result res;
        /* a workspace per mode: an implicit method keeps the LU factors of its mode's matrix */
        solve_status s = solve_fixed(&p, y, &so, NULL, &res);
        budget_tick(2.0 * (double)so.n);
        r->nfev += res.counts.nfev;
        if (s == SOLVE_BLOWUP || s == SOLVE_FAILED) {
            r->status = s == SOLVE_BLOWUP ? "blowup" : "refused";
            snprintf(r->message, sizeof r->message, "mode %d (omega = %.4g rad/s): %s", j + 1, om, res.message);
            break;
        }
    }
    r->seconds = wall_seconds() - t0;
}

/* ---- finite differences, fixed steps ---- */
typedef struct fd_ctx {
    const string_fd *fd;
    double *out;                /* m/s */
    long every;
} fd_ctx;

static int fd_sink(long k, double t, const double *y, void *c)
{
    (void)t;
    fd_ctx *fc = c;
    fc->out[k / fc->every] = string_fd_pickup(fc->fd, y);
    return 0;
}

/* fastest angular frequency of a mode list, rad/s */
static double fastest(const string_mode *modes, int nm)
{
    double w = 0.0;
    for (int j = 0; j < nm; j++)
        w = fmax(w, sqrt(modes[j].omega0sq));
    return w;
}

static void solve_fd(const settings *st, string_fd *fd, double omega_max, const method *m, long sub, double *out,
                     run *r)
{
    memset(out, 0, (size_t)st->n * sizeof(double));
    ivp p = string_fd_ivp(fd);
    double *y = xcalloc(p.dim, sizeof(double));
    string_fd_initial(fd, y);
    fd_ctx fc = {fd, out, sub};
    double size = max_abs(y, p.dim) * fmax(1.0, omega_max);
    solve_opts so = {m, 0.0, 1.0 / (st->fs * (double)sub), (st->n - 1) * sub, st->blowup * size, sub, fd_sink, &fc};
    solve_result res;
    solve_status s = solve_fixed(&p, y, &so, NULL, &res);
    budget_tick((double)p.dim * (double)so.n * (m->implicit ? 20.0 : 1.0));
    if (s == SOLVE_BLOWUP || s == SOLVE_FAILED) {
        r->status = s == SOLVE_BLOWUP ? "blowup" : "refused";
        snprintf(r->message, sizeof r->message, "%s", res.message);
    }
    r->seconds = res.seconds;
    r->nfev = res.counts.nfev;
    free(y);
}

/* ---- CVODE on either system (interleaved, banded) ---- */
typedef struct cv_ctx {
    const string_fd *fd;        /* NULL for the Galerkin system */
    const string_galerkin *g;
    double *out;
} cv_ctx;

static int cv_sink(long k, double t, const double *y, void *c)
{
    (void)t;
    cv_ctx *cc = c;
    cc->out[k] = cc->fd ? string_fd_pickup(cc->fd, y) : string_galerkin_pickup(cc->g, y);
    return 0;
}

/* CVODE's settings for either system: the family, Newton on the band Jacobian, the tolerances,
 * the order cap and stability-limit detection. */
static cvode_opts string_cvode_opts(const settings *st, const string_fd *fd, int max_order, bool stab_lim)
{
    cvode_opts o = cvode_defaults();
    o.lmm = strcmp(st->lmm, "adams") == 0 ? CVODE_ADAMS : CVODE_BDF;
    o.solver = CVODE_BAND;
    o.upper = o.lower = fd ? string_fd_bandwidth(fd) : 1;
    o.rtol = st->rtol;
    o.atol = st->atol;
    o.max_steps = 100000;
    o.max_order = max_order;
    o.stab_lim_det = stab_lim;
    return o;
}

/* CVODE over the first nsamp samples (st->n for a scored run) with order cap max_order and
 * stability-limit detection stab_lim. */
static void solve_cvode(const settings *st, string_fd *fd, string_galerkin *g, long nsamp, int max_order,
                        bool stab_lim, double *out, run *r)
{
    memset(out, 0, (size_t)st->n * sizeof(double));
    ivp p = fd ? string_fd_ivp(fd) : string_galerkin_ivp(g);
    double *y = xcalloc(p.dim, sizeof(double)), *tout = xcalloc((size_t)nsamp, sizeof(double));
    if (fd)
        string_fd_initial(fd, y);
    else
        string_galerkin_initial(g, y);
    for (long k = 0; k < nsamp; k++)
        tout[k] = (double)k / st->fs;
    cvode_opts o = string_cvode_opts(st, fd, max_order, stab_lim);
    o.tout = tout;
    o.nout = (size_t)nsamp;
    cv_ctx cc = {fd, g, out};
    o.sink = cv_sink;
    o.ctx = &cc;
    cvode_stats cs;
    memset(&cs, 0, sizeof cs);
    char err[400];
    if (cvode_solve(&p, 0.0, y, tout[nsamp - 1], &o, &cs, err, sizeof err) != 0) {
        r->status = "failed";
        snprintf(r->message, sizeof r->message, "%s", err);
    }
    snprintf(r->method, sizeof r->method, "%s", cvode_name(&o));
    if (strcmp(r->status, "ok") == 0)
        snprintf(r->message, sizeof r->message,
                 "%ld steps (last %.3g s), %ld error-test failures, %ld Newton iterations, %ld convergence failures, "
                 "%ld Jacobians", cs.steps, cs.last_h, cs.netf, cs.nniters, cs.nncf, cs.njev);
    r->seconds = cs.seconds;
    r->nfev = cs.nfev + cs.nfev_jac;
    r->steps = cs.steps;
    free(y);
    free(tout);
}

/* ---- the order study: what CVODE's BDF pays per second of sound against its order cap ---- */
typedef struct study_ctx {
    long budget;                /* internal steps allowed */
    long steps;                 /* taken so far */
    double t;                   /* time reached, s */
} study_ctx;

static int study_step(double t, double h, const double *y, void *c)
{
    (void)h, (void)y;
    study_ctx *sc = c;
    sc->t = t;
    return ++sc->steps >= sc->budget;   /* stop once the budget is spent */
}

typedef struct study_row {
    int max_order;              /* CVODE's order cap q */
    bool stab_lim;              /* stability-limit detection */
    double t;                   /* simulated time reached, s */
    long steps, nfev, netf;     /* internal steps, F evaluations (Jacobians included), error-test failures */
    double seconds;             /* wall time, s */
} study_row;

/* CVODE on fd (or g) from 0 to t1 or until budget steps, whichever comes first. */
static void study_cvode(const settings *st, const string_fd *fd, const string_galerkin *g, double t1, long budget,
                        study_row *row)
{
    ivp p = fd ? string_fd_ivp((string_fd *)fd) : string_galerkin_ivp((string_galerkin *)g);
    double *y = xcalloc(p.dim, sizeof(double));
    if (fd)
        string_fd_initial(fd, y);
    else
        string_galerkin_initial(g, y);
    cvode_opts o = string_cvode_opts(st, fd, row->max_order, row->stab_lim);
    study_ctx sc = {budget, 0, 0.0};
    o.on_step = study_step;
    o.ctx = &sc;
    o.max_steps = budget + 1;
    cvode_stats cs;
    char err[400];
    if (cvode_solve(&p, 0.0, y, t1, &o, &cs, err, sizeof err) == 0)
        sc.t = t1;
    row->t = sc.t;
    row->steps = cs.steps;
    row->nfev = cs.nfev + cs.nfev_jac;
    row->netf = cs.netf;
    row->seconds = cs.seconds;
    free(y);
}

/* ---- scoring: write the challenge WAV, read it back, check it, score it ---- */
static void score_run(const settings *st, const double *sig, const wav_data *ref, run *r)
{
    r->E_wave = r->E_spec = INFINITY;
    if (strcmp(r->status, "ok") != 0)
        return;
    char name[160], path[4096], err[600];
    snprintf(name, sizeof name, "wav/%s-%ld-%s-m%ld.wav", r->space, r->size, r->method, r->substeps);
    path_join(path, sizeof path, st->out, name);
    wav_data sub;
    if (wav_write_back(path, sig, (size_t)st->n, (int)st->fs, 1.0 / st->ch.signal_scale, &sub, err, sizeof err) ||
        score_check_format(&sub, &st->ch, err, sizeof err)) {
        r->status = "failed";
        snprintf(r->message, sizeof r->message, "%s", err);
        return;
    }
    r->E_wave = score_wave(sub.x, ref->x, (size_t)st->n);
    r->E_spec = score_spec(sub.x, ref->x, (size_t)st->n, st->ch.frame_length, st->ch.hop);
    wav_data_free(&sub);
}

/* ---- figure data ---- */
/* The listening copy: gain, then a limiter with instant attack (it never exceeds the ceiling)
 * and an exponential release. */
static double *listening_copy(const double *x, long n, double gain, double ceiling, double release, double fs,
                              double *max_cut_db, double *limited_s)
{
    double *y = xcalloc((size_t)n, sizeof(double)), env = 0.0, fall = exp(-1.0 / (release * fs));
    long limited = 0;
    *max_cut_db = 0.0;
    for (long k = 0; k < n; k++) {
        double v = x[k] * gain;
        env = fmax(fabs(v), env * fall);
        y[k] = env > ceiling ? v * ceiling / env : v;
        if (env > ceiling) {
            limited++;
            *max_cut_db = fmax(*max_cut_db, 20.0 * log10(env / ceiling));
        }
    }
    *limited_s = (double)limited / fs;
    return y;
}

static bool want(const char *filter, const char *name) { return strcmp(filter, "all") == 0 || strcmp(filter, name) == 0; }

/* The finest stepped solution so far (its first 20 ms) for the figure. */
typedef struct fine_pick {
    double *x;                  /* first samples, m/s */
    long n;                     /* how many */
    double err;                 /* its E_wave */
    char name[96];              /* legend */
} fine_pick;

static void consider_fine(fine_pick *f, const run *r, const double *sig)
{
    if (strcmp(r->status, "ok") != 0 || strcmp(r->method, "exact") == 0 || !(r->E_wave < f->err))
        return;
    f->err = r->E_wave;
    memcpy(f->x, sig, (size_t)f->n * sizeof(double));
    if (r->substeps > 0)
        snprintf(f->name, sizeof f->name, "%s %ld, %s, h = 1/(%ld fs)", r->space, r->size, r->method, r->substeps);
    else
        snprintf(f->name, sizeof f->name, "%s %ld, %s", r->space, r->size, r->method);
}

static void print_row(table *t, const run *r)
{
    table_cell(t, "%s", r->space);
    table_cell(t, "%ld", r->size);
    table_cell(t, "%s", r->method);
    table_cell(t, "%ld", r->substeps);
    table_cell(t, "%.4e", r->E_wave);
    table_cell(t, "%.4e", r->E_spec);
    table_cell(t, "%.3f", r->seconds);
    table_cell(t, "%ld", r->nfev);
    table_cell(t, "%s", r->status);
}

/* The order study: CVODE's BDF on the 5-point grid and on the Galerkin system with its order
 * capped at q = 1..5 (and stability-limit detection at q >= 3), each over the first study_T s
 * or study_steps steps; what a second of sound costs. Writes cvode-order.tsv, prints the table
 * and what it says about Dahlquist's second barrier. */
static void order_study(const settings *st, const string_params *s, const string_mode *modes, int M)
{
    char err[300];
    string_fd fd;
    if (string_fd_init(&fd, s, STRING_FD5, (long)st->study_N, true, err, sizeof err) != 0)
        cli_fail("pluck", "--cvode-study-N %g: %s", st->study_N, err);
    string_galerkin g = {(string_mode *)modes, M};
    /* the fastest, least damped mode of the grid: its angle from the negative real axis */
    string_mode *fm;
    int fnm = string_fd_modes(&fd, &fm);
    double w_top = 0.0, a_top = 0.0;
    for (int j = 0; j < fnm; j++)
        if (sqrt(fm[j].omega0sq) > w_top)
            w_top = sqrt(fm[j].omega0sq), a_top = fm[j].alpha;
    free(fm);
    double angle = atan2(sqrt(fmax(w_top * w_top - a_top * a_top, 0.0)), a_top) * 180.0 / M_PI;
    enum { NQ = 5 };
    study_row rows[2][2 * NQ];
    int nrows[2] = {0, 0};
    atomic_file a;
    FILE *f = atomic_open_or_exit(&a, "pluck", st->out, "cvode-order.tsv");
    fprintf(f, "system\tsize\tmax_order\tstab_lim\tt_s\tsteps\tnfev\tnetf\tseconds\tsteps_per_s\twall_per_s\n");
    /* blocks for the figure: fd5 without and with detection, then the Galerkin system likewise */
    for (int sys = 0; sys < 2; sys++)
        for (int sl = 0; sl <= 1; sl++) {
            for (int q = sl ? 3 : 1; q <= NQ; q++) {
                study_row *r = &rows[sys][nrows[sys]++];
                memset(r, 0, sizeof *r);
                r->max_order = q;
                r->stab_lim = sl;
                study_cvode(st, sys == 0 ? &fd : NULL, sys == 0 ? NULL : &g, st->study_T, (long)st->study_steps, r);
                fprintf(f, "%s\t%ld\t%d\t%d\t%.6g\t%ld\t%ld\t%ld\t%.6g\t%.6g\t%.6g\n", sys == 0 ? "fd5" : "modal",
                        sys == 0 ? (long)st->study_N : (long)M, q, sl, r->t, r->steps, r->nfev, r->netf, r->seconds,
                        r->t > 0 ? (double)r->steps / r->t : NAN, r->t > 0 ? r->seconds / r->t : NAN);
            }
            fprintf(f, "\n\n");
        }
    atomic_commit_or_exit(&a, "pluck");
    if (st->tsv)
        return;
    printf("\nCVODE BDF against its order cap q (rtol %g, atol %g): cost per second of sound over the first %g s, while\n"
           "the fast modes ring (or %g steps)\n", st->rtol, st->atol, st->study_T, st->study_steps);
    printf("  %-10s %2s %5s %12s %12s %12s\n", "system", "q", "stab", "steps/s", "F evals/s", "wall s/s");
    for (int sys = 0; sys < 2; sys++)
        for (int i = 0; i < nrows[sys]; i++) {
            const study_row *r = &rows[sys][i];
            char name[32];
            snprintf(name, sizeof name, "%s %ld", sys == 0 ? "fd5" : "modal", sys == 0 ? (long)st->study_N : (long)M);
            printf("  %-10s %2d %5s %12.4g %12.4g %12.4g\n", name, r->max_order, r->stab_lim ? "on" : "off",
                   (double)r->steps / r->t, (double)r->nfev / r->t, r->seconds / r->t);
        }
    /* what it says: the cap with the fewest steps per second on the grid, against q = 2 */
    const study_row *best = NULL, *q2 = NULL;
    for (int i = 0; i < nrows[0]; i++) {
        const study_row *r = &rows[0][i];
        if (!best || r->steps / r->t < best->steps / best->t)
            best = r;
        if (r->max_order == 2)
            q2 = r;
    }
    printf("Dahlquist's second barrier: no A-stable linear multistep method has order above 2. BDF1-2 are A-stable;\n"
           "BDF3-5 are stable only in sectors of 86, 73 and 52 degrees about the negative real axis, and the string's\n"
           "lightly damped modes lie outside them (fd5 N = %ld: the fastest, omega = %.4g rad/s with alpha = %.4g 1/s,\n"
           "at %.1f degrees). Measured here: the fewest steps per second at q = %d%s (%.3g); q = 2 takes %.2f times as many:\n"
           "%s\n",
           (long)st->study_N, w_top, a_top, angle, best->max_order, best->stab_lim ? " with stability-limit detection" : "",
           best->steps / best->t, (q2->steps / q2->t) / (best->steps / best->t),
           best->max_order > 2 ? "the cap does not pay here: the low orders' A-stability does not make up for their larger\n"
                                 "error per step, and the default cap stays at the fastest order."
                               : "capping the order at 2 buys A-stability, and the step is then held by accuracy alone.");
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. RK4 on the Galerkin string (M = 200) blows up at one step a sample (m = 1). Which mode sets\n"
    "     its limit, and how many substeps m bring E_wave below 1e-3?\n"
    "     check: bin/pluck --solve --space modal --method rk4\n"
    "  2. Score a solution yourself: the WAVs of the runs are in OUT/wav/; score the m = 2 run\n"
    "     against the reference and compare with the table's E_wave.\n"
    "     check: bin/score build/sound/pluck-reference.wav build/data/pluck/wav/modal-200-rk4-m2.wav\n";

int main(int argc, char **argv)
{
    settings st;
    memset(&st, 0, sizeof st);
    char err[600];
    /* the challenge first (its values are the flags' defaults), then the lesson's settings */
    const char *challenge_file = cli_peek("pluck", argc, argv, "challenge");
    if (!challenge_file)
        challenge_file = challenge_path();
    if (challenge_load(challenge_file, &st.ch, err, sizeof err) != 0)
        cli_fail("pluck", "--challenge %s: %s", challenge_file, err);
    string_params *s = &st.ch.string;
    st.fs = st.ch.sample_rate;
    st.duration = (double)st.ch.num_samples / st.fs;
    const param_spec ps[] = {
        {"tol", &st.tol, "", 1e-16, 1e-3, 0, "series tolerance"},
        {"modes", &st.modes, "", 1, 20000, 0, "Galerkin size"},
        {"substeps_min", &st.sub_min, "", 1, 1 << 20, 0, "h sweep start"},
        {"substeps_max", &st.sub_max, "", 1, 1 << 20, 0, "h sweep end"},
        {"fd_N_min", &st.N_min, "", 4, 1e6, 0, "N sweep start"},
        {"fd_N_max", &st.N_max, "", 4, 1e6, 0, "N sweep end"},
        {"fd_substeps", &st.fd_sub, "", 1, 1 << 20, 0, "FD substeps"},
        {"fd_fixed_N_max", &st.fd_fixed_N_max, "", 4, 1e6, 0, "largest fixed-step N"},
        {"cvode_rtol", &st.rtol, "", 1e-15, 1e-2, 0, "CVODE rtol"},
        {"cvode_atol", &st.atol, "m", 1e-30, 1, 0, "CVODE atol"},
        {"cvode_N_max", &st.cvode_N_max, "", 4, 1e6, 0, "largest CVODE N"},
        {"cvode_modal", &st.cvode_modal, "", 0, 1, 0, "CVODE on the modal system"},
        {"cvode_max_order", &st.max_order, "", 1, 12, 0, "CVODE's largest order"},
        {"cvode_stab_lim", &st.stab_lim, "", 0, 1, 0, "BDF stability-limit detection"},
        {"cvode_study_time", &st.study_T, "s", 0, 60, 0, "order study: simulated time"},
        {"cvode_study_N", &st.study_N, "", 6, 1e6, 0, "order study: FD5 grid"},
        {"cvode_study_steps", &st.study_steps, "", 10, 1e9, 0, "order study: step budget"},
        {"blowup", &st.blowup, "", 1, 1e300, CLI_OPEN_MIN, "blow-up factor"},
        {"listen_ceiling", &st.ceiling, "", 0, 1, CLI_OPEN_MIN, "limiter ceiling"},
        {"listen_release", &st.release, "s", 0, 10, CLI_OPEN_MIN, "limiter release"},
        {NULL, NULL, NULL, 0, 0, 0, NULL},
    };
    if (params_load(ps, params_path("pluck.ini"), false, err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);

    bool do_ref = false, do_solve = false;
    const char *wav_path = "build/sound/pluck-reference.wav", *field_path = NULL, *listen_path = NULL;
    const char *chal_flag = challenge_file;
    cli_common common = {false, "build/data/pluck"};
    budget bg;
    budget_init(&bg, "pluck", "unknown-steps", 5e10, "--duration * --fs, --modes, --substeps-max, --N-max, --fd-fixed-N-max, "
                "--cvode-N-max and the field's size (one unknown of the state advanced one step)");
    plot_opts plot = {false, false, NULL};
    st.space = "all";
    st.method = "all";
    st.lmm = "bdf";
    method_arg marg = {&st.method, "all|cvode|exact", ""};
    const double big = 1e6;
    const cli_opt opts[] = {
        {"reference", CLI_FLAG, &do_ref, "", "write the exact answer (the modal series) as the deliverable WAV", 0, 0, 0, NULL, NULL, NULL},
        {"solve", CLI_FLAG, &do_solve, "", "solve the string as an IVP and score each solution", 0, 0, 0, NULL, NULL, NULL},
        {"wav", CLI_STRING, &wav_path, "", "where the reference WAV goes: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"field", CLI_STRING, &field_path, "", "also write the displacement field (HDF5) here: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"listen", CLI_STRING, &listen_path, "", "also write a copy for the ear (playback gain and limiter) here: " ATOMIC_ACCEPTS_DASH, 0, 0, 0, NULL, NULL, NULL},
        {"challenge", CLI_STRING, &chal_flag, "", "the challenge file (parameters, format, signal scale)", 0, 0, 0, NULL, NULL, NULL},
        {"L", CLI_DOUBLE, &s->L, "m", "string length", 0, CHALLENGE_L_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"c", CLI_DOUBLE, &s->c, "m/s", "wave speed", 0, CHALLENGE_C_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"sigma0", CLI_DOUBLE, &s->sigma0, "1/s", "frequency-independent loss rate", 0, CHALLENGE_SIGMA0_MAX, 0, NULL, NULL, NULL},
        {"kappa", CLI_DOUBLE, &s->kappa, "m^2/s", "Kelvin-Voigt viscosity", 0, CHALLENGE_KAPPA_MAX, 0, NULL, NULL, NULL},
        {"pluck-height", CLI_DOUBLE, &s->height, "m", "pluck height u0(xp) (at most L/10: a linear model)", 0, CHALLENGE_HEIGHT_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"xp", CLI_DOUBLE, &s->xp, "m", "pluck centre (w < xp < L - w)", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"w", CLI_DOUBLE, &s->w, "m", "half-width of the finger load (L/w not an integer)", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"xm", CLI_DOUBLE, &s->xm, "m", "pickup position (0 < xm < L)", 0, CHALLENGE_LENGTH_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"fs", CLI_DOUBLE, &st.fs, "Hz", "sample rate (a whole number)", CHALLENGE_FS_MIN, CHALLENGE_FS_MAX, 0, NULL, NULL, NULL},
        {"duration", CLI_DOUBLE, &st.duration, "s", "length of the signal", 0, CHALLENGE_DURATION_MAX, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"tol", CLI_DOUBLE, &st.tol, "", "series tolerance in units of s_ref (omitted terms sum below it)", 1e-16, 1e-3, 0, NULL, NULL, NULL},
        {"space", CLI_CHOICE, &st.space, "", "which discretisation --solve runs", 0, 0, 0, "all|modal|fd3|fd5", NULL, NULL},
        METHOD_ARG_OPT(marg, "which time stepping --solve runs (a tableau file: on the modal system)"),
        METHOD_ADD_OPT,
        {"modes", CLI_DOUBLE, &st.modes, "", "Galerkin size M (modes)", 1, 20000, 0, NULL, NULL, NULL},
        {"substeps-min", CLI_DOUBLE, &st.sub_min, "", "smallest m (h = 1/(fs m)) of the modal sweep", 1, 1 << 20, 0, NULL, NULL, NULL},
        {"substeps-max", CLI_DOUBLE, &st.sub_max, "", "largest m of the modal sweep (doubling)", 1, 1 << 20, 0, NULL, NULL, NULL},
        {"N-min", CLI_DOUBLE, &st.N_min, "", "smallest N (intervals) of the FD sweep", 6, big, 0, NULL, NULL, NULL},
        {"N-max", CLI_DOUBLE, &st.N_max, "", "largest N of the FD sweep (doubling)", 6, big, 0, NULL, NULL, NULL},
        {"fd-substeps", CLI_DOUBLE, &st.fd_sub, "", "m of the fixed-step FD runs", 1, 1 << 20, 0, NULL, NULL, NULL},
        {"fd-fixed-N-max", CLI_DOUBLE, &st.fd_fixed_N_max, "", "largest N of the fixed-step FD runs", 6, big, 0, NULL, NULL, NULL},
        {"cvode-rtol", CLI_DOUBLE, &st.rtol, "", "CVODE relative tolerance", 1e-15, 1e-2, 0, NULL, NULL, NULL},
        {"cvode-N-max", CLI_DOUBLE, &st.cvode_N_max, "", "largest N of the CVODE FD runs", 6, big, 0, NULL, NULL, NULL},
        {"cvode-modal", CLI_DOUBLE, &st.cvode_modal, "", "1: CVODE on the Galerkin system too (slow: ~2e5 steps)", 0, 1, 0, NULL, NULL, NULL},
        {"cvode-lmm", CLI_CHOICE, &st.lmm, "", "CVODE's multistep family (Newton on the band Jacobian either way)", 0, 0, 0, "bdf|adams", NULL, NULL},
        {"cvode-atol", CLI_DOUBLE, &st.atol, "m", "CVODE absolute tolerance", 1e-30, 1, 0, NULL, NULL, NULL},
        {"cvode-max-order", CLI_DOUBLE, &st.max_order, "", "CVODE's largest order q (BDF 1-5, Adams 1-12): BDF above 2 is not A-stable", 1, 12, 0, NULL, NULL, NULL},
        {"cvode-stab-lim", CLI_DOUBLE, &st.stab_lim, "", "1: CVODE's BDF stability-limit detection (lowers q when it sees instability)", 0, 1, 0, NULL, NULL, NULL},
        {"cvode-study-time", CLI_DOUBLE, &st.study_T, "s", "order study: simulated time of each CVODE run, q = 1..5 (0: no study)", 0, 60, 0, NULL, NULL, NULL},
        {"cvode-study-N", CLI_DOUBLE, &st.study_N, "", "order study: N of the 5-point grid (the Galerkin system has --modes)", 6, big, 0, NULL, NULL, NULL},
        {"cvode-study-steps", CLI_DOUBLE, &st.study_steps, "", "order study: internal steps allowed a run (cost is per simulated second)", 10, 1e9, 0, NULL, NULL, NULL},
        {"blowup", CLI_DOUBLE, &st.blowup, "", "blow-up when |y| exceeds this many times its initial size", 1, 1e300, CLI_OPEN_MIN, NULL, NULL, NULL},
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {"pluck", "string-pluck-v1: the exact reference, and the string solved as an IVP, scored (neither --reference nor --solve: both, the default sweep and a listening copy).", NULL, 0,
                           opts, exercises};
    cli_parse(&spec, argc, argv);
    atomic_check_output("pluck", "wav", wav_path, true);
    if (field_path)
        atomic_check_output("pluck", "field", field_path, true);
    if (listen_path)
        atomic_check_output("pluck", "listen", listen_path, true);
    if (method_find(st.method) && tableau_file(method_find(st.method)) &&
        (strcmp(st.space, "fd3") == 0 || strcmp(st.space, "fd5") == 0))
        cli_fail("pluck", "--method %s (a tableau file) with --space %s; accepted: a tableau file on --space modal", st.method,
                 st.space);
    st.out = common.out;
    st.tsv = common.tsv;
    if (string_check(s, err, sizeof err) != 0)
        cli_fail("pluck", "%s", err);
    double nd = st.duration * st.fs;
    st.n = lround(nd);
    if (fabs(nd - (double)st.n) > 1e-9 * nd || st.n < 2)
        cli_fail("pluck", "--duration %g at --fs %g is not a whole number of samples; accepted: duration * fs an integer >= 2",
                 st.duration, st.fs);
    if (st.sub_min > st.sub_max || st.N_min > st.N_max)
        cli_fail("pluck", "--substeps-min/max or --N-min/max out of order; accepted: min <= max");
    const struct { const char *flag; double v; } whole[] = {
        {"fs", st.fs}, {"modes", st.modes}, {"substeps-min", st.sub_min}, {"substeps-max", st.sub_max}, {"N-min", st.N_min},
        {"N-max", st.N_max}, {"fd-substeps", st.fd_sub}, {"fd-fixed-N-max", st.fd_fixed_N_max},
        {"cvode-max-order", st.max_order}, {"cvode-stab-lim", st.stab_lim}, {"cvode-study-N", st.study_N},
        {"cvode-study-steps", st.study_steps},
    };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (whole[i].v != floor(whole[i].v))
            cli_fail("pluck", "--%s %g is not accepted; accepted: a whole number", whole[i].flag, whole[i].v);
    if (strcmp(st.lmm, "bdf") == 0 && st.max_order > 5)
        cli_fail("pluck", "--cvode-max-order %g is not accepted with --cvode-lmm bdf; accepted: 1 to 5", st.max_order);
    if (!do_ref && !do_solve) {
        /* the default run (make run): the deliverable, a copy for the ear, the sweep */
        do_ref = do_solve = true;
        if (!listen_path)
            atomic_check_output("pluck", "listen", listen_path = "build/sound/pluck-reference-listen.wav", true);
    }
    if (do_solve && st.n < st.ch.frame_length)
        cli_fail("pluck", "--duration %g gives %ld samples, fewer than one E_spec frame (%d samples); accepted: "
                 "duration * fs >= %d", st.duration, st.n, st.ch.frame_length, st.ch.frame_length);

    /* ---- the reference ---- */
    double tol_abs = st.tol * st.ch.signal_scale;
    double t0 = wall_seconds();
    string_mode *modes;
    int nm = string_reference_modes(s, 1.0 / st.fs, tol_abs, 2000000, &modes);
    if (nm < 0) {
        fprintf(stderr, "pluck: the modal series needs more than 2000000 modes for --tol %g at these parameters\n", st.tol);
        return 1;
    }
    {
        /* the reference (nm modes over n samples at most), the field, and the sweep: modal runs
         * (2 unknowns a mode, m substeps a sample), FD runs (2(N-1) unknowns; an implicit step
         * solves a band system; CVODE about 1e5 (N/65) steps a second; not counted: the CVODE order
         * study, --cvode-study-time) */
        double n = (double)st.n, work = (double)nm * n, wavs = 1.0, mem = 4.0 * n * 8.0;
        if (field_path)
            work += (double)st.ch.field_nx * st.ch.field_nt * nm, mem += (double)st.ch.field_nx * st.ch.field_nt * 4.0;
        if (do_solve) {
            double M = fmin(st.modes, nm);
            int nmeth = 0, nimpl = 0;
            for (int i = 0; method_all[i]; i++)
                if (want(st.method, method_all[i]->name))
                    nmeth++, nimpl += method_all[i]->implicit;
            if (want(st.space, "modal")) {
                for (double sub = st.sub_min; sub <= st.sub_max; sub *= 2)
                    work += nmeth * 2.0 * M * n * sub, wavs += nmeth;
                work += M * n, wavs += 2;
            }
            for (int sten = 3; sten <= 5; sten += 2) {
                if (!want(st.space, sten == 3 ? "fd3" : "fd5"))
                    continue;
                for (double N = st.N_min; N <= st.N_max; N *= 2) {
                    double d = 2.0 * (N - 1.0);
                    work += (N - 1.0) * n, wavs += 1;
                    if (N <= st.fd_fixed_N_max) {
                        /* an implicit step solves with the band LU of its 2(N-1) unknowns (bandwidth about 2 x
                         * the stencil in the interleaved layout): about 4 sten values a row */
                        work += (nmeth - nimpl) * d * n * st.fd_sub + nimpl * d * 4.0 * sten * n * st.fd_sub;
                        wavs += nmeth;
                        if (nimpl)
                            mem = fmax(mem, 2.0 * d * (6.0 * sten + 1.0) * 8.0 + 4.0 * n * 8.0);
                    }
                    if (want(st.method, "cvode") && N <= st.cvode_N_max)
                        work += d * 5.0 * 1e5 * (N / 65.0) * st.duration, wavs += 1;
                }
            }
        }
        bg.work = work;
        bg.bytes_out = wavs * n * 4.0 + (listen_path ? n * 4.0 : 0.0) +
                       (field_path ? (double)st.ch.field_nx * st.ch.field_nt * 4.0 : 0.0);
        bg.bytes_mem = mem + (double)nm * 64.0;
        budget_check(&bg);
    }
    double *ref = xcalloc((size_t)st.n, sizeof(double));
    string_sum_info info;
    string_pickup_signal(modes, nm, st.fs, st.n, tol_abs, ref, &info);
    double ref_seconds = wall_seconds() - t0;
    double peak = max_abs(ref, (size_t)st.n) / st.ch.signal_scale;

    /* the deliverable (always written: --solve scores against the very bytes written, decoded) */
    char ref_tmp[4096];
    const char *ref_file = wav_path;
    if (!do_ref) {
        path_join(ref_tmp, sizeof ref_tmp, st.out, "wav/reference.wav");
        ref_file = ref_tmp;
    }
    wav_data refw = {0};
    wav_write_or_exit("pluck", ref_file, ref, (size_t)st.n, (int)st.fs, 1.0 / st.ch.signal_scale, do_solve ? &refw : NULL);
    if (st.tsv && !do_solve) {
        table rt;
        table_begin(&rt, stdout, true, "modes", "overdamped", "mode_samples", "seconds", "peak_sample", "file", NULL);
        table_cell(&rt, "%d", nm);
        table_cell(&rt, "%d", info.overdamped);
        table_cell(&rt, "%ld", info.mode_samples);
        table_cell(&rt, "%.4f", ref_seconds);
        table_cell(&rt, "%.6f", peak);
        table_cell(&rt, "%s", ref_file);
    }
    if (!st.tsv) {
        printf("string-pluck-v1 reference: modal series, %d modes (tolerance %g s_ref = %.3g m/s), %d overdamped,\n"
               "%ld mode-samples (not %ld: a mode stops once its envelope is below its share of the tolerance),\n"
               "%.4f s; peak sample %.4f; written to %s\n",
               nm, st.tol, tol_abs, info.overdamped, info.mode_samples, (long)nm * st.n, ref_seconds, peak, ref_file);
    }
    if (listen_path) {
        double g = pow(10.0, st.ch.playback_gain_db / 20.0) / st.ch.signal_scale;
        double cut_db, limited_s;
        double *lc = listening_copy(ref, st.n, g, st.ceiling, st.release, st.fs, &cut_db, &limited_s);
        wav_write_or_exit("pluck", listen_path, lc, (size_t)st.n, (int)st.fs, 1.0, NULL);
        if (!st.tsv)
            printf("listening copy (%+g dB, limiter at %g): %s, peak %.3f; the limiter cut up to %.1f dB during %.3f s "
                   "(not the deliverable)\n", st.ch.playback_gain_db, st.ceiling, listen_path, max_abs(lc, (size_t)st.n),
                   cut_db, limited_s);
        free(lc);
    }
    if (field_path) {
        size_t nx = (size_t)st.ch.field_nx, nt = (size_t)st.ch.field_nt;
        double *x = xcalloc(nx, sizeof(double)), *t = xcalloc(nt, sizeof(double));
        for (size_t i = 0; i < nx; i++)
            x[i] = (double)i * s->L / (double)(nx - 1);
        for (size_t j = 0; j < nt; j++)
            t[j] = (double)j * st.ch.field_t_stop / (double)(nt - 1);
        float *u = xcalloc(nx * nt, sizeof(float));
        double tf = wall_seconds();
        string_field(s, modes, nm, x, nx, t, nt, u);
        h5_attr at[] = {{"challenge_id", st.ch.id}, {"solution_id", "ivplab-modal-series"},
                        {"quantity", "transverse displacement"}, {"units", "m"}, {NULL, NULL}};
        int failed = h5_write_field(field_path, x, nx, t, nt, u, at, err, sizeof err) != 0;
        free(x);
        free(t);
        free(u);
        if (failed) {
            fprintf(stderr, "pluck: %s\n", err);
            wav_data_free(&refw);
            free(ref);
            free(modes);
            return 1;
        }
        if (!st.tsv)
            printf("field u(x, t): %zu x %zu (float32, gzip) in %.3f s: %s\n", nt, nx, wall_seconds() - tf, field_path);
    }
    if (!do_solve) {
        if (plot.plot || plot.show)
            fprintf(stderr, "pluck: --plot: --reference alone writes no figure data (--solve does)\n");
        free(ref);
        free(modes);
        return 0;
    }

    /* ---- the reference as the scorer sees it, and its figures ---- */
    if (score_check_format(&refw, &st.ch, err, sizeof err) != 0) {
        fprintf(stderr, "pluck: the reference: %s\n", err);
        return 1;
    }
    {
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "pluck", st.out, "spectrogram.tsv");
        int M = st.ch.frame_length, H = st.ch.hop;
        size_t fr = score_frames((size_t)st.n, M, H), nb = (size_t)M / 2 + 1;
        double *mag = xcalloc(fr * nb, sizeof(double)), top = 0.0;
        score_spectrogram(refw.x, (size_t)st.n, M, H, mag);
        for (size_t i = 0; i < fr * nb; i++)
            top = fmax(top, mag[i]);
        fprintf(f, "t_s\tf_Hz\tlevel_dB\n");
        for (size_t m = 0; m < fr; m++) {
            for (size_t q = 0; q < nb && q * st.fs / M <= 8000.0; q++)
                fprintf(f, "%.5f\t%.2f\t%.2f\n", (m * H + M / 2) / st.fs, q * st.fs / M,
                        20.0 * log10(fmax(mag[m * nb + q], 1e-12 * top) / top));
            fputc('\n', f);
        }
        free(mag);
        atomic_commit_or_exit(&a, "pluck");
    }

    /* ---- the sweep ---- */
    table tab;
    if (!st.tsv)
        printf("\nscored against the reference as the challenge does (E_wave, E_spec of the float32 WAVs):\n");
    table_begin(&tab, stdout, st.tsv, "space", "size", "method", "substeps", "E_wave", "E_spec", "seconds", "nfev",
                "status", NULL);
    int M = (int)st.modes < nm ? (int)st.modes : nm;
    double *sig = xcalloc((size_t)st.n, sizeof(double));
    size_t cap = 256, nrun = 0;
    run *runs = xcalloc(cap, sizeof *runs);
    char notes[8192] = "";
    size_t nlen = 0;
#define NOTE(...) nlen += (size_t)snprintf(notes + nlen, nlen < sizeof notes ? sizeof notes - nlen : 0, __VA_ARGS__)
#define NEW_RUN(sp, sz, meth, sub)                                                                    \
    (nrun == cap ? (runs = realloc(runs, (cap *= 2) * sizeof *runs)) : runs, memset(&runs[nrun], 0, sizeof *runs), \
     runs[nrun].space = (sp), runs[nrun].size = (sz), runs[nrun].substeps = (sub), runs[nrun].status = "ok",         \
     snprintf(runs[nrun].method, sizeof runs[nrun].method, "%s", (meth)), &runs[nrun++])
    /* the 20 ms figure: the reference, a coarse and a fine solution */
    long n20 = lround(0.02 * st.fs) + 1;
    double *coarse = xcalloc((size_t)n20, sizeof(double));
    char coarse_name[96] = "";
    fine_pick fine = {xcalloc((size_t)n20, sizeof(double)), n20, INFINITY, ""};

    if (want(st.space, "modal")) {
        if (want(st.method, "exact")) {
            run *r = NEW_RUN("modal", M, "exact", 0);
            double ts = wall_seconds();
            string_pickup_signal(modes, M, st.fs, st.n, tol_abs, sig, NULL);
            r->seconds = wall_seconds() - ts;
            score_run(&st, sig, &refw, r);
            print_row(&tab, r);
            consider_fine(&fine, r, sig);
        }
        atomic_file ah;
        FILE *fh = atomic_open_or_exit(&ah, "pluck", st.out, "modal-methods.txt");
        char figure_note[512] = "";
        size_t flen = 0;
        for (int i = 0; method_all[i]; i++) {
            const method *m = method_all[i];
            if (!want(st.method, m->name))
                continue;
            int lim;
            double hmax = stable_h(m, modes, M, tol_abs, &lim);
            if (lim)
                NOTE("modal M = %d, %s: stable only for h <= %.4g s (m >= %.0f substeps), set by mode %d "
                     "(omega = %.4g rad/s, alpha = %.4g 1/s): |R(h lambda)| > 1 beyond\n",
                     M, m->name, hmax, ceil(1.0 / (st.fs * hmax) - 1e-9), lim, sqrt(modes[lim - 1].omega0sq), modes[lim - 1].alpha);
            else
                NOTE("modal M = %d, %s: stable for every h up to 1 s\n", M, m->name);
            char fname[96];
            snprintf(fname, sizeof fname, "modal-%s.tsv", m->name);
            atomic_file am;
            FILE *fm = atomic_open_or_exit(&am, "pluck", st.out, fname);
            fprintf(fm, "h_s\t%s\tE_spec\tnfev\n", m->label);
            bool any_ok = false;
            for (long sub = (long)st.sub_min; sub <= (long)st.sub_max; sub *= 2) {
                run *r = NEW_RUN("modal", M, m->name, sub);
                solve_modal(&st, modes, M, m, sub, sig, r);
                score_run(&st, sig, &refw, r);
                print_row(&tab, r);
                consider_fine(&fine, r, sig);
                if (strcmp(r->status, "ok") == 0) {
                    fprintf(fm, "%.6e\t%.6e\t%.6e\t%ld\n", 1.0 / (st.fs * sub), r->E_wave, r->E_spec, r->nfev);
                    any_ok = true;
                } else {
                    NOTE("modal M = %d, %s, m = %ld: %s\n", M, m->name, sub, r->message);
                }
            }
            atomic_commit_or_exit(&am, "pluck");
            /* the figure draws the methods with a point; the others are named in its note */
            if (any_ok)
                fprintf(fh, "%s ", m->name);
            else
                flen += (size_t)snprintf(figure_note + flen, flen < sizeof figure_note ? sizeof figure_note - flen : 0,
                                         "%s%s needs m >= %.0f (blew up at every m <= %ld)", flen ? "; " : "not drawn: ",
                                         m->label, lim ? ceil(1.0 / (st.fs * hmax) - 1e-9) : 1.0, (long)st.sub_max);
        }
        fputc('\n', fh);
        atomic_commit_or_exit(&ah, "pluck");
        atomic_file an2;
        FILE *fnote = atomic_open_or_exit(&an2, "pluck", st.out, "modal-note.txt");
        fprintf(fnote, "M = %d modes; %s\n", M, figure_note);
        atomic_commit_or_exit(&an2, "pluck");
        if (want(st.method, "cvode") && (st.cvode_modal == 1 || strcmp(st.method, "cvode") == 0)) {
            string_galerkin g = {modes, M};
            run *r = NEW_RUN("modal", M, "cvode", 0);
            solve_cvode(&st, NULL, &g, st.n, (int)st.max_order, st.stab_lim == 1, sig, r);
            score_run(&st, sig, &refw, r);
            print_row(&tab, r);
            consider_fine(&fine, r, sig);
            NOTE("modal M = %d, %s: %s\n", M, r->method, r->message);
        }
    }

    if (!st.tsv && (want(st.space, "fd3") || want(st.space, "fd5")))
        NOTE("finite differences: u0 is sampled at the grid points from its closed form (the pluck point need not be "
             "on the grid); the pickup xm = 54 L/65 is a grid point when 65 divides N, else cubic Lagrange interpolation "
             "of v from the 4 nearest points\n");
    atomic_file an;
    FILE *fn = atomic_open_or_exit(&an, "pluck", st.out, "fd-N.tsv");
    fprintf(fn, "space\tN\tE_wave\tE_spec\tshare_past_1rad\tE_saturated\tslope\n");
    atomic_file acv;
    FILE *fcv = atomic_open_or_exit(&acv, "pluck", st.out, "fd-N-cvode.tsv");
    fprintf(fcv, "space\tN\tE_wave\tE_spec\tmethod\n");
    atomic_file afx;
    FILE *ffx = atomic_open_or_exit(&afx, "pluck", st.out, "fd-N-fixed.tsv");
    fprintf(ffx, "space\tN\tE_wave\tE_spec\tmethod\tsubsteps\tseconds\n");
    for (int sten = 3; sten <= 5; sten += 2) {
        const char *space = sten == 3 ? "fd3" : "fd5";
        if (!want(st.space, space))
            continue;
        double prevN = 0, prevE = 0;
        /* a fixed-step method unstable at some N is not tried on finer grids (its stable step
         * only shrinks as N grows) */
        bool unstable[64] = {false};
        for (long N = (long)st.N_min; N <= (long)st.N_max; N *= 2) {
            /* interleaved (u_1, v_1, u_2, v_2, ...): a band of half-width 3 or 5, which CVODE's band
             * solver and the implicit methods' band LU (newton.c) use */
            string_fd fd, fd_halves;
            if (string_fd_init(&fd, s, (string_stencil)sten, N, true, err, sizeof err) != 0)
                cli_fail("pluck", "--N-min %g: %s", st.N_min, err);
            /* the same grid as (u, v) halves, for a method that steps u' = v apart (leapfrog) */
            fd_halves = fd;
            fd_halves.interleaved = false;
            string_mode *fm;
            int fnm = string_fd_modes(&fd, &fm);
            double omega_max = fastest(fm, fnm);
            if (want(st.method, "exact")) {
                /* the exact semi-discrete solution: the floor of every time stepping */
                run *r = NEW_RUN(space, N, "exact", 0);
                double ts = wall_seconds();
                string_pickup_signal(fm, fnm, st.fs, st.n, tol_abs, sig, NULL);
                r->seconds = wall_seconds() - ts;
                score_run(&st, sig, &refw, r);
                print_row(&tab, r);
                consider_fine(&fine, r, sig);
                /* the part of the error from modes whose phase error has passed a radian: mode n's
                 * phase drifts at |omega_n(N) - omega_n|, so after t1 = 1/drift its error no longer
                 * grows with the drift (it is as large as the mode itself, |1 - e^{i phi}|^2 ~ 2 on
                 * average). Its share of the signal energy after t1 bounds that part:
                 * E_sat^2 ~ 2 sum_n E_n (e^{-2 a t1} - e^{-2 a T}) / sum_n E_n (1 - e^{-2 a T}). */
                double e_all = 0.0, e_past = 0.0;
                for (int j = 0; j < fnm && j < nm; j++) {
                    const string_mode *ex = &modes[j], *dm = &fm[j];
                    double de = ex->omega0sq - ex->alpha * ex->alpha, dd = dm->omega0sq - dm->alpha * dm->alpha;
                    if (de <= 0 || dd <= 0)
                        continue;
                    double amp = ex->pickup * ex->amplitude * ex->omega0sq / sqrt(de), a2 = 2.0 * ex->alpha;
                    double energy = amp * amp / (2.0 * a2), T = st.duration;
                    double t1 = 1.0 / fmax(fabs(sqrt(dd) - sqrt(de)), 1e-300);
                    e_all += energy * -expm1(-a2 * T);
                    if (t1 < T)
                        e_past += energy * (exp(-a2 * t1) - exp(-a2 * T));
                }
                                /* the measured order between this N and the last: -d log E / d log N */
                double slope = NAN;
                if (prevN > 0) {
                    double xs[2] = {prevN, (double)N}, ys[2] = {prevE, r->E_wave};
                    measure_pairwise_slopes(xs, ys, 2, &slope);
                    slope = -slope;
                }
                prevN = (double)N, prevE = r->E_wave;
                fprintf(fn, "%s\t%ld\t%.6e\t%.6e\t%.6e\t%.6e\t%.4f\n", space, N, r->E_wave, r->E_spec, e_past / e_all,
                        sqrt(2.0 * e_past / e_all), slope);
                if (sten == 3 && N == (long)st.N_min) {
                    memcpy(coarse, sig, (size_t)n20 * sizeof(double));
                    snprintf(coarse_name, sizeof coarse_name, "3-point FD, N = %ld (exact in time)", N);
                }
            }
            for (int i = 0; method_all[i] && i < 64 && N <= (long)st.fd_fixed_N_max; i++) {
                const method *m = method_all[i];
                /* a tableau file runs on the modal system */
                if (!want(st.method, m->name) || tableau_file(m) || unstable[i])
                    continue;
                int lim;
                double hmax = stable_h(m, fm, fnm, 0.0, &lim);
                long sub = (long)st.fd_sub;
                run *r = NEW_RUN(space, N, m->name, sub);
                if (lim && 1.0 / (st.fs * sub) > hmax) {
                    r->status = "blowup";
                    snprintf(r->message, sizeof r->message,
                             "not run: h = %.4g s > %.4g s, the largest stable step (set by the fastest mode, omega = %.4g rad/s; "
                             "needs m >= %.0f)", 1.0 / (st.fs * sub), hmax, sqrt(fm[lim - 1].omega0sq),
                             ceil(1.0 / (st.fs * hmax) - 1e-9));
                } else {
                    solve_fd(&st, m->needs_uv ? &fd_halves : &fd, omega_max, m, sub, sig, r);
                }
                score_run(&st, sig, &refw, r);
                print_row(&tab, r);
                consider_fine(&fine, r, sig);
                if (strcmp(r->status, "ok") != 0) {
                    NOTE("%s N = %ld, %s, m = %ld: %s\n", space, N, m->name, sub, r->message);
                    unstable[i] = strcmp(r->status, "blowup") == 0;
                } else
                    fprintf(ffx, "%s\t%ld\t%.6e\t%.6e\t%s\t%ld\t%.4f\n", space, N, r->E_wave, r->E_spec, m->name, sub,
                            r->seconds);
            }
            if (want(st.method, "cvode") && N <= (long)st.cvode_N_max) {
                run *r = NEW_RUN(space, N, "cvode", 0);
                solve_cvode(&st, &fd, NULL, st.n, (int)st.max_order, st.stab_lim == 1, sig, r);
                score_run(&st, sig, &refw, r);
                print_row(&tab, r);
                consider_fine(&fine, r, sig);
                if (strcmp(r->status, "ok") == 0)
                    fprintf(fcv, "%s\t%ld\t%.6e\t%.6e\t%s\n", space, N, r->E_wave, r->E_spec, r->method);
                NOTE("%s N = %ld, %s: %s\n", space, N, r->method, r->message);
            }
            free(fm);
        }
        fprintf(fn, "\n\n");
        fprintf(fcv, "\n\n");
        fprintf(ffx, "\n\n");
    }
    atomic_commit_or_exit(&an, "pluck");
    atomic_commit_or_exit(&acv, "pluck");
    atomic_commit_or_exit(&afx, "pluck");
    if (want(st.method, "cvode") && st.study_T > 0 && strcmp(st.lmm, "bdf") == 0)
        order_study(&st, s, modes, M);
    {
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "pluck", st.out, "first20ms.tsv");
        fprintf(f, "t_ms\treference (modal series)\t%s\t%s\n", coarse_name[0] ? coarse_name : "(no coarse run)",
                fine.name[0] ? fine.name : "(no fine run)");
        for (long k = 0; k < n20 && k < st.n; k++)
            fprintf(f, "%.5f\t%.8e\t%.8e\t%.8e\n", 1e3 * k / st.fs, refw.x[k], coarse[k] / st.ch.signal_scale,
                    fine.x[k] / st.ch.signal_scale);
        atomic_commit_or_exit(&a, "pluck");
    }
    if (!st.tsv && nlen)
        printf("\nstability and failures:\n%s", notes);
    if (!st.tsv) {
        /* the best of each method, with its cost */
        printf("\nbest E_wave per method:\n");
        for (size_t i = 0; i < nrun; i++) {
            bool first = true;
            for (size_t j = 0; j < i; j++)
                if (strcmp(runs[j].method, runs[i].method) == 0)
                    first = false;
            if (!first)
                continue;
            const run *b = NULL;
            for (size_t j = i; j < nrun; j++)
                if (strcmp(runs[j].method, runs[i].method) == 0 && strcmp(runs[j].status, "ok") == 0 &&
                    (!b || runs[j].E_wave < b->E_wave))
                    b = &runs[j];
            if (b)
                printf("  %-16s E_wave %.3e  (%s %ld, m = %ld, %ld F evaluations, %.3f s)\n", b->method, b->E_wave, b->space,
                       b->size, b->substeps, b->nfev, b->seconds);
            else
                printf("  %-16s no run succeeded\n", runs[i].method);
        }
    }
    int status = 0;
    if (nrun == 1 && strcmp(runs[0].status, "ok") != 0) {
        fprintf(stderr, "pluck: %s\n", runs[0].message);
        status = 1;
    }
    budget_finish();
    free(runs);
    free(sig);
    free(coarse);
    free(fine.x);
    wav_data_free(&refw);
    free(ref);
    free(modes);
    if (plot_render(&plot, "pluck", common.out, common.tsv) != 0)
        status = 1;
    return status;
}
