#include "method/newton.h"
#include "base/util.h"
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What Newton caches in a workspace (its solver slot): the matrix and its factors, scratch. */
typedef struct newton_state {
    size_t n;
    size_t band;            /* half-width b of the band path (GSL's band LU), 0: dense LU */
    gsl_matrix *M;          /* I - a J, then its LU factors: n x n (dense) or n x (3b + 1) (band,
                               GSL's layout: row j holds column j, M(i, j) at (j, 2b + i - j)) */
    gsl_permutation *perm;  /* dense pivots */
    gsl_vector_uint *piv;   /* band pivots */
    gsl_vector *rhs, *dx;
    double *J;              /* dF/dy: row-major n x n (dense), or n x (2b + 1) with dF_i/dy_j at
                               i (2b + 1) + (j - i + b) (band) */
    double *c;              /* copy of the constant part (c may alias y) */
    double *f, *f2, *xp;    /* F(x), F(x + perturbation), perturbed x */
    double *f0;             /* F(t, 0) (band path, linear problems) */
    double factored_a;      /* a of the factors in M (linear problems), NAN if none */
    const ivp *factored_p;  /* ... and the problem they belong to */
    ivp_rhs_fn factored_rhs;
    void *factored_params;
    double rel_tol;         /* stop when |dx| <= rel_tol (1 + |x|) */
    int max_iter;
    newton_report report;
} newton_state;

/* The band path when the problem declares a band narrow enough that the band LU (n b^2 work)
 * beats the dense one (n^3): 4 b < n. */
static size_t band_for(const ivp *p, size_t n)
{
    return p && p->band > 0 && 4 * p->band < n ? p->band : 0;
}

static void free_layout(newton_state *s)
{
    gsl_matrix_free(s->M);
    gsl_permutation_free(s->perm);
    gsl_vector_uint_free(s->piv);
    free(s->J);
    s->M = NULL;
    s->perm = NULL;
    s->piv = NULL;
    s->J = NULL;
}

/* (Re)allocate the matrices for the dense (band 0) or the band path; factors are dropped. */
static void set_layout(newton_state *s, size_t band)
{
    size_t n = s->n;
    free_layout(s);
    s->band = band;
    if (band) {
        s->M = gsl_matrix_alloc(n, 3 * band + 1);
        s->piv = gsl_vector_uint_alloc(n);
        s->J = xcalloc(n * (2 * band + 1), sizeof(double));
    } else {
        s->M = gsl_matrix_alloc(n, n);
        s->perm = gsl_permutation_alloc(n);
        s->J = xcalloc(n * n, sizeof(double));
    }
    if (!s->M || (band ? !s->piv : !s->perm)) {
        fprintf(stderr, "out of memory for a %zu x %zu Newton matrix\n", n, band ? 3 * band + 1 : n);
        exit(1);
    }
    s->factored_a = NAN;
    s->factored_p = NULL;
}

static void newton_free(newton_state *s);

static void release(void *s)
{
    newton_free(s);
}

/* The Newton state w holds, or NULL (w holds none, or another solver's). */
static newton_state *held(const workspace *w)
{
    return w->solver_free == release ? w->solver : NULL;
}

/* w's solver, laid out for p (NULL: as it is, dense when new). Another solver's cache in w is
 * released first: a workspace serves one solver at a time. */
static newton_state *state_for(workspace *w, const ivp *p)
{
    newton_state *s = held(w);
    size_t band = band_for(p, w->dim);
    if (s) {
        if (p && s->band != band)
            set_layout(s, band);
        return s;
    }
    size_t n = w->dim;
    s = xcalloc(1, sizeof *s);
    s->n = n;
    s->rhs = gsl_vector_alloc(n);
    s->dx = gsl_vector_alloc(n);
    if (!s->rhs || !s->dx) {
        fprintf(stderr, "out of memory for Newton vectors of %zu\n", n);
        exit(1);
    }
    set_layout(s, band);
    s->c = xcalloc(n, sizeof(double));
    s->f = xcalloc(n, sizeof(double));
    s->f2 = xcalloc(n, sizeof(double));
    s->xp = xcalloc(n, sizeof(double));
    s->f0 = xcalloc(n, sizeof(double));
    s->rel_tol = 1e-12;
    s->max_iter = 30;
    if (w->solver_free)
        w->solver_free(w->solver);
    w->solver = s;
    w->solver_free = release;
    return s;
}

void newton_configure(workspace *w, double rel_tol, int max_iter)
{
    newton_state *s = state_for(w, NULL);
    s->rel_tol = rel_tol;
    s->max_iter = max_iter < NEWTON_MAX_HISTORY ? max_iter : NEWTON_MAX_HISTORY - 1;
}

const newton_report *newton_last(const workspace *w)
{
    const newton_state *s = held(w);
    return s ? &s->report : NULL;
}

bool newton_is_banded(const workspace *w)
{
    const newton_state *s = held(w);
    return s && s->band > 0;
}

static void newton_free(newton_state *s)
{
    if (!s)
        return;
    free_layout(s);
    gsl_vector_free(s->rhs);
    gsl_vector_free(s->dx);
    free(s->c);
    free(s->f);
    free(s->f2);
    free(s->xp);
    free(s->f0);
    free(s);
}

/* Forward-difference step for entry j: sqrt(eps) relative to the entry, or to the state's size
 * where the entry is near zero. */
static double diff_step(double xj, double floor_scale)
{
    return 1.49e-8 * fmax(fabs(xj), floor_scale);
}

/* dF/dy in the band: columns j, j + 2b + 1, ... touch disjoint rows, so one F evaluation gives
 * a whole group of them (Curtis, Powell and Reid). A linear F (F = A y + F(t, 0)) is
 * differenced with unit steps from y = 0, which gives A to rounding, like an analytic Jacobian. */
static int jacobian_band(const ivp *p, double t, const double *x, const double *fx, newton_state *s, workspace *w)
{
    size_t n = s->n, b = s->band, width = 2 * b + 1;
    const double *base = fx;            /* F at the point differenced from */
    double floor_scale = fmax(1e-3 * max_abs(x, n), 1e-8);
    if (p->linear) {
        memset(s->xp, 0, n * sizeof(double));
        int rc = ivp_eval(p, t, s->xp, s->f0, w);
        if (rc)
            return rc;
        base = s->f0;
    }
    memset(s->J, 0, n * width * sizeof(double));
    for (size_t g = 0; g < width && g < n; g++) {
        if (p->linear)
            memset(s->xp, 0, n * sizeof(double));
        else
            memcpy(s->xp, x, n * sizeof(double));
        for (size_t j = g; j < n; j += width)
            s->xp[j] += p->linear ? 1.0 : diff_step(x[j], floor_scale);
        int rc = ivp_eval(p, t, s->xp, s->f2, w);
        if (rc)
            return rc;
        for (size_t j = g; j < n; j += width) {
            double d = p->linear ? 1.0 : s->xp[j] - x[j];
            size_t i0 = j > b ? j - b : 0, i1 = j + b < n ? j + b : n - 1;
            for (size_t i = i0; i <= i1; i++)
                s->J[i * width + (j + b - i)] = (s->f2[i] - base[i]) / d;
        }
    }
    return 0;
}

/* dF/dy at (t, x) into s->J; fx = F(t, x) is already known. */
static int jacobian(const ivp *p, double t, const double *x, const double *fx, newton_state *s, workspace *w)
{
    size_t n = s->n;
    w->counts.njev++;
    if (s->band)
        return jacobian_band(p, t, x, fx, s, w);
    if (p->jac) {
        int rc = p->jac(t, x, s->J, p->params);
        if (rc)
            snprintf(w->error, sizeof w->error, "Jacobian could not be evaluated at t = %.9g s", t);
        return rc;
    }
    memcpy(s->xp, x, n * sizeof(double));
    double floor_scale = fmax(1e-3 * max_abs(x, n), 1e-8);
    for (size_t j = 0; j < n; j++) {
        double d = diff_step(x[j], floor_scale);
        s->xp[j] = x[j] + d;
        int rc = ivp_eval(p, t, s->xp, s->f2, w);
        s->xp[j] = x[j];
        if (rc)
            return rc;
        for (size_t i = 0; i < n; i++)
            s->J[i * n + j] = (s->f2[i] - fx[i]) / d;
    }
    return 0;
}

/* M = I - a J, LU-factored in place (dense, or GSL's band LU). */
static int factor(newton_state *s, double a, workspace *w)
{
    size_t n = s->n, b = s->band;
    w->counts.nfactor++;
    bool singular = false;
    if (b) {
        size_t width = 2 * b + 1;
        gsl_matrix_set_zero(s->M);
        for (size_t i = 0; i < n; i++) {
            size_t j0 = i > b ? i - b : 0, j1 = i + b < n ? i + b : n - 1;
            for (size_t j = j0; j <= j1; j++)
                gsl_matrix_set(s->M, j, 2 * b + i - j, (i == j ? 1.0 : 0.0) - a * s->J[i * width + (j + b - i)]);
        }
        gsl_linalg_LU_band_decomp(n, b, b, s->M, s->piv);
        for (size_t j = 0; j < n && !singular; j++)
            singular = gsl_matrix_get(s->M, j, 2 * b) == 0.0;
    } else {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                gsl_matrix_set(s->M, i, j, (i == j ? 1.0 : 0.0) - a * s->J[i * n + j]);
        int sign;
        gsl_linalg_LU_decomp(s->M, s->perm, &sign);
        for (size_t i = 0; i < n && !singular; i++)
            singular = gsl_matrix_get(s->M, i, i) == 0.0;
    }
    if (singular) {
        snprintf(w->error, sizeof w->error, "Newton matrix I - a J is singular (a = %.3g)", a);
        return -1;
    }
    return 0;
}

int newton_implicit_step(const ivp *p, double t, double a, const double *c, double *y, workspace *w)
{
    newton_state *s = state_for(w, p);
    size_t n = s->n;
    memcpy(s->c, c, n * sizeof(double));
    newton_report *r = &s->report;
    r->iterations = 0;
    for (int it = 0; it < s->max_iter; it++) {
        int rc = ivp_eval(p, t, y, s->f, w);
        if (rc)
            return rc;
        double res = 0.0;
        for (size_t i = 0; i < n; i++) {
            double g = y[i] - s->c[i] - a * s->f[i];
            gsl_vector_set(s->rhs, i, -g);
            res = fmax(res, fabs(g));
        }
        r->residual[it] = res;
        /* Factors are reused only for the same linear problem and the same a: a workspace
         * that moves to another problem refactors. */
        bool reuse = p->linear && s->factored_a == a && s->factored_p == p && s->factored_rhs == p->rhs &&
                     s->factored_params == p->params;
        if (!reuse) {
            if ((rc = jacobian(p, t, y, s->f, s, w)) || (rc = factor(s, a, w)))
                return rc;
            s->factored_a = p->linear ? a : NAN;
            s->factored_p = p;
            s->factored_rhs = p->rhs;
            s->factored_params = p->params;
        }
        if (s->band)
            gsl_linalg_LU_band_solve(s->band, s->band, s->M, s->piv, s->rhs, s->dx);
        else
            gsl_linalg_LU_solve(s->M, s->perm, s->rhs, s->dx);
        w->counts.nnewton++;
        double step = 0.0;
        for (size_t i = 0; i < n; i++) {
            double d = gsl_vector_get(s->dx, i);
            y[i] += d;
            step = fmax(step, fabs(d));
        }
        r->update[it] = step;
        r->iterations = it + 1;
        if (!isfinite(step))
            break;
        /* A linear G with its exact Jacobian (the problem's, or the band path's unit
         * differences) is solved by one Newton step; with a difference Jacobian the (reused)
         * factors need a few more iterations. */
        if ((p->linear && (p->jac || s->band)) || step <= s->rel_tol * (1.0 + max_abs(y, n)))
            return 0;
    }
    snprintf(w->error, sizeof w->error,
             "Newton did not converge at t = %.9g s after %d iterations (residual %.3g, last update %.3g)",
             t, r->iterations, r->residual[r->iterations > 0 ? r->iterations - 1 : 0],
             r->update[r->iterations > 0 ? r->iterations - 1 : 0]);
    return -1;
}
