/* Lesson 5, "Getting the most accuracy per evaluation" and "In practice: adaptive step size":
 * the error at T = 5 s on the damped oscillator against the number of evaluations, for every
 * fixed-step method (n = 60 ... 40000 steps, as the lecture) and for the adaptive drivers over
 * tolerances 1e-3 ... 1e-12: the lecture's Heun-Euler pair (src/drive/adaptive.c), GSL's rkf45,
 * and CVODE Adams (fixed-point) and BDF (Newton, the model's Jacobian). Every count of every run
 * is recorded once, in work.tsv, and the figure and the table are drawn from that record.
 * evaluations = F evaluations + Jacobian evaluations; cost = the cost model of work_run_cost()
 * (src/study/work_record.c), which also counts LU factorizations and solves; seconds = wall
 * time. The lecture's explicit-against-implicit trade-off needs the last two: an implicit step
 * buys stability with linear algebra.
 * The lecture's solve_ivp default, Dormand-Prince 5(4), runs from its tableau file
 * (lessons/methods/dopri54.tab) through the project's own controller (src/drive/adaptive.c), as
 * does every pair given with --add-method; GSL's rkf45 is Fehlberg's 4(5) pair, a different one.
 * The lecture's method="Radau" is Radau IIA's tableau (radau-iia3.tab) at fixed steps beside CVODE
 * BDF. --tableau prints every method's Butcher tableau from its table entry (backward Euler [1|1]
 * and the trapezoid, Lobatto IIIA, included), the kind of its arrows and its order conditions.
 * Claims: a higher order buys an error with fewer evaluations (RK4 far below Heun, Heun far below
 * forward Euler), the adaptive high-order drivers beat fixed-step RK4, and an implicit method
 * (Radau IIA, CVODE BDF) pays for its stability in Jacobians, factorizations and solves.
 * One program, whose main lists the steps of one study: every claim is read from the same record
 * of runs (work.tsv), which the table, the figure and the tests all read; split into several
 * programs, each would repeat the same runs or read another's files. */
#include "base/failure.h"
#include "drive/adaptive.h"
#include "drive/gsl_pairs.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "analysis/measure.h"
#include "study/work_record.h"
#include "method/method.h"
#include "method/set.h"
#include "oscillator/oscillator.h"
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

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. How many F evaluations does each method need for an error of 1e-8 at t = 5 s? Which is\n"
    "     cheapest?\n"
    "     check: bin/work --target 1e-8\n"
    "  2. Read RK4's tableau: its weights 1/6 (1, 2, 2, 1) are Simpson's rule with the midpoint "
    "used\n"
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
    char cost_model[200];   /* the cost model in words, as the table and the figure state it */
    double tol_steps;       /* the tolerance, nearest the target, whose runs' steps are kept */
    method_set methods;     /* the built-in ones, Dormand-Prince, Radau IIA, each --add-method */
} work;

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

/* The lecture's two tableau files, Dormand-Prince 5(4) and Radau IIA, beside the built-in
 * methods. 0, or 1 with why not. */
static int load_lecture_methods(method_set *methods, failure *why)
{
    char err[400];
    const char *lecture_files[] = {"lessons/methods/dopri54.tab", "lessons/methods/radau-iia3.tab"};
    if (!method_set_load(methods, repo_file(lecture_files[0]), err, sizeof err) ||
        !method_set_load(methods, repo_file(lecture_files[1]), err, sizeof err))
        return failure_set(why, 1, "work: the lecture's tableau files: %s", err);
    return 0;
}

/* The flags that bound one another. */
static void check_flags(const work *w)
{
    if (w->nmax <= w->nmin)
        cli_fail("work", "--nmin %g --nmax %g; accepted: nmin < nmax", w->nmin, w->nmax);
    if (w->tol_tight > w->tol_loose)
        cli_fail("work", "--tol-tight %g is looser than --tol-loose %g; "
                 "accepted: tol-tight <= tol-loose", w->tol_tight, w->tol_loose);
}

/* The budget's estimate, checked: every method's fixed runs, and the adaptive ones (about
 * 0.25 T omega0 tol^(-1/p) steps; Heun-Euler p = 2, measured: 2.2e5 at the defaults; the 4th- and
 * 5th-order pairs p = 4). 0, or the refusal's status with why. */
static int check_budget(const work *w, budget *bg, failure *why)
{
    int nmeth = 0;
    while (w->methods.all[nmeth])
        nmeth++;
    for (long i = 0; i < w->nfixed; i++)
        bg->work += nmeth * w->nmin * pow(w->nmax / w->nmin, (double)i / (double)(w->nfixed - 1));
    bg->work += 0.25 * w->T * w->omega0
                * (pow(w->tol_tight_he, -0.5) + 3.0 * pow(w->tol_tight, -0.25));
    bg->bytes_out = (double)nmeth * w->nfixed * 200.0 + 20 * 200.0;
    return budget_check(bg, why);
}

/* The problem: the damped oscillator as y' = F(t, y), its exact state at T, and the cost model
 * for its dimension. */
static void make_problem(work *w)
{
    w->osc = (oscillator){w->omega0, w->sigma0};
    w->p = oscillator_ivp(&w->osc);
    w->dim = (double)w->p.dim;
    const double y0[2] = {w->u0, w->v0};
    oscillator_exact(&w->osc, y0, w->T, w->yT);
    snprintf(w->cost_model, sizeof w->cost_model, "F + %g J + %.3g LU + solves, in "
             "F-equivalents (dense linear F of dimension %g)", w->dim, w->dim / 3.0, w->dim);
}

/* One fixed-step run of n steps, repeated until MIN_TIMED_S of wall time has passed; its counts
 * and error into q, the fastest repeat into q->seconds. 0, or 1 with why after a failure. */
static int fixed_run(const work *w, const method *m, long n, work_run *q, failure *why)
{
    double y[2];
    solve_opts o = {.m = m, .t0 = 0.0, .h = w->T / (double)n, .n = n, .every = 1};
    solve_result r;
    double t_start = wall_seconds(), fastest = INFINITY;
    int reps = 0;
    do {        /* the same run, repeated until it can be timed */
        y[0] = w->u0, y[1] = w->v0;
        double t_rep = wall_seconds();
        if (solve_fixed(&w->p, y, &o, NULL, &r) == SOLVE_FAILED)
            return failure_set(why, 1, "work: %s", r.message);
        fastest = fmin(fastest, wall_seconds() - t_rep);
        reps++;
    } while (wall_seconds() - t_start < MIN_TIMED_S && reps < MAX_REPEATS);
    *q = (work_run){.adaptive = false, .param = (double)n, .steps = r.steps, .rejected = 0,
                    .nfev = r.counts.nfev, .njev = r.counts.njev, .nfactor = r.counts.nfactor,
                    .nsolve = r.counts.nnewton, .seconds = fastest,
                    .error = r.status == SOLVE_OK ? hypot(y[0] - w->yT[0], y[1] - w->yT[1])
                                                  : INFINITY};
    snprintf(q->method, sizeof q->method, "%s", m->name);
    snprintf(q->label, sizeof q->label, "%s (%s)", m->label, m->implicit ? "F + J" : "fixed h");
    return 0;
}

/* Every method at fixed steps, n geometric from nmin to nmax (the lecture's
 * geomspace(60, 40000, 12)), into rec from rec[nrec]. How many runs then, or -1 with why after
 * a failure. */
static int run_fixed_steps(const work *w, work_run *rec, int nrec, failure *why)
{
    for (int k = 0; w->methods.all[k]; k++) {
        long last = -1;
        for (long i = 0; i < w->nfixed && nrec < MAX_RUNS; i++) {
            long n = (long)(w->nmin * pow(w->nmax / w->nmin,
                                          (double)i / (double)(w->nfixed - 1)));
            if (n == last)
                continue;
            last = n;
            if (fixed_run(w, w->methods.all[k], n, &rec[nrec++], why) != 0)
                return -1;
        }
    }
    return nrec;
}

/* An adaptive driver: the project's controller on an embedded pair (its tableau), GSL's rkf45,
 * or CVODE Adams or BDF. */
typedef enum { DRIVER_PAIR, DRIVER_GSL_RKF45, DRIVER_CVODE_ADAMS, DRIVER_CVODE_BDF } driver_kind;

typedef struct {
    const char *name;       /* as the record and --tsv name it */
    const char *label;      /* legend */
    driver_kind kind;
    const rk_tableau *pair; /* DRIVER_PAIR: its tableau */
} driver;

/* The drivers, and the names and labels of those made from loaded methods. */
typedef struct {
    driver d[4 + METHOD_MAX];
    int n;
    char names[METHOD_MAX][64], labels[METHOD_MAX][80];
} driver_list;

static void add_driver(driver_list *dl, const char *name, const char *label, driver_kind kind,
                       const rk_tableau *pair)
{
    dl->d[dl->n++] = (driver){.name = name, .label = label, .kind = kind, .pair = pair};
}

/* The adaptive drivers: the Heun-Euler pair, GSL rkf45, CVODE Adams and BDF, then every loaded
 * method with embedded weights (b-hat) under its own controller. A tableau file named as one of
 * the first four is refused. */
static void list_drivers(const method_set *methods, driver_list *dl)
{
    dl->n = 0;
    add_driver(dl, "heun-euler", "Heun-Euler adaptive", DRIVER_PAIR, method_heun.tableau);
    add_driver(dl, "gsl-rkf45", "GSL rkf45 (Fehlberg 4(5))", DRIVER_GSL_RKF45, NULL);
    add_driver(dl, "cvode-adams", "CVODE Adams", DRIVER_CVODE_ADAMS, NULL);
    add_driver(dl, "cvode-bdf", "CVODE BDF", DRIVER_CVODE_BDF, NULL);
    for (int d = 0; d < 4; d++)
        if (method_set_find(methods, dl->d[d].name))
            cli_fail("work", "--add-method: a tableau file named %s.tab clashes with the driver "
                     "%s; accepted: another name", dl->d[d].name, dl->d[d].name);
    for (int k = 0; methods->all[k]; k++) {
        const method *m = methods->all[k];
        if (!m->file || !m->tableau->bhat)
            continue;
        char *name = dl->names[dl->n - 4], *label = dl->labels[dl->n - 4];
        snprintf(name, sizeof dl->names[0], "%s-adaptive", m->name);
        snprintf(label, sizeof dl->labels[0], "%s adaptive (own controller)", m->name);
        add_driver(dl, name, label, DRIVER_PAIR, m->tableau);
    }
}

/* One adaptive run's request: the driver, its tolerance, where its steps go. */
typedef struct {
    const work *w;
    const driver *dr;
    double tol;             /* rtol = atol */
    bool keep;              /* hand every accepted step to step_sink */
    step_ctx sc;
    char err[400];          /* why the run failed */
} adaptive_call;

/* One run from y (in place to T) by the project's controller on an embedded pair. */
static int run_pair(adaptive_call *c, double *y, work_run *q)
{
    adaptive_opts o = {.rtol = c->tol, .atol = c->tol, .on_step = c->keep ? step_sink : NULL,
                       .ctx = &c->sc};
    adaptive_stats st;
    int rc = adaptive_pair(c->dr->pair, c->dr->name, &c->w->p, 0.0, y, c->w->T, &o, &st,
                           c->err, sizeof c->err);
    q->steps = st.accepted;
    q->rejected = st.rejected;
    q->nfev = st.nfev;
    return rc;
}

/* One run by GSL's rkf45 through the project's driver of GSL's pairs, first step T/1000. */
static int run_gsl_rkf45(adaptive_call *c, double *y, work_run *q)
{
    cvode_opts o = cvode_defaults();
    o.rtol = c->tol, o.atol = c->tol, o.init_step = 1e-3 * c->w->T;
    o.on_step = c->keep ? step_sink : NULL, o.ctx = &c->sc;
    cvode_stats st;
    int rc = gsl_pair_solve("rkf45", &c->w->p, 0.0, y, c->w->T, &o, &st, c->err, sizeof c->err);
    q->steps = st.steps;
    q->rejected = st.netf;
    q->nfev = st.nfev;
    return rc;
}

/* One run by CVODE: Adams with fixed-point iteration, or BDF with Newton and a dense solver. */
static int run_cvode(adaptive_call *c, double *y, work_run *q)
{
    bool bdf = c->dr->kind == DRIVER_CVODE_BDF;
    cvode_opts o = cvode_defaults();
    o.lmm = bdf ? CVODE_BDF : CVODE_ADAMS;
    o.solver = bdf ? CVODE_DENSE : CVODE_FIXEDPOINT;
    o.rtol = c->tol;
    o.atol = c->tol;
    o.on_step = c->keep ? step_sink : NULL;
    o.ctx = &c->sc;
    cvode_stats st;
    int rc = cvode_solve(&c->w->p, 0.0, y, c->w->T, &o, &st, c->err, sizeof c->err);
    q->steps = st.steps;
    q->rejected = st.netf;
    q->nfev = st.nfev + st.nfev_jac;
    q->njev = st.njev;
    q->nfactor = bdf ? st.nsetups : 0;     /* dense BDF: a setup forms J and factors */
    q->nsolve = bdf ? st.nniters : 0;      /* Adams here iterates without a linear solver */
    return rc;
}

/* Driver d of dl at tolerance tol, timed as fixed_run; keep: its steps into fs (steps.tsv), one
 * gnuplot block a driver. 0, or 1 with why after a failure. */
static int adaptive_run(const work *w, const driver_list *dl, int d, double tol, bool keep,
                        FILE *fs, work_run *q, failure *why)
{
    adaptive_call c = {.w = w, .dr = &dl->d[d], .tol = tol, .sc = {fs, dl->d[d].name}};
    memset(q, 0, sizeof *q);
    int rc;
    if (keep && d > 0)
        fprintf(fs, "\n\n");
    double t_start = wall_seconds(), fastest = INFINITY;
    int reps = 0;
    do {        /* the same run, repeated until it can be timed; its steps kept once */
        double y[2] = {w->u0, w->v0};
        c.keep = keep && reps == 0;
        double t_rep = wall_seconds();
        if (c.dr->kind == DRIVER_PAIR)
            rc = run_pair(&c, y, q);
        else if (c.dr->kind == DRIVER_GSL_RKF45)
            rc = run_gsl_rkf45(&c, y, q);
        else
            rc = run_cvode(&c, y, q);
        fastest = fmin(fastest, wall_seconds() - t_rep);
        reps++;
        q->error = hypot(y[0] - w->yT[0], y[1] - w->yT[1]);
    } while (rc == 0 && wall_seconds() - t_start < MIN_TIMED_S && reps < MAX_REPEATS);
    q->seconds = fastest;
    if (rc != 0)
        return failure_set(why, 1, "work: %s at tolerance %g: %s", c.dr->name, tol, c.err);
    snprintf(q->method, sizeof q->method, "%s", c.dr->name);
    snprintf(q->label, sizeof q->label, "%s", c.dr->label);
    q->adaptive = true;
    q->param = tol;
    return 0;
}

/* Every driver of dl a decade of tolerance from tol_loose to tol_tight, into rec from rec[nrec];
 * the steps of the runs at w->tol_steps into fs. How many runs then, or -1 with why after a
 * failure. */
static int run_adaptive_drivers(const work *w, const driver_list *dl, FILE *fs, work_run *rec,
                                int nrec, failure *why)
{
    for (int d = 0; d < dl->n; d++) {
        /* a pair of order 2 or less takes over 1e7 steps at 1e-12: it stops at --tol-tight-heun */
        const rk_tableau *pr = dl->d[d].pair;
        bool low = pr && fmin(tableau_order(pr, pr->b), tableau_order(pr, pr->bhat)) < 3;
        double tightest = low ? fmax(w->tol_tight, w->tol_tight_he) : w->tol_tight;
        for (double tol = w->tol_loose; tol >= tightest * 0.999 && nrec < MAX_RUNS; tol /= 10.0) {
            bool keep = fabs(log10(tol / w->tol_steps)) < 0.01;
            if (adaptive_run(w, dl, d, tol, keep, fs, &rec[nrec++], why) != 0)
                return -1;
        }
    }
    return nrec;
}

/* The record as files: work.tsv (every run, every count), then steps.tsv committed beside it,
 * then target.tsv (the target, the tolerance of the kept steps, the cost model in words).
 * 0, or the failure's status with why. */
static int write_record(const work *w, const work_run *rec, int nrec, atomic_file *steps,
                        failure *why)
{
    atomic_file a, at;
    FILE *f = atomic_open_file(&a, "work", w->common.out, "work.tsv", why);
    if (!f)
        return why->status;
    work_runs_write(f, rec, nrec, w->dim);
    if (atomic_commit_file(&a, "work", why) != 0 || atomic_commit_file(steps, "work", why) != 0)
        return why->status;
    FILE *ft = atomic_open_file(&at, "work", w->common.out, "target.tsv", why);
    if (!ft)
        return why->status;
    fprintf(ft, "target\ttol_steps\tdim\tcost_model\n%g\t%g\t%g\t%s\n", w->target, w->tol_steps,
            w->dim, w->cost_model);
    return atomic_commit_file(&at, "work", why);
}

/* What the table measures, and how (the human table only). */
static void show_what_is_measured(const work *w, int nrec)
{
    printf("damped oscillator (omega0 = %g rad/s, sigma0 = %g 1/s),\n", w->omega0, w->sigma0);
    printf("error ||y - y(%g)|| against work (%d runs recorded in %s/work.tsv,\n",
           w->T, nrec, w->common.out);
    printf("every F, Jacobian, LU factorization and solve counted, each run timed).\n"
           "evals: F + Jacobian evaluations;\ncost: %s;\n", w->cost_model);
    printf("seconds: wall time of one run (the fastest of repeats filling %g ms). To reach %g:\n\n",
           1e3 * MIN_TIMED_S, w->target);
    printf("dopri54-adaptive is Dormand-Prince 5(4), the pair behind the lecture's solve_ivp "
           "default (RK45),\nread from lessons/methods/dopri54.tab and driven by the project's "
           "controller (src/drive/adaptive.c);\ngsl-rkf45 is Fehlberg's 4(5) pair, GSL's nearest "
           "to it, which stood in for it before.\nkind, runs and seconds_to_target: --wide or "
           "--tsv.\n\n");
}

/* The lecture's "stiff problems: Radau or BDF": Radau IIA at fixed steps beside CVODE BDF, their
 * slope, evaluations and cost to reach the target (vs, from the table). */
static void show_radau_beside_bdf(const work *w, const double vs[2][3])
{
    printf("\nslope: -d log error / d log evals over the runs with error in (1e-11, 0.1),\n"
           "a fixed-step method's order.\n"
           "The lecture's \"stiff problems: Radau or BDF\": Radau IIA (radau-iia3.tab, 3 coupled "
           "stages solved\nas one system) at fixed steps: ");
    printf("slope %.2f, to reach %g %.4g evals, cost %.4g;\n", vs[0][2], w->target, vs[0][0],
           vs[0][1]);
    printf("CVODE BDF: slope %.2f, %.4g, %.4g.\n", vs[1][2], vs[1][0], vs[1][1]);
}

/* The claims, read from the record: per method, the evaluations, cost and time to reach the
 * target and the slope; then Radau IIA beside CVODE BDF. */
static void show_work_to_target(const work *w, const work_run *rec, int nrec)
{
    if (!w->common.tsv)
        show_what_is_measured(w, nrec);
    static const char *const pick[2] = {"radau-iia3", "cvode-bdf"};
    double vs[2][3];        /* Radau IIA, CVODE BDF: evals, cost, slope */
    work_runs_table(rec, nrec, w->target, w->dim, table_mode(w->common.tsv, w->wide), pick, vs);
    if (!w->common.tsv)
        show_radau_beside_bdf(w, vs);
}

int main(int argc, char **argv)
{
    static work w = {.T = 5.0, .omega0 = 2.0 * M_PI, .sigma0 = 0.2, .u0 = 1.0, .v0 = 0.0,
                     .target = 1e-6, .nmin = 60, .nmax = 40000, .tol_loose = 1e-3,
                     .tol_tight = 1e-12, .tol_tight_he = 1e-9, .nfixed = 12, .tableau = false,
                     .common = {false, "build/data/work"}};
    budget bg;
    budget_init(&bg, "work", "steps", 5e8, "--nmin ... --nmax (--nfixed runs a method), and "
                "--T * --omega0 with the tightest tolerances (Heun-Euler's steps grow as "
                "tol^-1/2)");
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
    /* 1. The methods: the built-in ones, the lecture's Dormand-Prince 5(4) and Radau IIA, and
     *    each --add-method; --tableau shows each one's Butcher tableau, checked, and stops. */
    failure why;    /* what ends the program early: its line and status */
    if (load_lecture_methods(&w.methods, &why) != 0)
        return failure_print(&why);
    cli_parse(&spec, argc, argv);
    if (w.tableau)
        return tableau_print_all(w.methods.all);
    check_flags(&w);
    /* 2. The adaptive drivers beside them: Heun-Euler, GSL rkf45, CVODE Adams and BDF, and each
     *    loaded pair under the project's controller. */
    static driver_list dl;
    list_drivers(&w.methods, &dl);
    /* 3. The problem: the damped oscillator, its exact state at T, the cost model; the work. */
    if (check_budget(&w, &bg, &why) != 0)
        return failure_print(&why);
    make_problem(&w);

    /* 4. Run them: every method at fixed steps n = nmin ... nmax, every driver a decade of
     *    tolerance, each run timed; every count into the record, and the steps of the adaptive
     *    runs at the tolerance nearest the target into steps.tsv. */
    static work_run rec[MAX_RUNS];
    atomic_file as;
    FILE *fs = atomic_open_file(&as, "work", w.common.out, "steps.tsv", &why);
    if (!fs)
        return failure_print(&why);
    fprintf(fs, "driver\tt_s\th_s\n");
    w.tol_steps = w.tol_loose * pow(10.0, -round(log10(w.tol_loose / w.target)));
    int nrec = run_fixed_steps(&w, rec, 0, &why);
    if (nrec >= 0)
        nrec = run_adaptive_drivers(&w, &dl, fs, rec, nrec, &why);
    /* 5. The record, which the table, the figure and the tests all read. */
    if (nrec < 0 || write_record(&w, rec, nrec, &as, &why) != 0)
        return failure_print(&why);

    /* 6. The claims: the work each method takes to reach the target, Radau IIA beside BDF. */
    show_work_to_target(&w, rec, nrec);
    budget_finish(&bg.meter);
    return plot_render(&plot, "work", w.common.out, w.common.tsv);
}
