/* Lesson 2, "Checking the order of accuracy ourselves": the error at T of every method for
 * h = 2^-kmin ... 2^-kmax on the damped oscillator (exact reference) and on the nonlinear
 * pendulum theta'' = -omega0^2 sin(theta) (reference: CVODE at a tight tolerance), the order
 * from a least-squares fit over the asymptotic range and the pairwise slopes beside it; and the
 * lecture's "same order, different character" trajectories at h = 0.1 s.
 *
 * The asymptotic range, chosen without knowing the order: errors at or below a floor are dropped
 * (the floor is round-off, 10 eps n |y| for the n steps of the smallest h, or, on the pendulum,
 * ten times the reference's own error estimated by comparing it with a run 10x looser), and the
 * fit takes the --fit smallest h that remain (the lecture's hs[-5:]). The pairwise slopes show
 * the whole table, so a pre-asymptotic range at large h or round-off at small h stays visible.
 * Claim: the slopes are 1, 1, 2, 2, 4 and 2 (forward Euler, backward Euler, trapezoid, Heun, RK4,
 * leapfrog) on both problems. --add-method FILE.tab adds a Butcher tableau's method to the tables
 * and figures; order_conditions is the order its tableau's rooted-tree conditions give (to 5). */
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "measure/measure.h"
#include "method/method.h"
#include "method/tableau.h"
#include "models/oscillator.h"
#include "models/pendulum.h"
#include "drive/solve.h"
#include "base/util.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_H 12
#define MAX_METHODS METHOD_MAX

typedef struct {
    const char *name;       /* "oscillator" or "pendulum" */
    const char *title;      /* for the figure */
    ivp p;
    double y0[2];           /* initial state (m, m/s) or (rad, rad/s) */
    double yref[2];         /* reference state at T */
    double floor;           /* errors at or below this are not fitted */
    const char *floor_why;  /* what sets the floor, in words */
} problem;

typedef struct {
    double err[MAX_H];      /* ||y_n - y(T)|| for each h */
    double pair[MAX_H];     /* pairwise slopes */
    double slope;           /* least-squares order over the asymptotic range */
    size_t first, count;    /* the fitted range */
    char failure[320];      /* when a run failed, why */
} result;

static int traj_sink(long k, double t, const double *y, void *ctx)
{
    double *u = ctx;
    (void)t;
    u[k] = y[0];
    return 0;
}

static int run_table(const problem *pb, double T, const double *hs, int nh, size_t fit, result *res,
                     const method *m)
{
    memset(res, 0, sizeof *res);
    for (int i = 0; i < nh; i++) {
        double y[2] = {pb->y0[0], pb->y0[1]};
        solve_opts o = {m, 0.0, hs[i], lround(T / hs[i]), 0, 1, budget_tick_sink, NULL};
        solve_result r;
        if (solve_fixed(&pb->p, y, &o, NULL, &r) != SOLVE_OK) {
            res->err[i] = INFINITY;
            snprintf(res->failure, sizeof res->failure, "%s", r.message);
            continue;
        }
        res->err[i] = hypot(y[0] - pb->yref[0], y[1] - pb->yref[1]);
    }
    measure_pairwise_slopes(hs, res->err, (size_t)nh, res->pair);
    res->slope = measure_asymptotic_order(hs, res->err, (size_t)nh, pb->floor, fit, &res->first, &res->count);
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Rewrite the pendulum theta'' = -omega0^2 sin theta as a first-order system (y = (theta,\n"
    "     theta')); src/models/pendulum.c is the answer. Does RK4 keep slope 4 when the pendulum\n"
    "     starts near the top?\n"
    "     check: bin/convergence --theta0 3 --tsv | grep pendulum | cut -f2,3\n"
    "  2. Push h down to 2^-14: where does round-off stop RK4's error from falling (the pairwise\n"
    "     slopes show it)?\n"
    "     check: bin/convergence --kmin 3 --kmax 14 --plot\n"
    "  3. Write explicit midpoint as a tableau file midpoint.tab (copy lessons/methods/ralston2.tab and\n"
    "     change a and b: c = (0, 1/2), a21 = 1/2, b = (0, 1)) and measure its order: 2, like Heun.\n"
    "     check: bin/convergence --add-method midpoint.tab --tsv | cut -f1-3\n";

int main(int argc, char **argv)
{
    double T = 2.0, omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0, theta0 = 1.0;
    double rtol = 1e-13, traj_h = 0.1, traj_T = 6.0, t_loc = 0.3;
    double traj_last = 0.0;     /* traj-T not a multiple of traj-h: the trajectories' last step, s */
    long kmin = 3, kmax = 11, fit = 5;
    cli_common common = {false, "build/data/convergence"};
    budget bg;
    budget_init(&bg, "convergence", "steps", 5e8, "--T / 2^-kmin ... 2^-kmax (every method, both problems) and --traj-T / --traj-h");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        {"T", CLI_DOUBLE, &T, "s", "time at which the error is measured", 0, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"kmin", CLI_LONG, &kmin, "", "largest step h = 2^-kmin", 0, 20, 0, NULL, NULL, NULL},
        {"kmax", CLI_LONG, &kmax, "", "smallest step h = 2^-kmax (at most 11 more than kmin)", 1, 22, 0, NULL, NULL, NULL},
        {"fit", CLI_LONG, &fit, "", "points in the least-squares fit (the smallest h above the floor)", 2, 12, 0, NULL, NULL, NULL},
        {"omega0", CLI_DOUBLE, &omega0, "rad/s", "lossless angular frequency (both problems)", 0, 1e4, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"sigma0", CLI_DOUBLE, &sigma0, "1/s", "oscillator: decay rate of the envelope", 0, 1e4, 0, NULL, NULL, NULL},
        {"u0", CLI_DOUBLE, &u0, "m", "oscillator: initial displacement", -1e3, 1e3, 0, NULL, NULL, NULL},
        {"v0", CLI_DOUBLE, &v0, "m/s", "oscillator: initial velocity", -1e3, 1e3, 0, NULL, NULL, NULL},
        {"theta0", CLI_DOUBLE, &theta0, "rad", "pendulum: initial angle, released from rest", -3.1, 3.1, 0, NULL, NULL, NULL},
        {"rtol", CLI_DOUBLE, &rtol, "", "pendulum reference: CVODE relative tolerance", 1e-14, 1e-8, 0, NULL, NULL, NULL},
        {"t-local", CLI_DOUBLE, &t_loc, "s", "oscillator: where the one-step (local) errors are measured, from the exact state", 0, 1e3, 0, NULL, NULL, NULL},
        {"traj-h", CLI_DOUBLE, &traj_h, "s", "step of the 'same order, different character' trajectories", 1e-4, 1, 0, NULL, NULL, NULL},
        {"traj-T", CLI_DOUBLE, &traj_T, "s", "length of those trajectories", 0, 100, CLI_OPEN_MIN, NULL, NULL, NULL},
        BUDGET_OPT(bg),
        METHOD_ADD_OPT,
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {"convergence", "Order of accuracy of every method on the damped oscillator and the "
                                          "pendulum: error at T against h, least-squares and pairwise slopes.",
                           NULL, 0, opts, exercises};
    cli_parse(&spec, argc, argv);
    if (kmax <= kmin || kmax - kmin + 1 > MAX_H)
        cli_fail("convergence", "--kmin %ld --kmax %ld; accepted: kmin < kmax, at most %d steps h", kmin, kmax, MAX_H);
    if (u0 == 0.0 && v0 == 0.0)
        cli_fail("convergence", "--u0 0 with --v0 0 is the rest state; accepted: a nonzero initial state");
    if (theta0 == 0.0)
        cli_fail("convergence", "--theta0 0 is the rest state; accepted: a nonzero angle in [-3.1, 3.1]");
    for (long k = kmin; k <= kmax; k++)
        if (fabs(T / ldexp(1.0, (int)-k) - lround(T / ldexp(1.0, (int)-k))) > 1e-9)
            cli_fail("convergence", "--T %g is not a whole number of steps of h = 2^-%ld; accepted: T a multiple of 2^-%ld",
                     T, k, kmin);

    int nh = (int)(kmax - kmin + 1);
    double hs[MAX_H];
    for (int i = 0; i < nh; i++)
        hs[i] = ldexp(1.0, (int)-(kmin + i));
    {
        int nmeth = 0;
        while (method_all[nmeth] && nmeth < MAX_METHODS)
            nmeth++;
        double per_method = 0.0, ntraj = (double)lround(traj_T / traj_h);
        for (int i = 0; i < nh; i++)
            per_method += T / hs[i];
        bg.work = 2.0 * nmeth * per_method + nmeth * ntraj;
        bg.bytes_out = (ntraj + 1.0) * 12.0 * (nmeth + 2.0) + 1201.0 * 40.0;
        bg.bytes_mem = nmeth * (ntraj + 1.0) * 8.0;
        budget_check(&bg);
    }
    double nmax = T / hs[nh - 1];

    /* The two problems and their references. */
    oscillator osc = {omega0, sigma0};
    pendulum pen = {omega0};
    problem pbs[2] = {
        {"oscillator", "damped oscillator (exact reference)", oscillator_ivp(&osc), {u0, v0}, {0, 0}, 0, ""},
        {"pendulum", "pendulum {/Symbol q}'' = -{/Symbol w}_0^2 sin {/Symbol q} (CVODE reference)", pendulum_ivp(&pen),
         {theta0, 0.0}, {0, 0}, 0, ""},
    };
    oscillator_exact(&osc, pbs[0].y0, T, pbs[0].yref);
    pbs[0].floor = 10.0 * DBL_EPSILON * nmax * fmax(1.0, hypot(pbs[0].yref[0], pbs[0].yref[1]));
    pbs[0].floor_why = "round-off, 10 eps n |y|";
    {
        cvode_opts o = cvode_defaults();
        o.lmm = CVODE_ADAMS;
        o.rtol = rtol;
        o.atol = rtol * 1e-2;
        cvode_stats st;
        char msg[400];
        double y[2] = {theta0, 0.0}, yl[2] = {theta0, 0.0};
        if (cvode_solve(&pbs[1].p, 0.0, y, T, &o, &st, msg, sizeof msg) != 0) {
            fprintf(stderr, "convergence: pendulum reference: %s\n", msg);
            return 1;
        }
        o.rtol *= 10.0;
        o.atol *= 10.0;
        if (cvode_solve(&pbs[1].p, 0.0, yl, T, &o, &st, msg, sizeof msg) != 0) {
            fprintf(stderr, "convergence: pendulum reference (looser check): %s\n", msg);
            return 1;
        }
        pbs[1].yref[0] = y[0];
        pbs[1].yref[1] = y[1];
        /* |tight - loose| estimates the looser run's error; the tight run's is about a tenth of it,
         * and the floor is ten times that: |tight - loose| itself */
        double ref_err = hypot(y[0] - yl[0], y[1] - yl[1]);
        double roundoff = 10.0 * DBL_EPSILON * nmax * fmax(1.0, hypot(y[0], y[1]));
        pbs[1].floor = fmax(roundoff, ref_err);
        pbs[1].floor_why = pbs[1].floor > roundoff ? "the reference's error" : "round-off, 10 eps n |y|";
    }

    result res[2][MAX_METHODS];
    int nm = 0;
    for (; method_all[nm] && nm < MAX_METHODS; nm++)
        for (int q = 0; q < 2; q++)
            run_table(&pbs[q], T, hs, nh, (size_t)fit, &res[q][nm], method_all[nm]);

    /* Local against global error on the oscillator: the error of one step of h from the exact
     * state y(t_loc) against the exact y(t_loc + h), order p + 1, beside the global error at T,
     * order p (the one-step errors add up over T/h steps: one power of h is lost). */
    double loc_err[MAX_METHODS][MAX_H], loc_slope[MAX_METHODS];
    size_t loc_first[MAX_METHODS], loc_count[MAX_METHODS];
    double loc_floor = 100.0 * DBL_EPSILON * fmax(1.0, hypot(u0, v0));
    {
        double ya[2];
        oscillator_exact(&osc, pbs[0].y0, t_loc, ya);
        for (int k = 0; k < nm; k++) {
            for (int i = 0; i < nh; i++) {
                double y[2] = {ya[0], ya[1]}, yb[2];
                solve_opts o = {method_all[k], t_loc, hs[i], 1, 0, 1, NULL, NULL};
                solve_result r;
                oscillator_exact(&osc, pbs[0].y0, t_loc + hs[i], yb);
                loc_err[k][i] = solve_fixed(&pbs[0].p, y, &o, NULL, &r) == SOLVE_OK ? hypot(y[0] - yb[0], y[1] - yb[1])
                                                                                    : INFINITY;
            }
            loc_slope[k] = measure_asymptotic_order(hs, loc_err[k], (size_t)nh, loc_floor, (size_t)fit, &loc_first[k],
                                                    &loc_count[k]);
        }
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "convergence", common.out, "local_oscillator.tsv");
        fprintf(f, "h_s");
        for (int k = 0; k < nm; k++)
            fprintf(f, "\t%s global: slope %.2f\t%s local: slope %.2f", method_all[k]->label, res[0][k].slope,
                    method_all[k]->label, loc_slope[k]);
        fputc('\n', f);
        for (int i = 0; i < nh; i++) {
            fprintf(f, "%.10g", hs[i]);
            for (int k = 0; k < nm; k++)
                fprintf(f, "\t%.6e\t%.6e", res[0][k].err[i], loc_err[k][i]);
            fputc('\n', f);
        }
        atomic_commit_or_exit(&a, "convergence");
    }

    /* Data for the figures: errors.<problem>.tsv (h, one column a method), guides, trajectories. */
    for (int q = 0; q < 2; q++) {
        atomic_file a;
        char name[64];
        snprintf(name, sizeof name, "errors_%s.tsv", pbs[q].name);
        FILE *f = atomic_open_or_exit(&a, "convergence", common.out, name);
        fprintf(f, "h_s");
        for (int k = 0; k < nm; k++)
            fprintf(f, "\t%s: slope %.2f", method_all[k]->label, res[q][k].slope);
        for (int p = 1; p <= 4; p *= 2)
            fprintf(f, "\tslope %d guide", p);
        fputc('\n', f);
        /* dashed guides C h^p, a factor 5 below the lowest method of order p at the smallest fitted h */
        double anchor[5] = {0};
        for (int p = 1; p <= 4; p *= 2) {
            double lo = INFINITY;
            for (int k = 0; k < nm; k++)
                if (method_all[k]->order == p && res[q][k].count > 0) {
                    size_t i = res[q][k].first + res[q][k].count - 1;
                    lo = fmin(lo, res[q][k].err[i] / pow(hs[i], p));
                }
            anchor[p] = isfinite(lo) ? lo / 5.0 : NAN;
        }
        for (int i = 0; i < nh; i++) {
            fprintf(f, "%.10g", hs[i]);
            for (int k = 0; k < nm; k++)
                fprintf(f, "\t%.6e", res[q][k].err[i]);
            for (int p = 1; p <= 4; p *= 2)
                fprintf(f, "\t%.6e", anchor[p] * pow(hs[i], p));
            fputc('\n', f);
        }
        atomic_commit_or_exit(&a, "convergence");
    }
    {
        long n = solve_steps_to(traj_T, traj_h, &traj_last);
        double *u[MAX_METHODS];
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "convergence", common.out, "trajectories.tsv");
        for (int k = 0; k < nm; k++) {
            u[k] = xcalloc((size_t)n + 1, sizeof(double));
            for (long i = 0; i <= n; i++)
                u[k][i] = NAN;
            double y[2] = {u0, v0};
            solve_opts o = {method_all[k], 0.0, traj_h, n, 0, 1, traj_sink, u[k]};
            solve_result r;
            solve_fixed_to(&pbs[0].p, y, &o, traj_T, NULL, &r);
            budget_tick((double)n);
        }
        fprintf(f, "t_s\texact");
        for (int k = 0; k < nm; k++)
            fprintf(f, "\t%s", method_all[k]->label);
        fputc('\n', f);
        for (long i = 0; i <= n; i++) {
            double ex[2];
            double t = i < n ? i * traj_h : traj_T;
            oscillator_exact(&osc, pbs[0].y0, t, ex);
            fprintf(f, "%.10g\t%.10g", t, ex[0]);
            for (int k = 0; k < nm; k++)
                fprintf(f, "\t%.10g", u[k][i]);
            fputc('\n', f);
        }
        for (int k = 0; k < nm; k++)
            free(u[k]);
        /* the exact curve, finely sampled */
        atomic_file b;
        FILE *g = atomic_open_or_exit(&b, "convergence", common.out, "exact.tsv");
        fprintf(g, "t_s\tu_m\n");
        for (int i = 0; i <= 1200; i++) {
            double ex[2], t = traj_T * i / 1200.0;
            oscillator_exact(&osc, pbs[0].y0, t, ex);
            fprintf(g, "%.10g\t%.10g\n", t, ex[0]);
        }
        atomic_commit_or_exit(&a, "convergence");
        atomic_commit_or_exit(&b, "convergence");
    }

    /* The table: one row a method and problem. */
    if (!common.tsv) {
        printf("error ||y_n - y(T)|| at T = %g s for h = 2^-%ld ... 2^-%ld s\n", T, kmin, kmax);
        for (int q = 0; q < 2; q++)
            printf("  %s: floor %.2e (%s)\n", pbs[q].name, pbs[q].floor, pbs[q].floor_why);
        printf("slope: least-squares fit of log error on log h over the fitted range (the %ld smallest h above the "
               "floor);\npairwise slopes p(i) between h_i and h_i+1 after the errors; order_conditions: the highest order "
               "whose\nrooted-tree conditions the method's Butcher tableau meets (checked to %d; n/a: no single tableau);\n"
               "local_slope: the same fit of the error of one step from the exact state at t = %g s (oscillator; floor\n"
               "%.1e): order p + 1 where the global error is order p\n", fit, TABLEAU_ORDER_MAX, t_loc, loc_floor);
        if (traj_last > 0.0)
            printf("trajectories: traj-T is not a multiple of traj-h: the last step is short, %.6g s, to end at traj-T\n",
                   traj_last);
        printf("\n");
    }
    const char *cols[TABLE_MAX_COLS];
    char names[TABLE_MAX_COLS][32];
    int nc = 0;
    cols[nc++] = "problem";
    cols[nc++] = "method";
    cols[nc++] = "slope";
    for (int i = 0; i < nh; i++) {
        snprintf(names[nc], sizeof names[nc], "err_h=2^-%ld", kmin + i);
        cols[nc] = names[nc];
        nc++;
    }
    cols[nc++] = "order";
    cols[nc++] = "fit_hmax_s";
    cols[nc++] = "fit_hmin_s";
    for (int i = 0; i + 1 < nh && nc < TABLE_MAX_COLS - 2; i++) {
        snprintf(names[nc], sizeof names[nc], "p(2^-%ld)", kmin + i);
        cols[nc] = names[nc];
        nc++;
    }
    int npair = nc - (3 + nh + 3);
    cols[nc++] = "order_conditions";   /* the highest order whose rooted-tree conditions its tableau meets */
    cols[nc++] = "local_slope";
    table tab;
    memset(&tab, 0, sizeof tab);
    tab.f = stdout;
    tab.tsv = common.tsv;
    tab.ncol = nc;
    for (int c = 0; c < nc; c++) {
        int w = (int)strlen(cols[c]);
        tab.width[c] = w < 9 ? 9 : w;
        if (common.tsv)
            printf("%s%s", c ? "\t" : "", cols[c]);
        else
            printf("%s%*s", c ? "  " : "", tab.width[c], cols[c]);
    }
    putchar('\n');
    int failures = 0;
    for (int q = 0; q < 2; q++)
        for (int k = 0; k < nm; k++) {
            const result *r = &res[q][k];
            table_cell(&tab, "%s", pbs[q].name);
            table_cell(&tab, "%s", method_all[k]->name);
            table_cell(&tab, "%.3f", r->slope);
            for (int i = 0; i < nh; i++)
                table_cell(&tab, "%.3e", r->err[i]);
            table_cell(&tab, "%d", method_all[k]->order);
            table_cell(&tab, "%.4g", r->count ? hs[r->first] : NAN);
            table_cell(&tab, "%.4g", r->count ? hs[r->first + r->count - 1] : NAN);
            for (int i = 0; i < npair; i++)
                table_cell(&tab, "%.2f", r->pair[i]);
            if (method_all[k]->tableau)
                table_cell(&tab, "%d", tableau_order(method_all[k]->tableau, method_all[k]->tableau->b));
            else
                table_cell(&tab, "%s", "n/a");
            if (q == 0)
                table_cell(&tab, "%.3f", loc_slope[k]);   /* one step from the exact state at --t-local */
            else
                table_cell(&tab, "n/a");
            if (r->failure[0]) {
                fprintf(stderr, "convergence: %s on the %s: %s\n", method_all[k]->name, pbs[q].name, r->failure);
                failures++;
            }
        }
    budget_finish();
    return plot_render(&plot, "convergence", common.out, common.tsv);
}
