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
 * every pair given with --add-method; GSL's rkf45 is Fehlberg's 4(5) pair, a different one. The
 * lecture's method="Radau" is Radau IIA's tableau (radau-iia3.tab) at fixed steps beside CVODE BDF.
 * --tableau prints every method's Butcher tableau from its table entry (backward Euler [1|1] and
 * the trapezoid, Lobatto IIIA, included), the kind of its arrows and its order conditions. */
#include "lesson.h"
#include "drive/adaptive.h"
#include "drive/gsl_pairs.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "measure/measure.h"
#include "measure/work_record.h"
#include "method/method.h"
#include "method/set.h"
#include "models/oscillator.h"
#include "drive/solve.h"
#include "base/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 512

/* A run is repeated until this much wall time has passed, so short runs are timed above the
 * clock's noise. */
#define MIN_TIMED_S 2e-3
#define MAX_REPEATS 1000

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

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. How many F evaluations does each method need for an error of 1e-8 at t = 5 s? Which is\n"
    "     cheapest?\n"
    "     check: bin/work --target 1e-8\n"
    "  2. Read RK4's tableau: its weights 1/6 (1, 2, 2, 1) are Simpson's rule with the midpoint used\n"
    "     twice.\n"
    "     check: bin/work --tableau\n";

/* The flags, and the problem they set. */
typedef struct {
    double T, omega0, sigma0, u0, v0, target;       /* s, rad/s, 1/s, m, m/s, error */
    double nmin, nmax, tol_loose, tol_tight, tol_tight_he;
    long nfixed;
    bool tableau;
    cli_common common;
    bool wide;              /* --wide: every column of the human table */
    oscillator osc;
    ivp p;
    double yT[2];           /* the exact state at T */
    double dim;             /* unknowns (the cost model's d) */
    method_set methods;     /* the built-in ones, Dormand-Prince, Radau IIA, each --add-method */
} work;

/* One run, repeated until MIN_TIMED_S of wall time has passed; the fastest repeat into q->seconds. */
static int fixed_run(const work *w, const method *m, long n, work_run *q)
{
    double y[2];
    solve_opts o = {m, 0.0, w->T / (double)n, n, 0, 1, NULL, NULL};
    solve_result r;
    double t_start = wall_seconds(), fastest = INFINITY;
    int reps = 0;
    do {        /* the same run, repeated until it can be timed */
        y[0] = w->u0, y[1] = w->v0;
        double t_rep = wall_seconds();
        if (solve_fixed(&w->p, y, &o, NULL, &r) == SOLVE_FAILED) {
            fprintf(stderr, "work: %s\n", r.message);
            return 1;
        }
        fastest = fmin(fastest, wall_seconds() - t_rep);
        reps++;
    } while (wall_seconds() - t_start < MIN_TIMED_S && reps < MAX_REPEATS);
    *q = (work_run){.adaptive = false, .param = (double)n, .steps = r.steps, .rejected = 0, .nfev = r.counts.nfev,
                  .njev = r.counts.njev, .nfactor = r.counts.nfactor, .nsolve = r.counts.nnewton, .seconds = fastest,
                  .error = r.status == SOLVE_OK ? hypot(y[0] - w->yT[0], y[1] - w->yT[1]) : INFINITY};
    snprintf(q->method, sizeof q->method, "%s", m->name);
    snprintf(q->label, sizeof q->label, "%s (%s)", m->label, m->implicit ? "F + J" : "fixed h");
    return 0;
}

/* The adaptive drivers: the Heun-Euler pair, GSL rkf45, CVODE Adams and BDF, then every loaded
 * pair (its tableau in pair[], NULL for GSL's and CVODE's); how many. */
typedef struct {
    const char *name[4 + METHOD_MAX], *label[4 + METHOD_MAX];
    const rk_tableau *pair[4 + METHOD_MAX];
    char pnames[METHOD_MAX][64], plabels[METHOD_MAX][80];
    int n;
} driver_list;

static void drivers_of(const method_set *methods, driver_list *dl)
{
    *dl = (driver_list){{"heun-euler", "gsl-rkf45", "cvode-adams", "cvode-bdf"},
                        {"Heun-Euler adaptive", "GSL rkf45 (Fehlberg 4(5))", "CVODE Adams", "CVODE BDF"},
                        {method_heun.tableau, NULL, NULL, NULL}, {{0}}, {{0}}, 4};
    for (int k = 0; methods->all[k]; k++)
        if (methods->all[k]->file && methods->all[k]->tableau->bhat) {
            int i = dl->n - 4;
            snprintf(dl->pnames[i], sizeof dl->pnames[0], "%s-adaptive", methods->all[k]->name);
            snprintf(dl->plabels[i], sizeof dl->plabels[0], "%s adaptive (own controller)", methods->all[k]->name);
            dl->name[dl->n] = dl->pnames[i];
            dl->label[dl->n] = dl->plabels[i];
            dl->pair[dl->n++] = methods->all[k]->tableau;
        }
    for (int d = 0; d < 4; d++)
        if (method_set_find(methods, dl->name[d]))
            cli_fail("work", "--add-method: a tableau file named %s.tab clashes with the driver %s; accepted: another name",
                     dl->name[d], dl->name[d]);
}

/* Driver d of dl at tolerance tol (rtol = atol), timed as fixed_run; keep: its steps into steps.tsv. */
static int adaptive_run(const work *w, const driver_list *dl, int d, double tol, bool keep, FILE *fs, work_run *q)
{
    double y[2];
    char err[400] = "";
    memset(q, 0, sizeof *q);
    int rc;
    step_ctx sc = {fs, dl->name[d]};
    const rk_tableau *pair = dl->pair[d];
    if (keep && d > 0)
        fprintf(fs, "\n\n");
    double t_start = wall_seconds(), fastest = INFINITY;
    int reps = 0;
    do {        /* the same run, repeated until it can be timed; its steps kept once */
        y[0] = w->u0, y[1] = w->v0;
        if (reps == 1)
            keep = false;
        double t_rep = wall_seconds();
        if (pair) {
            adaptive_opts o = {.rtol = tol, .atol = tol, .on_step = keep ? step_sink : NULL, .ctx = &sc};
            adaptive_stats st;
            rc = adaptive_pair(pair, dl->name[d], &w->p, 0.0, y, w->T, &o, &st, err, sizeof err);
            q->steps = st.accepted;
            q->rejected = st.rejected;
            q->nfev = st.nfev;
        } else if (d == 1) {    /* GSL's rkf45 by the project's driver of GSL's pairs, first step T/1000 */
            cvode_opts o = cvode_defaults();
            o.rtol = tol, o.atol = tol, o.init_step = 1e-3 * w->T;
            o.on_step = keep ? step_sink : NULL, o.ctx = &sc;
            cvode_stats st;
            rc = gsl_pair_solve("rkf45", &w->p, 0.0, y, w->T, &o, &st, err, sizeof err);
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
            rc = cvode_solve(&w->p, 0.0, y, w->T, &o, &st, err, sizeof err);
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
        fprintf(stderr, "work: %s at tolerance %g: %s\n", dl->name[d], tol, err);
        return 1;
    }
    snprintf(q->method, sizeof q->method, "%s", dl->name[d]);
    snprintf(q->label, sizeof q->label, "%s", dl->label[d]);
    q->adaptive = true;
    q->param = tol;
    q->error = hypot(y[0] - w->yT[0], y[1] - w->yT[1]);
    return 0;
}

/* Every run into rec: each method's fixed runs (n geometric from nmin to nmax, as the lecture's
 * geomspace(60, 40000, 12)), then each driver a decade of tolerance, the steps of the run nearest
 * tol_steps kept in fs. How many, or -1 after a failure. */
static int all_runs(const work *w, work_run *rec, FILE *fs, double tol_steps)
{
    int nrec = 0;
    for (int k = 0; w->methods.all[k]; k++) {
        long last = -1;
        for (long i = 0; i < w->nfixed && nrec < MAX_RUNS; i++) {
            long n = (long)(w->nmin * pow(w->nmax / w->nmin, (double)i / (double)(w->nfixed - 1)));
            if (n == last)
                continue;
            last = n;
            if (fixed_run(w, w->methods.all[k], n, &rec[nrec++]) != 0)
                return -1;
        }
    }
    static driver_list dl;
    drivers_of(&w->methods, &dl);
    for (int d = 0; d < dl.n; d++) {
        /* a pair of order 2 or less takes over 1e7 steps at 1e-12: it stops at --tol-tight-heun */
        const rk_tableau *pr = dl.pair[d];
        bool low = pr && fmin(tableau_order(pr, pr->b), tableau_order(pr, pr->bhat)) < 3;
        for (double tol = w->tol_loose;
             tol >= (low ? fmax(w->tol_tight, w->tol_tight_he) : w->tol_tight) * 0.999 && nrec < MAX_RUNS; tol /= 10.0) {
            bool keep = fabs(log10(tol / tol_steps)) < 0.01;
            if (adaptive_run(w, &dl, d, tol, keep, fs, &rec[nrec++]) != 0)
                return -1;
        }
    }
    return nrec;
}

/* The table, read from the record: evaluations, cost and time to reach the target, and the slope,
 * per method; Radau IIA beside CVODE BDF. */
static void print_table(const work *w, const work_run *rec, int nrec, const char *cost_model)
{
    if (!w->common.tsv)
        printf("damped oscillator (omega0 = %g rad/s, sigma0 = %g 1/s),\n"
               "error ||y - y(%g)|| against work (%d runs recorded in %s/work.tsv,\n"
               "every F, Jacobian, LU factorization and solve counted, each run timed).\n"
               "evals: F + Jacobian evaluations;\ncost: %s;\n"
               "seconds: wall time of one run (the fastest of repeats filling %g ms). To reach %g:\n\n"
               "dopri54-adaptive is Dormand-Prince 5(4), the pair behind the lecture's solve_ivp default (RK45),\n"
               "read from lessons/methods/dopri54.tab and driven by the project's controller (src/drive/adaptive.c);\n"
               "gsl-rkf45 is Fehlberg's 4(5) pair, GSL's nearest to it, which stood in for it before.\n"
               "kind, runs and seconds_to_target: --wide or --tsv.\n\n",
               w->omega0, w->sigma0, w->T, nrec, w->common.out, cost_model, 1e3 * MIN_TIMED_S, w->target);
    static const char *const pick[2] = {"radau-iia3", "cvode-bdf"};
    double vs[2][3];        /* Radau IIA, CVODE BDF: evals, cost, slope */
    work_runs_table(rec, nrec, w->target, w->dim, table_mode(w->common.tsv, w->wide), pick, vs);
    if (!w->common.tsv)
        printf("\nslope: -d log error / d log evals over the runs with error in (1e-11, 0.1),\n"
               "a fixed-step method's order.\n"
               "The lecture's \"stiff problems: Radau or BDF\": Radau IIA (radau-iia3.tab, 3 coupled stages solved\n"
               "as one system) at fixed steps: slope %.2f, to reach %g %.4g evals, cost %.4g;\n"
               "CVODE BDF: slope %.2f, %.4g, %.4g.\n",
               vs[0][2], w->target, vs[0][0], vs[0][1], vs[1][2], vs[1][0], vs[1][1]);
}

/* The budget's estimate, checked (every method's fixed runs, and the adaptive ones: about
 * 0.25 T omega0 tol^(-1/p) steps; Heun-Euler p = 2, measured: 2.2e5 at the defaults; the 4th- and
 * 5th-order pairs p = 4), then the problem and its exact state at T. */
static void setup(work *w, budget *bg)
{
    int nmeth = 0;
    while (w->methods.all[nmeth])
        nmeth++;
    for (long i = 0; i < w->nfixed; i++)
        bg->work += nmeth * w->nmin * pow(w->nmax / w->nmin, (double)i / (double)(w->nfixed - 1));
    bg->work += 0.25 * w->T * w->omega0 * (pow(w->tol_tight_he, -0.5) + 3.0 * pow(w->tol_tight, -0.25));
    bg->bytes_out = (double)nmeth * w->nfixed * 200.0 + 20 * 200.0;
    budget_check_or_exit(bg);
    w->osc = (oscillator){w->omega0, w->sigma0};
    w->p = oscillator_ivp(&w->osc);
    w->dim = (double)w->p.dim;
    const double y0[2] = {w->u0, w->v0};
    oscillator_exact(&w->osc, y0, w->T, w->yT);
}

int main(int argc, char **argv)
{
    static work w = {.T = 5.0, .omega0 = 2.0 * M_PI, .sigma0 = 0.2, .u0 = 1.0, .v0 = 0.0, .target = 1e-6, .nmin = 60,
                     .nmax = 40000, .tol_loose = 1e-3, .tol_tight = 1e-12, .tol_tight_he = 1e-9, .nfixed = 12,
                     .tableau = false, .common = {false, "build/data/work"}};
    budget bg;
    budget_init(&bg, "work", "steps", 5e8, "--nmin ... --nmax (--nfixed runs a method), and --T * --omega0 with the tightest "
                "tolerances (Heun-Euler's steps grow as tol^-1/2)");
    plot_opts plot = {false, false, NULL};
    method_set_init(&w.methods);
    const cli_opt opts[] = {
        FLAG_BOOL("tableau", w.tableau,
            "print each method's Butcher tableau and check it, then stop"),
        METHOD_ADD_OPT(w.methods),
        FLAG_REAL("T", w.T, "s", 0, 1e3, CLI_OPEN_MIN, "time at which the error is measured"),
        FLAG_REAL("target", w.target, "", 1e-14, 1, CLI_CLOSED,
            "the error the table asks each method to reach"),
        FLAG_REAL("nmin", w.nmin, "", 1, 1e7, CLI_CLOSED, "fewest steps of the fixed-step runs"),
        FLAG_REAL("nmax", w.nmax, "", 2, 1e7, CLI_CLOSED, "most steps of the fixed-step runs"),
        FLAG_WHOLE("nfixed", w.nfixed, 2, 40, "fixed-step runs a method (geometric in n)"),
        FLAG_REAL("tol-loose", w.tol_loose, "", 1e-14, 1e-1, CLI_CLOSED,
            "loosest tolerance of the adaptive runs (rtol = atol)"),
        FLAG_REAL("tol-tight", w.tol_tight, "", 1e-14, 1e-1, CLI_CLOSED,
            "tightest tolerance (one run a decade)"),
        FLAG_REAL("tol-tight-heun", w.tol_tight_he, "", 1e-14, 1e-1, CLI_CLOSED,
            "tightest tolerance of the Heun-Euler pair (order 2: 1e-12 takes over 1e7 steps)"),
        FLAG_REAL("omega0", w.omega0, "rad/s", 0, 1e4, CLI_OPEN_MIN, "lossless angular frequency"),
        FLAG_REAL("sigma0", w.sigma0, "1/s", 0, 1e4, CLI_CLOSED, "decay rate of the envelope"),
        BUDGET_OPT(bg),
        CLI_COMMON_OPTS(w.common),
        CLI_WIDE_OPT(w.wide),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "work",
        .summary = "Error at T against F (and Jacobian) evaluations: fixed-step methods and "
            "adaptive drivers (Heun-Euler, Dormand-Prince 5(4), GSL rkf45, CVODE Adams and BDF) "
            "on the damped oscillator.",
        .opts = opts,
        .epilogue = exercises,
    };
    char why[400];
    const char *lecture_files[] = {"lessons/methods/dopri54.tab", "lessons/methods/radau-iia3.tab"};
    if (!method_set_load(&w.methods, repo_file(lecture_files[0]), why, sizeof why) ||
        !method_set_load(&w.methods, repo_file(lecture_files[1]), why, sizeof why)) {
        fprintf(stderr, "work: the lecture's tableau files: %s\n", why);
        return 1;
    }
    cli_parse(&spec, argc, argv);
    if (w.tableau)
        return tableau_print_all(w.methods.all);
    if (w.nmax <= w.nmin)
        cli_fail("work", "--nmin %g --nmax %g; accepted: nmin < nmax", w.nmin, w.nmax);
    if (w.tol_tight > w.tol_loose)
        cli_fail("work", "--tol-tight %g is looser than --tol-loose %g; accepted: tol-tight <= tol-loose", w.tol_tight,
                 w.tol_loose);

    setup(&w, &bg);
    char cost_model[200];
    snprintf(cost_model, sizeof cost_model, "F + %g J + %.3g LU + solves, in F-equivalents (dense linear F of dimension %g)",
             w.dim, w.dim / 3.0, w.dim);
    static work_run rec[MAX_RUNS];
    atomic_file as;
    FILE *fs = atomic_open_or_exit(&as, "work", w.common.out, "steps.tsv");
    fprintf(fs, "driver\tt_s\th_s\n");
    double tol_steps = w.tol_loose * pow(10.0, -round(log10(w.tol_loose / w.target)));
    int nrec = all_runs(&w, rec, fs, tol_steps);
    if (nrec < 0)
        return 1;
    atomic_file a;      /* the record: every run, every count */
    work_runs_write(atomic_open_or_exit(&a, "work", w.common.out, "work.tsv"), rec, nrec, w.dim);
    atomic_commit_or_exit(&a, "work");
    atomic_commit_or_exit(&as, "work");
    atomic_file at;
    FILE *ft = atomic_open_or_exit(&at, "work", w.common.out, "target.tsv");
    fprintf(ft, "target\ttol_steps\tdim\tcost_model\n%g\t%g\t%g\t%s\n", w.target, tol_steps, w.dim, cost_model);
    atomic_commit_or_exit(&at, "work");
    print_table(&w, rec, nrec, cost_model);
    budget_finish(&bg.meter);
    return plot_render(&plot, "work", w.common.out, w.common.tsv);
}
