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
 * A blow-up here is the lesson's result, reported in the table; the program exits 0. */
#include "lesson.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "drive/gsl_pairs.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "method/method.h"
#include "method/set.h"
#include "models/spring2.h"
#include "drive/solve.h"
#include "measure/stability.h"
#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/util.h"

/* The fast mode counts as erased when its amplitude at T is below this fraction of the exact one. */
#define FAST_ERASED 1e-3

typedef struct {
    const spring2 *s;
    const spring2_modes *md;
    const double *y0;
    FILE *f;                    /* t, u1, u2, exact u1, exact u2 */
    double max_err_u1;          /* largest |u1 - exact u1|, m */
    double complex c0, c1;      /* the fast mode's complex amplitude at steps 0 and 1 */
    double fast_end;            /* fast-mode amplitude on the light mass at the last sample, m */
    long stride, last;          /* the file keeps every stride-th sample and the last (index last) */
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
    "  1. Find the largest step at which RK4 is stable on the stiff network (max |R(h lambda)| <= 1):\n"
    "     between 0.2 ms and 0.25 ms. Compare with 2.83 / (2 pi 1950 Hz), which the check prints.\n"
    "     check: bin/stiff --h-big 0.00025 | grep -e '^ *rk4' -e 'RK4 stable bound'\n"
    "  2. Backward Euler at 1 ms erases the fast mode. At which step does it keep at least half of\n"
    "     it per step? Predict from |R| = 1 / |1 - h lambda| (h = sqrt(3) / (2 pi 1950 Hz) = 0.141 ms),\n"
    "     then read the one-step factor fast_factor (re, im) at 0.125 ms.\n"
    "     check: bin/stiff --h-big 0.000125 --tsv | grep backward | cut -f1,2,10,11\n"
    "  3. Radau IIA and Gauss (lessons/methods/gauss2.tab) are both A-stable and fully implicit. Which\n"
    "     one erases the fast mode at 1 ms? Predict from |R(12.25j)| (bin/stability --z 0,12.25 with\n"
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
    spring2_modes md;
    ivp p;
    double y0[4];           /* the release: u1 = pull, m; the rest 0 */
    double bound;           /* blow-up when max |y_i| exceeds it, m */
    double fast_exact;      /* the fast mode's amplitude on the light mass (exact), m */
    method_set methods;     /* the built-in methods, Radau IIA and each --add-method */
    progress *meter;        /* the budget's progress line, ticked a step */
} stiff;

typedef struct { const method *m; double h; char file[80]; } run_spec;
/* What a run leaves for the closing lines. */
typedef struct { char verdict[400]; double err_u1; } run_out;

/* The exact motion, finely sampled, into exact.tsv (committed by the caller after the runs), and
 * the blow-up bound relative to its size. */
static void write_exact(stiff *a, atomic_file *ae)
{
    FILE *fe = atomic_open_or_exit(ae, "stiff", a->common.out, "exact.tsv");
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
}

/* RK4 at both steps, backward Euler and the trapezoid at the large one, then every tableau file's
 * method (Radau IIA's and each --add-method's) at the large step; how many. */
static int run_list(const stiff *a, run_spec *runs)
{
    const run_spec base[4] = {{&method_rk4, a->h_big, "run_rk4_big.tsv"}, {&method_rk4, a->h_small, "run_rk4_small.tsv"},
                              {&method_backward_euler, a->h_big, "run_backward-euler_big.tsv"},
                              {&method_trapezoid, a->h_big, "run_trapezoid_big.tsv"}};
    memcpy(runs, base, sizeof base);
    int nrun = 4;
    for (int k = 0; a->methods.all[k]; k++)
        if (a->methods.all[k]->file) {
            runs[nrun].m = a->methods.all[k];
            runs[nrun].h = a->h_big;
            snprintf(runs[nrun++].file, sizeof runs[0].file, "run_%s_big.tsv", a->methods.all[k]->name);
        }
    return nrun;
}

static void print_header(const stiff *a, const double hs[2], const long nsteps[2], const double h_lasts[2])
{
    printf("two masses, three springs: m1 = %g kg, m2 = %g kg, k1 = %g, k2 = %g, k3 = %g N/m\n", a->s.m1, a->s.m2,
           a->s.k1, a->s.k2, a->s.k3);
    printf("modes (GSL gensymmv): %.4f Hz and %.2f Hz; pull m1 by %g m, release; T = %g s\n", a->md.omega[0] / (2 * M_PI),
           a->md.omega[1] / (2 * M_PI), a->pull, a->T);
    printf("fast mode's amplitude on the light mass (exact, constant): %.4e m\n", a->fast_exact);
    double rk4_bound = stability_bound(&method_rk4, I);
    printf("fast mode h lambda = %.4gj at h = %g s, %.4gj at h = %g s\n(RK4 stable on the imaginary axis for "
           "|h lambda| <= %.4f, from its R)\n",
           a->md.omega[1] * a->h_big, a->h_big, a->md.omega[1] * a->h_small, a->h_small, rk4_bound);
    printf("RK4 stable bound: h <= %.4f / (2 pi %.2f Hz) = %.5f ms\n\n", rk4_bound, a->md.omega[1] / (2 * M_PI),
           1e3 * rk4_bound / a->md.omega[1]);
    for (int i = 0; i < 2; i++)
        if (h_lasts[i] > 0.0)
            printf("T is not a multiple of h = %g s: %ld steps of h, the last one short, %.6g s, to end at T\n", hs[i],
                   nsteps[i] - 1, h_lasts[i]);
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

/* The verdict's lines: stable or not from max |R(h lambda)| (a mode that grows, by how much a
 * second), what the run did (bounded to T or blew up), and what it did to the fast mode. */
static void say_verdict(const stiff *a, const run_spec *rs, double gain, double turn, double turn_exact,
                        double seen_exact, const char *mode, const char *detail, double amp_ratio, solve_status st,
                        run_out *o)
{
    double maxR;
    int k;
    bool stable = run_stable(a, rs->m, rs->h, &maxR, &k);
    char head[200];
    if (stable)
        snprintf(head, sizeof head, "stable (max |R(h lambda)| = %.4f <= 1)", maxR);
    else
        snprintf(head, sizeof head, "unstable (max |R(h lambda)| = %.4g > 1: %.4g Hz mode grows x10^%.4g per s)",
                 maxR, a->md.omega[k] / (2 * M_PI), log10(maxR) / rs->h);
    char run[160];
    if (st == SOLVE_BLOWUP)
        snprintf(run, sizeof run, "blew up before T");
    else
        snprintf(run, sizeof run, "at T: %.3g x exact", amp_ratio);
    snprintf(o->verdict, sizeof o->verdict,
             "%.40s, h = %g ms: %.150s\n      %.40s; a step multiplies the %.0f Hz mode by %.3f, turns it %.3f rad\n"
             "      (exact: 1 and %.3f rad, seen at %.1f Hz): %s%s",
             rs->m->label, 1e3 * rs->h, head, run, a->md.omega[1] / (2 * M_PI), gain, turn, turn_exact, seen_exact,
             mode, detail);
}

/* What a run shows of the fast mode, from the measured factor per step c1/c0: its gain, the angle it
 * turns (the exact mode turns omega h; a turn near pi is a zigzag), the frequency that turn is heard
 * at, arg / (2 pi h) (an alias when omega h > pi), and a verdict: stable is not accurate. The
 * table's cells and the verdict's sentence. */
static void fast_mode_cells(const stiff *a, const run_spec *rs, const run_ctx *rc, const solve_result *res,
                            solve_status st, table *tab, run_out *o)
{
    double complex factor = rc->c1 / rc->c0, R = method_R(rs->m, I * a->md.omega[1] * rs->h);
    double gain = cabs(factor), turn = fabs(carg(factor)), seen = turn / (2.0 * M_PI * rs->h);
    double f_fast = a->md.omega[1] / (2 * M_PI), amp_ratio = rc->fast_end / a->fast_exact;
    /* the exact mode sampled every h turns omega h modulo a turn: above h = 1/(2 f) it is itself
     * seen at an alias; a run "aliases" when it shows the mode elsewhere than that */
    double turn_exact = fabs(remainder(a->md.omega[1] * rs->h, 2.0 * M_PI));
    double seen_exact = turn_exact / (2.0 * M_PI * rs->h);
    const char *mode = st == SOLVE_BLOWUP                        ? "blew-up"
                       : amp_ratio < FAST_ERASED                 ? "erased"
                       : fabs(seen - seen_exact) > 0.05 * seen_exact ? "aliased"
                                                                 : "kept";
    char detail[80] = "";
    if (strcmp(mode, "erased") == 0)
        snprintf(detail, sizeof detail, ": at T %.1e of the exact amplitude", amp_ratio);
    else if (strcmp(mode, "aliased") == 0)
        snprintf(detail, sizeof detail, ": it is seen at %.1f Hz", seen);
    say_verdict(a, rs, gain, turn, turn_exact, seen_exact, mode, detail, amp_ratio, st, o);
    double maxR;
    int k;
    bool stable = run_stable(a, rs->m, rs->h, &maxR, &k);
    table_cell(tab, "%s", rs->m->name);
    table_cell(tab, "%g", rs->h);
    table_cell(tab, "%.4f", a->md.omega[0] / (2 * M_PI));
    table_cell(tab, "%.2f", f_fast);
    table_cell(tab, "%s", st == SOLVE_BLOWUP ? "blew-up" : "bounded");
    table_cell(tab, "%.6g", res->t);
    table_cell(tab, "%.3e", rc->max_err_u1);
    table_cell(tab, "%.3e", rc->fast_end);
    table_cell(tab, "%.3e", amp_ratio);
    table_cell(tab, "%.4f", creal(factor));
    table_cell(tab, "%.4f", cimag(factor));
    table_cell(tab, "%.4f", creal(R));
    table_cell(tab, "%.4f", cimag(R));
    table_cell(tab, "%.4f", gain);
    table_cell(tab, "%.4f", turn);
    table_cell(tab, "%.1f", seen);
    table_cell(tab, "%s", mode);
    table_cell(tab, "%ld", res->counts.nfactor);
    table_cell(tab, "%ld", res->counts.nnewton);
    table_cell(tab, "%ld", res->counts.nfev);
    table_cell(tab, "%s", stable ? "stable" : "unstable");
    table_cell(tab, "%.10f", maxR);
    table_cell(tab, "%.4g", log10(maxR) / rs->h);
}

/* One fixed-step run into its file and its table row; 0, or 1 after a numerical failure (said on
 * stderr). A blow-up is the lesson's result: its message into blew (else blew[0] = 0). */
static int one_run(const stiff *a, const run_spec *rs, table *tab, run_out *o, char *blew, size_t blewlen)
{
    atomic_file af;
    FILE *f = atomic_open_or_exit(&af, "stiff", a->common.out, rs->file);
    fprintf(f, "t_s\t%s, h = %g ms\tu2_m\tu1_exact_m\tu2_exact_m\n", rs->m->label, rs->h * 1e3);
    double h_end;
    long nst = solve_steps_to(a->T, rs->h, &h_end);
    run_ctx rc = {&a->s, &a->md, a->y0, f, 0.0, 0, 0, 0.0, budget_stride(nst), nst, a->meter};
    double y[4] = {a->y0[0], a->y0[1], a->y0[2], a->y0[3]};
    solve_opts so = {rs->m, 0.0, rs->h, 0, a->bound, 1, sample, &rc};
    solve_result res;
    solve_status st = solve_fixed_to(&a->p, y, &so, a->T, NULL, &res);
    atomic_commit_or_exit(&af, "stiff");
    if (st == SOLVE_FAILED) {
        fprintf(stderr, "stiff: %s\n", res.message);
        return 1;
    }
    snprintf(blew, blewlen, "%s", st == SOLVE_BLOWUP ? res.message : "");
    o->err_u1 = rc.max_err_u1;
    fast_mode_cells(a, rs, &rc, &res, st, tab, o);
    return 0;
}

/* --method: an adaptive solver on the same network, its steps against the modes' periods
 * (adaptive.tsv and two paragraphs); 0, or 1 when it fails. */
static int adaptive_run(stiff *a)
{
    spring2_adaptive ad;
    char err[600];
    if (spring2_adaptive_run(&a->s, &a->md, a->y0, a->T, a->solver, a->rtol, a->rtol * fabs(a->pull), a->max_steps,
                             a->meter, &ad, err, sizeof err) != 0) {
        fprintf(stderr, "stiff: %s\n", err);
        return 1;
    }
    const cvode_stats cs = ad.st;
    double hmed = ad.median_h;
    double slow_period = 2 * M_PI / a->md.omega[0], fast_period = 2 * M_PI / a->md.omega[1];
    atomic_file aa;
    FILE *fa = atomic_open_or_exit(&aa, "stiff", a->common.out, "adaptive.tsv");
    fprintf(fa, "method\trtol\tsteps\tnfev\tnjev\trejected\tmedian_h_s\tsteps_per_fast_period\t"
                "steps_per_slow_period\tmax_err_u1_m\tseconds\n%s\t%g\t%ld\t%ld\t%ld\t%ld\t%.6g\t%.4g\t%.4g\t%.3e\t%.4f\n",
            a->solver, a->rtol, cs.steps, cs.nfev + cs.nfev_jac, cs.njev, cs.netf, hmed, fast_period / hmed,
            slow_period / hmed, ad.max_err_u1, cs.seconds);
    atomic_commit_or_exit(&aa, "stiff");
    if (a->common.tsv)
        return 0;
    printf("\n%s at rtol %g: %ld steps, %ld F evaluations, %ld Jacobians, %ld linear setups, %ld rejected, %.3f s;\n"
           "median step %.3g s, %.3g steps a fast period (%.3g ms), %.0f a slow one (%.3g ms): heavy-mass error at\n"
           "most %.2e m.\n",
           a->solver, a->rtol, cs.steps, cs.nfev + cs.nfev_jac, cs.njev, cs.nsetups, cs.netf, cs.seconds, hmed,
           fast_period / hmed, 1e3 * fast_period, slow_period / hmed, 1e3 * slow_period, ad.max_err_u1);
    printf("The release puts the fast mode into the motion (%.3g m on the light mass, %.2g of the pull): a solver\n"
           "held to a tolerance must follow it, explicit or implicit; an implicit method steps over it only when\n"
           "its error there is let go (backward Euler at 1 ms above erases it).\n",
           a->fast_exact, a->fast_exact / fabs(a->pull));
    return 0;
}

/* The blow-ups, the legend of the columns, each run's verdict, and Radau IIA against backward Euler
 * (runs[2]): order 5 and order 1, both L-stable. */
static void closing(const stiff *a, const run_spec *runs, const run_out *out, int nrun, char messages[][320], int nmsg)
{
    printf("\n");
    for (int i = 0; i < nmsg; i++)
        printf("%s\n", messages[i]);
    printf("stable: max |R(h lambda)| over the network's eigenvalues +-j omega_k is <= 1 (log10_growth_per_s:\n"
           "log10 of that |R| over h); status: whether the run stayed below --blowup times the exact motion\n"
           "to T.\n");
    printf("fast_amp_ratio: the fast mode's amplitude on the light mass at t_end over the exact one;\n"
           "fast_factor: that mode's complex amplitude after one step over before, beside R(h lambda);\n"
           "fast_gain, fast_turn_rad: its modulus and angle; fast_seen_hz: the frequency that angle a step is\n"
           "seen at, turn / (2 pi h) (the exact mode turns omega h modulo 2 pi, itself an alias above\n"
           "h = 1/(2 f));\n"
           "fast_mode: erased (amplitude at T below %g of the exact), aliased (seen more than 5%% away from\n"
           "where the exact mode sampled every h is seen), kept, or blew-up.\n\n"
           "Stable is not accurate: what each run does to the fast mode.\n", FAST_ERASED);
    for (int r = 0; r < nrun; r++)
        printf("  %s\n", out[r].verdict);
    double fast_u1 = spring2_mode_amplitude(&a->s, &a->md, a->y0, 1, 0), be = out[2].err_u1;
    for (int r = 4; r < nrun; r++)
        if (strcmp(runs[r].m->name, "radau-iia3") == 0)
            printf("\nRadau IIA (order 5) and backward Euler (order 1) erase the fast mode at %g ms; heavy-mass error\n"
                   "%.3e m against %.3e m. The erased mode's own amplitude on the heavy mass is %.3e m:\n"
                   "Radau IIA's error is that mode's, to %.1e of it; backward Euler's is %.0f times it, the rest\n"
                   "its slow mode's.\n",
                   1e3 * runs[r].h, out[r].err_u1, be, fast_u1, fabs(out[r].err_u1 - fast_u1) / fast_u1, be / fast_u1);
}

/* Every run after the flags: the exact motion, the fixed-step runs and their table, the adaptive
 * solver, the figure's window, the closing lines. 0, or 1 after a failure. */
static int lesson(stiff *a, const double hs[2], const long nsteps[2], const double h_lasts[2])
{
    if (spring2_modes_of(&a->s, &a->md) != 0) {
        fprintf(stderr, "stiff: M or K is not positive definite (check m1, m2, k1, k2, k3)\n");
        return 1;
    }
    a->p = spring2_ivp(&a->s);
    atomic_file ae;
    write_exact(a, &ae);
    static run_spec runs[4 + METHOD_MAX];
    static run_out out[4 + METHOD_MAX];
    char messages[4 + METHOD_MAX][320];
    int nrun = run_list(a, runs), nmsg = 0;
    if (!a->common.tsv)
        print_header(a, hs, nsteps, h_lasts);
    table tab;
    /* the human table fits 100 columns; --wide and --tsv give every column */
    table_begin(&tab, stdout, table_mode(a->common.tsv, a->wide), "method", "h_s", "+slow_hz",
                "+fast_hz", "status", "+t_end_s", "+max_err_u1_m", "+fast_amp_end_m", "+fast_amp_ratio", "+fast_factor_re",
                "+fast_factor_im", "+R_re", "+R_im", "+fast_gain", "+fast_turn_rad", "+fast_seen_hz", "fast_mode",
                "+nfactor", "+nnewton", "+nfev", "stable", "max_abs_R_hlambda", "+log10_growth_per_s", NULL);
    for (int r = 0; r < nrun; r++) {
        if (one_run(a, &runs[r], &tab, &out[r], messages[nmsg], sizeof messages[0]) != 0)
            return 1;
        nmsg += messages[nmsg][0] != '\0';
    }
    atomic_commit_or_exit(&ae, "stiff");
    if (strcmp(a->solver, "none") != 0 && adaptive_run(a) != 0)
        return 1;
    atomic_file aw;     /* the figure's window, as data the script reads */
    FILE *fw = atomic_open_or_exit(&aw, "stiff", a->common.out, "window.tsv");
    fprintf(fw, "zoom_s\tpull_m\tslow_hz\tfast_hz\n%g\t%g\t%.4g\t%.4g\n", a->zoom, a->pull, a->md.omega[0] / (2 * M_PI),
            a->md.omega[1] / (2 * M_PI));
    atomic_commit_or_exit(&aw, "stiff");
    if (!a->common.tsv)
        closing(a, runs, out, nrun, messages, nmsg);
    return 0;
}

int main(int argc, char **argv)
{
    static stiff a = {.h_big = 1e-3, .h_small = 2e-4, .blowup = 1e3, .zoom = 0.03, .solver = "none", .rtol = 1e-6,
                      .common = {false, "build/data/stiff"}};
    char err[400], choices[240];
    if (spring2_load_params(&a.s, &a.pull, &a.T, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "stiff: %s\n", err);
        return 1;
    }
    snprintf(choices, sizeof choices, "none|cvode-bdf|cvode-adams|%s", gsl_pair_choices());
    budget bg;
    budget_init(&bg, "stiff", "steps", 1e8, "--T / --h-big (three runs) and --T / --h-small, and --method's "
                "steps over --T (a pilot of 5000 steps, extrapolated)");
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
    /* T not a multiple of a step: that run's last step is taken short, and the run says so */
    const double hs[2] = {a.h_big, a.h_small};
    double h_lasts[2];
    long nsteps[2] = {solve_steps_to(a.T, hs[0], &h_lasts[0]), solve_steps_to(a.T, hs[1], &h_lasts[1])};
    /* three runs at h-big (and each tableau file's), one at h-small; each run's file keeps every
     * stride-th step */
    int nadd = 0;
    for (int k = 0; a.methods.all[k]; k++)
        nadd += a.methods.all[k]->file != NULL;
    double n_big = (double)nsteps[0], n_small = (double)nsteps[1];
    /* --method: its steps from a pilot of STIFF_PILOT steps, extrapolated over T (its steps at
     * once when it reaches T): an explicit pair's steps follow the fast mode's period, CVODE's
     * the tolerance; the run stops at the budget's cap, or 4 times the estimate with --allow-long */
    a.y0[0] = a.pull;
    double n_adaptive = 0.0;
    spring2_modes md;
    if (strcmp(a.solver, "none") != 0 && spring2_modes_of(&a.s, &md) == 0)
        n_adaptive = spring2_adaptive_pilot(&a.s, &md, a.y0, a.T, a.solver, a.rtol, a.rtol * fabs(a.pull), STIFF_PILOT);
    bg.work = (3.0 + nadd) * n_big + n_small + n_adaptive;
    bg.bytes_out = ((3.0 + nadd) * fmin(n_big, BUDGET_ROWS) + fmin(n_small, BUDGET_ROWS) + 8.0 + 2.0 * nadd) * 60.0 +
                   20001.0 * 40.0;
    bg.bytes_mem = n_adaptive > 0 ? fmin(n_adaptive, 1 << 20) * 8.0 : 0.0;    /* its steps' lengths */
    budget_check_or_exit(&bg);
    a.max_steps = (long)fmin(bg.allow_long ? 4.0 * n_adaptive + 1e6 : bg.cap, 1e15);
    a.meter = &bg.meter;
    if (lesson(&a, hs, nsteps, h_lasts) != 0)
        return 1;
    budget_finish(&bg.meter);
    return plot_render(&plot, "stiff", a.common.out, a.common.tsv);
}
