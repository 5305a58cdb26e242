#include "string/string_run.h"
#include "base/budget.h"
#include "base/cli.h"
#include "drive/cvode.h"
#include "drive/solve.h"
#include "io/params.h"
#include "base/util.h"
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void string_run_start(string_run *r, const char *space, long size, const char *method,
                      long substeps)
{
    memset(r, 0, sizeof *r);
    r->space = space;
    r->size = size;
    r->substeps = substeps;
    r->status = "ok";
    snprintf(r->method, sizeof r->method, "%s", method);
}

bool string_run_ok(const string_run *r) { return strcmp(r->status, "ok") == 0; }

double string_mode_growth(const method *m, const string_mode *md, double h)
{
    double d = md->omega0sq - md->alpha * md->alpha;
    if (m->needs_uv) /* R is its amplification on the undamped oscillator (method/leapfrog.c) */
        return cabs(method_R(m, I * h * sqrt(md->omega0sq)));
    double complex l1, l2;
    if (d >= 0)
        l1 = -md->alpha + I * sqrt(d), l2 = conj(l1);
    else
        l1 = -md->alpha + sqrt(-d), l2 = -md->alpha - sqrt(-d);
    return fmax(cabs(method_R(m, h * l1)), cabs(method_R(m, h * l2)));
}

/* mode j's share of the tolerance (0-based j): the remainders of all modes sum below tol/2 */
static double mode_share(double tol, int j)
{
    return tol * 3.0 / (M_PI * M_PI * (j + 1.0) * (j + 1.0));
}

double string_stable_h(const method *m, const string_mode *modes, int nm, double skip_below,
                       int *limiting)
{
    double best = 1.0;
    *limiting = 0;
    for (int j = 0; j < nm; j++) {
        /* a mode the run does not step (it contributes nothing) cannot blow up */
        if (string_mode_velocity_bound(&modes[j], 0.0) < mode_share(skip_below, j))
            continue;
        if (string_mode_growth(m, &modes[j], best) <= 1.0 + 1e-12)
            continue;
        double lo = 0.0, hi = best;     /* stable at lo, unstable at hi */
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            if (string_mode_growth(m, &modes[j], mid) <= 1.0 + 1e-12)
                lo = mid;
            else
                hi = mid;
        }
        best = lo;
        *limiting = j + 1;
    }
    return best;
}

double string_substeps_for(double fs, double hmax) { return ceil(1.0 / (fs * hmax) - 1e-9); }

int string_modes_fastest(const string_mode *modes, int nm)
{
    int k = -1;
    for (int j = 0; j < nm; j++)
        if (k < 0 || modes[j].omega0sq > modes[k].omega0sq)
            k = j;
    return k;
}

typedef struct mode_ctx {
    double *out;                /* the pickup signal being summed, m/s */
    double pickup;              /* this mode's pickup weight, 1 */
    double omega0;              /* rad/s, for the state's size */
    double eps;                 /* below this (m/s) a stable mode has stopped contributing */
    bool may_stop;              /* the method is stable for this mode */
    long every;                 /* substeps per sample */
} mode_ctx;

static int mode_sink(long k, double t, const double *y, void *c)
{
    (void)t;
    mode_ctx *mc = c;
    mc->out[k / mc->every] += mc->pickup * y[1];
    /* the state's size bounds its future contribution when the method does not amplify it */
    return mc->may_stop && k > 0 && fabs(mc->pickup) * hypot(mc->omega0 * y[0], y[1]) < mc->eps;
}

void string_run_modal(const string_run_cfg *c, const string_mode *modes, int M, const method *m,
                      long sub, double *out, string_run *r)
{
    double h = 1.0 / (c->fs * (double)sub);
    memset(out, 0, (size_t)c->n * sizeof(double));
    double t0 = wall_seconds();
    r->nfev = 0;
    /* fastest modes first: a blow-up shows at once */
    for (int j = M - 1; j >= 0; j--) {
        const string_mode *md = &modes[j];
        double eps = mode_share(c->tol_abs, j);
        if (string_mode_velocity_bound(md, 0.0) < eps)
            continue;   /* e.g. every 4th mode: sin(k_n xp) = 0 for xp = L/4 */
        string_mode_problem mp = {*md};
        ivp p = string_mode_ivp(&mp);
        double y[2] = {md->amplitude, 0.0}, om = sqrt(md->omega0sq);
        mode_ctx mc = {.out = out, .pickup = md->pickup, .omega0 = om, .eps = eps,
                       .may_stop = string_mode_growth(m, md, h) <= 1.0, .every = sub};
        solve_opts so = {.m = m, .t0 = 0.0, .h = h, .n = (c->n - 1) * sub,
                         .bound = c->blowup * fabs(md->amplitude) * fmax(1.0, om), .every = sub,
                         .sink = mode_sink, .ctx = &mc};
        solve_result res;
        /* a workspace per mode: an implicit method keeps the LU factors of its mode's matrix */
        solve_status s = solve_fixed(&p, y, &so, NULL, &res);
        budget_tick(c->meter, 2.0 * (double)so.n);
        r->nfev += res.counts.nfev;
        if (s == SOLVE_BLOWUP || s == SOLVE_FAILED) {
            r->status = s == SOLVE_BLOWUP ? "blowup" : "refused";
            snprintf(r->message, sizeof r->message, "mode %d (omega = %.4g rad/s): %s", j + 1, om,
                     res.message);
            break;
        }
    }
    r->seconds = wall_seconds() - t0;
}

typedef struct fd_ctx {
    const string_fd *fd;        /* the grid */
    double *out;                /* the pickup signal, m/s */
    long every;                 /* substeps per sample */
} fd_ctx;

static int fd_sink(long k, double t, const double *y, void *c)
{
    (void)t;
    fd_ctx *fc = c;
    fc->out[k / fc->every] = string_fd_pickup(fc->fd, y);
    return 0;
}

void string_run_fd(const string_run_cfg *c, string_fd *fd, double omega_max, const method *m,
                   long sub, double *out, string_run *r)
{
    memset(out, 0, (size_t)c->n * sizeof(double));
    ivp p = string_fd_ivp(fd);
    double *y = xcalloc(p.dim, sizeof(double));
    string_fd_initial(fd, y);
    fd_ctx fc = {fd, out, sub};
    double size = max_abs(y, p.dim) * fmax(1.0, omega_max);
    solve_opts so = {.m = m, .t0 = 0.0, .h = 1.0 / (c->fs * (double)sub), .n = (c->n - 1) * sub,
                     .bound = c->blowup * size, .every = sub, .sink = fd_sink, .ctx = &fc};
    solve_result res;
    solve_status s = solve_fixed(&p, y, &so, NULL, &res);
    budget_tick(c->meter, (double)p.dim * (double)so.n * (m->implicit ? 20.0 : 1.0));
    if (s == SOLVE_BLOWUP || s == SOLVE_FAILED) {
        r->status = s == SOLVE_BLOWUP ? "blowup" : "refused";
        snprintf(r->message, sizeof r->message, "%s", res.message);
    }
    r->seconds = res.seconds;
    r->nfev = res.counts.nfev;
    free(y);
}

/* CVODE's settings for either system: the family, fixed-point iteration or Newton on the band
 * Jacobian (constant: the systems are linear), the tolerances, the order cap and stability-limit
 * detection. */
static cvode_opts run_cvode_opts(const string_run_cfg *c, const string_fd *fd, int max_order,
                                 bool stab_lim)
{
    cvode_opts o = cvode_defaults();
    o.lmm = c->adams ? CVODE_ADAMS : CVODE_BDF;
    o.solver = c->fixedpoint ? CVODE_FIXEDPOINT : CVODE_BAND;
    o.upper = o.lower = fd ? string_fd_bandwidth(fd) : 1;
    o.rtol = c->rtol;
    o.atol = c->atol;
    o.max_steps = 100000;
    o.max_order = max_order;
    o.stab_lim_det = stab_lim;
    return o;
}

/* The initial state of either system (y has its dimension). */
static ivp system_start(const string_fd *fd, const string_galerkin *g, double **y)
{
    ivp p = fd ? string_fd_ivp((string_fd *)fd) : string_galerkin_ivp((string_galerkin *)g);
    *y = xcalloc(p.dim, sizeof(double));
    if (fd)
        string_fd_initial(fd, *y);
    else
        string_galerkin_initial(g, *y);
    return p;
}

typedef struct cv_ctx {
    const string_fd *fd;        /* NULL for the Galerkin system */
    const string_galerkin *g;   /* the Galerkin system */
    double *out;                /* the pickup signal, m/s */
} cv_ctx;

static int cv_sink(long k, double t, const double *y, void *c)
{
    (void)t;
    cv_ctx *cc = c;
    cc->out[k] = cc->fd ? string_fd_pickup(cc->fd, y) : string_galerkin_pickup(cc->g, y);
    return 0;
}

void string_run_cvode(const string_run_cfg *c, string_fd *fd, string_galerkin *g, double *out,
                      string_run *r)
{
    long n = c->n;
    memset(out, 0, (size_t)n * sizeof(double));
    double *y, *tout = xcalloc((size_t)n, sizeof(double));
    ivp p = system_start(fd, g, &y);
    for (long k = 0; k < n; k++)
        tout[k] = (double)k / c->fs;
    cvode_opts o = run_cvode_opts(c, fd, c->max_order, c->stab_lim);
    o.tout = tout;
    o.nout = (size_t)n;
    cv_ctx cc = {fd, g, out};
    o.sink = cv_sink;
    o.ctx = &cc;
    cvode_stats cs;
    memset(&cs, 0, sizeof cs);
    char err[400];
    if (cvode_solve(&p, 0.0, y, tout[n - 1], &o, &cs, err, sizeof err) != 0) {
        r->status = "failed";
        snprintf(r->message, sizeof r->message, "%s", err);
    }
    snprintf(r->method, sizeof r->method, "%s", cvode_name(&o));
    if (string_run_ok(r))
        snprintf(r->message, sizeof r->message,
                 "%ld steps (last %.3g s), %ld error-test failures, %ld %s iterations, %ld "
                 "convergence failures, "
                 "%ld Jacobians",
                 cs.steps, cs.last_h, cs.netf, cs.nniters, c->fixedpoint ? "fixed-point" : "Newton",
                 cs.nncf, cs.njev);
    r->seconds = cs.seconds;
    r->nfev = cs.nfev + cs.nfev_jac;
    r->steps = cs.steps;
    free(y);
    free(tout);
}

double string_phase_saturated_share(const string_mode *exact, int ne, const string_mode *grid,
                                    int ng, double T)
{
    double e_all = 0.0, e_past = 0.0;
    for (int j = 0; j < ng && j < ne; j++) {
        const string_mode *ex = &exact[j], *dm = &grid[j];
        double de = ex->omega0sq - ex->alpha * ex->alpha, dd = dm->omega0sq - dm->alpha * dm->alpha;
        if (de <= 0 || dd <= 0)
            continue;
        double amp = ex->pickup * ex->amplitude * ex->omega0sq / sqrt(de), a2 = 2.0 * ex->alpha;
        double energy = amp * amp / (2.0 * a2);
        double t1 = 1.0 / fmax(fabs(sqrt(dd) - sqrt(de)), 1e-300);
        e_all += energy * -expm1(-a2 * T);
        if (t1 < T)
            e_past += energy * (exp(-a2 * t1) - exp(-a2 * T));
    }
    return e_past / e_all;
}

const string_run *string_run_best(const string_run *runs, size_t n, const char *method)
{
    const string_run *b = NULL;
    for (size_t j = 0; j < n; j++)
        if (strcmp(runs[j].method, method) == 0 && string_run_ok(&runs[j]) &&
            (!b || runs[j].E_wave < b->E_wave))
            b = &runs[j];
    return b;
}

typedef struct study_ctx {
    long budget;                /* internal steps allowed */
    long steps;                 /* taken so far */
    double t;                   /* time reached, s */
} study_ctx;

static int study_step(double t, double h, const double *y, void *c)
{
    (void)h, (void)y;
    study_ctx *sc = c;
    sc->t = t;
    return ++sc->steps >= sc->budget;   /* stop once the budget is spent */
}

void string_study_run(const string_run_cfg *c, const string_fd *fd, const string_galerkin *g,
                      double t1, long budget, string_study_row *row)
{
    double *y;
    ivp p = system_start(fd, g, &y);
    cvode_opts o = run_cvode_opts(c, fd, row->max_order, row->stab_lim);
    study_ctx sc = {budget, 0, 0.0};
    o.on_step = study_step;
    o.ctx = &sc;
    o.max_steps = budget + 1;
    cvode_stats cs;
    char err[400];
    if (cvode_solve(&p, 0.0, y, t1, &o, &cs, err, sizeof err) == 0)
        sc.t = t1;
    row->t = sc.t;
    row->steps = cs.steps;
    row->nfev = cs.nfev + cs.nfev_jac;
    row->netf = cs.netf;
    row->seconds = cs.seconds;
    free(y);
}

typedef struct rtol_ctx {
    long qsteps[13];            /* steps over tm..t1 at each order */
    const string_fd *fd;
    const double *exact;        /* the exact pickup from the window's first sample on */
    double se, sx;              /* sums of squared error and squared exact pickup */
    double half;                /* the window's middle, s */
    cvode_stats *st;            /* CVODE's counts so far (read at every step) */
    string_rtol_row *row;
} rtol_ctx;

static int rtol_sample(long k, double t, const double *y, void *c)
{
    (void)t;
    rtol_ctx *rc = c;
    double e = string_fd_pickup(rc->fd, y) - rc->exact[k], x = rc->exact[k];
    rc->se += e * e, rc->sx += x * x;
    return 0;
}

static int rtol_step(double t, double h, const double *y, void *c)
{
    (void)h, (void)y;
    rtol_ctx *rc = c;
    string_rtol_row *r = rc->row;
    if (r->tm == 0 && t >= rc->half) {  /* the counts at the middle, subtracted at the end */
        r->tm = t;
        r->steps = -rc->st->steps, r->nfev = -(rc->st->nfev + rc->st->nfev_jac),
        r->cpu = -thread_seconds();
    }
    if (r->tm > 0 && rc->st->last_q >= 1 && rc->st->last_q <= 12)
        rc->qsteps[rc->st->last_q]++;
    return 0;
}

void string_rtol_run(const string_run_cfg *c, string_fd *fd, const string_mode *modes, int nm,
                     const double *exact, string_rtol_row *row)
{
    string_run_cfg rc = *c;
    rc.adams = row->adams, rc.fixedpoint = row->fixedpoint, rc.rtol = row->rtol;
    ivp p = string_fd_ivp(fd);
    double *y = xcalloc(p.dim, sizeof(double));
    string_fd_state(fd, modes, nm, row->t0, y);
    long k0 = lround(row->t0 * c->fs), n = lround(row->t1 * c->fs) - k0 + 1;
    double *tout = xcalloc((size_t)n, sizeof(double));
    for (long k = 0; k < n; k++)
        tout[k] = (double)(k0 + k) / c->fs;
    row->max_order = row->adams || c->max_order < 5 ? c->max_order : 5;
    cvode_opts o = run_cvode_opts(&rc, fd, row->max_order, false);
    cvode_stats cs;
    memset(&cs, 0, sizeof cs);
    rtol_ctx ctx = {.fd = fd, .exact = exact + k0, .half = 0.5 * (row->t0 + row->t1), .st = &cs,
                    .row = row};
    o.tout = tout, o.nout = (size_t)n, o.sink = rtol_sample, o.on_step = rtol_step, o.ctx = &ctx;
    o.max_steps = 0;
    row->tm = 0;
    row->ok =
        cvode_solve(&p, row->t0, y, tout[n - 1], &o, &cs, row->message, sizeof row->message) == 0 &&
        row->tm > 0;
    row->steps += cs.steps, row->nfev += cs.nfev + cs.nfev_jac, row->cpu += thread_seconds();
    row->err = sqrt(ctx.se / ctx.sx);
    row->q_most = 0;
    for (int q = 1; q <= 12; q++)
        if (ctx.qsteps[q] > ctx.qsteps[row->q_most])
            row->q_most = q;
    free(y);
    free(tout);
}

/* Adams-Moulton of order q: beta[j], the coefficient of x^j in sigma (rho = x^k - x^(k-1), k = q -
 * 1 steps; q = 1 is backward Euler, k = 1): the integral over [0, 1] of the Lagrange basis
 * polynomial of the node 1 - (k - j), the nodes 1, 0, ..., 1 - k. Returns k. */
static int adams_moulton(int q, double *beta)
{
    if (q == 1) {
        beta[0] = 0.0, beta[1] = 1.0;
        return 1;
    }
    int k = q - 1;
    for (int m = 0; m <= k; m++) {
        double c[13] = {1.0}, den = 1.0, integral = 0.0; /* the basis polynomial in s, ascending */
        int deg = 0;
        for (int j = 0; j <= k; j++) {
            if (j == m)
                continue;
            for (int d = ++deg; d >= 0; d--)             /* times (s - (1 - j)) */
                c[d] = (d ? c[d - 1] : 0.0) - (1.0 - j) * c[d];
            den *= (double)(j - m);
        }
        for (int d = 0; d <= deg; d++)
            integral += c[d] / (d + 1.0);
        beta[k - m] = integral / den;
    }
    return k;
}

/* Whether every root of rho(x) - z sigma(x) has |x| <= 1 (the root condition at h lambda = z);
 * x holds guesses of the k roots and gets them (Weierstrass-Durand-Kerner iteration) */
static bool am_stable(const double *beta, int k, double complex z, double complex *x)
{
    double complex a[13];
    for (int j = 0; j <= k; j++)
        a[j] = -z * beta[j] + (j == k) - (j == k - 1);
    for (int it = 0; it < 500; it++) {
        double moved = 0.0;
        for (int i = 0; i < k; i++) {
            double complex p = a[k], den = a[k];
            for (int j = k - 1; j >= 0; j--)
                p = p * x[i] + a[j];
            for (int j = 0; j < k; j++)
                if (j != i)
                    den *= x[i] - x[j];
            double complex dx = p / den;
            x[i] -= dx;
            moved = fmax(moved, cabs(dx));
        }
        if (moved < 1e-14)
            break;
    }
    for (int i = 0; i < k; i++)
        if (cabs(x[i]) > 1.0 + 1e-9)
            return false;
    return true;
}

double string_adams_limit(int q, double re, double im)
{
    if (q <= 2)
        return INFINITY;
    double beta[13], lo = 0.0, hi = 0.0;
    int k = adams_moulton(q, beta);
    double complex u = (re + I * im) / hypot(re, im), x[12], xlo[12];
    for (int i = 0; i < k; i++)
        x[i] = cpow(0.4 + 0.9 * I, i);
    for (int s = 1; s <= 2000 && hi == 0.0;
         s++) { /* the scan: each step starts from the last roots */
        memcpy(xlo, x, sizeof x);
        if (am_stable(beta, k, 0.01 * s * u, x))
            lo = 0.01 * s;
        else
            hi = 0.01 * s;
    }
    if (hi == 0.0)
        return INFINITY;
    for (int it = 0; it < 50; it++) {
        double mid = 0.5 * (lo + hi);
        memcpy(x, xlo, sizeof x);
        if (am_stable(beta, k, mid * u, x))
            lo = mid, memcpy(xlo, x, sizeof x);
        else
            hi = mid;
    }
    return lo;
}

const string_study_row *string_study_fewest(const string_study_row *rows, int n,
                                            const string_study_row **q2)
{
    const string_study_row *best = NULL;
    *q2 = NULL;
    for (int i = 0; i < n; i++) {
        const string_study_row *r = &rows[i];
        if (!best || r->steps / r->t < best->steps / best->t)
            best = r;
        if (r->max_order == 2)
            *q2 = r;
    }
    return best;
}

void string_sweep_estimate(const string_sweep_plan *p, double *work, double *wavs, double *mem)
{
    double n = p->n, M = p->modes;
    int nmeth = p->nmeth, nimpl = p->nimpl;
    if (p->modal) {
        for (double sub = p->sub_min; sub <= p->sub_max; sub *= 2)
            *work += nmeth * 2.0 * M * n * sub, *wavs += nmeth;
        *work += M * n, *wavs += 2;
    }
    for (int sten = 3; sten <= 5; sten += 2) {
        if (!(sten == 3 ? p->fd3 : p->fd5))
            continue;
        for (double N = p->N_min; N <= p->N_max; N *= 2) {
            double d = 2.0 * (N - 1.0);
            *work += (N - 1.0) * n, *wavs += 1;
            if (N <= p->fd_fixed_N_max) {
                /* an implicit step solves with the band LU of its 2(N-1) unknowns (bandwidth about
                 * 2 x the stencil in the interleaved layout): about 4 sten values a row */
                *work +=
                    (nmeth - nimpl) * d * n * p->fd_sub + nimpl * d * 4.0 * sten * n * p->fd_sub;
                *wavs += nmeth;
                if (nimpl)
                    *mem = fmax(*mem, 2.0 * d * (6.0 * sten + 1.0) * 8.0 + 4.0 * n * 8.0);
            }
            if (p->cvode && N <= p->cvode_N_max)
                *work += d * 2.7e5 * fmax(1.0, N / 130.0) * p->duration, *wavs += 1;
        }
    }
}

/* Each group in the order bin/pluck's --help lists it; a row's help and range are the flag's. */
static void bind_sweep(string_settings *st, string_keys *k)
{
    PARAMS_FILL(k->tol, FLAG_REAL("tol", st->tol, "", 1e-16, 1e-3, CLI_CLOSED,
        "series tolerance in units of s_ref (omitted terms sum below it)"));
    PARAMS_FILL(k->sweep,
        FLAG_REAL("modes", st->modes, "", 1, 20000, CLI_CLOSED, "Galerkin size M (modes)"),
        FLAG_REAL("substeps_min", st->sub_min, "", 1, 1 << 20, CLI_CLOSED,
            "smallest m (h = 1/(fs m)) of the modal sweep", FLAG_SPELLED("substeps-min")),
        FLAG_REAL("substeps_max", st->sub_max, "", 1, 1 << 20, CLI_CLOSED,
            "largest m of the modal sweep (doubling)", FLAG_SPELLED("substeps-max")),
        FLAG_REAL("fd_N_min", st->N_min, "", 6, 1e6, CLI_CLOSED,
            "smallest N (intervals) of the FD sweep", FLAG_SPELLED("N-min")),
        FLAG_REAL("fd_N_max", st->N_max, "", 6, 1e6, CLI_CLOSED,
            "largest N of the FD sweep (doubling)", FLAG_SPELLED("N-max")),
        FLAG_REAL("fd_substeps", st->fd_sub, "", 1, 1 << 20, CLI_CLOSED,
            "m of the fixed-step FD runs", FLAG_SPELLED("fd-substeps")),
        FLAG_REAL("fd_fixed_N_max", st->fd_fixed_N_max, "", 6, 1e6, CLI_CLOSED,
            "largest N of the fixed-step FD runs", FLAG_SPELLED("fd-fixed-N-max")),
        FLAG_REAL("cvode_rtol", st->rtol, "", 1e-15, 1e-2, CLI_CLOSED,
            "CVODE relative tolerance", FLAG_SPELLED("cvode-rtol")),
        FLAG_REAL("cvode_N_max", st->cvode_N_max, "", 6, 1e6, CLI_CLOSED,
            "largest N of the CVODE FD runs", FLAG_SPELLED("cvode-N-max")),
        FLAG_BOOL("cvode_modal", st->cvode_modal, "CVODE on the Galerkin system too",
            FLAG_SPELLED("cvode-modal")));
}

static void bind_cvode(string_settings *st, string_keys *k)
{
    PARAMS_FILL(k->cvode,
        FLAG_REAL("cvode_atol", st->atol, "m", 1e-30, 1, CLI_CLOSED,
            "CVODE absolute tolerance", FLAG_SPELLED("cvode-atol")),
        FLAG_REAL("cvode_max_order", st->max_order, "", 1, 12, CLI_CLOSED,
            "CVODE's largest order q (BDF 1-5, Adams 1-12): BDF above 2 is not A-stable",
            FLAG_SPELLED("cvode-max-order")),
        FLAG_BOOL("cvode_stab_lim", st->stab_lim,
            "CVODE's BDF stability-limit detection (lowers q when it sees instability)",
            FLAG_SPELLED("cvode-stab-lim")),
        FLAG_REAL("cvode_study_time", st->study_T, "s", 0, 60, CLI_CLOSED,
            "order study: simulated time of each CVODE run, q = 1..5 (0: no study)",
            FLAG_SPELLED("cvode-study-time")),
        FLAG_REAL("cvode_study_N", st->study_N, "", 6, 1e6, CLI_CLOSED,
            "order study: N of the 5-point grid (the Galerkin system has --modes)",
            FLAG_SPELLED("cvode-study-N")),
        FLAG_REAL("cvode_rtol_start", st->rtol_start, "s", 0, 60, CLI_CLOSED,
            "tolerance study: CVODE starts here from the exact semi-discrete state (a whole "
            "number of samples)", FLAG_SPELLED("cvode-rtol-start")),
        FLAG_REAL("cvode_rtol_time", st->rtol_time, "s", 0, 60, CLI_CLOSED,
            "tolerance study: each run's window, rates over its second half; rtol 1e-3..1e-8, "
            "three setups (0: no study)", FLAG_SPELLED("cvode-rtol-time")),
        FLAG_REAL("cvode_rtol_N", st->rtol_N, "", 6, 1e6, CLI_CLOSED,
            "tolerance study: N of the 5-point grid", FLAG_SPELLED("cvode-rtol-N")),
        FLAG_REAL("cvode_study_steps", st->study_steps, "", 10, 1e9, CLI_CLOSED,
            "order study: internal steps allowed a run (cost is per simulated second)",
            FLAG_SPELLED("cvode-study-steps")),
        FLAG_REAL("blowup", st->blowup, "", 1, 1e300, CLI_OPEN_MIN,
            "blow-up when |y| exceeds this many times its initial size"));
    PARAMS_FILL(k->listen,
        FLAG_REAL("listen_ceiling", st->ceiling, "", 0, 1, CLI_OPEN_MIN, "limiter ceiling"),
        FLAG_REAL("listen_release", st->release, "s", 0, 10, CLI_OPEN_MIN, "limiter release"));
}

void string_keys_bind(string_settings *st, string_keys *k)
{
    bind_sweep(st, k);
    bind_cvode(st, k);
    PARAMS_FILL(k->all, FLAG_TABLE(k->tol), FLAG_TABLE(k->sweep), FLAG_TABLE(k->cvode),
                FLAG_TABLE(k->listen));
}

int string_settings_load(string_settings *st, const char *path, char *err, size_t errlen)
{
    string_keys k;
    string_keys_bind(st, &k);
    return params_load(k.all, path, false, err, errlen);
}

int string_settings_check(const string_settings *st, double fs, bool bdf, char *err, size_t errlen)
{
    if (st->sub_min > st->sub_max || st->N_min > st->N_max) {
        snprintf(err, errlen,
                 "--substeps-min/max or --N-min/max out of order; accepted: min <= max");
        return -1;
    }
    const struct { const char *flag; double v;
    } whole[] = {
        {"fs", fs},
        {"modes", st->modes},
        {"substeps-min", st->sub_min},
        {"substeps-max", st->sub_max},
        {"N-min", st->N_min},
        {"N-max", st->N_max},
        {"fd-substeps", st->fd_sub},
        {"fd-fixed-N-max", st->fd_fixed_N_max},
        {"cvode-max-order", st->max_order},
        {"cvode-study-N", st->study_N},
        {"cvode-study-steps", st->study_steps},
        {"cvode-rtol-N", st->rtol_N},
    };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (whole[i].v != floor(whole[i].v)) {
            snprintf(err, errlen, "--%s %g is not accepted; accepted: a whole number",
                     whole[i].flag, whole[i].v);
            return -1;
        }
    if (fabs(st->rtol_start * fs - round(st->rtol_start * fs)) > 1e-6) {
        snprintf(
            err, errlen,
            "--cvode-rtol-start %g is not accepted; accepted: a whole number of samples (1/%g s)",
            st->rtol_start, fs);
        return -1;
    }
    if (bdf && st->max_order > 5) {
        snprintf(err, errlen,
                 "--cvode-max-order %g is not accepted with --cvode-lmm bdf; accepted: 1 to 5",
                 st->max_order);
        return -1;
    }
    return 0;
}
