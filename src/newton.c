#include "newton.h"
#include "util.h"
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct newton_state {
    size_t n;
    gsl_matrix *M;          /* I - a J, then its LU factors */
    gsl_permutation *perm;
    gsl_vector *rhs, *dx;
    double *J;              /* dF/dy, row-major */
    double *c;              /* copy of the constant part (c may alias y) */
    double *f, *f2, *xp;    /* F(x), F(x + perturbation), perturbed x */
    double factored_a;      /* a of the factors in M (linear problems), NAN if none */
    const ivp *factored_p;  /* ... and the problem they belong to */
    ivp_rhs_fn factored_rhs;
    void *factored_params;
    double rel_tol;         /* stop when |dx| <= rel_tol (1 + |x|) */
    int max_iter;
    newton_report report;
};

static newton_state *state_for(workspace *w)
{
    if (w->newton)
        return w->newton;
    size_t n = w->dim;
    newton_state *s = xcalloc(1, sizeof *s);
    s->n = n;
    s->M = gsl_matrix_alloc(n, n);
    s->perm = gsl_permutation_alloc(n);
    s->rhs = gsl_vector_alloc(n);
    s->dx = gsl_vector_alloc(n);
    if (!s->M || !s->perm || !s->rhs || !s->dx) {
        fprintf(stderr, "out of memory for a %zu x %zu Newton matrix\n", n, n);
        exit(1);
    }
    s->J = xcalloc(n * n, sizeof(double));
    s->c = xcalloc(n, sizeof(double));
    s->f = xcalloc(n, sizeof(double));
    s->f2 = xcalloc(n, sizeof(double));
    s->xp = xcalloc(n, sizeof(double));
    s->factored_a = NAN;
    s->rel_tol = 1e-12;
    s->max_iter = 30;
    w->newton = s;
    return s;
}

void newton_configure(workspace *w, double rel_tol, int max_iter)
{
    newton_state *s = state_for(w);
    s->rel_tol = rel_tol;
    s->max_iter = max_iter < NEWTON_MAX_HISTORY ? max_iter : NEWTON_MAX_HISTORY - 1;
}

const newton_report *newton_last(const workspace *w)
{
    return w->newton ? &w->newton->report : NULL;
}

void newton_free(newton_state *s)
{
    if (!s)
        return;
    gsl_matrix_free(s->M);
    gsl_permutation_free(s->perm);
    gsl_vector_free(s->rhs);
    gsl_vector_free(s->dx);
    free(s->J);
    free(s->c);
    free(s->f);
    free(s->f2);
    free(s->xp);
    free(s);
}

/* dF/dy at (t, x) into s->J; fx = F(t, x) is already known. */
static int jacobian(const ivp *p, double t, const double *x, const double *fx, newton_state *s, workspace *w)
{
    size_t n = s->n;
    w->counts.njev++;
    if (p->jac) {
        int rc = p->jac(t, x, s->J, p->params);
        if (rc)
            snprintf(w->error, sizeof w->error, "Jacobian could not be evaluated at t = %.9g s", t);
        return rc;
    }
    memcpy(s->xp, x, n * sizeof(double));
    /* Forward differences with a step of sqrt(eps) relative to the entry, or to the
     * state's size where the entry is near zero. */
    double floor_scale = fmax(1e-3 * max_abs(x, n), 1e-8);
    for (size_t j = 0; j < n; j++) {
        double d = 1.49e-8 * fmax(fabs(x[j]), floor_scale);
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

/* M = I - a J, LU-factored in place. */
static int factor(newton_state *s, double a, workspace *w)
{
    size_t n = s->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(s->M, i, j, (i == j ? 1.0 : 0.0) - a * s->J[i * n + j]);
    int sign;
    w->counts.nfactor++;
    gsl_linalg_LU_decomp(s->M, s->perm, &sign);
    for (size_t i = 0; i < n; i++)
        if (gsl_matrix_get(s->M, i, i) == 0.0) {
            snprintf(w->error, sizeof w->error, "Newton matrix I - a J is singular (a = %.3g)", a);
            return -1;
        }
    return 0;
}

int newton_implicit_step(const ivp *p, double t, double a, const double *c, double *y, workspace *w)
{
    newton_state *s = state_for(w);
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
        /* A linear G with its exact Jacobian is solved by one Newton step; with a
         * difference Jacobian the (reused) factors need a few more iterations. */
        if ((p->linear && p->jac) || step <= s->rel_tol * (1.0 + max_abs(y, n)))
            return 0;
    }
    snprintf(w->error, sizeof w->error,
             "Newton did not converge at t = %.9g s after %d iterations (residual %.3g, last update %.3g)",
             t, r->iterations, r->residual[r->iterations > 0 ? r->iterations - 1 : 0],
             r->update[r->iterations > 0 ? r->iterations - 1 : 0]);
    return -1;
}
