/* Lesson 4, "Stiff spring network: the fastest mode sets the step": two masses and three springs
 * with modes at 10.5 Hz and 1950 Hz (lessons/params/spring2.ini). Pull the heavy mass and release;
 * the exact solution is modal (GSL's generalized symmetric eigensolver). The lecture's four runs:
 * RK4 at 1 ms blows up (12.25j is far outside its region), RK4 at 0.2 ms is stable, backward Euler
 * at 1 ms erases the fast mode, the trapezoid at 1 ms keeps it as a zigzag (R -> -1).
 * Measured per run: blow-up and its time, the heavy mass's largest error, the fast mode's
 * amplitude on the light mass at the end against the exact one, and the fast mode's factor over
 * one step (its modal amplitude after one step over before), beside R(h lambda) of the table.
 * Radau IIA (lessons/methods/radau-iia3.tab, fully implicit, L-stable, order 5: the lecture's
 * "stiff problems: Radau") runs at the large step too, and --add-method FILE.tab adds a run of
 * another Butcher tableau's method there; nfactor and nnewton count their linear algebra.
 * A blow-up here is the lesson's result, reported in the table; the program exits 0.
 * One program, whose main lists the lecture's steps in order (the network and its modes, the runs,
 * an adaptive solver, the claims): the claims are one slide's story about one network released
 * once, they share its flags, its exact motion and one table, and the closing comparison of
 * Radau IIA with backward Euler reads two of its rows. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "drive/gsl_pairs.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "method/method.h"
#include "method/set.h"
#include "spring/spring2.h"
#include "drive/solve.h"
#include "analysis/stability.h"
#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/util.h"

/* The fast mode counts as erased when its amplitude at T is below this fraction of the exact
 * one. */
#define FAST_ERASED 1e-3

typedef struct {
    const spring2 *s;
    const spring2_modes *md;
    const double *y0;
    FILE *f;                    /* t, u1, u2, exact u1, exact u2 */
    double max_err_u1;          /* largest |u1 - exact u1|, m */
    double complex c0, c1;      /* the fast mode's complex amplitude at steps 0 and 1 */
    double fast_end;            /* fast-mode amplitude on the light mass at the last sample, m */
    long stride, last;          /* the file keeps samples k % stride == 0 and k == last */
    progress *meter;            /* ticked a sample */
} run_ctx;

/* c = q - j q'/omega: multiplied by e^{j omega h} per step in the exact motion, by R(j omega h)
 * under a linear one-step method. */
static double complex fast_amplitude(const run_ctx *r, const double *y)
{
    double q, qd;
    spring2_modal(r->s, r->md, y, 1, &q, &qd);
    return q - I * qd / r->md->omega[1];
}

static int sample(long k, double t, const double *y, void *ctx)
{
    run_ctx *r = ctx;
    double ex[4];
    spring2_exact(r->s, r->md, r->y0, t, ex);
    r->max_err_u1 = fmax(r->max_err_u1, fabs(y[0] - ex[0]));
    if (k == 0)
        r->c0 = fast_amplitude(r, y);
    if (k == 1)
        r->c1 = fast_amplitude(r, y);
    r->fast_end = spring2_mode_amplitude(r->s, r->md, y, 1, 1);
    if (k % r->stride == 0 || k == r->last)
        fprintf(r->f, "%.10g\t%.10g\t%.10g\t%.10g\t%.10g\n", t, y[0], y[1], ex[0], ex[1]);
    budget_tick(r->meter, 1.0);
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Find the largest step at which RK4 is stable on the stiff network"
    " (max |R(h lambda)| <= 1):\n"
    "     between 0.2 ms and 0.25 ms. Compare with 2.83 / (2 pi 1950 Hz), which the check"
    " prints.\n"
    "     check: bin/stiff --h-big 0.00025 | grep -e '^ *rk4' -e 'RK4 stable bound'\n"
    "  2. Backward Euler at 1 ms erases the fast mode. At which step does it keep at least"
    " half of\n"
    "     it per step? Predict from |R| = 1 / |1 - h lambda|"
    " (h = sqrt(3) / (2 pi 1950 Hz) = 0.141 ms),\n"
    "     then read the one-step factor fast_factor (re, im) at 0.125 ms.\n"
    "     check: bin/stiff --h-big 0.000125 --tsv | grep backward | cut -f1,2,10,11\n"
    "  3. Radau IIA and Gauss (lessons/methods/gauss2.tab) are both A-stable and fully"
    " implicit. Which\n"
    "     one erases the fast mode at 1 ms? Predict from |R(12.25j)| (bin/stability"
    " --z 0,12.25 with\n"
    "     --add-method of both files), then read fast_gain and fast_mode.\n"
    "     check: bin/stiff --add-method lessons/methods/gauss2.tab --tsv | cut -f1,14,17\n";

enum { STIFF_PILOT = 5000 };  /* steps of the pilot that estimates --method's steps */

/* The flags, and what every run shares once they are read. */
typedef struct {
    spring2 s;
    double pull, T, h_big, h_small, blowup, zoom;   /* m, s, s, s, (ratio), s */
    const char *solver;     /* --method: an adaptive solver, or "none" */
    double rtol;            /* its relative tolerance */
    long max_steps;         /* its steps allowed (the budget's) */
    bool wide;              /* --wide: every column in the human table */
    cli_common common;
    long nsteps[2];         /* steps to T at h-big and at h-small */
    double h_last[2];       /* their last step, s, when T is not a multiple of h (else 0) */
    spring2_modes md;
    ivp p;
    double y0[4];           /* the release: u1 = pull, m; the rest 0 */
    double bound;           /* blow-up when max |y_i| exceeds it, m */
    double fast_exact;      /* the fast mode's amplitude on the light mass (exact), m */
    method_set methods;     /* the built-in methods, Radau IIA and each --add-method */
    progress *meter;        /* the budget's progress line, ticked a step */
} stiff;

typedef struct { const method *m; double h; char file[80]; } run_spec;

/* What one run did: how it ended, and what it did to the fast mode (measured over one step and
 * at T) beside what the method's R(h lambda) predicts. */
typedef struct {
    const run_spec *rs;
    solve_status st;            /* SOLVE_OK or SOLVE_BLOWUP */
    char blew[320];             /* a blow-up's message (method, time, reason), else "" */
    double t_end;               /* time reached, s */
    ivp_counts counts;          /* F evaluations, Newton iterations, factorizations */
    double max_err_u1;          /* largest |u1 - exact u1|, m */
    double fast_end, amp_ratio; /* fast mode on the light mass at T, m, and over the exact one */
    double complex factor, R;   /* its amplitude after one step over before; R(h lambda) */
    double gain, turn, seen;    /* |factor|, |arg factor| (rad), turn / (2 pi h) (Hz) */
    double turn_exact, seen_exact;  /* the same of the exact mode sampled every h */
    const char *mode;           /* erased, aliased, kept or blew-up */
    bool stable;                /* max |R(h lambda)| over the modes <= 1 */
    double max_R;               /* that maximum */
    int which;                  /* the mode where it is largest */
} run_facts;

/* The work before it starts: three runs at h-big (and each tableau file's), one at h-small, each
 * run's file every stride-th step; --method's steps from a pilot of STIFF_PILOT steps,
 * extrapolated over T (its steps at once when it reaches T): an explicit pair's steps follow the
 * fast mode's period, CVODE's the tolerance; the run stops at the budget's cap, or 4 times the
 * estimate with --allow-long. 0, or the refusal's status with why. */
static int check_budget(budget *bg, stiff *a, failure *why)
{
    int nadd = 0;
    for (int k = 0; a->methods.all[k]; k++)
        nadd += a->methods.all[k]->file != NULL;
    double n_big = (double)a->nsteps[0], n_small = (double)a->nsteps[1];
    double n_adaptive = 0.0;
    spring2_modes md;
    if (strcmp(a->solver, "none") != 0 && spring2_modes_of(&a->s, &md) == 0)
        n_adaptive = spring2_adaptive_pilot(&a->s, &md, a->y0, a->T, a->solver, a->rtol,
                                            a->rtol * fabs(a->pull), STIFF_PILOT);
    bg->work = (3.0 + nadd) * n_big + n_small + n_adaptive;
    double rows = (3.0 + nadd) * fmin(n_big, BUDGET_ROWS) + fmin(n_small, BUDGET_ROWS);
    bg->bytes_out = (rows + 8.0 + 2.0 * nadd) * 60.0 + 20001.0 * 40.0;
    bg->bytes_mem = n_adaptive > 0 ? fmin(n_adaptive, 1 << 20) * 8.0 : 0.0;  /* steps' lengths */
    if (budget_check(bg, why) != 0)
        return why->status;
    a->max_steps = (long)fmin(bg->allow_long ? 4.0 * n_adaptive + 1e6 : bg->cap, 1e15);
    a->meter = &bg->meter;
    return 0;
}

/* The network's two modes, K phi = omega^2 M phi (GSL's gensymmv), and the problem y' = A y the
 * methods step. 0, or 1 with why when M or K is not positive definite. */
static int find_modes(stiff *a, failure *why)
{
    if (spring2_modes_of(&a->s, &a->md) != 0)
        return failure_set(why, 1,
                           "stiff: M or K is not positive definite (check m1, m2, k1, k2, k3)");
    a->p = spring2_ivp(&a->s);
    return 0;
}

/* The exact motion, finely sampled, into exact.tsv (committed by the caller after the runs), and
 * the blow-up bound relative to its size. 0, or the failure's status with why. */
static int write_exact(stiff *a, atomic_file *ae, failure *why)
{
    FILE *fe = atomic_open_file(ae, "stiff", a->common.out, "exact.tsv", why);
    if (!fe)
        return why->status;
    fprintf(fe, "t_s\tu1_m\tu2_m\n");
    double ymax = 0.0;
    const int nfine = 20000;
    for (int i = 0; i <= nfine; i++) {
        double t = a->T * i / nfine, ex[4];
        spring2_exact(&a->s, &a->md, a->y0, t, ex);
        for (int j = 0; j < 4; j++)
            ymax = fmax(ymax, fabs(ex[j]));
        fprintf(fe, "%.10g\t%.10g\t%.10g\n", t, ex[0], ex[1]);
    }
    a->bound = a->blowup * ymax;
    a->fast_exact = spring2_mode_amplitude(&a->s, &a->md, a->y0, 1, 1);
    return 0;
}

/* The network, its modes and the fast mode's h lambda at both steps against RK4's bound on the
 * imaginary axis (from its R); a short last step, if T is not a multiple of a step. */
static void show_network(const stiff *a)
{
    const double hs[2] = {a->h_big, a->h_small};
    double f_slow = a->md.omega[0] / (2 * M_PI), f_fast = a->md.omega[1] / (2 * M_PI);
    printf("two masses, three springs: m1 = %g kg, m2 = %g kg, k1 = %g, k2 = %g, k3 = %g N/m\n",
           a->s.m1, a->s.m2, a->s.k1, a->s.k2, a->s.k3);
    printf("modes (GSL gensymmv): %.4f Hz and %.2f Hz; pull m1 by %g m, release; T = %g s\n",
           f_slow, f_fast, a->pull, a->T);
    printf("fast mode's amplitude on the light mass (exact, constant): %.4e m\n", a->fast_exact);
    double rk4_bound = stability_bound(&method_rk4, I);
    printf("fast mode h lambda = %.4gj at h = %g s, %.4gj at h = %g s\n",
           a->md.omega[1] * a->h_big, a->h_big, a->md.omega[1] * a->h_small, a->h_small);
    printf("(RK4 stable on the imaginary axis for |h lambda| <= %.4f, from its R)\n", rk4_bound);
    printf("RK4 stable bound: h <= %.4f / (2 pi %.2f Hz) = %.5f ms\n\n", rk4_bound, f_fast,
           1e3 * rk4_bound / a->md.omega[1]);
    for (int i = 0; i < 2; i++)
        if (a->h_last[i] > 0.0)
            printf("T is not a multiple of h = %g s: %ld steps of h, the last one short, %.6g s, "
                   "to end at T\n", hs[i], a->nsteps[i] - 1, a->h_last[i]);
}

/* RK4 at both steps, backward Euler and the trapezoid at the large one, then every tableau file's
 * method (Radau IIA's and each --add-method's) at the large step; how many. */
static int list_runs(const stiff *a, run_spec *runs)
{
    const run_spec base[4] = {
        {&method_rk4, a->h_big, "run_rk4_big.tsv"},
        {&method_rk4, a->h_small, "run_rk4_small.tsv"},
        {&method_backward_euler, a->h_big, "run_backward-euler_big.tsv"},
        {&method_trapezoid, a->h_big, "run_trapezoid_big.tsv"},
    };
    memcpy(runs, base, sizeof base);
    int nrun = 4;
    for (int k = 0; a->methods.all[k]; k++)
        if (a->methods.all[k]->file) {
            runs[nrun].m = a->methods.all[k];
            runs[nrun].h = a->h_big;
            snprintf(runs[nrun++].file, sizeof runs[0].file, "run_%s_big.tsv",
                     a->methods.all[k]->name);
        }
    return nrun;
}

/* The run's stability from the problem: max |R(h lambda)| over the eigenvalues +-j omega_k of the
 * undamped network (the mode where it is largest into *which), and whether it is <= 1. */
static bool run_stable(const stiff *a, const method *m, double h, double *max_abs_R, int *which)
{
    bool stable = true;
    *max_abs_R = 0.0;
    *which = 1;
    for (int k = 0; k < 2; k++) {
        double complex z = stability_z(m, h, I * a->md.omega[k]);
        double r = cabs(method_R(m, z));
        stable = stable && stability_stable(m, z);
        if (!(r <= *max_abs_R)) {
            *max_abs_R = r;
            *which = k;
        }
    }
    return stable;
}

/* What a run shows of the fast mode, from the measured factor per step c1/c0: its gain, the angle
 * it turns (the exact mode turns omega h; a turn near pi is a zigzag), the frequency that turn is
 * heard at, arg / (2 pi h) (an alias when omega h > pi), and a verdict: stable is not accurate. */
static void measure_fast_mode(const stiff *a, const run_ctx *rc, run_facts *o)
{
    const run_spec *rs = o->rs;
    o->max_err_u1 = rc->max_err_u1;
    o->fast_end = rc->fast_end;
    o->amp_ratio = rc->fast_end / a->fast_exact;
    o->factor = rc->c1 / rc->c0;
    o->R = method_R(rs->m, I * a->md.omega[1] * rs->h);
    o->gain = cabs(o->factor);
    o->turn = fabs(carg(o->factor));
    o->seen = o->turn / (2.0 * M_PI * rs->h);
    /* the exact mode sampled every h turns omega h modulo a turn: above h = 1/(2 f) it is itself
     * seen at an alias; a run "aliases" when it shows the mode elsewhere than that */
    o->turn_exact = fabs(remainder(a->md.omega[1] * rs->h, 2.0 * M_PI));
    o->seen_exact = o->turn_exact / (2.0 * M_PI * rs->h);
    o->mode = o->st == SOLVE_BLOWUP                              ? "blew-up"
              : o->amp_ratio < FAST_ERASED                       ? "erased"
              : fabs(o->seen - o->seen_exact) > 0.05 * o->seen_exact ? "aliased"
                                                                 : "kept";
    o->stable = run_stable(a, rs->m, rs->h, &o->max_R, &o->which);
}

/* One fixed-step run into its file, measured; 0, or the status of a failed write or a
 * numerical failure with why. A blow-up is the lesson's result: its message into o->blew (else
 * ""). */
static int run_one(const stiff *a, const run_spec *rs, run_facts *o, failure *why)
{
    atomic_file af;
    FILE *f = atomic_open_file(&af, "stiff", a->common.out, rs->file, why);
    if (!f)
        return why->status;
    fprintf(f, "t_s\t%s, h = %g ms\tu2_m\tu1_exact_m\tu2_exact_m\n", rs->m->label, rs->h * 1e3);
    double h_end;
    long nst = solve_steps_to(a->T, rs->h, &h_end);
    run_ctx rc = {.s = &a->s, .md = &a->md, .y0 = a->y0, .f = f,
                  .stride = budget_stride(nst), .last = nst, .meter = a->meter};
    double y[4] = {a->y0[0], a->y0[1], a->y0[2], a->y0[3]};
    solve_opts so = {.m = rs->m, .t0 = 0.0, .h = rs->h, .n = 0, .bound = a->bound, .every = 1,
                     .sink = sample, .ctx = &rc};
    solve_result res;
    solve_status st = solve_fixed_to(&a->p, y, &so, a->T, NULL, &res);
    if (atomic_commit_file(&af, "stiff", why) != 0)
        return why->status;
    if (st == SOLVE_FAILED)
        return failure_set(why, 1, "stiff: %s", res.message);
    o->rs = rs;
    o->st = st;
    snprintf(o->blew, sizeof o->blew, "%s", st == SOLVE_BLOWUP ? res.message : "");
    o->t_end = res.t;
    o->counts = res.counts;
    measure_fast_mode(a, &rc, o);
    return 0;
}

/* A run's row of the table: one cell a measured value. */
static void table_row(table *tab, const stiff *a, const run_facts *o)
{
    table_cell(tab, "%s", o->rs->m->name);
    table_cell(tab, "%g", o->rs->h);
    table_cell(tab, "%.4f", a->md.omega[0] / (2 * M_PI));
    table_cell(tab, "%.2f", a->md.omega[1] / (2 * M_PI));
    table_cell(tab, "%s", o->st == SOLVE_BLOWUP ? "blew-up" : "bounded");
    table_cell(tab, "%.6g", o->t_end);
    table_cell(tab, "%.3e", o->max_err_u1);
    table_cell(tab, "%.3e", o->fast_end);
    table_cell(tab, "%.3e", o->amp_ratio);
    table_cell(tab, "%.4f", creal(o->factor));
    table_cell(tab, "%.4f", cimag(o->factor));
    table_cell(tab, "%.4f", creal(o->R));
    table_cell(tab, "%.4f", cimag(o->R));
    table_cell(tab, "%.4f", o->gain);
    table_cell(tab, "%.4f", o->turn);
    table_cell(tab, "%.1f", o->seen);
    table_cell(tab, "%s", o->mode);
    table_cell(tab, "%ld", o->counts.nfactor);
    table_cell(tab, "%ld", o->counts.nnewton);
    table_cell(tab, "%ld", o->counts.nfev);
    table_cell(tab, "%s", o->stable ? "stable" : "unstable");
    table_cell(tab, "%.10f", o->max_R);
    table_cell(tab, "%.4g", log10(o->max_R) / o->rs->h);
}

/* Every run of the list, each into its file and measured into its row of the table (the human
 * table fits 100 columns; --wide and --tsv give every column). 0, or a failure's status with
 * why. */
static int run_and_measure(const stiff *a, const run_spec *runs, int nrun, run_facts *facts,
                           failure *why)
{
    table tab;
    table_begin(&tab, stdout, table_mode(a->common.tsv, a->wide), "method", "h_s", "+slow_hz",
                "+fast_hz", "status", "+t_end_s", "+max_err_u1_m", "+fast_amp_end_m",
                "+fast_amp_ratio", "+fast_factor_re", "+fast_factor_im", "+R_re", "+R_im",
                "+fast_gain", "+fast_turn_rad", "+fast_seen_hz", "fast_mode", "+nfactor",
                "+nnewton", "+nfev", "stable", "max_abs_R_hlambda", "+log10_growth_per_s", NULL);
    for (int r = 0; r < nrun; r++) {
        if (run_one(a, &runs[r], &facts[r], why) != 0)
            return why->status;
        table_row(&tab, a, &facts[r]);
    }
    return 0;
}

/* --method's run into adaptive.tsv: one cell a value. 0, or the failure's status with why. */
static int write_adaptive(const stiff *a, const spring2_adaptive *ad, failure *why)
{
    const cvode_stats *cs = &ad->st;
    double hmed = ad->median_h;
    double slow_period = 2 * M_PI / a->md.omega[0], fast_period = 2 * M_PI / a->md.omega[1];
    atomic_file aa;
    table t;
    FILE *fa = atomic_open_file(&aa, "stiff", a->common.out, "adaptive.tsv", why);
    if (!fa)
        return why->status;
    table_begin(&t, fa, TABLE_TSV, "method", "rtol", "steps", "nfev", "njev", "rejected",
                "median_h_s", "steps_per_fast_period", "steps_per_slow_period", "max_err_u1_m",
                "seconds", NULL);
    table_cell(&t, "%s", a->solver);
    table_cell(&t, "%g", a->rtol);
    table_cell(&t, "%ld", cs->steps);
    table_cell(&t, "%ld", cs->nfev + cs->nfev_jac);
    table_cell(&t, "%ld", cs->njev);
    table_cell(&t, "%ld", cs->netf);
    table_cell(&t, "%.6g", hmed);
    table_cell(&t, "%.4g", fast_period / hmed);
    table_cell(&t, "%.4g", slow_period / hmed);
    table_cell(&t, "%.3e", ad->max_err_u1);
    table_cell(&t, "%.4f", cs->seconds);
    return atomic_commit_file(&aa, "stiff", why);
}

/* What it cost and how it stepped, against the modes' periods; why it follows the fast mode. */
static void show_adaptive(const stiff *a, const spring2_adaptive *ad)
{
    const cvode_stats *cs = &ad->st;
    double hmed = ad->median_h;
    double slow_period = 2 * M_PI / a->md.omega[0], fast_period = 2 * M_PI / a->md.omega[1];
    printf("\n%s at rtol %g: %ld steps, %ld F evaluations, ", a->solver, a->rtol, cs->steps,
           cs->nfev + cs->nfev_jac);
    printf("%ld Jacobians, %ld linear setups, %ld rejected, %.3f s;\n", cs->njev, cs->nsetups,
           cs->netf, cs->seconds);
    printf("median step %.3g s, %.3g steps a fast period (%.3g ms), ", hmed, fast_period / hmed,
           1e3 * fast_period);
    printf("%.0f a slow one (%.3g ms): heavy-mass error at\nmost %.2e m.\n",
           slow_period / hmed, 1e3 * slow_period, ad->max_err_u1);
    printf("The release puts the fast mode into the motion (%.3g m on the light mass, %.2g of the "
           "pull): a solver\nheld to a tolerance must follow it, explicit or implicit; an implicit "
           "method steps over it only when\nits error there is let go (backward Euler at 1 ms "
           "above erases it).\n", a->fast_exact, a->fast_exact / fabs(a->pull));
}

/* --method: an adaptive solver on the same network, its steps against the modes' periods
 * (adaptive.tsv and two paragraphs); 0, or the failure's status with why. */
static int solve_adaptively(stiff *a, failure *why)
{
    spring2_adaptive ad;
    char err[600];
    if (spring2_adaptive_run(&a->s, &a->md, a->y0, a->T, a->solver, a->rtol,
                             a->rtol * fabs(a->pull), a->max_steps, a->meter, &ad, err,
                             sizeof err) != 0)
        return failure_set(why, 1, "stiff: %s", err);
    if (write_adaptive(a, &ad, why) != 0)
        return why->status;
    if (!a->common.tsv)
        show_adaptive(a, &ad);
    return 0;
}

/* The figure's window, as data the script reads (window.tsv). 0, or the failure's status with
 * why. */
static int write_window(const stiff *a, failure *why)
{
    atomic_file aw;
    FILE *fw = atomic_open_file(&aw, "stiff", a->common.out, "window.tsv", why);
    if (!fw)
        return why->status;
    fprintf(fw, "zoom_s\tpull_m\tslow_hz\tfast_hz\n%g\t%g\t%.4g\t%.4g\n", a->zoom, a->pull,
            a->md.omega[0] / (2 * M_PI), a->md.omega[1] / (2 * M_PI));
    return atomic_commit_file(&aw, "stiff", why);
}

/* Which runs blew up: method, time and reason, each on its line. */
static void show_blowups(const run_facts *facts, int nrun)
{
    printf("\n");
    for (int r = 0; r < nrun; r++)
        if (facts[r].blew[0])
            printf("%s\n", facts[r].blew);
}

/* The legend of the table's columns. */
static void explain_columns(void)
{
    printf("stable: max |R(h lambda)| over the network's eigenvalues +-j omega_k is <= 1 "
           "(log10_growth_per_s:\nlog10 of that |R| over h); status: whether the run stayed "
           "below --blowup times the exact motion\nto T.\n");
    printf("fast_amp_ratio: the fast mode's amplitude on the light mass at t_end over the exact "
           "one;\nfast_factor: that mode's complex amplitude after one step over before, beside "
           "R(h lambda);\nfast_gain, fast_turn_rad: its modulus and angle; fast_seen_hz: the "
           "frequency that angle a step is\nseen at, turn / (2 pi h) (the exact mode turns "
           "omega h modulo 2 pi, itself an alias above\nh = 1/(2 f));\n");
    printf("fast_mode: erased (amplitude at T below %g of the exact), aliased (seen more than 5%% "
           "away from\nwhere the exact mode sampled every h is seen), kept, or blew-up.\n\n",
           FAST_ERASED);
}

/* One run's verdict: stable or not from max |R(h lambda)| (a mode that grows, by how much a
 * second), what the run did (bounded to T or blew up), and what it did to the fast mode. */
static void say_verdict(const stiff *a, const run_facts *o)
{
    const run_spec *rs = o->rs;
    char head[200], run[160], detail[80] = "", verdict[400];
    if (o->stable)
        snprintf(head, sizeof head, "stable (max |R(h lambda)| = %.4f <= 1)", o->max_R);
    else
        snprintf(head, sizeof head, "unstable (max |R(h lambda)| = %.4g > 1: %.4g Hz mode grows "
                 "x10^%.4g per s)", o->max_R, a->md.omega[o->which] / (2 * M_PI),
                 log10(o->max_R) / rs->h);
    if (o->st == SOLVE_BLOWUP)
        snprintf(run, sizeof run, "blew up before T");
    else
        snprintf(run, sizeof run, "at T: %.3g x exact", o->amp_ratio);
    if (strcmp(o->mode, "erased") == 0)
        snprintf(detail, sizeof detail, ": at T %.1e of the exact amplitude", o->amp_ratio);
    else if (strcmp(o->mode, "aliased") == 0)
        snprintf(detail, sizeof detail, ": it is seen at %.1f Hz", o->seen);
    snprintf(verdict, sizeof verdict, "%.40s, h = %g ms: %.150s\n      %.40s; a step multiplies "
             "the %.0f Hz mode by %.3f, turns it %.3f rad\n      (exact: 1 and %.3f rad, seen at "
             "%.1f Hz): %s%s", rs->m->label, 1e3 * rs->h, head, run, a->md.omega[1] / (2 * M_PI),
             o->gain, o->turn, o->turn_exact, o->seen_exact, o->mode, detail);
    printf("  %s\n", verdict);
}

/* Stable is not accurate: each run's verdict on the fast mode. */
static void show_what_each_run_does(const stiff *a, const run_facts *facts, int nrun)
{
    printf("Stable is not accurate: what each run does to the fast mode.\n");
    for (int r = 0; r < nrun; r++)
        say_verdict(a, &facts[r]);
}

/* Radau IIA against backward Euler (facts[2]): order 5 and order 1, both L-stable, both erase the
 * fast mode; the heavy mass's error of each against that mode's own amplitude there. */
static void show_radau_against_backward_euler(const stiff *a, const run_facts *facts, int nrun)
{
    double fast_u1 = spring2_mode_amplitude(&a->s, &a->md, a->y0, 1, 0);
    double be = facts[2].max_err_u1;
    for (int r = 4; r < nrun; r++) {
        if (strcmp(facts[r].rs->m->name, "radau-iia3") != 0)
            continue;
        double err = facts[r].max_err_u1;
        printf("\nRadau IIA (order 5) and backward Euler (order 1) erase the fast mode at %g ms; "
               "heavy-mass error\n", 1e3 * facts[r].rs->h);
        printf("%.3e m against %.3e m. The erased mode's own amplitude on the heavy mass is "
               "%.3e m:\n", err, be, fast_u1);
        printf("Radau IIA's error is that mode's, to %.1e of it; backward Euler's is %.0f times "
               "it, the rest\n", fabs(err - fast_u1) / fast_u1, be / fast_u1);
        printf("its slow mode's.\n");
    }
}

int main(int argc, char **argv)
{
    static stiff a = {.h_big = 1e-3, .h_small = 2e-4, .blowup = 1e3, .zoom = 0.03,
                      .solver = "none", .rtol = 1e-6, .common = {false, "build/data/stiff"}};
    char err[400], choices[240];
    if (spring2_load_params(&a.s, &a.pull, &a.T, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "stiff: %s\n", err);
        return 1;
    }
    snprintf(choices, sizeof choices, "none|cvode-bdf|cvode-adams|%s", gsl_pair_choices());
    budget bg;
    budget_init(&bg, "stiff", "steps", 1e8, "--T / --h-big (three runs) and --T / --h-small, "
                "and --method's steps over --T (a pilot of 5000 steps, extrapolated)");
    plot_opts plot = {false, false, NULL};
    method_set_init(&a.methods);
    spring2_keys keys;
    spring2_keys_bind(&a.s, &a.pull, &a.T, &keys);
    const cli_opt opts[] = {
        FLAG_TABLE(keys.all),
        FLAG_REAL("h-big", a.h_big, "s", 1e-7, 0.1, CLI_CLOSED,
            "the large step (RK4, backward Euler, trapezoid)"),
        FLAG_REAL("h-small", a.h_small, "s", 1e-7, 0.1, CLI_CLOSED, "RK4's small step"),
        FLAG_REAL("blowup", a.blowup, "", 1, 1e100, CLI_OPEN_MIN,
            "blow-up when max |y_i| exceeds this many times the exact motion's"),
        FLAG_CHOICE("method", a.solver, choices,
            "also solve with this adaptive solver (e.g. gsl-rkf45: an explicit pair crawling on "
            "the stiff network)"),
        FLAG_REAL("rtol", a.rtol, "", 1e-12, 1e-2, CLI_CLOSED,
            "its relative tolerance (absolute: rtol times the pull)"),
        CLI_WIDE_OPT(a.wide),
        FLAG_REAL("zoom", a.zoom, "s", 0, 100, CLI_OPEN_MIN, "window of the light-mass figure"),
        BUDGET_OPT(bg),
        METHOD_ADD_OPT(a.methods),
        CLI_COMMON_OPTS(a.common),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "stiff",
        .summary = "Two masses, three springs (10.5 Hz and 1950 Hz): RK4 at 1 ms blows up, "
            "implicit steps do not; what each does to the fast mode.",
        .opts = opts,
        .epilogue = exercises,
    };
    /* the lecture's "stiff problems: Radau": Radau IIA's tableau runs at the large step too */
    const char *radau = repo_file("lessons/methods/radau-iia3.tab");
    if (!method_set_load(&a.methods, radau, err, sizeof err)) {
        fprintf(stderr, "stiff: Radau IIA: %s\n", err);
        return 1;
    }
    cli_parse(&spec, argc, argv);
    if (a.pull == 0.0)
        cli_fail("stiff", "--pull 0 is the rest state; accepted: a nonzero displacement");

    /* 1. The model: two masses, three springs (spring2.ini, then the flags), the heavy mass
     *    pulled and released; the steps to T (the last one short when T is not a multiple of h)
     *    and the work the runs will take. */
    a.y0[0] = a.pull;
    a.nsteps[0] = solve_steps_to(a.T, a.h_big, &a.h_last[0]);
    a.nsteps[1] = solve_steps_to(a.T, a.h_small, &a.h_last[1]);
    failure why;    /* what ends the program early: its line and status */
    if (check_budget(&bg, &a, &why) != 0)
        return failure_print(&why);
    /* 2. Its two modes (10.5 Hz and 1950 Hz) and the exact motion they superpose. */
    atomic_file ae;
    if (find_modes(&a, &why) != 0 || write_exact(&a, &ae, &why) != 0)
        return failure_print(&why);
    /* 3. The runs: RK4 at 1 ms and 0.2 ms, backward Euler and the trapezoid at 1 ms, Radau IIA
     *    (and each --add-method) at 1 ms; each one's fast mode measured, one row a run. */
    static run_spec runs[4 + METHOD_MAX];
    static run_facts facts[4 + METHOD_MAX];
    int nrun = list_runs(&a, runs);
    if (!a.common.tsv)
        show_network(&a);
    if (run_and_measure(&a, runs, nrun, facts, &why) != 0 ||
        atomic_commit_file(&ae, "stiff", &why) != 0)
        return failure_print(&why);
    /* 4. An adaptive solver held to a tolerance (--method) must follow the fast mode too. */
    if (strcmp(a.solver, "none") != 0 && solve_adaptively(&a, &why) != 0)
        return failure_print(&why);
    if (write_window(&a, &why) != 0)
        return failure_print(&why);
    /* 5. The claims: RK4 at 1 ms blows up; stable is not accurate (what each run does to the
     *    fast mode); Radau IIA's error against backward Euler's is the erased mode's own. */
    if (!a.common.tsv) {
        show_blowups(facts, nrun);
        explain_columns();
        show_what_each_run_does(&a, facts, nrun);
        show_radau_against_backward_euler(&a, facts, nrun);
    }
    budget_finish(&bg.meter);
    return plot_render(&plot, "stiff", a.common.out, a.common.tsv);
}
