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
#include "cli.h"
#include "io/atomic.h"
#include "io/table.h"
#include "method.h"
#include "method/tableau.h"
#include "models/spring2.h"
#include "solve.h"
#include "stability.h"
#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const spring2 *s;
    const spring2_modes *md;
    const double *y0;
    FILE *f;                    /* t, u1, u2, exact u1, exact u2 */
    double max_err_u1;          /* largest |u1 - exact u1|, m */
    double complex c0, c1;      /* the fast mode's complex amplitude at steps 0 and 1 */
    double fast_end;            /* fast-mode amplitude on the light mass at the last sample, m */
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
    fprintf(r->f, "%.10g\t%.10g\t%.10g\t%.10g\t%.10g\n", t, y[0], y[1], ex[0], ex[1]);
    return 0;
}

int main(int argc, char **argv)
{
    spring2 s;
    double pull, T, h_big = 1e-3, h_small = 2e-4, blowup = 1e3, zoom = 0.03;
    char err[400];
    if (spring2_load_params(&s, &pull, &T, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "stiff: %s\n", err);
        return 1;
    }
    cli_common common = {false, "build/data/stiff"};
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
        {"zoom", CLI_DOUBLE, &zoom, "s", "window of the light-mass figure", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        METHOD_ADD_OPT,
        CLI_COMMON_OPTS(common),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {"stiff", "Two masses, three springs (10.5 Hz and 1950 Hz): RK4 at 1 ms blows up, "
                                    "implicit steps do not; what each does to the fast mode.", NULL, 0, opts};
    cli_parse(&spec, argc, argv);
    if (pull == 0.0)
        cli_fail("stiff", "--pull 0 is the rest state; accepted: a nonzero displacement");
    const double hs[2] = {h_big, h_small};
    for (int i = 0; i < 2; i++)
        if (fabs(T / hs[i] - lround(T / hs[i])) > 1e-6 * (T / hs[i]))
            cli_fail("stiff", "--T %g is not a whole number of steps of %g s; accepted: T a multiple of --h-big and --h-small",
                     T, hs[i]);

    spring2_modes md;
    if (spring2_modes_of(&s, &md) != 0) {
        fprintf(stderr, "stiff: M or K is not positive definite (check m1, m2, k1, k2, k3)\n");
        return 1;
    }
    ivp p = spring2_ivp(&s);
    const double y0[4] = {pull, 0.0, 0.0, 0.0};
    /* The exact motion, finely sampled, and its size (the blow-up bound is relative to it). */
    atomic_file ae;
    FILE *fe = atomic_open_in(&ae, common.out, "exact.tsv");
    if (!fe) {
        fprintf(stderr, "stiff: cannot write %s/exact.tsv: %s\n", common.out, strerror(errno));
        return 1;
    }
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
    }
    table tab;
    table_begin(&tab, stdout, common.tsv, "method", "h_s", "slow_hz", "fast_hz", "status", "t_end_s", "max_err_u1_m",
                "fast_amp_end_m", "fast_amp_ratio", "fast_factor_re", "fast_factor_im", "R_re", "R_im", "nfev", NULL);
    char messages[4 + METHOD_MAX][320];
    int nmsg = 0;
    for (int r = 0; r < nrun; r++) {
        atomic_file a;
        FILE *f = atomic_open_in(&a, common.out, runs[r].file);
        if (!f) {
            fprintf(stderr, "stiff: cannot write %s/%s: %s\n", common.out, runs[r].file, strerror(errno));
            return 1;
        }
        fprintf(f, "t_s\t%s, h = %g ms\tu2_m\tu1_exact_m\tu2_exact_m\n", runs[r].m->label, runs[r].h * 1e3);
        run_ctx rc = {&s, &md, y0, f, 0.0, 0, 0, 0.0};
        double y[4] = {y0[0], y0[1], y0[2], y0[3]};
        solve_opts o = {runs[r].m, 0.0, runs[r].h, lround(T / runs[r].h), blowup * ymax, 1, sample, &rc};
        solve_result res;
        solve_status st = solve_fixed(&p, y, &o, NULL, &res);
        if (atomic_commit(&a) != 0) {
            fprintf(stderr, "stiff: cannot write %s: %s\n", a.path, strerror(errno));
            return 1;
        }
        if (st == SOLVE_FAILED) {
            fprintf(stderr, "stiff: %s\n", res.message);
            return 1;
        }
        if (st == SOLVE_BLOWUP)
            snprintf(messages[nmsg++], sizeof messages[0], "%s", res.message);
        double complex factor = rc.c1 / rc.c0, R = runs[r].m->R(I * md.omega[1] * runs[r].h);
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
        table_cell(&tab, "%ld", res.counts.nfev);
    }
    if (atomic_commit(&ae) != 0) {
        fprintf(stderr, "stiff: cannot write %s: %s\n", ae.path, strerror(errno));
        return 1;
    }
    /* the figure's window, as data the script reads */
    atomic_file aw;
    FILE *fw = atomic_open_in(&aw, common.out, "window.tsv");
    if (!fw || (fprintf(fw, "zoom_s\tpull_m\n%g\t%g\n", zoom, pull), atomic_commit(&aw)) != 0) {
        fprintf(stderr, "stiff: cannot write %s/window.tsv: %s\n", common.out, strerror(errno));
        return 1;
    }
    if (!common.tsv) {
        printf("\n");
        for (int i = 0; i < nmsg; i++)
            printf("%s\n", messages[i]);
        printf("fast_amp_ratio: the fast mode's amplitude on the light mass at t_end over the exact one;\n"
               "fast_factor: that mode's complex amplitude after one step over before, beside R(h lambda).\n");
    }
    return 0;
}
