/* Lesson 1, "Initial Value Problems": the damped oscillator u'' = -omega0^2 u - 2 sigma0 u'
 * as the first-order system y' = A y, solved by one method against the exact solution.
 * Try it: at the default h = 2 ms forward Euler stays near the exact (gray) curve (max error
 * 0.08 m); raise --h and it leaves it (0.68 m at 10 ms, 8344 m at 0.1 s). --A solves the
 * student's own y' = A y against the same exact curve. */
#include "base/failure.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "io/atomic.h"
#include "io/table.h"
#include "io/plot.h"
#include "method/method.h"
#include "method/set.h"
#include "oscillator/oscillator.h"
#include "drive/solve.h"
#include "method/stages.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const oscillator *osc;
    const double *y0;
    FILE *traj;             /* every sample: t, u, u', exact u */
    table *tab;             /* the few rows shown */
    long rows;              /* show every rows-th sample */
    long last;              /* index of the final sample, always shown */
    long stride;            /* trajectory.tsv keeps every stride-th sample (and the last) */
    const workspace *w;     /* counts so far (fixed steps) */
    const cvode_stats *st;  /* counts so far (CVODE) */
    double max_err;         /* largest |u - u_exact| seen, m */
    progress *meter;        /* ticked a sample */
} run_ctx;

static int sample(long k, double t, const double *y, void *c)
{
    run_ctx *r = c;
    double ex[2];
    oscillator_exact(r->osc, r->y0, t, ex);
    double err = fabs(y[0] - ex[0]);
    if (err > r->max_err)
        r->max_err = err;
    if (k % r->stride == 0 || k == r->last)
        fprintf(r->traj, "%.10g\t%.12g\t%.12g\t%.12g\n", t, y[0], y[1], ex[0]);
    budget_tick(r->meter, 1.0);
    if (k % r->rows == 0 || k == r->last) {
        long nfev = r->w ? r->w->counts.nfev : r->st->nfev;
        table_cell(r->tab, "%.4f", t);
        table_cell(r->tab, "%.9f", y[0]);
        table_cell(r->tab, "%.9f", ex[0]);
        table_cell(r->tab, "%.3e", err);
        table_cell(r->tab, "%ld", nfev);
    }
    return 0;
}

/* y' = A y with the student's A (--A): F = A y, the Jacobian A. */
static int rhs_A(double t, const double *y, double *f, void *params)
{
    (void)t;
    const double *A = params;
    f[0] = A[0] * y[0] + A[1] * y[1];
    f[1] = A[2] * y[0] + A[3] * y[1];
    return 0;
}

static int jac_A(double t, const double *y, double *J, void *params)
{
    (void)t, (void)y;
    memcpy(J, params, 4 * sizeof(double));
    return 0;
}

/* --A "a11 a12 a21 a22": four finite numbers, row by row. */
static int parse_A(const char *text, void *dest, char *why, size_t whylen)
{
    double *A = dest;
    char *end = (char *)text;
    for (int i = 0; i < 4; i++) {
        const char *at = end;
        errno = 0;
        A[i] = strtod(at, &end);
        if (end == at || errno || !isfinite(A[i]) || (i < 3 && *end != ' ' && *end != ','))
            return snprintf(why, whylen, "entry %d is not a finite number", i + 1), -1;
        while (*end == ' ' || *end == ',')
            end++;
    }
    if (*end)
        return snprintf(why, whylen, "more than four entries"), -1;
    return 0;
}

/* The lesson's exercises: the end of --help (the README and the notebook show them from here). */
static const char exercises[] =
    "exercises (each with the command that checks it):\n"
    "  1. At the default h = 2 ms forward Euler stays near the exact curve; raise --h and watch"
    " it\n"
    "     leave. Order 1: does halving h halve its error at T = 6 s?\n"
    "     check: bin/ivp --method euler --h 0.002 --tsv | tail -1 | cut -f4"
    "   (then 0.001, 0.0005)\n"
    "  2. Switch methods at h = 0.2 s and watch the black ticks (the slope u' = v at each"
    " sample):\n"
    "     forward Euler's step follows the tick at its start, backward Euler's the one at its"
    " end.\n"
    "     Which method keeps the amplitude (its 'amplitude' line: the ratio to the exact"
    " one)?\n"
    "     check: bin/ivp --method trapezoid --h 0.2 --plot   (plots/out/ivp.png)\n"
    "  3. Write u'' = -omega0^2 u - 2 sigma0 u' as y' = A y (y = (u, u')) and check your A"
    " (omega0 =\n"
    "     2 pi, sigma0 = 0.2): RK4 at h = 1 ms on your A agrees with the exact solution to"
    " about 1e-11 m\n"
    "     at T = 2 s; a wrong A misses it by far more.\n"
    "     check: bin/ivp --method rk4 --h 0.001 --T 2 --A \"a11 a12 a21 a22\" --tsv"
    " | tail -1 | cut -f4\n";

typedef struct {
    oscillator osc;         /* the model: its exact curve is the reference */
    ivp p;                  /* y' = F(t, y): the oscillator's, or y' = A y with the student's A */
    double y0[2];           /* u(0), m, and u'(0), m/s */
    double h, T;            /* step and final time, s */
    double h_last;          /* the last step, s, when T is not a multiple of h (else 0) */
    long n;                 /* steps to T */
    double bound;           /* declare a blow-up when |y| exceeds this */
    const method *m;        /* the method; NULL: CVODE */
    cvode_opts cv;          /* CVODE's settings (when m is NULL) */
    const char *label;      /* the method's name in the table and the figure */
    bool tsv;               /* --tsv: the table alone */
} ivp_run;

/* The problem y' = F(t, y): the oscillator's y' = A y, or (--A) the student's own A. */
static ivp make_problem(oscillator *osc, double *A)
{
    if (isnan(A[0]))
        return oscillator_ivp(osc);
    return (ivp){.dim = 2, .rhs = rhs_A, .jac = jac_A, .params = A, .linear = true};
}

/* The method that steps it: one of the table (or a tableau file), or CVODE with its family. */
static void choose_method(ivp_run *r, const method_set *methods, const char *name, const char *lmm,
                          double rtol, double atol)
{
    bool adams = strcmp(lmm, "adams") == 0;
    r->m = strcmp(name, "cvode") == 0 ? NULL : method_set_find(methods, name);
    r->label = r->m ? r->m->label : adams ? "CVODE Adams" : "CVODE BDF";
    r->cv = cvode_defaults();
    r->cv.lmm = adams ? CVODE_ADAMS : CVODE_BDF;
    r->cv.rtol = rtol;
    r->cv.atol = atol;
}

/* The work before it starts: n steps, the trajectory file, CVODE's output times. 0, or the
 * refusal's status with why. */
static int check_budget(budget *bg, const ivp_run *r, long stride, failure *why)
{
    bg->work = (double)r->n;
    bg->bytes_out = (double)(r->n / stride + 2) * 60.0 + 2001 * 40.0;
    bg->bytes_mem = r->m ? 0.0 : (double)(r->n + 1) * 8.0;
    return budget_check(bg, why);
}

/* What is solved: the oscillator, the method and the step (and the student's A, if given). */
static void print_problem(const ivp_run *r, const double *A)
{
    double omega0 = r->osc.omega0, sigma0 = r->osc.sigma0;
    if (r->tsv)
        return;
    printf("damped oscillator: omega0 = %g rad/s, sigma0 = %g 1/s, u(0) = %g m, u'(0) = %g m/s\n",
           omega0, sigma0, r->y0[0], r->y0[1]);
    printf("method %s, h = %g s, T = %g s\n", r->label, r->h, r->T);
    if (!isnan(A[0]))
        printf("y' = A y with your A = [%g %g; %g %g] (the oscillator's: [0 1; %g %g]), "
               "against the oscillator's exact curve\n",
               A[0], A[1], A[2], A[3], -omega0 * omega0, -2.0 * sigma0);
    if (r->h_last > 0.0)
        printf("T is not a multiple of h: %ld steps of h, the last one short, %.6g s, "
               "to end at T\n", r->n - 1, r->h_last);
    printf("\n");
}

/* Solve by CVODE, its output times every h (and T): the table's rows, then its counts.
 * 0, or 1 with the reason in msg. */
static int solve_by_cvode(ivp_run *r, run_ctx *rc, char *msg, size_t msglen)
{
    double y[2] = {r->y0[0], r->y0[1]};
    double *tout = calloc((size_t)r->n + 1, sizeof(double));
    for (long k = 0; k <= r->n; k++)
        tout[k] = k < r->n ? k * r->h : r->T;
    cvode_stats st;
    rc->st = &st;
    memset(&st, 0, sizeof st);
    r->cv.tout = tout;
    r->cv.nout = (size_t)r->n + 1;
    r->cv.sink = sample;
    r->cv.ctx = rc;
    int status = cvode_solve(&r->p, 0.0, y, r->T, &r->cv, &st, msg, msglen) != 0;
    free(tout);
    if (!r->tsv) {
        printf("\nCVODE (%s): %ld steps, %ld F evaluations (+%ld for Jacobians), %ld Jacobians,\n",
               cvode_name(&r->cv), st.steps, st.nfev, st.nfev_jac, st.njev);
        printf("%ld error-test failures, %ld convergence failures; max |u - exact| = %.3e m\n",
               st.netf, st.nncf, rc->max_err);
    }
    return status;
}

/* Does the method keep the amplitude? sqrt(u^2 + (u'/omega0)^2) at the end against the exact
 * one (exercise 2). */
static void print_amplitude(const ivp_run *r, double t, const double *y)
{
    double ex[2], w = r->osc.omega0;
    oscillator_exact(&r->osc, r->y0, t, ex);
    double a = hypot(y[0], y[1] / w), a_exact = hypot(ex[0], ex[1] / w);
    printf("amplitude sqrt(u^2 + (u'/omega0)^2) at t = %g s: %.4g m, exact %.4g m (ratio %.4g)\n",
           t, a, a_exact, a / a_exact);
}

/* Solve by the method, n fixed steps of h (the last one short to end at T): the table's rows,
 * then its counts and its amplitude. 0, or 1 with the reason in msg. */
static int solve_by_method(const ivp_run *r, run_ctx *rc, char *msg, size_t msglen)
{
    double y[2] = {r->y0[0], r->y0[1]};
    workspace *w = workspace_alloc(r->p.dim);
    rc->w = w;
    solve_opts so = {.m = r->m, .h = r->h, .n = r->n, .bound = r->bound, .every = 1,
                     .sink = sample, .ctx = rc};
    solve_result res;
    int status = 0;
    if (solve_fixed_to(&r->p, y, &so, r->T, w, &res) != SOLVE_OK) {
        status = 1;
        snprintf(msg, msglen, "%s", res.message);
    }
    if (!r->tsv) {
        const ivp_counts *c = &res.counts;
        printf("\n%s: %ld steps, %ld F evaluations, %ld Jacobians,\n", r->m->label, res.steps,
               c->nfev, c->njev);
        printf("%ld Newton iterations, %ld LU factorizations; max |u - exact| = %.3e m\n",
               c->nnewton, c->nfactor, rc->max_err);
        print_amplitude(r, res.t, y);
    }
    workspace_free(w);
    return status;
}

/* The exact curve, finely sampled for the figure (exact.tsv, committed by the caller). 0, or the
 * failure's status with why. */
static int write_exact_curve(atomic_file *a, const ivp_run *r, const char *out, failure *why)
{
    FILE *f = atomic_open_file(a, "ivp", out, "exact.tsv", why);
    if (!f)
        return why->status;
    fprintf(f, "t_s\tu_m\n");
    for (int k = 0; k <= 2000; k++) {
        double ex[2], t = r->T * k / 2000.0;
        oscillator_exact(&r->osc, r->y0, t, ex);
        fprintf(f, "%.10g\t%.12g\n", t, ex[0]);
    }
    return 0;
}

/* Inside one step: where step K+1's stages sample F (stages.tsv; a header only for CVODE, which
 * has no such step). 0, or the failure's status with why. */
static int write_inside_one_step(atomic_file *a, const ivp_run *r, long inside, const char *out,
                                 failure *why)
{
    FILE *f = atomic_open_file(a, "ivp", out, "stages.tsv", why);
    if (!f)
        return why->status;
    char err[300] = "";
    long k = inside < r->n ? inside : r->n - 1;
    if (r->m && step_stages_write(r->m, &r->p, 0.0, r->y0, r->h, k, f, err, sizeof err) != 0)
        fprintf(stderr, "ivp: inside one step: %s\n", err);
    else if (!r->m)
        fprintf(f, "stage\tt_s\tc\tb\ty1\ty2\tF1\tF2\tmethod\n");
    return 0;
}

/* What the figure needs to know of the run: the method (its colour), the step, the short last
 * step (run.tsv). 0, or the failure's status with why. */
static int write_run_record(atomic_file *a, const ivp_run *r, const char *out, failure *why)
{
    FILE *f = atomic_open_file(a, "ivp", out, "run.tsv", why);
    if (!f)
        return why->status;
    fprintf(f, "method\tlabel\th_s\tT_s\tsteps\th_last_s\n");
    fprintf(f, "%s\t%s\t%.10g\t%.10g\t%ld\t%.10g\n", r->m ? r->m->name : cvode_name(&r->cv),
            r->label, r->h, r->T, r->n, r->h_last > 0.0 ? r->h_last : r->h);
    return 0;
}

int main(int argc, char **argv)
{
    const char *method_name = "euler", *lmm = "bdf";
    double h = 0.002, T = 6.0, omega0 = 2.0 * M_PI, sigma0 = 0.2, u0 = 1.0, v0 = 0.0;
    double rtol = 1e-10, atol = 1e-12, blowup = 1e6, A[4] = {NAN, NAN, NAN, NAN};
    long inside = 1;
    cli_common common = {false, "build/data/ivp"};
    budget bg;
    budget_init(&bg, "ivp", "steps", 1e8, "--T / --h");
    plot_opts plot = {false, false, NULL};
    method_set methods;
    method_set_init(&methods);
    method_arg marg = {.set = &methods, .name = &method_name, .also = "cvode"};
    const cli_opt opts[] = {
        METHOD_ARG_OPT(marg, "time-stepping method (or a Butcher tableau file)"),
        FLAG_REAL("h", h, "s", 0, 10, CLI_OPEN_MIN,
            "time step (fixed-step methods; CVODE output spacing)"),
        FLAG_REAL("T", T, "s", 0, 1e4, CLI_OPEN_MIN, "final time"),
        FLAG_REAL("omega0", omega0, "rad/s", 0, 1e6, CLI_OPEN_MIN, "lossless angular frequency"),
        FLAG_REAL("sigma0", sigma0, "1/s", 0, 1e6, CLI_CLOSED, "decay rate of the envelope"),
        FLAG_REAL("u0", u0, "m", -1e6, 1e6, CLI_CLOSED, "initial displacement"),
        FLAG_REAL("v0", v0, "m/s", -1e6, 1e6, CLI_CLOSED, "initial velocity"),
        FLAG_CHOICE("lmm", lmm, "bdf|adams", "CVODE's multistep family"),
        FLAG_REAL("rtol", rtol, "", 1e-15, 1, CLI_CLOSED, "CVODE relative tolerance"),
        FLAG_REAL("atol", atol, "m", 1e-20, 1, CLI_CLOSED, "CVODE absolute tolerance"),
        FLAG_REAL("blowup", blowup, "", 1, 1e300, CLI_OPEN_MIN,
            "declare a blow-up when |y| exceeds this many times its initial size"),
        BUDGET_OPT(bg),
        FLAG_CUSTOM("A", A, "", parse_A,
            "four numbers a11 a12 a21 a22",
            "solve y' = A y with this A instead of the program's (exercise 3); the exact curve "
            "stays the oscillator's"),
        FLAG_WHOLE("inside", inside, 0, 1e8,
            "the step opened for the 'inside one step' figure (stages.tsv): step K+1 "
            "(fixed-step methods)"),
        CLI_COMMON_OPTS(common),
        PLOT_OPTS(plot),
        FLAG_END,
    };
    const cli_spec spec = {
        .program = "ivp",
        .summary = "Solve the damped oscillator y' = A y by one method and compare with the "
            "exact solution.",
        .opts = opts,
        .epilogue = exercises,
    };
    cli_parse(&spec, argc, argv);
    if (u0 == 0.0 && v0 == 0.0)
        cli_fail("ivp", "--u0 0 with --v0 0 is the rest state; accepted: a nonzero initial state");
    ivp_run r = {.osc = {omega0, sigma0}, .y0 = {u0, v0}, .h = h, .T = T, .tsv = common.tsv};
    /* T not a multiple of h: the last step is taken short, and the run says so */
    r.n = solve_steps_to(T, h, &r.h_last);
    r.bound = blowup * sqrt(u0 * u0 + (v0 / omega0) * (v0 / omega0)) * fmax(1.0, omega0);

    /* 1. The model as a problem y' = F(t, y): the damped oscillator (or the student's A). */
    r.p = make_problem(&r.osc, A);
    /* 2. The method that steps it (or CVODE), and the work it will take. */
    choose_method(&r, &methods, method_name, lmm, rtol, atol);
    /* trajectory.tsv keeps every stride-th step (about BUDGET_ROWS rows) */
    long stride = budget_stride(r.n);
    failure why;    /* what ends the program early: its line and status */
    if (check_budget(&bg, &r, stride, &why) != 0)
        return failure_print(&why);

    /* 3. Run it, every sample against the exact curve: the table, the counts, the error. */
    atomic_file af, ae, as, ar;
    FILE *traj = atomic_open_file(&af, "ivp", common.out, "trajectory.tsv", &why);
    if (!traj)
        return failure_print(&why);
    fprintf(traj, "t_s\t%s, h = %g s\tv_m_per_s\texact\n", r.label, h);
    print_problem(&r, A);
    table tab;
    table_begin(&tab, stdout, common.tsv, "t_s", "u_m", "exact_m", "error_m", "nfev", NULL);
    run_ctx rc = {.osc = &r.osc, .y0 = r.y0, .traj = traj, .tab = &tab,
                  .rows = r.n >= 6 ? r.n / 6 : 1, .last = r.n, .stride = stride,
                  .meter = &bg.meter};
    char msg[400] = "";
    int status = r.m ? solve_by_method(&r, &rc, msg, sizeof msg)
                     : solve_by_cvode(&r, &rc, msg, sizeof msg);

    /* 4. What the figure draws: the exact curve, inside one step, the run itself. */
    if (write_exact_curve(&ae, &r, common.out, &why) != 0 ||
        write_inside_one_step(&as, &r, inside, common.out, &why) != 0 ||
        write_run_record(&ar, &r, common.out, &why) != 0 ||
        atomic_commit_file(&ar, "ivp", &why) != 0 || atomic_commit_file(&af, "ivp", &why) != 0 ||
        atomic_commit_file(&ae, "ivp", &why) != 0)
        return failure_print(&why);
    budget_finish(&bg.meter);
    if (atomic_commit_file(&as, "ivp", &why) != 0)
        return failure_print(&why);
    if (plot_render(&plot, "ivp", common.out, common.tsv) != 0)
        status = 1;
    if (status && msg[0])
        fprintf(stderr, "ivp: %s\n", msg);
    return status;
}
