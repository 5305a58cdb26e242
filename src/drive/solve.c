#include "drive/solve.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int emit(const solve_opts *o, long k, double t, const double *y)
{
    long every = o->every > 1 ? o->every : 1;
    if (!o->sink || (k % every != 0 && k != o->n))
        return 0;
    return o->sink(k, t, y, o->ctx);
}

long solve_steps_to(double T, double h, double *h_last)
{
    double q = T / h;
    long n = lround(q);
    if (fabs(q - (double)n) <= 1e-9 * fmax(1.0, q)) {
        *h_last = 0.0;
        return n > 0 ? n : 1;
    }
    n = (long)ceil(q);
    *h_last = T - (double)(n - 1) * h;
    return n;
}

/* The one loop: o->n steps of o->h, the last of h_last instead when h_last > 0. */
static solve_status run(const ivp *p, double *y, const solve_opts *o, double h_last, workspace *w,
                        solve_result *res)
{
    workspace *own = NULL;
    if (!w)
        w = own = workspace_alloc(p->dim);
    w->fsal_rhs = NULL;     /* a run starts with no F kept from another run (method/leapfrog.c) */
    memset(res, 0, sizeof *res);
    ivp_counts start = w->counts;
    double t_start = wall_seconds();
    res->t = o->t0;
    if (emit(o, 0, o->t0, y))
        res->status = SOLVE_STOPPED;
    for (long k = 0; k < o->n && res->status == SOLVE_OK; k++) {
        double t = o->t0 + (double)k * o->h;     /* t_k = t0 + k h: no drift from summing h */
        bool short_last = k + 1 == o->n && h_last > 0.0;
        double hk = short_last ? h_last : o->h;
        double t1 = short_last ? t + h_last : o->t0 + (double)(k + 1) * o->h;
        if (method_step(o->m, p, t, hk, y, w) != 0) {
            res->status = SOLVE_FAILED;
            snprintf(res->message, sizeof res->message, "%s failed in the step from t = %.6g s: %s",
                     o->m->name, t, w->error);
            break;
        }
        res->steps = k + 1;
        res->t = t1;
        double big = max_abs(y, p->dim);
        if (!isfinite(big) || (o->bound > 0 && big > o->bound)) {
            res->status = SOLVE_BLOWUP;
            if (!isfinite(big))
                snprintf(res->message, sizeof res->message,
                         "%s blew up at t = %.6g s (step %ld of h = %.3g s): the state is no "
                         "longer finite",
                         o->m->name, t1, k + 1, hk);
            else
                snprintf(res->message, sizeof res->message,
                         "%s blew up at t = %.6g s (step %ld of h = %.3g s): max |y| = %.3g "
                         "exceeds the bound %.3g",
                         o->m->name, t1, k + 1, hk, big, o->bound);
            break;
        }
        if (emit(o, k + 1, t1, y))
            res->status = SOLVE_STOPPED;
    }
    res->counts.nfev = w->counts.nfev - start.nfev;
    res->counts.njev = w->counts.njev - start.njev;
    res->counts.nnewton = w->counts.nnewton - start.nnewton;
    res->counts.nfactor = w->counts.nfactor - start.nfactor;
    res->seconds = wall_seconds() - t_start;
    workspace_free(own);
    return res->status;
}

solve_status solve_fixed(const ivp *p, double *y, const solve_opts *o, workspace *w,
                         solve_result *res)
{
    return run(p, y, o, 0.0, w, res);
}

solve_status solve_fixed_to(const ivp *p, double *y, const solve_opts *o, double T, workspace *w,
                            solve_result *res)
{
    solve_opts to = *o;
    double h_last;
    to.n = solve_steps_to(T, o->h, &h_last);
    return run(p, y, &to, h_last, w, res);
}
