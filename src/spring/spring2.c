#include "spring/spring2.h"
#include "base/budget.h"
#include "base/cli.h"
#include "base/util.h"
#include "drive/gsl_pairs.h"
#include "io/params.h"
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void accel(const spring2 *s, const double *u, double *a)
{
    a[0] = (-(s->k1 + s->k2) * u[0] + s->k2 * u[1]) / s->m1;
    a[1] = (s->k2 * u[0] - (s->k2 + s->k3) * u[1]) / s->m2;
}

static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t;
    f[0] = y[2];
    f[1] = y[3];
    accel(params, y, f + 2);
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t; (void)y;
    const spring2 *s = params;
    for (int i = 0; i < 16; i++)
        J[i] = 0.0;
    J[0 * 4 + 2] = 1.0;
    J[1 * 4 + 3] = 1.0;
    J[2 * 4 + 0] = -(s->k1 + s->k2) / s->m1;
    J[2 * 4 + 1] = s->k2 / s->m1;
    J[3 * 4 + 0] = s->k2 / s->m2;
    J[3 * 4 + 1] = -(s->k2 + s->k3) / s->m2;
    return 0;
}

double spring2_energy(double t, const double *y, void *params)
{
    (void)t;
    const spring2 *s = params;
    double kin = 0.5 * (s->m1 * y[2] * y[2] + s->m2 * y[3] * y[3]);
    double pot =
        0.5 * (s->k1 * y[0] * y[0] + s->k2 * (y[1] - y[0]) * (y[1] - y[0]) + s->k3 * y[1] * y[1]);
    return kin + pot;
}

ivp spring2_ivp(spring2 *s)
{
    ivp p = {.dim = 4, .rhs = rhs, .jac = jac, .energy = spring2_energy, .params = s,
             .linear = true, .second_order = true};
    return p;
}

int spring2_modes_of(const spring2 *s, spring2_modes *md)
{
    gsl_matrix *K = gsl_matrix_alloc(2, 2), *M = gsl_matrix_calloc(2, 2),
               *V = gsl_matrix_alloc(2, 2);
    gsl_vector *ev = gsl_vector_alloc(2);
    gsl_eigen_gensymmv_workspace *w = gsl_eigen_gensymmv_alloc(2);
    gsl_matrix_set(K, 0, 0, s->k1 + s->k2);
    gsl_matrix_set(K, 0, 1, -s->k2);
    gsl_matrix_set(K, 1, 0, -s->k2);
    gsl_matrix_set(K, 1, 1, s->k2 + s->k3);
    gsl_matrix_set(M, 0, 0, s->m1);
    gsl_matrix_set(M, 1, 1, s->m2);
    int rc = gsl_eigen_gensymmv(K, M, ev, V, w);
    if (rc == 0) {
        gsl_eigen_gensymmv_sort(ev, V, GSL_EIGEN_SORT_VAL_ASC);
        for (int i = 0; i < 2; i++) {
            double lam = gsl_vector_get(ev, i);
            if (!(lam > 0)) {
                rc = -1;
                break;
            }
            md->omega[i] = sqrt(lam);
            double a = gsl_matrix_get(V, 0, i), b = gsl_matrix_get(V, 1, i);
            double norm = sqrt(s->m1 * a * a + s->m2 * b * b);
            double sign = a < 0 ? -1.0 : 1.0;       /* heavy mass moves positively */
            md->phi[i][0] = sign * a / norm;
            md->phi[i][1] = sign * b / norm;
        }
    }
    gsl_eigen_gensymmv_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(V);
    gsl_matrix_free(M);
    gsl_matrix_free(K);
    return rc ? -1 : 0;
}

void spring2_modal(const spring2 *s, const spring2_modes *md, const double y[4], int i, double *q,
                   double *qdot)
{
    const double *p = md->phi[i];
    *q = p[0] * s->m1 * y[0] + p[1] * s->m2 * y[1];
    *qdot = p[0] * s->m1 * y[2] + p[1] * s->m2 * y[3];
}

void spring2_exact(const spring2 *s, const spring2_modes *md, const double y0[4], double t,
                   double y[4])
{
    for (int j = 0; j < 4; j++)
        y[j] = 0.0;
    for (int i = 0; i < 2; i++) {
        double q0, qd0, w = md->omega[i];
        spring2_modal(s, md, y0, i, &q0, &qd0);
        double q = q0 * cos(w * t) + qd0 / w * sin(w * t);
        double qd = -q0 * w * sin(w * t) + qd0 * cos(w * t);
        for (int j = 0; j < 2; j++) {
            y[j] += md->phi[i][j] * q;
            y[2 + j] += md->phi[i][j] * qd;
        }
    }
}

double spring2_mode_amplitude(const spring2 *s, const spring2_modes *md, const double y[4], int i,
                              int mass)
{
    double q, qd;
    spring2_modal(s, md, y, i, &q, &qd);
    return fabs(md->phi[i][mass]) * hypot(q, qd / md->omega[i]);
}

void spring2_keys_bind(spring2 *s, double *pull, double *T, spring2_keys *k)
{
    PARAMS_FILL(k->all,
        FLAG_REAL("m1", s->m1, "kg", 0, 1e6, CLI_OPEN_MIN, "heavy mass (spring2.ini)"),
        FLAG_REAL("m2", s->m2, "kg", 0, 1e6, CLI_OPEN_MIN, "light mass (spring2.ini)"),
        FLAG_REAL("k1", s->k1, "N/m", 0, 1e15, CLI_OPEN_MIN, "spring wall-m1 (spring2.ini)"),
        FLAG_REAL("k2", s->k2, "N/m", 0, 1e15, CLI_OPEN_MIN, "spring m1-m2 (spring2.ini)"),
        FLAG_REAL("k3", s->k3, "N/m", 0, 1e15, CLI_OPEN_MIN, "spring m2-wall (spring2.ini)"),
        FLAG_REAL("pull", *pull, "m", -1e3, 1e3, CLI_OPEN_MIN,
            "initial displacement of the heavy mass (spring2.ini)"),
        FLAG_REAL("T", *T, "s", 0, 100, CLI_OPEN_MIN, "length of the runs (spring2.ini)"));
}

int spring2_load_params(spring2 *s, double *pull, double *T, const char *path, char *err,
                        size_t errlen)
{
    spring2_keys k;
    spring2_keys_bind(s, pull, T, &k);
    return params_load(k.all, path ? path : params_path("spring2.ini"), false, err, errlen);
}

/* An adaptive run's steps: their lengths (every stride-th, at most SPRING2_H_KEPT: a thinned
 * series has about the same median), and the heavy mass's largest error. */
typedef struct {
    const spring2 *s;
    const spring2_modes *md;
    const double *y0;
    double *h;              /* step lengths, s */
    size_t n, cap;
    double max_err_u1;      /* m */
    long steps, stride;     /* steps taken; one in stride kept */
    long stop;              /* a pilot: stop after this many steps (0: never) */
    double t;               /* the last step's end, s */
    progress *meter;        /* ticked a step (NULL: none) */
} step_log;

enum { SPRING2_H_KEPT = 1 << 20 };

static int log_step(double t, double h, const double *y, void *ctx)
{
    step_log *a = ctx;
    double ex[4];
    spring2_exact(a->s, a->md, a->y0, t, ex);
    a->max_err_u1 = fmax(a->max_err_u1, fabs(y[0] - ex[0]));
    a->t = t;
    if (a->steps++ % a->stride == 0) {
        if (a->n == SPRING2_H_KEPT) { /* full: keep every other one, and half as many from now on */
            for (size_t i = 0; 2 * i < a->n; i++)
                a->h[i] = a->h[2 * i];
            a->n = (a->n + 1) / 2, a->stride *= 2;
        }
        a->h = xgrow(a->h, &a->cap, a->n + 1, sizeof *a->h);
        a->h[a->n++] = h;
    }
    if (a->stop)
        return a->steps >= a->stop;
    budget_tick(a->meter, 1.0);
    return 0;
}

/* The solver from y0 over [0, T], each step logged; the solver's status (nonzero: err). */
static int run_logged(spring2 *s, const double y0[4], double T, const char *solver, double rtol,
                      double atol, long max_steps, step_log *log, cvode_stats *st, char *err,
                      size_t errlen)
{
    ivp p = spring2_ivp(s);
    cvode_opts co = cvode_defaults();
    co.rtol = rtol;
    co.atol = atol;
    co.max_steps = max_steps;
    co.on_step = log_step;
    co.ctx = log;
    double y[4] = {y0[0], y0[1], y0[2], y0[3]};
    if (strncmp(solver, "gsl-", 4) == 0)
        return gsl_pair_solve(solver + 4, &p, 0.0, y, T, &co, st, err, errlen);
    co.lmm = strcmp(solver, "cvode-adams") == 0 ? CVODE_ADAMS : CVODE_BDF;
    return cvode_solve(&p, 0.0, y, T, &co, st, err, errlen);
}

double spring2_adaptive_pilot(spring2 *s, const spring2_modes *md, const double y0[4], double T,
                              const char *solver, double rtol, double atol, long n)
{
    step_log log = {.s = s, .md = md, .y0 = y0, .stride = 1, .stop = n};
    cvode_stats st;
    char err[400];
    int rc = run_logged(s, y0, T, solver, rtol, atol, 0, &log, &st, err, sizeof err);
    free(log.h);
    if (rc == 0 && log.steps < n)
        return (double)log.steps;       /* it reached T */
    return log.t > 0 ? (double)log.steps * T / log.t : INFINITY;
}

int spring2_adaptive_run(spring2 *s, const spring2_modes *md, const double y0[4], double T,
                         const char *solver, double rtol, double atol, long max_steps,
                         progress *meter, spring2_adaptive *out, char *err, size_t errlen)
{
    step_log log = {.s = s, .md = md, .y0 = y0, .stride = 1, .meter = meter};
    int rc = run_logged(s, y0, T, solver, rtol, atol, max_steps, &log, &out->st, err, errlen);
    out->median_h = median_of(log.h, log.n);
    out->max_err_u1 = log.max_err_u1;
    free(log.h);
    return rc != 0 ? -1 : 0;
}
