#include "drive/gsl_pairs.h"
#include "base/util.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const gsl_odeiv2_step_type *const *type;
} pairs[] = {
    {"rk2", &gsl_odeiv2_step_rk2},
    {"rkf45", &gsl_odeiv2_step_rkf45},
    {"rkck", &gsl_odeiv2_step_rkck},
    {"rk8pd", &gsl_odeiv2_step_rk8pd},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

const char *gsl_pair_names(void)
{
    return "rk2|rkf45|rkck|rk8pd";
}

const char *gsl_pair_choices(void)
{
    return "gsl-rk2|gsl-rkf45|gsl-rkck|gsl-rk8pd";
}

static const gsl_odeiv2_step_type *find(const char *name)
{
    for (size_t i = 0; i < NPAIRS; i++)
        if (strcmp(pairs[i].name, name) == 0)
            return *pairs[i].type;
    return NULL;
}

bool gsl_pair_known(const char *name)
{
    return find(name) != NULL;
}

typedef struct {
    const ivp *p;
    long nfev;
    int failed;             /* F could not be evaluated */
} fctx;

static int rhs(double t, const double y[], double f[], void *params)
{
    fctx *c = params;
    c->nfev++;
    if (c->p->rhs(t, y, f, c->p->params)) {
        c->failed = 1;
        return GSL_EBADFUNC;
    }
    return GSL_SUCCESS;
}

/* The sign of each root function at (t, y) into s (+1 or -1; 0 counts as its previous sign). */
static void signs(const cvode_opts *o, const ivp *p, double t, const double *y, double *g, int *s, const int *prev,
                  cvode_stats *st)
{
    o->roots(t, y, g, p->params);
    st->ngev++;
    for (int i = 0; i < o->nroots; i++)
        s[i] = g[i] > 0 ? 1 : g[i] < 0 ? -1 : (prev ? prev[i] : 1);
}

/* The outputs in (ta, tb] of a step from (ta, ya) to (tb, yb), by cubic Hermite interpolation on the
 * two states and their slopes (two F evaluations, only for a step that holds an output): GSL's
 * pairs give no dense output, and cutting every step at an output would hide how far they step. */
static int emit(const cvode_opts *o, const ivp *p, gsl_odeiv2_system *sys, double ta, const double *ya, double tb,
                const double *yb, size_t *next, long *k, long *since, double *fa, double *fb, double *yi)
{
    if (!(*next < o->nout && o->tout[*next] <= tb))
        return 0;
    size_t n = p->dim;
    double hh = tb - ta;
    if (sys->function(ta, ya, fa, sys->params) != GSL_SUCCESS || sys->function(tb, yb, fb, sys->params) != GSL_SUCCESS)
        return -1;
    for (; *next < o->nout && o->tout[*next] <= tb; (*next)++) {
        double th = hh > 0 ? (o->tout[*next] - ta) / hh : 1.0, t2 = th * th, t3 = t2 * th;
        double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + th, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
        for (size_t i = 0; i < n; i++)
            yi[i] = h00 * ya[i] + h10 * hh * fa[i] + h01 * yb[i] + h11 * hh * fb[i];
        if (o->sink && o->sink((*k)++, o->tout[*next], th >= 1.0 ? yb : yi, o->ctx))
            return -1;
        *since = 0;
    }
    return 0;
}

int gsl_pair_solve(const char *name, const ivp *p, double t0, double *y, double t1, const cvode_opts *o,
                   cvode_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    double wall0 = wall_seconds();
    const gsl_odeiv2_step_type *type = find(name);
    if (!type) {
        snprintf(err, errlen, "gsl-%s: no such pair; accepted: %s", name, gsl_pair_names());
        return -1;
    }
    size_t n = p->dim;
    fctx fc = {p, 0, 0};
    gsl_odeiv2_system sys = {rhs, NULL, n, &fc};
    gsl_odeiv2_step *s = gsl_odeiv2_step_alloc(type, n);
    gsl_odeiv2_control *c = gsl_odeiv2_control_y_new(o->atol, o->rtol);
    gsl_odeiv2_evolve *e = gsl_odeiv2_evolve_alloc(n);
    int nr = o->nroots > 0 && o->roots ? o->nroots : 0;
    double *y0 = xcalloc(n, sizeof(double)), *yt = xcalloc(n, sizeof(double)), *ye = xcalloc(n, sizeof(double));
    double *yerr = xcalloc(n, sizeof(double)), *f0 = xcalloc(n, sizeof(double)), *f1 = xcalloc(n, sizeof(double));
    double *g = xcalloc(nr ? (size_t)nr : 1, sizeof(double));
    int *sg = xcalloc(nr ? (size_t)nr : 1, sizeof(int)), *sn = xcalloc(nr ? (size_t)nr : 1, sizeof(int));
    int *dir = xcalloc(nr ? (size_t)nr : 1, sizeof(int));
    int status = -1;
    gsl_error_handler_t *old = gsl_set_error_handler_off();     /* report, do not abort */
    if (!s || !c || !e) {
        snprintf(err, errlen, "gsl-%s: could not allocate the stepper", name);
        goto done;
    }
    double t = t0, h = o->init_step > 0 ? o->init_step : 1e-6 * fmax(t1 - t0, 1e-300);
    size_t next = 0;
    long k_sample = 0, since_output = 0, max_steps = o->max_steps > 0 ? o->max_steps : 10000000L;
    while (next < o->nout && o->tout[next] <= t0) {     /* outputs at the start */
        if (o->sink && o->sink(k_sample++, o->tout[next], y, o->ctx))
            goto stopped;
        next++;
    }
    if (nr)
        signs(o, p, t, y, g, sg, NULL, st);
    while (t < t1) {
        if (o->max_step > 0 && h > o->max_step)
            h = o->max_step;
        double tp = t;
        memcpy(y0, y, n * sizeof(double));
        size_t failed0 = e->failed_steps;
        int rc = gsl_odeiv2_evolve_apply(e, c, s, &sys, &t, t1, &h, y);
        st->netf += (long)(e->failed_steps - failed0);
        if (rc != GSL_SUCCESS || fc.failed) {
            snprintf(err, errlen, "gsl-%s failed at t = %.9g s: %s", name, tp,
                     fc.failed ? "F could not be evaluated" : gsl_strerror(rc));
            goto done;
        }
        if (++since_output > max_steps) {
            snprintf(err, errlen, "gsl-%s failed at t = %.9g s: more than %ld steps before the next output (the "
                                  "problem may be stiff: an implicit solver takes far fewer); try a looser tolerance",
                     name, t, max_steps);
            goto done;
        }
        st->steps++;
        st->last_h = t - tp;
        if (nr) {
            signs(o, p, t, y, g, sn, sg, st);
            bool changed = false;
            for (int i = 0; i < nr; i++)
                changed = changed || sn[i] != sg[i];
            if (changed) {
                /* Bisect on re-taken steps from (tp, y0): the earliest time some sign has changed. */
                double lo = tp, hi = t;
                memcpy(ye, y, n * sizeof(double));
                for (int it = 0; it < 200 && hi - lo > 1e-13 * fmax(1.0, fabs(hi)); it++) {
                    double mid = 0.5 * (lo + hi);
                    memcpy(yt, y0, n * sizeof(double));
                    gsl_odeiv2_step_reset(s);
                    if (gsl_odeiv2_step_apply(s, tp, mid - tp, yt, yerr, NULL, NULL, &sys) != GSL_SUCCESS || fc.failed) {
                        snprintf(err, errlen, "gsl-%s failed at t = %.9g s locating an event: F could not be "
                                              "evaluated", name, mid);
                        goto done;
                    }
                    signs(o, p, mid, yt, g, sn, sg, st);
                    bool any = false;
                    for (int i = 0; i < nr; i++)
                        any = any || sn[i] != sg[i];
                    if (any) {
                        hi = mid;
                        memcpy(ye, yt, n * sizeof(double));
                    } else {
                        lo = mid;
                    }
                }
                /* Restart from just past the event. */
                t = hi;
                memcpy(y, ye, n * sizeof(double));
                signs(o, p, t, y, g, sn, sg, st);
                for (int i = 0; i < nr; i++) {
                    dir[i] = sn[i] != sg[i] ? sn[i] : 0;
                    sg[i] = sn[i];
                }
                st->last_h = t - tp;
                st->nevents++;
                gsl_odeiv2_step_reset(s);
                gsl_odeiv2_evolve_reset(e);
                if (emit(o, p, &sys, tp, y0, t, y, &next, &k_sample, &since_output, f0, f1, yt) != 0)
                    goto stopped;
                st->nfev = fc.nfev;
                if (o->on_event && o->on_event(t, y, dir, o->ctx))
                    goto stopped;
                continue;
            }
        }
        if (emit(o, p, &sys, tp, y0, t, y, &next, &k_sample, &since_output, f0, f1, yt) != 0)
            goto stopped;
        st->nfev = fc.nfev;
        if (o->on_step && o->on_step(t, st->last_h, y, o->ctx))
            goto stopped;
    }
    status = 0;
    goto done;
stopped:
    snprintf(err, errlen, "gsl-%s: stopped by a sink at t = %.9g s", name, t);
done:
    gsl_set_error_handler(old);
    st->nfev = fc.nfev;
    st->seconds = wall_seconds() - wall0;
    if (e)
        gsl_odeiv2_evolve_free(e);
    if (c)
        gsl_odeiv2_control_free(c);
    if (s)
        gsl_odeiv2_step_free(s);
    free(y0);
    free(yt);
    free(ye);
    free(yerr);
    free(f0);
    free(f1);
    free(g);
    free(sg);
    free(sn);
    free(dir);
    return status;
}
