/* Lesson 5, "Getting the most accuracy per evaluation" and "In practice: adaptive step size":
 * the error at T = 5 s on the damped oscillator against the number of evaluations, for every
 * fixed-step method (n = 60 ... 40000 steps, as the lecture) and for the adaptive drivers over
 * tolerances 1e-3 ... 1e-12: the lecture's Heun-Euler pair (src/drive/adaptive.c), GSL's rkf45, and
 * CVODE Adams (fixed-point) and BDF (Newton, the model's Jacobian). Every count of every run is
 * recorded once, in work.tsv, and the figure and the table are drawn from that record.
 * evaluations = F evaluations + Jacobian evaluations; cost = the cost model of cost_of() below, which
 * also counts LU factorizations and solves; seconds = wall time. The lecture's explicit-against-
 * implicit trade-off needs the last two: an implicit step buys stability with linear algebra.
 * The lecture's solve_ivp default, Dormand-Prince 5(4), runs from its tableau file
 * (lessons/methods/dopri54.tab) through the project's own controller (src/drive/adaptive.c), as does
 * every pair given with --add-method; GSL's rkf45 is Fehlberg's 4(5) pair, a different one.
 * --tableau prints every method's Butcher tableau from its table entry (backward Euler [1|1] and
 * the trapezoid, Lobatto IIIA, included), the kind of its arrows and its order conditions. */
#include "drive/adaptive.h"
#include "drive/gsl_pairs.h"
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
#include "drive/solve.h"
#include "base/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 512

typedef struct {
    char method[32];        /* name as --tsv prints it */
    char label[48];         /* legend */
    bool adaptive;
    double param;           /* steps n (fixed) or tolerance (adaptive) */
    long steps;             /* steps taken (accepted, for adaptive drivers) */
    long rejected;          /* rejected steps (-1: not reported) */
    long nfev;              /* F evaluations (difference Jacobians included) */
    long njev;              /* Jacobian evaluations */
    long nfactor;           /* LU factorizations */
    long nsolve;            /* solves with those factors (one a Newton iteration) */
    double seconds;         /* wall time of one run, s: the fastest of repeats filling MIN_TIMED_S (a
                               shared machine only ever slows a run down) */
    double error;           /* ||y - y(T)|| */
} record;

/* A run is repeated until this much wall time has passed, so short runs are timed above the
 * clock's noise. */
#define MIN_TIMED_S 2e-3
#define MAX_REPEATS 1000

/* The cost model, in F-equivalents, for a dense linear F = A y of dimension d (F: 2 d^2 flops):
 * a Jacobian as d F (what finite differences cost), an LU factorization (2/3) d^3 flops = d/3 F,
 * a solve with the factors 2 d^2 flops = 1 F. */
static double cost_of(const record *q, double d)
{
    return (double)q->nfev + d * (double)q->njev + d / 3.0 * (double)q->nfactor + (double)q->nsolve;
}

/* What a run is measured by: evaluations (F + J), the cost model, or wall time. */
typedef enum { BY_EVALS, BY_COST, BY_SECONDS } work_axis;

static double work_of(const record *q, work_axis ax, double d)
{
    return ax == BY_EVALS ? (double)(q->nfev + q->njev) : ax == BY_COST ? cost_of(q, d) : q->seconds;
}

/* Every accepted step of the adaptive runs at the tolerance nearest the target: driver, t, h. */
typedef struct {
    FILE *f;
    const char *driver;
} step_ctx;

static int step_sink(double t, double h, const double *y, void *ctx)
{
    (void)y;
    step_ctx *c = ctx;
    fprintf(c->f, "%s\t%.10g\t%.6e\n", c->driver, t, h);
    return 0;
}

static void print_row(const char *left, const double *v, int s)
{
    printf("  %8s |", left);
    for (int j = 0; j < s; j++)
        printf(" %8.4f", v[j]);
    printf("\n");
}

/* Every method's Butcher tableau from its table entry, checked: what kind of arrows it has,
 * c_i = sum_j a_ij, sum b = 1, and the order its rooted-tree conditions give against the order
 * the table says. Nonzero when any check fails. */
static int print_tableaux(void)
{
    int bad = 0;
    for (int k = 0; method_all[k]; k++) {
        const method *m = method_all[k];
        const char *file = tableau_file(m);
        printf("%s (%s, order %d%s%s):\n", m->label, m->name, m->order, file ? ", from " : "", file ? file : "");
        if (!m->tableau) {
            printf("  no single Butcher tableau: a partitioned method (u and v take different weights)\n\n");
            continue;
        }
        const rk_tableau *tb = m->tableau;
        int s = tb->stages;
        bool rowsum = true;
        for (int i = 0; i < s; i++) {
            char c[32];
            snprintf(c, sizeof c, "%.4f", tb->c[i]);
            print_row(c, tb->a + i * s, s);
            double sum = 0.0;
            for (int j = 0; j < s; j++)
                sum += tb->a[i * s + j];
            if (fabs(sum - tb->c[i]) > 1e-15)
                rowsum = false;
        }
        printf("  ---------+");
        for (int j = 0; j < s; j++)
            printf("---------");
        printf("\n");
        print_row("", tb->b, s);
        if (tb->bhat)
            print_row("", tb->bhat, s);
        double bsum = 0.0;
        for (int j = 0; j < s; j++)
            bsum += tb->b[j];
        int p = tableau_order(tb, tb->b);
        printf("  %s; c_i = sum_j a_ij: %s; sum b = %.15g\n",
               tableau_explicit(tb) ? "every arrow points right or down (A strictly lower triangular): explicit"
                                    : "arrows on the diagonal (a_ii != 0): diagonally implicit, each such stage one Newton solve",
               rowsum ? "yes" : "NO", bsum);
        printf("  order conditions (the %d rooted trees up to order %d): order %d%s\n", TABLEAU_NTREES, TABLEAU_ORDER_MAX, p,
               p == TABLEAU_ORDER_MAX ? " or more" : "");
        if (tb->bhat)
            printf("  embedded weights b-hat (second row): order %d; an adaptive pair (error estimate h sum (b - b-hat) k)\n",
                   tableau_order(tb, tb->bhat));
        printf("\n");
        if (!rowsum || fabs(bsum - 1.0) > 1e-15 || p != m->order)
            bad = 1;
    }
    return bad;
}

/* The work (by ax) at which err crosses target along a method's runs (sorted by increasing work),
 * interpolated in log-log between the bracketing runs; beyond the runs, extrapolated from the
 * last two (*how says which). */
static double work_to_reach(const record *r, int n, double target, work_axis ax, double d, const char **how)
{
    for (int i = 0; i < n; i++)
        if (r[i].error <= target) {
            if (i == 0) {
                *how = "first run";
                return work_of(&r[0], ax, d);
            }
            double x0 = log(work_of(&r[i - 1], ax, d)), x1 = log(work_of(&r[i], ax, d));
            double y0 = log(r[i - 1].error), y1 = log(r[i].error);
            *how = "interpolated";
            return exp(x0 + (log(target) - y0) * (x1 - x0) / (y1 - y0));
        }
    if (n < 2) {
        *how = "not reached";
        return NAN;
    }
    double x0 = log(work_of(&r[n - 2], ax, d)), x1 = log(work_of(&r[n - 1], ax, d));
    double y0 = log(r[n - 2].error), y1 = log(r[n - 1].error);
    if (!(y1 < y0)) {
        *how = "not reached";
        return NAN;
    }
    *how = "extrapolated";
    return exp(x1 + (log(target) - y1) * (x1 - x0) / (y1 - y0));
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. How many F evaluations does each method need for an error of 1e-8 at t = 5 s? Which is\n"
    "     cheapest?\n"
    "     check: bin/work --target 1e-8\n"
    "  2. Read RK4's tableau: its weights 1/6 (1, 2, 2, 1) are Simpson's rule with the midpoint used\n"
    "     twice.\n"
    "     check: bin/work --tableau\n";

int main(int argc, char **argv)
{
    double T = 5.0, omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0, target = 1e-6;
    double nmin = 60, nmax = 40000, tol_loose = 1e-3, tol_tight = 1e-12, tol_tight_he = 1e-9;
    long nfixed = 12;
    bool tableau = false;
    cli_common common = {false, "build/data/work"};
    budget bg;
    budget_init(&bg, "work", "steps", 5e8, "--nmin ... --nmax (--nfixed runs a method), and --T * --omega0 with the tightest "
                "tolerances (Heun-Euler's steps grow as tol^-1/2)");
    plot_opts plot = {false, false, NULL};
    const cli_opt opts[] = {
        {"tableau", CLI_FLAG, &tableau, "", "print each method's Butcher tableau and check it, then stop", 0, 0, 0, NULL, NULL, NULL},
        METHOD_ADD_OPT,
        {"T", CLI_DOUBLE, &T, "s", "time at which the error is measured", 0, 1e3, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"target", CLI_DOUBLE, &target, "", "the error the table asks each method to reach", 1e-14, 1, 0, NULL, NULL, NULL},
        {"nmin", CLI_DOUBLE, &nmin, "", "fewest steps of the fixed-step runs", 1, 1e7, 0, NULL, NULL, NULL},
        {"nmax", CLI_DOUBLE, &nmax, "", "most steps of the fixed-step runs", 2, 1e7, 0, NULL, NULL, NULL},
        {"nfixed", CLI_LONG, &nfixed, "", "fixed-step runs a method (geometric in n)", 2, 40, 0, NULL, NULL, NULL},
        {"tol-loose", CLI_DOUBLE, &tol_loose, "", "loosest tolerance of the adaptive runs (rtol = atol)", 1e-14, 1e-1, 0, NULL, NULL, NULL},
        {"tol-tight", CLI_DOUBLE, &tol_tight, "", "tightest tolerance (one run a decade)", 1e-14, 1e-1, 0, NULL, NULL, NULL},
        {"tol-tight-heun", CLI_DOUBLE, &tol_tight_he, "", "tightest tolerance of the Heun-Euler pair (order 2: "
         "1e-12 takes over 1e7 steps)", 1e-14, 1e-1, 0, NULL, NULL, NULL},
        {"omega0", CLI_DOUBLE, &omega0, "rad/s", "lossless angular frequency", 0, 1e4, CLI_OPEN_MIN, NULL, NULL, NULL},
        {"sigma0", CLI_DOUBLE, &sigma0, "1/s", "decay rate of the envelope", 0, 1e4, 0, NULL, NULL, NULL},
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        {NULL, 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    const cli_spec spec = {"work", "Error at T against F (and Jacobian) evaluations: fixed-step methods and adaptive "
                                   "drivers (Heun-Euler, Dormand-Prince 5(4), GSL rkf45, CVODE Adams and BDF) on the "
                                   "damped oscillator.",
                           NULL, 0, opts, exercises};
    char why[400];
    if (method_add_parse(repo_file("lessons/methods/dopri54.tab"), NULL, why, sizeof why) != 0) {
        fprintf(stderr, "work: the Dormand-Prince pair: %s\n", why);
        return 1;
    }
    cli_parse(&spec, argc, argv);
    if (tableau)
        return print_tableaux();
    if (nmax <= nmin)
        cli_fail("work", "--nmin %g --nmax %g; accepted: nmin < nmax", nmin, nmax);
    if (tol_tight > tol_loose)
        cli_fail("work", "--tol-tight %g is looser than --tol-loose %g; accepted: tol-tight <= tol-loose", tol_tight, tol_loose);

    {
        /* every method's fixed runs, and the adaptive ones: about 0.25 T omega0 tol^(-1/p) steps
         * (Heun-Euler p = 2, measured: 2.2e5 at the defaults; the 4th- and 5th-order pairs p = 4) */
        int nmeth = 0;
        while (method_all[nmeth])
            nmeth++;
        for (long i = 0; i < nfixed; i++)
            bg.work += nmeth * nmin * pow(nmax / nmin, (double)i / (double)(nfixed - 1));
        bg.work += 0.25 * T * omega0 * (pow(tol_tight_he, -0.5) + 3.0 * pow(tol_tight, -0.25));
        bg.bytes_out = (double)nmeth * nfixed * 200.0 + 20 * 200.0;
        budget_check(&bg);
    }
    oscillator osc = {omega0, sigma0};
    ivp p = oscillator_ivp(&osc);
    const double dim = (double)p.dim;
    char cost_model[200];
    snprintf(cost_model, sizeof cost_model, "F + %g J + %.3g LU + solves, in F-equivalents (dense linear F of dimension %g)",
             dim, dim / 3.0, dim);
    const double y0[2] = {u0, v0};
    double yT[2];
    oscillator_exact(&osc, y0, T, yT);

    static record rec[MAX_RUNS];
    int nrec = 0;
    /* fixed steps: n geometric from nmin to nmax, as the lecture's geomspace(60, 40000, 12) */
    for (int k = 0; method_all[k]; k++) {
        long last = -1;
        for (long i = 0; i < nfixed && nrec < MAX_RUNS; i++) {
            long n = (long)(nmin * pow(nmax / nmin, (double)i / (double)(nfixed - 1)));
            if (n == last)
                continue;
            last = n;
            double y[2];
            solve_opts o = {method_all[k], 0.0, T / (double)n, n, 0, 1, NULL, NULL};
            solve_result r;
            double t_start = wall_seconds(), fastest = INFINITY;
            int reps = 0;
            do {        /* the same run, repeated until it can be timed */
                y[0] = u0, y[1] = v0;
                double t_rep = wall_seconds();
                if (solve_fixed(&p, y, &o, NULL, &r) == SOLVE_FAILED) {
                    fprintf(stderr, "work: %s\n", r.message);
                    return 1;
                }
                fastest = fmin(fastest, wall_seconds() - t_rep);
                reps++;
            } while (wall_seconds() - t_start < MIN_TIMED_S && reps < MAX_REPEATS);
            record *q = &rec[nrec++];
            q->seconds = fastest;
            q->nfactor = r.counts.nfactor;
            q->nsolve = r.counts.nnewton;
            snprintf(q->method, sizeof q->method, "%s", method_all[k]->name);
            snprintf(q->label, sizeof q->label, "%s (%s)", method_all[k]->label,
                     method_all[k]->implicit ? "F + J" : "fixed h");
            q->adaptive = false;
            q->param = (double)n;
            q->steps = r.steps;
            q->rejected = 0;
            q->nfev = r.counts.nfev;
            q->njev = r.counts.njev;
            q->error = r.status == SOLVE_OK ? hypot(y[0] - yT[0], y[1] - yT[1]) : INFINITY;
        }
    }
    /* adaptive drivers: one run a decade of tolerance; the steps of the run nearest the target kept */
    atomic_file as;
    FILE *fs = atomic_open_or_exit(&as, "work", common.out, "steps.tsv");
    fprintf(fs, "driver\tt_s\th_s\n");
    double tol_steps = tol_loose * pow(10.0, -round(log10(tol_loose / target)));
    /* the drivers: the Heun-Euler pair, GSL rkf45, CVODE Adams and BDF, then every loaded pair */
    const char *drivers[4 + METHOD_MAX] = {"heun-euler", "gsl-rkf45", "cvode-adams", "cvode-bdf"};
    const char *dlabels[4 + METHOD_MAX] = {"Heun-Euler adaptive", "GSL rkf45 (Fehlberg 4(5))", "CVODE Adams", "CVODE BDF"};
    const rk_tableau *pair[4 + METHOD_MAX] = {method_heun.tableau, NULL, NULL, NULL};
    char pnames[METHOD_MAX][64], plabels[METHOD_MAX][80];
    int nd = 4;
    for (int k = 0; method_all[k]; k++)
        if (tableau_file(method_all[k]) && method_all[k]->tableau->bhat) {
            snprintf(pnames[nd - 4], sizeof pnames[0], "%s-adaptive", method_all[k]->name);
            snprintf(plabels[nd - 4], sizeof plabels[0], "%s adaptive (own controller)", method_all[k]->name);
            drivers[nd] = pnames[nd - 4];
            dlabels[nd] = plabels[nd - 4];
            pair[nd++] = method_all[k]->tableau;
        }
    for (int d = 0; d < 4; d++)
        if (method_find(drivers[d]))
            cli_fail("work", "--add-method: a tableau file named %s.tab clashes with the driver %s; accepted: another name",
                     drivers[d], drivers[d]);
    for (int d = 0; d < nd; d++) {
        /* a pair of order 2 or less takes over 1e7 steps at 1e-12: it stops at --tol-tight-heun */
        bool low = pair[d] && fmin(tableau_order(pair[d], pair[d]->b), tableau_order(pair[d], pair[d]->bhat)) < 3;
        for (double tol = tol_loose; tol >= (low ? fmax(tol_tight, tol_tight_he) : tol_tight) * 0.999 && nrec < MAX_RUNS;
             tol /= 10.0) {
            double y[2];
            char err[400] = "";
            record *q = &rec[nrec];
            memset(q, 0, sizeof *q);
            int rc;
            bool keep = fabs(log10(tol / tol_steps)) < 0.01;
            step_ctx sc = {fs, drivers[d]};
            if (keep && d > 0)
                fprintf(fs, "\n\n");
            double t_start = wall_seconds(), fastest = INFINITY;
            int reps = 0;
            do {        /* the same run, repeated until it can be timed; its steps kept once */
            y[0] = u0, y[1] = v0;
            if (reps == 1)
                keep = false;
            double t_rep = wall_seconds();
            if (pair[d]) {
                adaptive_opts o = {.rtol = tol, .atol = tol, .on_step = keep ? step_sink : NULL, .ctx = &sc};
                adaptive_stats st;
                rc = adaptive_pair(pair[d], drivers[d], &p, 0.0, y, T, &o, &st, err, sizeof err);
                q->steps = st.accepted;
                q->rejected = st.rejected;
                q->nfev = st.nfev;
            } else if (d == 1) {    /* GSL's rkf45 by the project's driver of GSL's pairs, first step T/1000 */
                cvode_opts o = cvode_defaults();
                o.rtol = tol, o.atol = tol, o.init_step = 1e-3 * T;
                o.on_step = keep ? step_sink : NULL, o.ctx = &sc;
                cvode_stats st;
                rc = gsl_pair_solve("rkf45", &p, 0.0, y, T, &o, &st, err, sizeof err);
                q->steps = st.steps;
                q->rejected = st.netf;
                q->nfev = st.nfev;
            } else {
                cvode_opts o = cvode_defaults();
                o.lmm = d == 2 ? CVODE_ADAMS : CVODE_BDF;
                o.solver = d == 2 ? CVODE_FIXEDPOINT : CVODE_DENSE;
                o.rtol = tol;
                o.atol = tol;
                o.on_step = keep ? step_sink : NULL;
                o.ctx = &sc;
                cvode_stats st;
                rc = cvode_solve(&p, 0.0, y, T, &o, &st, err, sizeof err);
                q->steps = st.steps;
                q->rejected = st.netf;
                q->nfev = st.nfev + st.nfev_jac;
                q->njev = st.njev;
                q->nfactor = d == 3 ? st.nsetups : 0;     /* dense BDF: a setup forms J and factors */
                q->nsolve = d == 3 ? st.nniters : 0;      /* Adams here iterates without a linear solver */
            }
            fastest = fmin(fastest, wall_seconds() - t_rep);
            reps++;
            } while (rc == 0 && wall_seconds() - t_start < MIN_TIMED_S && reps < MAX_REPEATS);
            q->seconds = fastest;
            if (rc != 0) {
                fprintf(stderr, "work: %s at tolerance %g: %s\n", drivers[d], tol, err);
                return 1;
            }
            snprintf(q->method, sizeof q->method, "%s", drivers[d]);
            snprintf(q->label, sizeof q->label, "%s", dlabels[d]);
            q->adaptive = true;
            q->param = tol;
            q->error = hypot(y[0] - yT[0], y[1] - yT[1]);
            nrec++;
        }
    }

    /* The record: every run, every count. */
    atomic_file a;
    FILE *f = atomic_open_or_exit(&a, "work", common.out, "work.tsv");
    fprintf(f, "method\tlabel\tkind\tsteps_or_tol\tsteps\trejected\tnfev\tnjev\tevaluations\terror\tnfactor\tnsolve\t"
               "cost\tseconds\n");
    for (int i = 0; i < nrec; i++) {
        const record *q = &rec[i];
        if (i > 0 && strcmp(q->method, rec[i - 1].method) != 0)
            fprintf(f, "\n\n");     /* one gnuplot data block a method */
        fprintf(f, "%s\t%s\t%s\t%g\t%ld\t%ld\t%ld\t%ld\t%ld\t%.6e\t%ld\t%ld\t%.6g\t%.6e\n", q->method, q->label,
                q->adaptive ? "adaptive" : "fixed", q->param, q->steps, q->rejected, q->nfev, q->njev, q->nfev + q->njev,
                q->error, q->nfactor, q->nsolve, cost_of(q, dim), q->seconds);
    }
    atomic_commit_or_exit(&a, "work");
    atomic_commit_or_exit(&as, "work");
    atomic_file at;
    FILE *ft = atomic_open_or_exit(&at, "work", common.out, "target.tsv");
    fprintf(ft, "target\ttol_steps\tdim\tcost_model\n%g\t%g\t%g\t%s\n", target, tol_steps, dim, cost_model);
    atomic_commit_or_exit(&at, "work");

    /* The table, read from the record: evaluations to reach the target, per method. */
    if (!common.tsv)
        printf("damped oscillator (omega0 = %g rad/s, sigma0 = %g 1/s), error ||y - y(%g)|| against work (%d runs\n"
               "recorded in %s/work.tsv, every F, Jacobian, LU factorization and solve counted, each run timed).\n"
               "evals: F + Jacobian evaluations; cost: %s;\n"
               "seconds: wall time of one run (the fastest of repeats filling %g ms). To reach %g:\n\n",
               omega0, sigma0, T, nrec, common.out, cost_model, 1e3 * MIN_TIMED_S, target);
    if (!common.tsv)
        printf("dopri54-adaptive is Dormand-Prince 5(4), the pair behind the lecture's solve_ivp default (RK45), read\n"
               "from lessons/methods/dopri54.tab and driven by the project's controller (src/drive/adaptive.c); gsl-rkf45 is\n"
               "Fehlberg's 4(5) pair, GSL's nearest to it, which stood in for it before.\n\n");
    table tab;
    table_begin(&tab, stdout, common.tsv, "method", "kind", "evals_to_target", "how", "best_error", "runs",
                "cost_to_target", "seconds_to_target", NULL);
    for (int i = 0; i < nrec;) {
        int j = i;
        while (j < nrec && strcmp(rec[j].method, rec[i].method) == 0)
            j++;
        const char *how = "";
        double ev = work_to_reach(rec + i, j - i, target, BY_EVALS, dim, &how);
        const char *how2;
        double cost = work_to_reach(rec + i, j - i, target, BY_COST, dim, &how2);
        double secs = work_to_reach(rec + i, j - i, target, BY_SECONDS, dim, &how2);
        double best = INFINITY;
        for (int k = i; k < j; k++)
            best = fmin(best, rec[k].error);
        table_cell(&tab, "%s", rec[i].method);
        table_cell(&tab, "%s", rec[i].adaptive ? "adaptive" : "fixed");
        table_cell(&tab, "%.4g", ev);
        table_cell(&tab, "%s", how);
        table_cell(&tab, "%.3e", best);
        table_cell(&tab, "%d", j - i);
        table_cell(&tab, "%.4g", cost);
        if (strcmp(how2, "interpolated") == 0 || strcmp(how2, "first run") == 0)
            table_cell(&tab, "%.3g", secs);
        else
            table_cell(&tab, "-");  /* wall times are too noisy to extrapolate */
        i = j;
    }
    budget_finish();
    return plot_render(&plot, "work", common.out, common.tsv);
}
