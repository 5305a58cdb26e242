/* Lesson 4, "Stiff spring network: the fastest mode sets the step": two masses and three springs
 * with modes at 10.5 Hz and 1950 Hz (lessons/params/spring2.ini). Pull the heavy mass and release;
 * the exact solution is modal (GSL's generalized symmetric eigensolver). The lecture's four runs:
 * RK4 at 1 ms blows up (12.25j is far outside its region), RK4 at 0.2 ms is stable, backward Euler
 * at 1 ms erases the fast mode, the trapezoid at 1 ms keeps it as a zigzag (R -> -1).
 * Measured per run: blow-up and its time, the heavy mass's largest error, the fast mode's
 * amplitude on the light mass at the end against the exact one, and the fast mode's factor over
 * one step (its modal amplitude after one step over before), beside R(h lambda) of the table.
 * --add-method FILE.tab adds a run of a Butcher tableau's method at the large step.
 * A blow-up here is the lesson's result, reported in the table; the program exits 0. */
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "drive/gsl_pairs.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "method/method.h"
#include "method/tableau.h"
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
} run_ctx;

/* An adaptive run's steps: each step's length, and the heavy mass's largest error. */
typedef struct {
    const spring2 *s;
    const spring2_modes *md;
    const double *y0;
    double *h;              /* step lengths, s */
    size_t n, cap;
    double max_err_u1;      /* m */
} adaptive_ctx;

static int adaptive_step(double t, double h, const double *y, void *ctx)
{
    adaptive_ctx *a = ctx;
    double ex[4];
    spring2_exact(a->s, a->md, a->y0, t, ex);
    a->max_err_u1 = fmax(a->max_err_u1, fabs(y[0] - ex[0]));
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        double *v = xcalloc(a->cap, sizeof(double));
        if (a->n)
            memcpy(v, a->h, a->n * sizeof(double));
        free(a->h);
        a->h = v;
    }
    a->h[a->n++] = h;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

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
    budget_tick(1.0);
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Find the largest step at which RK4 keeps the stiff network bounded: between 0.2 ms and 0.25\n"
    "     ms. Compare with 2.83 / (2 pi 1950 Hz).\n"
    "     check: bin/stiff --h-big 0.00025 | grep '^ *rk4'\n"
    "  2. Backward Euler at 1 ms erases the fast mode. At which step does it keep at least half of\n"
    "     it per step? Predict from |R| = 1 / |1 - h lambda| (h = sqrt(3) / (2 pi 1950 Hz) = 0.141 ms),\n"
    "     then read the one-step factor fast_factor (re, im) at 0.125 ms.\n"
    "     check: bin/stiff --h-big 0.000125 --tsv | grep backward | cut -f1,2,10,11\n";

int main(int argc, char **argv)
{
    spring2 s;
    double pull, T, h_big = 1e-3, h_small = 2e-4, blowup = 1e3, zoom = 0.03;
    char err[400];
    if (spring2_load_params(&s, &pull, &T, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "stiff: %s\n", err);
        return 1;
    }
    const char *solver = "none";
    double rtol = 1e-6;
    char choices[240];
    snprintf(choices, sizeof choices, "none|cvode-bdf|cvode-adams|gsl-%s", gsl_pair_names());
    for (char *c = choices; (c = strstr(c, "|rk")) != NULL;) {    /* gsl-rk2|rkf45 -> gsl-rk2|gsl-rkf45 */
        memmove(c + 5, c + 1, strlen(c + 1) + 1);
        memcpy(c + 1, "gsl-", 4);
        c += 5;
    }
    cli_common common = {false, "build/data/stiff"};
    budget bg;
    budget_init(&bg, "stiff", "steps", 1e8, "--T / --h-big (three runs) and --T / --h-small");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        {"m1", CLI_DOUBLE, &s.m1, "kg", "heavy mass (spring2.ini)", 0, 1e6, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"m2", CLI_DOUBLE, &s.m2, "kg", "light mass (spring2.ini)", 0, 1e6, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"k1", CLI_DOUBLE, &s.k1, "N/m", "spring wall-m1 (spring2.ini)", 0, 1e15, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"k2", CLI_DOUBLE, &s.k2, "N/m", "spring m1-m2 (spring2.ini)", 0, 1e15, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"k3", CLI_DOUBLE, &s.k3, "N/m", "spring m2-wall (spring2.ini)", 0, 1e15, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"pull", CLI_DOUBLE, &pull, "m", "initial displacement of the heavy mass (spring2.ini)", -1e3, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"T", CLI_DOUBLE, &T, "s", "length of the runs (spring2.ini)", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"h-big", CLI_DOUBLE, &h_big, "s", "the large step (RK4, backward Euler, trapezoid)", 1e-7, 0.1, 0, NULL, NULL, NULL},
        {"h-small", CLI_DOUBLE, &h_small, "s", "RK4's small step", 1e-7, 0.1, 0, NULL, NULL, NULL},
        {"blowup", CLI_DOUBLE, &blowup, "", "blow-up when max |y_i| exceeds this many times the exact motion's", 1, 1e100, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"method", CLI_CHOICE, &solver, "", "also solve with this adaptive solver (e.g. gsl-rkf45: an explicit pair "
         "crawling on the stiff network)", 0, 0, 0, choices, NULL, NULL},
        {"rtol", CLI_DOUBLE, &rtol, "", "its relative tolerance (absolute: rtol times the pull)", 1e-12, 1e-2, 0, NULL, NULL, NULL},
        {"zoom", CLI_DOUBLE, &zoom, "s", "window of the light-mass figure", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        BUDGET_OPT(bg),
        METHOD_ADD_OPT,
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {"stiff", "Two masses, three springs (10.5 Hz and 1950 Hz): RK4 at 1 ms blows up, "
                                    "implicit steps do not; what each does to the fast mode.", NULL, 0, opts, exercises};
    cli_parse(&spec, argc, argv);
    if (pull == 0.0)
        cli_fail("stiff", "--pull 0 is the rest state; accepted: a nonzero displacement");
    /* T not a multiple of a step: that run's last step is taken short, and the run says so */
    const double hs[2] = {h_big, h_small};
    double h_lasts[2];
    long nsteps[2];
    for (int i = 0; i < 2; i++)
        nsteps[i] = solve_steps_to(T, hs[i], &h_lasts[i]);

    /* three runs at h-big (and each --add-method's), one at h-small; each run's file keeps every
     * stride-th step */
    int nadd = 0;
    for (int k = 0; method_all[k]; k++)
        nadd += tableau_file(method_all[k]) != NULL;
    double n_big = (double)nsteps[0], n_small = (double)nsteps[1];
    bg.work = (3.0 + nadd) * n_big + n_small;
    bg.bytes_out = ((3.0 + nadd) * fmin(n_big, BUDGET_ROWS) + fmin(n_small, BUDGET_ROWS) + 8.0 + 2.0 * nadd) * 60.0 +
                   20001.0 * 40.0;
    budget_check(&bg);

    spring2_modes md;
    if (spring2_modes_of(&s, &md) != 0) {
        fprintf(stderr, "stiff: M or K is not positive definite (check m1, m2, k1, k2, k3)\n");
        return 1;
    }
    ivp p = spring2_ivp(&s);
    const double y0[4] = {pull, 0.0, 0.0, 0.0};
    /* The exact motion, finely sampled, and its size (the blow-up bound is relative to it). */
    atomic_file ae;
    FILE *fe = atomic_open_or_exit(&ae, "stiff", common.out, "exact.tsv");
    fprintf(fe, "t_s\tu1_m\tu2_m\n");
    double ymax = 0.0;
    const int nfine = 20000;
    for (int i = 0; i <= nfine; i++) {
        double t = T * i / nfine, ex[4];
        spring2_exact(&s, &md, y0, t, ex);
        for (int j = 0; j < 4; j++)
            ymax = fmax(ymax, fabs(ex[j]));
        fprintf(fe, "%.10g\t%.10g\t%.10g\n", t, ex[0], ex[1]);
    }
    double fast_exact = spring2_mode_amplitude(&s, &md, y0, 1, 1);

    struct { const method *m; double h; const char *file; } runs[4 + METHOD_MAX] = {
        {&method_rk4, h_big, "run_rk4_big.tsv"},
        {&method_rk4, h_small, "run_rk4_small.tsv"},
        {&method_backward_euler, h_big, "run_backward-euler_big.tsv"},
        {&method_trapezoid, h_big, "run_trapezoid_big.tsv"},
    };
    int nrun = 4;
    char files[METHOD_MAX][80];
    for (int k = 0; method_all[k]; k++)      /* --add-method: each file's method at the large step */
        if (tableau_file(method_all[k])) {
            snprintf(files[nrun - 4], sizeof files[0], "run_%s_big.tsv", method_all[k]->name);
            runs[nrun].m = method_all[k];
            runs[nrun].h = h_big;
            runs[nrun].file = files[nrun - 4];
            nrun++;
        }

    if (!common.tsv) {
        printf("two masses, three springs: m1 = %g kg, m2 = %g kg, k1 = %g, k2 = %g, k3 = %g N/m\n", s.m1, s.m2, s.k1,
               s.k2, s.k3);
        printf("modes (GSL gensymmv): %.4f Hz and %.2f Hz; pull m1 by %g m, release; T = %g s\n", md.omega[0] / (2 * M_PI),
               md.omega[1] / (2 * M_PI), pull, T);
        printf("fast mode's amplitude on the light mass (exact, constant): %.4e m\n", fast_exact);
        printf("fast mode h lambda = %.4gj at h = %g s, %.4gj at h = %g s (RK4 stable on the imaginary axis for\n"
               "|h lambda| <= %.4f, from its R)\n\n",
               md.omega[1] * h_big, h_big, md.omega[1] * h_small, h_small, stability_bound(&method_rk4, I));
        for (int i = 0; i < 2; i++)
            if (h_lasts[i] > 0.0)
                printf("T is not a multiple of h = %g s: %ld steps of h, the last one short, %.6g s, to end at T\n", hs[i],
                       nsteps[i] - 1, h_lasts[i]);
    }
    table tab;
    table_begin(&tab, stdout, common.tsv, "method", "h_s", "slow_hz", "fast_hz", "status", "t_end_s", "max_err_u1_m",
                "fast_amp_end_m", "fast_amp_ratio", "fast_factor_re", "fast_factor_im", "R_re", "R_im", "fast_gain",
                "fast_turn_rad", "fast_seen_hz", "fast_mode", "nfev", NULL);
    char messages[4 + METHOD_MAX][320], verdicts[4 + METHOD_MAX][400];
    int nmsg = 0;
    for (int r = 0; r < nrun; r++) {
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "stiff", common.out, runs[r].file);
        fprintf(f, "t_s\t%s, h = %g ms\tu2_m\tu1_exact_m\tu2_exact_m\n", runs[r].m->label, runs[r].h * 1e3);
        double h_end;
        long nst = solve_steps_to(T, runs[r].h, &h_end);
        run_ctx rc = {&s, &md, y0, f, 0.0, 0, 0, 0.0, budget_stride(nst), nst};
        double y[4] = {y0[0], y0[1], y0[2], y0[3]};
        solve_opts o = {runs[r].m, 0.0, runs[r].h, 0, blowup * ymax, 1, sample, &rc};
        solve_result res;
        solve_status st = solve_fixed_to(&p, y, &o, T, NULL, &res);
        atomic_commit_or_exit(&a, "stiff");
        if (st == SOLVE_FAILED) {
            fprintf(stderr, "stiff: %s\n", res.message);
            return 1;
        }
        if (st == SOLVE_BLOWUP)
            snprintf(messages[nmsg++], sizeof messages[0], "%s", res.message);
        double complex factor = rc.c1 / rc.c0, R = runs[r].m->R(I * md.omega[1] * runs[r].h);
        /* What the run shows of the fast mode, from the measured factor per step: its gain, the angle
         * it turns (the exact mode turns omega h; a turn near pi is a zigzag), the frequency that turn
         * is heard at, arg / (2 pi h) (an alias when omega h > pi), and a verdict. Stable is not accurate. */
        double gain = cabs(factor), turn = fabs(carg(factor)), seen = turn / (2.0 * M_PI * runs[r].h);
        double f_fast = md.omega[1] / (2 * M_PI), amp_ratio = rc.fast_end / fast_exact;
        /* the exact mode sampled every h turns omega h modulo a turn: above h = 1/(2 f) it is itself
         * seen at an alias; a run "aliases" when it shows the mode elsewhere than that */
        double turn_exact = fabs(remainder(md.omega[1] * runs[r].h, 2.0 * M_PI));
        double seen_exact = turn_exact / (2.0 * M_PI * runs[r].h);
        const char *mode = st == SOLVE_BLOWUP                        ? "blew-up"
                           : amp_ratio < FAST_ERASED                 ? "erased"
                           : fabs(seen - seen_exact) > 0.05 * seen_exact ? "aliased"
                                                                     : "kept";
        char detail[80] = "";
        if (strcmp(mode, "erased") == 0)
            snprintf(detail, sizeof detail, ": its amplitude at T is %.1e of the exact one", amp_ratio);
        else if (strcmp(mode, "aliased") == 0)
            snprintf(detail, sizeof detail, ": it is seen at %.1f Hz", seen);
        snprintf(verdicts[r], sizeof verdicts[r],
                 "%s, h = %g ms: %s; a step multiplies the %.0f Hz mode by %.3f and turns it %.3f rad (exact: "
                 "1 and %.3f rad, seen at %.1f Hz): %s%s",
                 runs[r].m->label, 1e3 * runs[r].h, st == SOLVE_BLOWUP ? "unstable" : "stable", f_fast, gain, turn,
                 turn_exact, seen_exact, mode, detail);
        table_cell(&tab, "%s", runs[r].m->name);
        table_cell(&tab, "%g", runs[r].h);
        table_cell(&tab, "%.4f", md.omega[0] / (2 * M_PI));
        table_cell(&tab, "%.2f", md.omega[1] / (2 * M_PI));
        table_cell(&tab, "%s", st == SOLVE_BLOWUP ? "blew-up" : "bounded");
        table_cell(&tab, "%.6g", res.t);
        table_cell(&tab, "%.3e", rc.max_err_u1);
        table_cell(&tab, "%.3e", rc.fast_end);
        table_cell(&tab, "%.3e", rc.fast_end / fast_exact);
        table_cell(&tab, "%.4f", creal(factor));
        table_cell(&tab, "%.4f", cimag(factor));
        table_cell(&tab, "%.4f", creal(R));
        table_cell(&tab, "%.4f", cimag(R));
        table_cell(&tab, "%.4f", gain);
        table_cell(&tab, "%.4f", turn);
        table_cell(&tab, "%.1f", seen);
        table_cell(&tab, "%s", mode);
        table_cell(&tab, "%ld", res.counts.nfev);
    }
    atomic_commit_or_exit(&ae, "stiff");
    /* --method: an adaptive solver on the same network, its steps against the modes' periods */
    if (strcmp(solver, "none") != 0) {
        adaptive_ctx ac = {&s, &md, y0, NULL, 0, 0, 0.0};
        cvode_opts co = cvode_defaults();
        co.rtol = rtol;
        co.atol = rtol * fabs(pull);
        co.max_steps = 100000000L;
        co.on_step = adaptive_step;
        co.ctx = &ac;
        cvode_stats cs;
        double y[4] = {y0[0], y0[1], y0[2], y0[3]};
        char err[600];
        int rc;
        if (strncmp(solver, "gsl-", 4) == 0) {
            rc = gsl_pair_solve(solver + 4, &p, 0.0, y, T, &co, &cs, err, sizeof err);
        } else {
            co.lmm = strcmp(solver, "cvode-adams") == 0 ? CVODE_ADAMS : CVODE_BDF;
            rc = cvode_solve(&p, 0.0, y, T, &co, &cs, err, sizeof err);
        }
        if (rc != 0) {
            free(ac.h);
            fprintf(stderr, "stiff: %s\n", err);
            return 1;
        }
        double hmed = NAN;
        if (ac.n) {
            qsort(ac.h, ac.n, sizeof(double), by_value);
            hmed = ac.n % 2 ? ac.h[ac.n / 2] : 0.5 * (ac.h[ac.n / 2 - 1] + ac.h[ac.n / 2]);
        }
        free(ac.h);
        double slow_period = 2 * M_PI / md.omega[0], fast_period = 2 * M_PI / md.omega[1];
        atomic_file aa;
        FILE *fa = atomic_open_or_exit(&aa, "stiff", common.out, "adaptive.tsv");
        fprintf(fa, "method\trtol\tsteps\tnfev\tnjev\trejected\tmedian_h_s\tsteps_per_fast_period\t"
                    "steps_per_slow_period\tmax_err_u1_m\tseconds\n%s\t%g\t%ld\t%ld\t%ld\t%ld\t%.6g\t%.4g\t%.4g\t%.3e\t%.4f\n",
                solver, rtol, cs.steps, cs.nfev + cs.nfev_jac, cs.njev, cs.netf, hmed, fast_period / hmed,
                slow_period / hmed, ac.max_err_u1, cs.seconds);
        atomic_commit_or_exit(&aa, "stiff");
        if (!common.tsv)
            printf("\n%s at rtol %g: %ld steps, %ld F evaluations, %ld Jacobians, %ld rejected, %.3f s; median step %.3g s,\n"
                   "%.3g steps a fast period (%.3g ms), %.0f a slow one (%.3g ms): heavy-mass error at most %.2e m.\n",
                   solver, rtol, cs.steps, cs.nfev + cs.nfev_jac, cs.njev, cs.netf, cs.seconds, hmed, fast_period / hmed,
                   1e3 * fast_period, slow_period / hmed, 1e3 * slow_period, ac.max_err_u1);
        if (!common.tsv)
            printf("The release puts the fast mode into the motion (%.3g m on the light mass, %.2g of the pull): a solver\n"
                   "held to a tolerance must follow it, explicit or implicit; an implicit method steps over it only when\n"
                   "its error there is let go (backward Euler at 1 ms above erases it).\n",
                   fast_exact, fast_exact / fabs(pull));
    }
    /* the figure's window, as data the script reads */
    atomic_file aw;
    FILE *fw = atomic_open_or_exit(&aw, "stiff", common.out, "window.tsv");
    fprintf(fw, "zoom_s\tpull_m\n%g\t%g\n", zoom, pull);
    atomic_commit_or_exit(&aw, "stiff");
    if (!common.tsv) {
        printf("\n");
        for (int i = 0; i < nmsg; i++)
            printf("%s\n", messages[i]);
        printf("fast_amp_ratio: the fast mode's amplitude on the light mass at t_end over the exact one;\n"
               "fast_factor: that mode's complex amplitude after one step over before, beside R(h lambda);\n"
               "fast_gain, fast_turn_rad: its modulus and angle; fast_seen_hz: the frequency that angle a step is\n"
               "seen at, turn / (2 pi h) (the exact mode turns omega h modulo 2 pi, itself an alias above h = 1/(2 f));\n"
               "fast_mode: erased (amplitude at T below %g of the exact), aliased (seen more than 5%% away from\n"
               "where the exact mode sampled every h is seen), kept, or blew-up.\n\n"
               "Stable is not accurate: what each run does to the fast mode.\n", FAST_ERASED);
        for (int r = 0; r < nrun; r++)
            printf("  %s\n", verdicts[r]);
    }
    budget_finish();
    return plot_render(&plot, "stiff", common.out, common.tsv);
}
