/* Lesson 2, "Checking the order of accuracy ourselves": the error at T of every method for
 * h = 2^-kmin ... 2^-kmax on the damped oscillator (exact reference) and on the nonlinear
 * pendulum theta'' = -omega0^2 sin(theta) (reference: CVODE at a tight tolerance), the order
 * from a least-squares fit over the asymptotic range and the pairwise slopes beside it; and the
 * lecture's "same order, different character" trajectories at h = 0.1 s.
 *
 * Both references are closed forms (the pendulum released from rest: Jacobi's elliptic functions),
 * each with its own error measured: the closed form evaluated a second way (the oscillator from
 * its state at T/2, the pendulum one period later) and, for the pendulum, CVODE at --rtol beside
 * it. The floor is ten times that error. The asymptotic range, chosen without knowing the order:
 * the longest run of errors above the floor whose pairwise slopes agree within --agree (and
 * fall); the fit takes its --fit smallest h (the lecture's hs[-5:]). Without such a run the table
 * says "not asymptotic" (slopes disagree) or "reference floor" (errors at the floor), and the
 * figure's legend says so. The human table fits 100 columns; --wide and --tsv add every error
 * and pairwise slope.
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
    double ref_err;         /* the reference's own error, measured */
    double floor;           /* errors at or below this (10 ref_err) are not fitted */
} problem;

typedef struct {
    double err[MAX_H];      /* ||y_n - y(T)|| for each h */
    double pair[MAX_H];     /* pairwise slopes */
    double slope;           /* least-squares order over the asymptotic range (NAN: none) */
    size_t first, count;    /* the fitted range */
    const char *status;     /* NULL, "not asymptotic" or "reference floor" */
    char failure[320];      /* when a run failed, why */
} result;

static int traj_sink(long k, double t, const double *y, void *ctx)
{
    double *u = ctx;
    (void)t;
    u[k] = y[0];
    return 0;
}

static int run_table(const problem *pb, double T, const double *hs, int nh, size_t fit, double agree,
                     result *res, const method *m)
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
    res->slope = measure_asymptotic_order(hs, res->err, (size_t)nh, pb->floor, fit, agree, &res->first, &res->count,
                                          &res->status);
    return 0;
}

/* A legend's or a table's word on a fit: "slope 4.00", or why there is none. */
static const char *slope_text(double slope, const char *status, char *buf, size_t n)
{
    if (status)
        return status;
    snprintf(buf, n, "slope %.2f", slope);
    return buf;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Rewrite the pendulum theta'' = -omega0^2 sin theta as a first-order system (y = (theta,\n"
    "     theta')); src/models/pendulum.c is the answer. Does RK4 keep slope 4 when the pendulum\n"
    "     starts near the top?\n"
    "     check: bin/convergence --theta0 3 --tsv | grep pendulum | cut -f2,3\n"
    "  2. Push h down to 2^-14: where does RK4's error stop falling (the reference's floor or\n"
    "     round-off)? The last pairwise slopes and the fitted points fit_h show it.\n"
    "     check: bin/convergence --kmin 3 --kmax 14 --wide | grep -E 'problem|rk4'\n"
    "  3. Write explicit midpoint as a tableau file midpoint.tab (copy lessons/methods/ralston2.tab and\n"
    "     change a and b: c = (0, 1/2), a21 = 1/2, b = (0, 1)) and measure its order: 2, like Heun.\n"
    "     check: bin/convergence --add-method midpoint.tab --tsv | cut -f1-3\n";

int main(int argc, char **argv)
{
    double T = 2.0, omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0, theta0 = 1.0;
    double rtol = 1e-13, traj_h = 0.1, traj_T = 6.0, t_loc = 0.3;
    double traj_last = 0.0;     /* traj-T not a multiple of traj-h: the trajectories' last step, s */
    long kmin = 3, kmax = 11, fit = 5;
    double agree = 0.2;
    bool wide = false;
    cli_common common = {false, "build/data/convergence"};
    budget bg;
    budget_init(&bg, "convergence", "steps", 5e8, "--T / 2^-kmin ... 2^-kmax (every method, both problems) and --traj-T / --traj-h");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        FLAG_REAL("T", T, "s", 0, 1e3, CLI_OPEN_MIN, "time at which the error is measured"),
        FLAG_WHOLE("kmin", kmin, 0, 20, "largest step h = 2^-kmin"),
        FLAG_WHOLE("kmax", kmax, 1, 22, "smallest step h = 2^-kmax (at most 11 more than kmin)"),
        FLAG_WHOLE("fit", fit, 2, 12,
            "most points in the least-squares fit (the smallest h of the asymptotic range)"),
        FLAG_REAL("agree", agree, "", 0.01, 2, CLI_CLOSED,
            "the asymptotic range: pairwise slopes within this of each other"),
        FLAG_BOOL("wide", wide,
            "the human table with every error and pairwise slope (wider than 100 columns)"),
        FLAG_REAL("omega0", omega0, "rad/s", 0, 1e4, CLI_OPEN_MIN,
            "lossless angular frequency (both problems)"),
        FLAG_REAL("sigma0", sigma0, "1/s", 0, 1e4, CLI_CLOSED,
            "oscillator: decay rate of the envelope"),
        FLAG_REAL("u0", u0, "m", -1e3, 1e3, CLI_CLOSED, "oscillator: initial displacement"),
        FLAG_REAL("v0", v0, "m/s", -1e3, 1e3, CLI_CLOSED, "oscillator: initial velocity"),
        FLAG_REAL("theta0", theta0, "rad", -3.1, 3.1, CLI_CLOSED,
            "pendulum: initial angle, released from rest"),
        FLAG_REAL("rtol", rtol, "", 1e-14, 1e-8, CLI_CLOSED,
            "pendulum: relative tolerance of the CVODE run checked against the closed form"),
        FLAG_REAL("t-local", t_loc, "s", 0, 1e3, CLI_CLOSED,
            "oscillator: where the one-step (local) errors are measured, from the exact state"),
        FLAG_REAL("traj-h", traj_h, "s", 1e-4, 1, CLI_CLOSED,
            "step of the 'same order, different character' trajectories"),
        FLAG_REAL("traj-T", traj_T, "s", 0, 100, CLI_OPEN_MIN, "length of those trajectories"),
        BUDGET_OPT(bg),
        METHOD_ADD_OPT,
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "convergence",
        .summary = "Order of accuracy of every method on the damped oscillator and the pendulum: "
            "error at T against h, least-squares and pairwise slopes.",
        .opts = opts,
        .epilogue = exercises,
    };
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

    /* The two problems and their references (closed forms), each reference's error measured by
     * evaluating it a second way; the floor is ten times that (at least ten ulps of |y(T)|). */
    oscillator osc = {omega0, sigma0};
    pendulum pen = {omega0};
    problem pbs[2] = {
        {"oscillator", "damped oscillator (exact reference)", oscillator_ivp(&osc), {u0, v0}, {0, 0}, 0, 0},
        {"pendulum", "pendulum (closed-form reference)", pendulum_ivp(&pen), {theta0, 0.0}, {0, 0}, 0, 0},
    };
    double second[2][2], cvode_dev = NAN, period = pendulum_period(&pen, theta0);
    {
        double half[2];
        oscillator_exact(&osc, pbs[0].y0, T, pbs[0].yref);
        oscillator_exact(&osc, pbs[0].y0, 0.5 * T, half);
        oscillator_exact(&osc, half, 0.5 * T, second[0]);
        if (pendulum_exact_from_rest(&pen, theta0, T, pbs[1].yref) != 0 || !isfinite(period) ||
            pendulum_exact_from_rest(&pen, theta0, T + period, second[1]) != 0) {
            fprintf(stderr, "convergence: the pendulum's closed form: GSL cannot evaluate it at theta0 = %g\n", theta0);
            return 1;
        }
        for (int q = 0; q < 2; q++) {
            double size = hypot(pbs[q].yref[0], pbs[q].yref[1]);
            pbs[q].ref_err = hypot(second[q][0] - pbs[q].yref[0], second[q][1] - pbs[q].yref[1]);
            pbs[q].floor = 10.0 * fmax(pbs[q].ref_err, DBL_EPSILON * fmax(size, 1e-300));
        }
        cvode_opts o = cvode_defaults();
        o.lmm = CVODE_ADAMS;
        o.rtol = rtol;
        o.atol = rtol * 1e-2;
        cvode_stats st;
        char msg[400];
        double y[2] = {theta0, 0.0};
        if (cvode_solve(&pbs[1].p, 0.0, y, T, &o, &st, msg, sizeof msg) == 0)
            cvode_dev = hypot(y[0] - pbs[1].yref[0], y[1] - pbs[1].yref[1]);
    }

    result res[2][MAX_METHODS];
    int nm = 0;
    for (; method_all[nm] && nm < MAX_METHODS; nm++)
        for (int q = 0; q < 2; q++)
            run_table(&pbs[q], T, hs, nh, (size_t)fit, agree, &res[q][nm], method_all[nm]);

    /* Local against global error on the oscillator: the error of one step of h from the exact
     * state y(t_loc) against the exact y(t_loc + h), order p + 1, beside the global error at T,
     * order p (the one-step errors add up over T/h steps: one power of h is lost). */
    double loc_err[MAX_METHODS][MAX_H], loc_slope[MAX_METHODS];
    size_t loc_first[MAX_METHODS], loc_count[MAX_METHODS];
    const char *loc_status[MAX_METHODS];
    double loc_floor = 0.0;
    {
        /* the exact y(t_loc + h) two ways (from y0, and from the exact y(t_loc)): their largest
         * difference is the local reference's error; the floor is ten times it */
        double ya[2];
        oscillator_exact(&osc, pbs[0].y0, t_loc, ya);
        for (int i = 0; i < nh; i++) {
            double yb[2], yc[2];
            oscillator_exact(&osc, pbs[0].y0, t_loc + hs[i], yb);
            oscillator_exact(&osc, ya, hs[i], yc);
            loc_floor = fmax(loc_floor, 10.0 * fmax(hypot(yb[0] - yc[0], yb[1] - yc[1]), DBL_EPSILON * hypot(yb[0], yb[1])));
        }
        for (int k = 0; k < nm; k++) {
            for (int i = 0; i < nh; i++) {
                double y[2] = {ya[0], ya[1]}, yb[2];
                solve_opts o = {method_all[k], t_loc, hs[i], 1, 0, 1, NULL, NULL};
                solve_result r;
                oscillator_exact(&osc, pbs[0].y0, t_loc + hs[i], yb);
                loc_err[k][i] = solve_fixed(&pbs[0].p, y, &o, NULL, &r) == SOLVE_OK ? hypot(y[0] - yb[0], y[1] - yb[1])
                                                                                    : INFINITY;
            }
            loc_slope[k] = measure_asymptotic_order(hs, loc_err[k], (size_t)nh, loc_floor, (size_t)fit, agree,
                                                    &loc_first[k], &loc_count[k], &loc_status[k]);
        }
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "convergence", common.out, "local_oscillator.tsv");
        char b1[64], b2[64];
        fprintf(f, "h_s");
        for (int k = 0; k < nm; k++)
            fprintf(f, "\t%s global: %s\t%s local: %s", method_all[k]->label,
                    slope_text(res[0][k].slope, res[0][k].status, b1, sizeof b1), method_all[k]->label,
                    slope_text(loc_slope[k], loc_status[k], b2, sizeof b2));
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
        char b1[64];
        fprintf(f, "h_s");
        for (int k = 0; k < nm; k++)
            fprintf(f, "\t%s: %s", method_all[k]->label, slope_text(res[q][k].slope, res[q][k].status, b1, sizeof b1));
        fprintf(f, "\treference floor");
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
            fprintf(f, "\t%.6e", pbs[q].floor);
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

    {
        /* what the figures title with: this run's T and pendulum start */
        atomic_file a;
        FILE *f = atomic_open_or_exit(&a, "convergence", common.out, "summary.tsv");
        fprintf(f, "key\tvalue\nT_s\t%.10g\ntheta0_rad\t%.10g\nfloor_oscillator\t%.6e\nfloor_pendulum\t%.6e\n", T, theta0,
                pbs[0].floor, pbs[1].floor);
        atomic_commit_or_exit(&a, "convergence");
    }
    /* The table: one row a method and problem. */
    if (!common.tsv) {
        printf("error ||y_n - y(T)|| at T = %g s for h = 2^-%ld ... 2^-%ld s against closed-form references\n", T, kmin,
               kmax);
        printf("  oscillator: the exact solution; its error %.1e (evaluated from y(T/2) as well); floor %.2e\n",
               pbs[0].ref_err, pbs[0].floor);
        printf("  pendulum: Jacobi's elliptic functions (from rest, period %.6g s); its error %.1e (a period\n"
               "    later as well); floor %.2e; CVODE Adams at rtol %g differs from it by %.1e\n",
               period, pbs[1].ref_err, pbs[1].floor, rtol, cvode_dev);
        printf("slope: least-squares fit over fit_h, the (at most %ld) smallest h of the longest run of %d or more\n"
               "errors above the floor (10x the reference's error) whose pairwise slopes agree within %g; else\n"
               "\"not asymptotic\" (they disagree) or \"reference floor\" (the errors reach the floor).\n"
               "theory: the method's order; tableau: the order its Butcher tableau's rooted-tree conditions give\n"
               "(to %d; n/a: none); local: the same fit of one step's error from the exact state at t = %g s\n"
               "(floor %.1e): p + 1 where the global is p.\n",
               fit, MEASURE_MIN_POINTS, agree, TABLEAU_ORDER_MAX, t_loc, loc_floor);
        if (!wide)
            printf("Every error and pairwise slope: --wide, or --tsv.\n");
        if (traj_last > 0.0)
            printf("trajectories: traj-T is not a multiple of traj-h: the last step is short, %.6g s, to end at traj-T\n",
                   traj_last);
        printf("\n");
    }
    bool all = common.tsv || wide;
    const char *cols[TABLE_MAX_COLS];
    char names[TABLE_MAX_COLS][32];
    int nc = 0, npair = 0;
    cols[nc++] = "problem";
    cols[nc++] = "method";
    cols[nc++] = "slope";
    for (int i = 0; i < nh && all; i++) {
        snprintf(names[nc], sizeof names[nc], "err_h=2^-%ld", kmin + i);
        cols[nc] = names[nc];
        nc++;
    }
    cols[nc++] = all ? "order" : "theory";
    if (common.tsv) {
        cols[nc++] = "fit_hmax_s";
        cols[nc++] = "fit_hmin_s";
    }
    for (int i = 0; i + 1 < nh && all && nc < TABLE_MAX_COLS - 4; i++, npair++) {
        snprintf(names[nc], sizeof names[nc], "p(2^-%ld)", kmin + i);
        cols[nc] = names[nc];
        nc++;
    }
    cols[nc++] = all ? "order_conditions" : "tableau";   /* the highest order whose rooted-tree conditions it meets */
    cols[nc++] = all ? "local_slope" : "local";
    cols[nc++] = "fit_h";
    cols[nc++] = "fit_points";
    table tab;
    memset(&tab, 0, sizeof tab);
    tab.f = stdout;
    tab.tsv = common.tsv;
    tab.ncol = nc;
    for (int c = 0; c < nc; c++) {
        int w = (int)strlen(cols[c]);
        tab.width[c] = c == 0 ? 10 : c == 1 ? 14 : c == 2 ? 15 : c == nc - 2 ? 14 : w < 6 ? 6 : w;
        if (common.tsv)
            printf("%s%s", c ? "\t" : "", cols[c]);
        else
            printf("%s%*s", c ? "  " : "", tab.width[c], cols[c]);
    }
    putchar('\n');
    for (int q = 0; q < 2; q++)
        for (int k = 0; k < nm; k++) {
            const result *r = &res[q][k];
            char b1[64], fh[48] = "none";
            table_cell(&tab, "%s", pbs[q].name);
            table_cell(&tab, "%s", method_all[k]->name);
            table_cell(&tab, "%s", r->status ? r->status : (snprintf(b1, sizeof b1, "%.3f", r->slope), b1));
            for (int i = 0; i < nh && all; i++)
                table_cell(&tab, "%.3e", r->err[i]);
            table_cell(&tab, "%d", method_all[k]->order);
            if (common.tsv) {
                table_cell(&tab, "%.4g", r->count ? hs[r->first] : NAN);
                table_cell(&tab, "%.4g", r->count ? hs[r->first + r->count - 1] : NAN);
            }
            for (int i = 0; i < npair; i++)
                table_cell(&tab, "%.2f", r->pair[i]);
            if (method_all[k]->tableau)
                table_cell(&tab, "%d", tableau_order(method_all[k]->tableau, method_all[k]->tableau->b));
            else
                table_cell(&tab, "%s", "n/a");
            if (q == 0)    /* one step from the exact state at --t-local */
                table_cell(&tab, "%s", loc_status[k] ? loc_status[k] : (snprintf(b1, sizeof b1, "%.3f", loc_slope[k]), b1));
            else
                table_cell(&tab, "n/a");
            if (r->count)
                snprintf(fh, sizeof fh, "2^-%ld..2^-%ld", kmin + (long)r->first, kmin + (long)(r->first + r->count - 1));
            table_cell(&tab, "%s", fh);
            table_cell(&tab, "%zu", r->count);
            if (r->failure[0])
                fprintf(stderr, "convergence: %s on the %s: %s\n", method_all[k]->name, pbs[q].name, r->failure);
        }
    budget_finish();
    return plot_render(&plot, "convergence", common.out, common.tsv);
}
