/* Lesson 2, "Checking the order of accuracy ourselves": the error at T of every method for
 * h = 2^-kmin ... 2^-kmax on the damped oscillator (exact reference) and on the nonlinear
 * pendulum theta'' = -omega0^2 sin(theta) (reference: its closed form), the order
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
 * Claims: the slopes are 1, 1, 2, 2, 4 and 2 (forward Euler, backward Euler, trapezoid, Heun,
 * RK4, leapfrog) on both problems; one step's error from the exact state (local) has order
 * p + 1; at one h = 0.1 s, methods of the same order differ in character (trajectories.tsv).
 * This is one program, not three: the three claims come from runs of the same methods, and the
 * table shows the global and local slopes side by side. A run that fails is named on stderr with
 * its method, time and reason, and the exit status is 1. --add-method FILE.tab adds a Butcher
 * tableau's method to the tables and figures; order_conditions is the order its tableau's
 * rooted-tree conditions give (to 5). */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "analysis/measure.h"
#include "method/method.h"
#include "method/set.h"
#include "method/tableau.h"
#include "oscillator/oscillator.h"
#include "oscillator/pendulum.h"
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
#define NPROBLEMS 2             /* the oscillator and the pendulum */

/* The steps h = 2^-kmin ... 2^-kmax, the time T the error is measured at, and how an order is
 * fitted to the errors. */
typedef struct grid {
    double T;               /* s */
    long kmin, kmax;        /* h[0] = 2^-kmin, h[nh - 1] = 2^-kmax */
    int nh;
    double h[MAX_H];        /* s */
    size_t fit;             /* most points in the least-squares fit */
    double agree;           /* the asymptotic range: pairwise slopes within this of each other */
} grid;

typedef struct {
    const char *name;       /* "oscillator" or "pendulum" */
    ivp p;
    double y0[2];           /* initial state (m, m/s) or (rad, rad/s) */
    double yref[2];         /* reference state at T */
    double ref_err;         /* the reference's own error, measured */
    double floor;           /* errors at or below this (10 ref_err) are not fitted */
} problem;

/* One method's errors against h and the order fitted to them. */
typedef struct {
    double err[MAX_H];      /* the error for each h */
    double pair[MAX_H];     /* pairwise slopes */
    double slope;           /* least-squares order over the asymptotic range (NAN: none) */
    size_t first, count;    /* the fitted range */
    const char *status;     /* NULL, "not asymptotic" or "reference floor" */
    char failure[320];      /* when a run failed: the method, the time and the reason */
} result;

/* What the lesson measures: every method's error at T on both problems (global), and of one step
 * from the exact state on the oscillator (local). */
typedef struct study {
    const method *const *methods;           /* the program's methods, NULL-terminated */
    progress *meter;                        /* the budget's progress line */
    int nm;                                 /* methods */
    result global[NPROBLEMS][MAX_METHODS];
    result local[MAX_METHODS];
    double local_floor;                     /* the local reference's floor */
} study;

static grid make_grid(double T, long kmin, long kmax, long fit, double agree)
{
    grid g = {.T = T, .kmin = kmin, .kmax = kmax, .nh = (int)(kmax - kmin + 1), .fit = (size_t)fit,
              .agree = agree};
    for (int i = 0; i < g.nh; i++)
        g.h[i] = ldexp(1.0, (int)-(kmin + i));
    return g;
}

/* The work before it starts: every h on both problems and the trajectories, for every method.
 * 0, or the refusal's status with why. */
static int estimate_work(budget *bg, const grid *g, const method *const *methods, double traj_T,
                         double traj_h, failure *why)
{
    int nmeth = 0;
    while (methods[nmeth] && nmeth < MAX_METHODS)
        nmeth++;
    double per_method = 0.0, ntraj = (double)lround(traj_T / traj_h);
    for (int i = 0; i < g->nh; i++)
        per_method += g->T / g->h[i];
    bg->work = 2.0 * nmeth * per_method + nmeth * ntraj;
    bg->bytes_out = (ntraj + 1.0) * 12.0 * (nmeth + 2.0) + 1201.0 * 40.0;
    bg->bytes_mem = nmeth * (ntraj + 1.0) * 8.0;
    return budget_check(bg, why);
}

/* A reference's error is its distance to the same state reached a second way; errors at or below
 * ten times that (at least ten ulps of |y(T)|) are not fitted. */
static void set_floor(problem *pb, const double second[2])
{
    double size = hypot(pb->yref[0], pb->yref[1]);
    pb->ref_err = hypot(second[0] - pb->yref[0], second[1] - pb->yref[1]);
    pb->floor = 10.0 * fmax(pb->ref_err, DBL_EPSILON * fmax(size, 1e-300));
}

/* The oscillator's exact y(T), and once more from the exact y(T/2). */
static void oscillator_reference(const oscillator *osc, double T, problem *pb)
{
    double half[2], second[2];
    oscillator_exact(osc, pb->y0, T, pb->yref);
    oscillator_exact(osc, pb->y0, 0.5 * T, half);
    oscillator_exact(osc, half, 0.5 * T, second);
    set_floor(pb, second);
}

/* The pendulum released from rest: Jacobi's elliptic functions at T, and one period later.
 * 0, or 1 (why says it) when GSL cannot evaluate them. */
static int pendulum_reference(const pendulum *pen, double T, double period, problem *pb,
                              failure *why)
{
    double second[2];
    if (pendulum_exact_from_rest(pen, pb->y0[0], T, pb->yref) != 0 || !isfinite(period) ||
        pendulum_exact_from_rest(pen, pb->y0[0], T + period, second) != 0)
        return failure_set(why, 1, "convergence: the pendulum's closed form: GSL cannot evaluate "
                           "it at theta0 = %g", pb->y0[0]);
    set_floor(pb, second);
    return 0;
}

/* How far CVODE (Adams at rtol) ends from the pendulum's closed form (NAN: CVODE failed). */
static double cvode_distance(const problem *pb, double T, double rtol)
{
    cvode_opts o = cvode_defaults();
    o.lmm = CVODE_ADAMS;
    o.rtol = rtol;
    o.atol = rtol * 1e-2;
    cvode_stats st;
    char msg[400];
    double y[2] = {pb->y0[0], pb->y0[1]};
    if (cvode_solve(&pb->p, 0.0, y, T, &o, &st, msg, sizeof msg) != 0)
        return NAN;
    return hypot(y[0] - pb->yref[0], y[1] - pb->yref[1]);
}

/* The order of the errors: pairwise slopes, and the least-squares slope over the asymptotic
 * range. */
static void fit_order(const grid *g, double floor, result *res)
{
    size_t nh = (size_t)g->nh;
    measure_pairwise_slopes(g->h, res->err, nh, res->pair);
    res->slope = measure_asymptotic_order(g->h, res->err, nh, floor, g->fit, g->agree, &res->first,
                                          &res->count, &res->status);
}

/* The global error: method m from y0 to T by steps h, against the reference y(T), for every h. */
static void measure_global_error(const problem *pb, const grid *g, const method *m,
                                 progress *meter, result *res)
{
    memset(res, 0, sizeof *res);
    for (int i = 0; i < g->nh; i++) {
        double y[2] = {pb->y0[0], pb->y0[1]};
        solve_opts o = {.m = m, .h = g->h[i], .n = lround(g->T / g->h[i]), .every = 1,
                        .sink = budget_tick_sink, .ctx = meter};
        solve_result r;
        if (solve_fixed(&pb->p, y, &o, NULL, &r) != SOLVE_OK) {
            res->err[i] = INFINITY;
            snprintf(res->failure, sizeof res->failure, "%s", r.message);
            continue;
        }
        res->err[i] = hypot(y[0] - pb->yref[0], y[1] - pb->yref[1]);
    }
    fit_order(g, pb->floor, res);
}

/* The local reference: the exact y(t_loc + h) two ways (from y0, and from the exact y(t_loc));
 * the floor is ten times their largest difference. */
static double local_floor(const oscillator *osc, const problem *pb, const grid *g, double t_loc)
{
    double ya[2], floor = 0.0;
    oscillator_exact(osc, pb->y0, t_loc, ya);
    for (int i = 0; i < g->nh; i++) {
        double yb[2], yc[2];
        oscillator_exact(osc, pb->y0, t_loc + g->h[i], yb);
        oscillator_exact(osc, ya, g->h[i], yc);
        double diff = hypot(yb[0] - yc[0], yb[1] - yc[1]);
        floor = fmax(floor, 10.0 * fmax(diff, DBL_EPSILON * hypot(yb[0], yb[1])));
    }
    return floor;
}

/* The local error on the oscillator: one step of h from the exact y(t_loc) against the exact
 * y(t_loc + h), order p + 1 where the global error's is p (T/h one-step errors add up). */
static void measure_local_error(const oscillator *osc, const problem *pb, const grid *g,
                                double t_loc, double floor, const method *m, result *res)
{
    double ya[2];
    memset(res, 0, sizeof *res);
    oscillator_exact(osc, pb->y0, t_loc, ya);
    for (int i = 0; i < g->nh; i++) {
        double y[2] = {ya[0], ya[1]}, yb[2];
        solve_opts o = {.m = m, .t0 = t_loc, .h = g->h[i], .n = 1, .every = 1};
        solve_result r;
        oscillator_exact(osc, pb->y0, t_loc + g->h[i], yb);
        if (solve_fixed(&pb->p, y, &o, NULL, &r) != SOLVE_OK) {
            res->err[i] = INFINITY;
            snprintf(res->failure, sizeof res->failure, "%s", r.message);
            continue;
        }
        res->err[i] = hypot(y[0] - yb[0], y[1] - yb[1]);
    }
    fit_order(g, floor, res);
}

/* Run every method: the global errors on both problems, the local errors on the oscillator. */
static void run_methods(const oscillator *osc, const problem pbs[NPROBLEMS], const grid *g,
                        double t_loc, study *st)
{
    int nm = 0;
    for (; st->methods[nm] && nm < MAX_METHODS; nm++)
        for (int q = 0; q < NPROBLEMS; q++)
            measure_global_error(&pbs[q], g, st->methods[nm], st->meter, &st->global[q][nm]);
    st->nm = nm;
    st->local_floor = local_floor(osc, &pbs[0], g, t_loc);
    for (int k = 0; k < nm; k++)
        measure_local_error(osc, &pbs[0], g, t_loc, st->local_floor, st->methods[k],
                            &st->local[k]);
}

/* A legend's word on a fit: "slope 4.00", or why there is none. */
static const char *slope_text(const result *r, char *buf, size_t n)
{
    if (r->status)
        return r->status;
    snprintf(buf, n, "slope %.2f", r->slope);
    return buf;
}

/* local_oscillator.tsv: the global and the local error of every method against h, each column
 * named with its fit (the figure of global order p beside local order p + 1). 0, or the
 * failure's status with why. */
static int write_local_errors(const char *out, const grid *g, const study *st, failure *why)
{
    atomic_file a;
    FILE *f = atomic_open_file(&a, "convergence", out, "local_oscillator.tsv", why);
    if (!f)
        return why->status;
    char b1[64], b2[64];
    fprintf(f, "h_s");
    for (int k = 0; k < st->nm; k++)
        fprintf(f, "\t%s global: %s\t%s local: %s", st->methods[k]->label,
                slope_text(&st->global[0][k], b1, sizeof b1), st->methods[k]->label,
                slope_text(&st->local[k], b2, sizeof b2));
    fputc('\n', f);
    for (int i = 0; i < g->nh; i++) {
        fprintf(f, "%.10g", g->h[i]);
        for (int k = 0; k < st->nm; k++)
            fprintf(f, "\t%.6e\t%.6e", st->global[0][k].err[i], st->local[k].err[i]);
        fputc('\n', f);
    }
    return atomic_commit_file(&a, "convergence", why);
}

/* The dashed guide C h^p: a factor 5 below the lowest method of order p at its smallest fitted h
 * (NAN: no method of order p has a fit). */
static double guide_constant(const grid *g, const result *res, const study *st, int p)
{
    double lo = INFINITY;
    for (int k = 0; k < st->nm; k++)
        if (st->methods[k]->order == p && res[k].count > 0) {
            size_t i = res[k].first + res[k].count - 1;
            lo = fmin(lo, res[k].err[i] / pow(g->h[i], p));
        }
    return isfinite(lo) ? lo / 5.0 : NAN;
}

/* errors_<problem>.tsv: the figure of the global orders, h and one column a method, the floor and
 * the guides of slope 1, 2 and 4. 0, or the failure's status with why. */
static int write_global_errors(const char *out, const grid *g, const problem *pb,
                               const result *res, const study *st, failure *why)
{
    atomic_file a;
    char name[64], b1[64];
    snprintf(name, sizeof name, "errors_%s.tsv", pb->name);
    FILE *f = atomic_open_file(&a, "convergence", out, name, why);
    if (!f)
        return why->status;
    fprintf(f, "h_s");
    for (int k = 0; k < st->nm; k++)
        fprintf(f, "\t%s: %s", st->methods[k]->label, slope_text(&res[k], b1, sizeof b1));
    fprintf(f, "\treference floor");
    double guide[5] = {0};
    for (int p = 1; p <= 4; p *= 2) {
        fprintf(f, "\tslope %d guide", p);
        guide[p] = guide_constant(g, res, st, p);
    }
    fputc('\n', f);
    for (int i = 0; i < g->nh; i++) {
        fprintf(f, "%.10g", g->h[i]);
        for (int k = 0; k < st->nm; k++)
            fprintf(f, "\t%.6e", res[k].err[i]);
        fprintf(f, "\t%.6e", pb->floor);
        for (int p = 1; p <= 4; p *= 2)
            fprintf(f, "\t%.6e", guide[p] * pow(g->h[i], p));
        fputc('\n', f);
    }
    return atomic_commit_file(&a, "convergence", why);
}

static int traj_sink(long k, double t, const double *y, void *ctx)
{
    double *u = ctx;
    (void)t;
    u[k] = y[0];
    return 0;
}

/* Same order, different character: every method's u(t) over traj_T at the one step traj_h
 * (n steps, the last one short when traj_T is not a multiple), beside the exact curve. 0, or
 * the failure's status with why. */
static int write_trajectories(const char *out, const oscillator *osc, const problem *pb,
                              const study *st, double traj_h, double traj_T, long n, failure *why)
{
    double *u[MAX_METHODS];
    atomic_file a, b;
    FILE *f = atomic_open_file(&a, "convergence", out, "trajectories.tsv", why);
    if (!f)
        return why->status;
    for (int k = 0; k < st->nm; k++) {
        u[k] = xcalloc((size_t)n + 1, sizeof(double));
        for (long i = 0; i <= n; i++)
            u[k][i] = NAN;
        double y[2] = {pb->y0[0], pb->y0[1]};
        solve_opts o = {.m = st->methods[k], .h = traj_h, .n = n, .every = 1, .sink = traj_sink,
                        .ctx = u[k]};
        solve_result r;
        solve_fixed_to(&pb->p, y, &o, traj_T, NULL, &r);
        budget_tick(st->meter, (double)n);
    }
    fprintf(f, "t_s\texact");
    for (int k = 0; k < st->nm; k++)
        fprintf(f, "\t%s", st->methods[k]->label);
    fputc('\n', f);
    for (long i = 0; i <= n; i++) {
        double ex[2], t = i < n ? i * traj_h : traj_T;
        oscillator_exact(osc, pb->y0, t, ex);
        fprintf(f, "%.10g\t%.10g", t, ex[0]);
        for (int k = 0; k < st->nm; k++)
            fprintf(f, "\t%.10g", u[k][i]);
        fputc('\n', f);
    }
    for (int k = 0; k < st->nm; k++)
        free(u[k]);
    FILE *g = atomic_open_file(&b, "convergence", out, "exact.tsv", why);   /* finely sampled */
    if (!g)
        return why->status;
    fprintf(g, "t_s\tu_m\n");
    for (int i = 0; i <= 1200; i++) {
        double ex[2], t = traj_T * i / 1200.0;
        oscillator_exact(osc, pb->y0, t, ex);
        fprintf(g, "%.10g\t%.10g\n", t, ex[0]);
    }
    if (atomic_commit_file(&a, "convergence", why) != 0)
        return why->status;
    return atomic_commit_file(&b, "convergence", why);
}

/* summary.tsv: what the figures title with, this run's T and pendulum start, and the floors.
 * 0, or the failure's status with why. */
static int write_summary(const char *out, const grid *g, const problem pbs[NPROBLEMS],
                         failure *why)
{
    atomic_file a;
    FILE *f = atomic_open_file(&a, "convergence", out, "summary.tsv", why);
    if (!f)
        return why->status;
    fprintf(f, "key\tvalue\n");
    fprintf(f, "T_s\t%.10g\n", g->T);
    fprintf(f, "theta0_rad\t%.10g\n", pbs[1].y0[0]);
    fprintf(f, "floor_oscillator\t%.6e\n", pbs[0].floor);
    fprintf(f, "floor_pendulum\t%.6e\n", pbs[1].floor);
    return atomic_commit_file(&a, "convergence", why);
}

/* The references, before the table: what each is and how far it can be trusted. */
static void print_references(const grid *g, const problem pbs[NPROBLEMS], double period,
                             double rtol, double cvode_dev)
{
    printf("error ||y_n - y(T)|| at T = %g s for h = 2^-%ld ... 2^-%ld s against closed-form "
           "references\n", g->T, g->kmin, g->kmax);
    printf("  oscillator: the exact solution; its error %.1e (evaluated from y(T/2) as well); "
           "floor %.2e\n", pbs[0].ref_err, pbs[0].floor);
    printf("  pendulum: Jacobi's elliptic functions (from rest, period %.6g s); its error %.1e "
           "(a period\n", period, pbs[1].ref_err);
    printf("    later as well); floor %.2e; CVODE Adams at rtol %g differs from it by %.1e\n",
           pbs[1].floor, rtol, cvode_dev);
}

/* How the table's columns are read. */
static void print_columns(const grid *g, double t_loc, double local_floor, bool wide,
                          double traj_last)
{
    printf("slope: least-squares fit over fit_h, the (at most %zu) smallest h of the longest run "
           "of %d or more\n", g->fit, MEASURE_MIN_POINTS);
    printf("errors above the floor (10x the reference's error) whose pairwise slopes agree "
           "within %g; else\n", g->agree);
    printf("\"not asymptotic\" (they disagree) or \"reference floor\" (the errors reach the "
           "floor).\n");
    printf("theory: the method's order; tableau: the order its Butcher tableau's rooted-tree "
           "conditions give\n");
    printf("(to %d; n/a: none); local: the same fit of one step's error from the exact state at "
           "t = %g s\n", TABLEAU_ORDER_MAX, t_loc);
    printf("(floor %.1e): p + 1 where the global is p.\n", local_floor);
    if (!wide)
        printf("Every error and pairwise slope: --wide, or --tsv.\n");
    if (traj_last > 0.0)
        printf("trajectories: traj-T is not a multiple of traj-h: the last step is short, %.6g s, "
               "to end at traj-T\n", traj_last);
    printf("\n");
}

/* One more column of the table, its header cell printed; width 0: the name's, at least 6. */
static void add_column(table *t, const char *name, int width)
{
    int w = width ? width : (int)strlen(name);
    t->width[t->ncol] = w < 6 ? 6 : w;
    if (t->tsv)
        fprintf(t->f, "%s%s", t->ncol ? "\t" : "", name);
    else
        fprintf(t->f, "%s%*s", t->ncol ? "  " : "", t->width[t->ncol], name);
    t->ncol++;
}

/* The table's header; all (--wide, --tsv): every error and pairwise slope. Returns how many
 * pairwise slopes it shows. */
static int begin_table(table *t, const grid *g, bool tsv, bool all)
{
    char name[32];
    int npair = 0;
    memset(t, 0, sizeof *t);
    t->f = stdout;
    t->tsv = tsv;
    add_column(t, "problem", 10);
    add_column(t, "method", 14);
    add_column(t, "slope", 15);
    for (int i = 0; i < g->nh && all; i++) {
        snprintf(name, sizeof name, "err_h=2^-%ld", g->kmin + i);
        add_column(t, name, 0);
    }
    add_column(t, all ? "order" : "theory", 0);
    if (tsv) {
        add_column(t, "fit_hmax_s", 0);
        add_column(t, "fit_hmin_s", 0);
    }
    for (; npair + 1 < g->nh && all && t->ncol < TABLE_MAX_COLS - 4; npair++) {
        snprintf(name, sizeof name, "p(2^-%ld)", g->kmin + npair);
        add_column(t, name, 0);
    }
    /* the highest order whose rooted-tree conditions the method's tableau meets */
    add_column(t, all ? "order_conditions" : "tableau", 0);
    add_column(t, all ? "local_slope" : "local", 0);
    add_column(t, "fit_h", 14);
    add_column(t, "fit_points", 0);
    putchar('\n');
    return npair;
}

/* One row: method k on a problem, its slope (or why none), its orders and its fitted range;
 * local: its one-step fit (NULL: not measured on this problem). */
static void print_row(table *t, const grid *g, const problem *pb, const method *m, const result *r,
                      const result *local, int npair, bool all)
{
    char fh[48] = "none";
    table_cell(t, "%s", pb->name);
    table_cell(t, "%s", m->name);
    table_cell_or(t, !r->status, "%.3f", r->slope, r->status);
    for (int i = 0; i < g->nh && all; i++)
        table_cell(t, "%.3e", r->err[i]);
    table_cell(t, "%d", m->order);
    if (t->tsv) {
        table_cell(t, "%.4g", r->count ? g->h[r->first] : NAN);
        table_cell(t, "%.4g", r->count ? g->h[r->first + r->count - 1] : NAN);
    }
    for (int i = 0; i < npair; i++)
        table_cell(t, "%.2f", r->pair[i]);
    if (m->tableau)
        table_cell(t, "%d", tableau_order(m->tableau, m->tableau->b));
    else
        table_cell(t, "%s", "n/a");
    if (local)
        table_cell_or(t, !local->status, "%.3f", local->slope, local->status);
    else
        table_cell(t, "n/a");
    if (r->count)
        snprintf(fh, sizeof fh, "2^-%ld..2^-%ld", g->kmin + (long)r->first,
                 g->kmin + (long)(r->first + r->count - 1));
    table_cell(t, "%s", fh);
    table_cell(t, "%zu", r->count);
}

/* The claim, one row a method and problem: the slope is the method's order on both problems,
 * and one step's (local) slope on the oscillator is one more. */
static void show_orders(const grid *g, const problem pbs[NPROBLEMS], const study *st, bool tsv,
                        bool all)
{
    table t;
    int npair = begin_table(&t, g, tsv, all);
    for (int q = 0; q < NPROBLEMS; q++)
        for (int k = 0; k < st->nm; k++)
            print_row(&t, g, &pbs[q], st->methods[k], &st->global[q][k],
                      q == 0 ? &st->local[k] : NULL, npair, all);
}

/* Every run that failed, with its method, time and reason, on stderr; how many there were. */
static int report_failures(const problem pbs[NPROBLEMS], const study *st)
{
    int failures = 0;
    for (int q = 0; q < NPROBLEMS; q++)
        for (int k = 0; k < st->nm; k++)
            if (st->global[q][k].failure[0]) {
                fprintf(stderr, "convergence: %s on the %s: %s\n", st->methods[k]->name,
                        pbs[q].name, st->global[q][k].failure);
                failures++;
            }
    for (int k = 0; k < st->nm; k++)
        if (st->local[k].failure[0]) {
            fprintf(stderr, "convergence: %s, one step on the oscillator: %s\n",
                    st->methods[k]->name, st->local[k].failure);
            failures++;
        }
    return failures;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. Rewrite the pendulum theta'' = -omega0^2 sin theta as a first-order system (y = (theta,\n"
    "     theta')); src/oscillator/pendulum.c is the answer. Does RK4 keep slope 4 when the\n"
    "     pendulum starts near the top?\n"
    "     check: bin/convergence --theta0 3 --tsv | grep pendulum | cut -f2,3\n"
    "  2. Push h down to 2^-14: where does RK4's error stop falling (the reference's floor or\n"
    "     round-off)? The last pairwise slopes and the fitted points fit_h show it.\n"
    "     check: bin/convergence --kmin 3 --kmax 14 --wide | grep -E 'problem|rk4'\n"
    "  3. Write explicit midpoint as a tableau file midpoint.tab (copy lessons/methods/ralston2.tab"
    " and\n"
    "     change a and b: c = (0, 1/2), a21 = 1/2, b = (0, 1)) and measure its order: 2, like"
    " Heun.\n"
    "     check: bin/convergence --add-method midpoint.tab --tsv | cut -f1-3\n";

int main(int argc, char **argv)
{
    double T = 2.0, omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0, theta0 = 1.0;
    double rtol = 1e-13, traj_h = 0.1, traj_T = 6.0, t_loc = 0.3;
    double traj_last = 0.0;     /* traj-T not a multiple of traj-h: the trajectories' last step */
    long kmin = 3, kmax = 11, fit = 5;
    double agree = 0.2;
    bool wide = false;
    cli_common common = {false, "build/data/convergence"};
    budget bg;
    budget_init(&bg, "convergence", "steps", 5e8,
                "--T / 2^-kmin ... 2^-kmax (every method, both problems) and --traj-T / --traj-h");
    plot_opts plot = {false, false, NULL};
    method_set methods;
    method_set_init(&methods);
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
        METHOD_ADD_OPT(methods),
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
        cli_fail("convergence", "--kmin %ld --kmax %ld; accepted: kmin < kmax, at most %d steps h",
                 kmin, kmax, MAX_H);
    if (u0 == 0.0 && v0 == 0.0)
        cli_fail("convergence",
                 "--u0 0 with --v0 0 is the rest state; accepted: a nonzero initial state");
    if (theta0 == 0.0)
        cli_fail("convergence",
                 "--theta0 0 is the rest state; accepted: a nonzero angle in [-3.1, 3.1]");
    for (long k = kmin; k <= kmax; k++)
        if (fabs(T / ldexp(1.0, (int)-k) - lround(T / ldexp(1.0, (int)-k))) > 1e-9)
            cli_fail("convergence", "--T %g is not a whole number of steps of h = 2^-%ld; "
                     "accepted: T a multiple of 2^-%ld", T, k, kmin);

    /* The steps h, and the work they ask for before any of it starts. */
    grid g = make_grid(T, kmin, kmax, fit, agree);
    failure why;    /* what ends the program early: its line and status */
    if (estimate_work(&bg, &g, methods.all, traj_T, traj_h, &why) != 0)
        return failure_print(&why);

    /* The models and their problems: the damped oscillator and the pendulum, each with a
     * closed-form reference whose own error is measured (and CVODE beside the pendulum's). */
    oscillator osc = {omega0, sigma0};
    pendulum pen = {omega0};
    problem pbs[NPROBLEMS] = {
        {.name = "oscillator", .p = oscillator_ivp(&osc), .y0 = {u0, v0}},
        {.name = "pendulum", .p = pendulum_ivp(&pen), .y0 = {theta0, 0.0}},
    };
    double period = pendulum_period(&pen, theta0);
    oscillator_reference(&osc, T, &pbs[0]);
    if (pendulum_reference(&pen, T, period, &pbs[1], &why) != 0)
        return failure_print(&why);
    double cvode_dev = cvode_distance(&pbs[1], T, rtol);

    /* Run the methods: every method's error at T for every h, and of one step of h. */
    study st = {.methods = methods.all, .meter = &bg.meter};
    run_methods(&osc, pbs, &g, t_loc, &st);

    /* The figures' data: global order p beside local p + 1 (the oscillator), the global orders
     * on each problem, and the same order with a different character at one h. */
    int status = write_local_errors(common.out, &g, &st, &why);
    for (int q = 0; q < NPROBLEMS && status == 0; q++)
        status = write_global_errors(common.out, &g, &pbs[q], st.global[q], &st, &why);
    long ntraj = solve_steps_to(traj_T, traj_h, &traj_last);
    if (status == 0)
        status = write_trajectories(common.out, &osc, &pbs[0], &st, traj_h, traj_T, ntraj, &why);
    if (status != 0 || write_summary(common.out, &g, pbs, &why) != 0)
        return failure_print(&why);

    /* The claim: the slopes are the methods' orders, and a run that failed says why (exit 1). */
    if (!common.tsv) {
        print_references(&g, pbs, period, rtol, cvode_dev);
        print_columns(&g, t_loc, st.local_floor, wide, traj_last);
    }
    show_orders(&g, pbs, &st, common.tsv, common.tsv || wide);
    int failures = report_failures(pbs, &st);
    budget_finish(&bg.meter);
    status = plot_render(&plot, "convergence", common.out, common.tsv);
    return failures ? 1 : status;
}
