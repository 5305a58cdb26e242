#include "method/newton.h"
#include "base/util.h"
#include "method/lu.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct coupled_state coupled_state;

/* What Newton caches in a workspace (its solver slot): the matrix and its factors, scratch. */
typedef struct newton_state {
    size_t n;
    size_t band;            /* half-width b of the band path (a band LU), 0: dense LU */
    lu_matrix M;            /* I - a J, then its LU factors: dense, or a band of half-width b */
    double *rhs, *dx;
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
    coupled_state *coupled; /* a fully implicit RK step's s n system, NULL until the first */
} newton_state;

/* The band path when the problem declares a band narrow enough that the band LU (n b^2 work)
 * beats the dense one (n^3): 4 b < n. */
static size_t band_for(const ivp *p, size_t n)
{
    return p && p->band > 0 && 4 * p->band < n ? p->band : 0;
}

static void free_layout(newton_state *s)
{
    lu_free(&s->M);
    free(s->J);
    s->J = NULL;
}

/* (Re)allocate the matrices for the dense (band 0) or the band path; factors are dropped. */
static void set_layout(newton_state *s, size_t band)
{
    size_t n = s->n;
    free_layout(s);
    s->band = band;
    lu_init(&s->M, n, band);
    s->J = xcalloc(band ? n * (2 * band + 1) : n * n, sizeof(double));
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
    s->rhs = xcalloc(n, sizeof(double));
    s->dx = xcalloc(n, sizeof(double));
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

static void coupled_free(coupled_state *c);

static void newton_free(newton_state *s)
{
    if (!s)
        return;
    free_layout(s);
    free(s->rhs);
    free(s->dx);
    free(s->c);
    free(s->f);
    free(s->f2);
    free(s->xp);
    free(s->f0);
    coupled_free(s->coupled);
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
static int jacobian_band(const ivp *p, double t, const double *x, const double *fx, newton_state *s,
                         workspace *w)
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

/* dF/dy at (t, x) into the dense n x n J (row-major), analytic or by forward differences;
 * fx = F(t, x) is already known. */
static int jacobian_dense(const ivp *p, double t, const double *x, const double *fx, double *J,
                          newton_state *s, workspace *w)
{
    size_t n = s->n;
    w->counts.njev++;
    if (p->jac) {
        int rc = p->jac(t, x, J, p->params);
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
            J[i * n + j] = (s->f2[i] - fx[i]) / d;
    }
    return 0;
}

/* dF/dy at (t, x) into s->J in s's layout (dense or band). */
static int jacobian(const ivp *p, double t, const double *x, const double *fx, newton_state *s,
                    workspace *w)
{
    if (!s->band)
        return jacobian_dense(p, t, x, fx, s->J, s, w);
    w->counts.njev++;
    return jacobian_band(p, t, x, fx, s, w);
}

/* M = I - a J, LU-factored in place (dense, or a band LU). */
static int factor(newton_state *s, double a, workspace *w)
{
    size_t n = s->n, b = s->band;
    w->counts.nfactor++;
    if (b) {
        size_t width = 2 * b + 1;
        lu_zero(&s->M);
        for (size_t i = 0; i < n; i++) {
            size_t j0 = i > b ? i - b : 0, j1 = i + b < n ? i + b : n - 1;
            for (size_t j = j0; j <= j1; j++)
                *lu_at(&s->M, i, j) = (i == j ? 1.0 : 0.0) - a * s->J[i * width + (j + b - i)];
        }
    } else {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                *lu_at(&s->M, i, j) = (i == j ? 1.0 : 0.0) - a * s->J[i * n + j];
    }
    lu_factor(&s->M);
    if (lu_singular(&s->M)) {
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
            s->rhs[i] = -g;
            res = fmax(res, fabs(g));
        }
        r->residual[it] = res;
        /* Factors are reused only for the same linear problem and the same a: a workspace
         * that moves to another problem refactors. */
        bool reuse = p->linear && s->factored_a == a && s->factored_p == p &&
                     s->factored_rhs == p->rhs && s->factored_params == p->params;
        if (!reuse) {
            if ((rc = jacobian(p, t, y, s->f, s, w)) || (rc = factor(s, a, w)))
                return rc;
            s->factored_a = p->linear ? a : NAN;
            s->factored_p = p;
            s->factored_rhs = p->rhs;
            s->factored_params = p->params;
        }
        lu_solve(&s->M, s->rhs, s->dx);
        w->counts.nnewton++;
        double step = 0.0;
        for (size_t i = 0; i < n; i++) {
            double d = s->dx[i];
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
             "Newton did not converge at t = %.9g s after %d iterations (residual %.3g, last "
             "update %.3g)",
             t, r->iterations, r->residual[r->iterations > 0 ? r->iterations - 1 : 0],
             r->update[r->iterations > 0 ? r->iterations - 1 : 0]);
    return -1;
}

/* ---- the coupled stages of a fully implicit Runge-Kutta step --------------------------------- */

/* The s n system of one step: unknowns Z = (Z_1 ... Z_s), Z_i = Y_i - y, and the matrix
 * I - h A (x) J (J at the step's start) with its LU factors. */
struct coupled_state {
    size_t n;               /* unknowns a stage (the problem's dim) */
    int stages;             /* s */
    lu_matrix M;            /* (s n) x (s n): I - h A (x) J, then its LU factors */
    double *rhs, *dz;       /* -G(Z) and the correction, s n */
    double *Z, *F, *Y;      /* stage increments and F at the stages (s n), one stage argument (n) */
    double *J;              /* dF/dy, row-major n x n */
    double Ainv[IVP_MAX_STAGES * IVP_MAX_STAGES];  /* A^-1: k = A^-1 Z / h without evaluating F */
    bool ainv_ok;           /* A is invertible (else F is evaluated at the converged stages) */
    const double *a_of;     /* the tableau A that Ainv belongs to */
    double factored_h;      /* h of the factors in M (linear problems, reused), NAN if none */
    const ivp *factored_p;  /* ... and the problem they belong to */
    ivp_rhs_fn factored_rhs;
    void *factored_params;
};

static void coupled_free(coupled_state *c)
{
    if (!c)
        return;
    lu_free(&c->M);
    free(c->rhs);
    free(c->dz);
    free(c->Z);
    free(c->F);
    free(c->Y);
    free(c->J);
    free(c);
}

/* A^-1 through the LU the stage solve already uses, a column a unit vector;
 * false when A is singular, a pivot below 1e-14 (a tableau with a zero row: its slopes are then
 * evaluated). */
static bool invert_stages(const double *a, int s, double *inv)
{
    lu_matrix m;
    lu_init(&m, (size_t)s, 0);
    double e[IVP_MAX_STAGES], x[IVP_MAX_STAGES];
    for (int i = 0; i < s; i++)
        for (int j = 0; j < s; j++)
            *lu_at(&m, i, j) = a[i * s + j];
    bool ok = lu_factor(&m) == 0;
    for (int k = 0; ok && k < s; k++)
        ok = fabs(lu_pivot(&m, k)) >= 1e-14;
    for (int j = 0; ok && j < s; j++) {
        for (int i = 0; i < s; i++)
            e[i] = i == j ? 1.0 : 0.0;
        ok = lu_solve(&m, e, x) == 0;
        for (int i = 0; i < s; i++)
            inv[i * s + j] = x[i];
    }
    lu_free(&m);
    return ok;
}

/* w's coupled state for s stages of dim n (reallocated when s changes); NULL with w->error when
 * s n exceeds the dense cap. */
static coupled_state *coupled_for(newton_state *ns, int s, const double *a, workspace *w)
{
    size_t n = ns->n, sn = (size_t)s * n;
    if (sn > NEWTON_COUPLED_MAX) {
        snprintf(w->error, sizeof w->error,
                 "a fully implicit %d-stage step on %zu unknowns couples %zu, more than the "
                 "dense solve's cap of %d (its matrix alone %.0f MB); accepted: a problem of at "
                 "most %d unknowns, or a "
                 "diagonally implicit tableau",
                 s, n, sn, NEWTON_COUPLED_MAX, 8e-6 * (double)sn * (double)sn,
                 NEWTON_COUPLED_MAX / s);
        return NULL;
    }
    coupled_state *c = ns->coupled;
    if (c && c->stages != s) {
        coupled_free(c);
        c = ns->coupled = NULL;
    }
    if (!c) {
        c = xcalloc(1, sizeof *c);
        c->n = n;
        c->stages = s;
        lu_init(&c->M, sn, 0);
        c->rhs = xcalloc(sn, sizeof(double));
        c->dz = xcalloc(sn, sizeof(double));
        c->Z = xcalloc(sn, sizeof(double));
        c->F = xcalloc(sn, sizeof(double));
        c->Y = xcalloc(n, sizeof(double));
        c->J = xcalloc(n * n, sizeof(double));
        c->factored_h = NAN;
        ns->coupled = c;
    }
    if (c->a_of != a) {
        c->ainv_ok = invert_stages(a, s, c->Ainv);
        c->a_of = a;
        c->factored_h = NAN;
    }
    return c;
}

/* F at every stage, Y_i = y + Z_i, into c->F; -G(Z) = -(Z - h (A (x) I) F) into c->rhs. The
 * max-norm of G. */
static int coupled_residual(const ivp *p, double t, double h, const double *a, const double *cn,
                            const double *y, coupled_state *c, workspace *w, double *res)
{
    size_t n = c->n;
    int s = c->stages;
    for (int i = 0; i < s; i++) {
        for (size_t q = 0; q < n; q++)
            c->Y[q] = y[q] + c->Z[i * n + q];
        int rc = ivp_eval(p, t + cn[i] * h, c->Y, c->F + i * n, w);
        if (rc)
            return rc;
    }
    *res = 0.0;
    for (int i = 0; i < s; i++)
        for (size_t q = 0; q < n; q++) {
            double acc = 0.0;
            for (int j = 0; j < s; j++)
                acc += a[i * s + j] * c->F[j * n + q];
            double g = c->Z[i * n + q] - h * acc;
            c->rhs[(size_t)i * n + q] = -g;
            *res = fmax(*res, fabs(g));
        }
    return 0;
}

/* J at the first stage's time and y (where Z = 0 starts: F there is c->F's first block) and
 * M = I - h A (x) J, factored. */
static int coupled_factor(const ivp *p, double t1, double h, const double *a, const double *y,
                          newton_state *ns, coupled_state *c, workspace *w)
{
    size_t n = c->n;
    int s = c->stages, rc = jacobian_dense(p, t1, y, c->F, c->J, ns, w);
    if (rc)
        return rc;
    w->counts.nfactor++;
    for (int i = 0; i < s; i++)
        for (int j = 0; j < s; j++)
            for (size_t q = 0; q < n; q++)
                for (size_t r = 0; r < n; r++)
                    *lu_at(&c->M, (size_t)i * n + q, (size_t)j * n + r) =
                        (i == j && q == r ? 1.0 : 0.0) - h * a[i * s + j] * c->J[q * n + r];
    lu_factor(&c->M);
    if (lu_singular(&c->M)) {
        snprintf(w->error, sizeof w->error,
                 "coupled Newton matrix I - h A (x) J is singular (h = %.3g s)", h);
        return -1;
    }
    c->factored_h = p->linear ? h : NAN;
    c->factored_p = p;
    c->factored_rhs = p->rhs;
    c->factored_params = p->params;
    return 0;
}

/* k_i = F(t + c_i h, Y_i) from the converged Z: (A^-1 Z)_i / h when A is invertible (no further
 * F evaluation, and exactly the step the stage equations define), else F evaluated at Y_i. */
static int coupled_slopes(const ivp *p, double t, double h, const double *cn, const double *y,
                          coupled_state *c, workspace *w)
{
    size_t n = c->n;
    int s = c->stages;
    for (int i = 0; i < s; i++) {
        if (!c->ainv_ok) {
            for (size_t q = 0; q < n; q++)
                c->Y[q] = y[q] + c->Z[i * n + q];
            int rc = ivp_eval(p, t + cn[i] * h, c->Y, w->k[i], w);
            if (rc)
                return rc;
            continue;
        }
        for (size_t q = 0; q < n; q++) {
            double acc = 0.0;
            for (int j = 0; j < s; j++)
                acc += c->Ainv[i * s + j] * c->Z[j * n + q];
            w->k[i][q] = acc / h;
        }
    }
    return 0;
}

int newton_coupled_stages(const ivp *p, double t, double h, int s, const double *a,
                          const double *cn, const double *y, workspace *w)
{
    newton_state *ns = state_for(w, p);
    coupled_state *c = coupled_for(ns, s, a, w);
    if (!c)
        return -1;
    size_t n = c->n, sn = (size_t)s * n;
    memset(c->Z, 0, sn * sizeof(double));      /* simplified Newton starts from Y_i = y */
    newton_report *r = &ns->report;
    r->iterations = 0;
    for (int it = 0; it < ns->max_iter; it++) {
        double res, step = 0.0;
        int rc = coupled_residual(p, t, h, a, cn, y, c, w, &res);
        if (rc)
            return rc;
        r->residual[it] = res;
        /* one factorization a step (J at its start), kept over steps for the same linear problem
         * and h */
        bool reuse = it > 0 || (p->linear && c->factored_h == h && c->factored_p == p &&
                                c->factored_rhs == p->rhs && c->factored_params == p->params);
        if (!reuse && (rc = coupled_factor(p, t + cn[0] * h, h, a, y, ns, c, w)))
            return rc;
        lu_solve(&c->M, c->rhs, c->dz);
        w->counts.nnewton++;
        double size = max_abs(y, n);
        for (size_t i = 0; i < sn; i++) {
            double d = c->dz[i];
            c->Z[i] += d;
            step = fmax(step, fabs(d));
            size = fmax(size, fabs(y[i % n] + c->Z[i]));
        }
        r->update[it] = step;
        r->iterations = it + 1;
        if (!isfinite(step))
            break;
        /* linear with its exact Jacobian: one iteration solves the linear system */
        if ((p->linear && p->jac) || step <= ns->rel_tol * (1.0 + size))
            return coupled_slopes(p, t, h, cn, y, c, w);
    }
    snprintf(w->error, sizeof w->error,
             "Newton on the %d coupled stages (%zu unknowns, Jacobian at the step's start) did not "
             "converge at t = %.9g s "
             "after %d iterations (residual %.3g, last update %.3g)",
             s, sn, t, r->iterations, r->residual[r->iterations > 0 ? r->iterations - 1 : 0],
             r->update[r->iterations > 0 ? r->iterations - 1 : 0]);
    return -1;
}
